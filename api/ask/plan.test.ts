import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type LoadedBuild, loadBuild } from '../build.ts';
import { answerQuestion } from '../queries/ask.ts';
import { startTestServer } from '../../test/http.ts';
import { findDate, findPeriod } from './dates.ts';
import { minusPeriod, readIntent } from './intent.ts';

describe('reading the operation of a question, in four languages', () => {
  const cases: [string, string, Record<string, unknown>?][] = [
    ["Is Germany's gas storage fuller than Italy's?", 'compare'],
    ['¿Cuál es más caro, el Brent o el WTI?', 'compare'],
    ['Vergleiche den Stressindex von Lithium und Kobalt.', 'compare'],
    ["Quel pays de l'UE a le stockage de gaz le plus rempli ?", 'rank', { order: 'max' }],
    ['Which EU country has the emptiest gas storage?', 'rank', { order: 'min' }],
    ['Top 5 producers of lithium', 'rank', { n: 5 }],
    ['Which EU countries have gas storage below 20 %?', 'threshold', { op: '<', value: 20 }],
    ['¿Qué materias primas tienen un índice de estrés por encima de 60?', 'threshold', { op: '>', value: 60 }],
    ['Welche EU-Länder haben Gasspeicher unter 30 Prozent?', 'threshold', { op: '<', value: 30 }],
    ['How did the Brent price change over the last month?', 'change', { months: 1 }],
    ['Wie hat sich der Kupferpreis im letzten Jahr entwickelt?', 'change', { months: 12 }],
    ['¿Cuánto ha cambiado el precio del WTI en los últimos 3 meses?', 'change', { months: 3 }],
    ["What drives cobalt's stress index?", 'explain'],
    ['Pourquoi l’indice de tension du GNL est-il si élevé ?', 'explain'],
    ['Quel pays européen a le stockage de gaz le plus bas ?', 'rank', { order: 'min' }],
    ['Quel pays européen a le stockage de gaz le plus faible ?', 'rank', { order: 'min' }],
    ['Quelle matière première a l’indice de tension le plus élevé ?', 'rank', { order: 'max' }],
    ['Which EU country has the lowest gas storage?', 'rank', { order: 'min' }],
    ['Welches EU-Land hat den niedrigsten Gasspeicherstand?', 'rank', { order: 'min' }],
    ['Welches Land hat den größten Gasspeicher?', 'rank', { order: 'max' }],
    ['¿Qué país europeo tiene el almacenamiento de gas más bajo?', 'rank', { order: 'min' }],
    ['¿Qué país europeo tiene el almacenamiento de gas más alto?', 'rank', { order: 'max' }],
    ['What is the price of gold?', 'lookup'],
    ['Stockage de gaz en 2026 : plus de 2026 TWh ?', 'lookup'],
  ];
  it.each(cases)('%s → %s', (q: string, kind: string, slots?: Record<string, unknown>) => {
    const intent = readIntent(q);
    expect(intent.op.kind).toBe(kind);
    if (slots) expect(intent.op).toMatchObject(slots);
  });
  it('reads dates relative to the day of the question and event categories', () => {
    expect(readIntent('What was the Brent price one year ago?').ago).toEqual({ months: 12, days: 0 });
    expect(readIntent('Quel était le prix de l’or il y a 3 mois ?').ago).toEqual({ months: 3, days: 0 });
    expect(readIntent('Wie war der Ölpreis vor einem Monat?').ago).toEqual({ months: 1, days: 0 });
    expect(readIntent('Recent sanctions events on oil?').categories).toEqual(['sanction']);
    expect(readIntent('Quels sont les derniers conflits ?').categories).toEqual(['conflict']);
    expect(minusPeriod('2026-03-31', { months: 1, days: 0 })).toBe('2026-02-28');
    expect(minusPeriod('2026-11-26', { months: 12, days: 0 })).toBe('2025-11-26');
  });
});

describe('dates and spans as a question names them, in four languages', () => {
  it.each([
    ['By how many points did EU gas storage change between 1 April and 1 November 2022?', 'en', '2022-04-01', '2022-11-01'],
    ['Copper, May 2025 to May 2026', 'en', '2025-05-01', '2026-05-31'],
    ['Évolution du stockage entre le 1er avril et le 1er novembre 2022', 'fr', '2022-04-01', '2022-11-01'],
    ['Le prix du cuivre de mai 2025 à mai 2026', 'fr', '2025-05-01', '2026-05-31'],
    ['Wie hat sich der Gasspeicher zwischen dem 1. Oktober 2023 und dem 1. März 2024 verändert?', 'de', '2023-10-01', '2024-03-01'],
    ['Kupferpreis von Januar bis Juni 2022', 'de', '2022-01-01', '2022-06-30'],
    ['¿Cómo cambió el almacenamiento entre el 1 de noviembre de 2024 y el 1 de marzo de 2025?', 'es', '2024-11-01', '2025-03-01'],
    ['Precio del cobre de mayo de 2025 a mayo de 2026', 'es', '2025-05-01', '2026-05-31'],
  ] as const)('%s → %s … %s', (q, lang, from, to) => {
    expect(findPeriod(q, lang)).toMatchObject({ from, to });
    expect(findDate(q, lang)?.date).toBe(to);
  });
  it('one date is not a span, and "May" alone is a word', () => {
    expect(findPeriod('Which EU country had the lowest gas storage on 1 March 2025?', 'en')).toBeNull();
    expect(findDate('Which EU country had the lowest gas storage on 1 March 2025?', 'en')?.date).toBe('2025-03-01');
    expect(findDate('How may I see the copper price in 2024?', 'en')).toMatchObject({ date: '2024-12-31', granularity: 'year' });
    expect(findPeriod('How may I see the copper price in 2024?', 'en')).toBeNull();
  });
});

describe('answers that compare, rank, filter, follow and explain', () => {
  let b: LoadedBuild;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  const now = () => b.generatedAt;
  beforeAll(async () => {
    b = await loadBuild((p) => readFile(join(inject('distDir'), 'current', p)));
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('compares two countries on the latest date both report, and names the newer reading', async () => {
    const a = await answerQuestion(b, "Is Germany's gas storage fuller than Italy's?", { now: now() });
    const de = b.reserves.get('gas/de')!.series.metrics.fill_pct!.points;
    const it = b.reserves.get('gas/it')!.series.metrics.fill_pct!.points;
    const common = [de.at(-1)!.date, it.at(-1)!.date].sort()[0]!;
    const urls = a.citations.map((c) => c.url);
    expect(urls).toContain(`/v1/reserves/timeseries?commodity=gas&country=de&from=${common}&to=${common}`);
    expect(urls).toContain(`/v1/reserves/timeseries?commodity=gas&country=it&from=${common}&to=${common}`);
    if (de.at(-1)!.date !== it.at(-1)!.date) expect(a.answer).toMatch(/Newer readings/);
    expect(a.answer).toMatch(/is higher, by [\d.]+ percentage points/);
  });

  it('answers in the language asked, with its number and date formats and no English unit', async () => {
    const de = await answerQuestion(b, 'Wie hoch ist die strategische Ölreserve der USA?', { now: now() });
    expect(de.answer).toContain('Tausend Barrel');
    expect(de.answer).not.toMatch(/thousand barrels/);
    const fr = await answerQuestion(b, 'Comment a évolué le stockage de gaz en Allemagne depuis mars 2026 ?', { now: now() });
    expect(fr.lang).toBe('fr');
    expect(fr.answer).toMatch(/1er mars 2026/);
    expect(fr.answer).toMatch(/points de pourcentage/);
  });

  it('declines a long question only when the data cannot answer it, not for its length', async () => {
    const q = `${'Our board asks about the winter and I want to be precise, so please read carefully. '.repeat(4)}How full is EU gas storage?`;
    expect(q.length).toBeGreaterThan(300);
    const a = await answerQuestion(b, q, { now: now() });
    expect(a.confidence).toBeGreaterThan(0);
    expect(a.citations.some((c) => c.id === 'gas/eu')).toBe(true);
  });

  it('one planner picks the figure for every operation: what a lookup reads is what a comparison compares', async () => {
    const ask = (q: string) => answerQuestion(b, q, { now: now() });
    // Two countries named without a figure: gas storage when both have it (the lookup reads it first) ...
    const deIt = await ask('Compare Germany and Italy');
    expect(deIt.citations.map((c) => c.id)).toEqual(expect.arrayContaining(['gas/de', 'gas/it']));
    expect(deIt.answer).toMatch(/percentage points/);
    const de = await ask('Germany');
    expect(de.citations.map((c) => c.id)).toEqual(['gas/de', 'DEU']);
    // ... else the stress index every one of them has.
    const deJp = await ask('Compare Germany and Japan');
    expect(deJp.citations.map((c) => c.id)).toEqual(['DEU', 'JPN']);
    expect(deJp.derived[0]).toMatchObject({ label: 'difference', unit: 'points' });
    // A commodity and countries named: the production share the lookup gives for each pair, compared.
    const cl = await ask('Compare copper in Chile and Peru');
    expect(cl.citations.map((c) => c.quote)).toEqual([expect.stringMatching(/^producers .*Chile/), expect.stringMatching(/^producers .*Peru/)]);
    // The "storage" of a metal is its reserves in the ground, for a change as for a lookup (not its price).
    const cu = await ask('How did copper storage change over the last year?');
    expect(cu.citations.map((c) => c.quote)).toEqual([expect.stringMatching(/^reserves_in_ground /)]);
    expect(cu.derived).toEqual([]);
    const rig = await ask('What are the copper reserves in the ground?');
    expect(rig.answer.match(/largest copper reserves/g)).toHaveLength(1);
    // A list asked for (events of a category) makes the question a lookup, whatever else it names.
    const ev = await ask('Quels sont les derniers conflits qui ont touché le pétrole ?');
    expect(ev.citations[0]).toMatchObject({ type: 'event', quote: expect.stringMatching(/category: conflict/) });
  });

  it('every citation of a planned answer is an API address that returns the figures it quotes', async () => {
    const questions = [
      "Is Germany's gas storage fuller than Italy's?",
      "Quel pays de l'UE a le stockage de gaz le plus rempli ?",
      'Which EU countries have gas storage below 20 %?',
      'How did the Brent price change over the last month?',
      'Comment a évolué le stockage de gaz en Allemagne depuis mars 2026 ?',
      'How has the US SPR changed over the past year?',
      "What drives cobalt's stress index?",
      'Warum hat Deutschland diesen Versorgungsstressindex?',
      'Which commodity has the highest supply stress right now?',
      'Recent sanctions events on oil?',
    ];
    for (const q of questions) {
      const a = await answerQuestion(b, q, { now: now() });
      expect(a.citations.length, q).toBeGreaterThan(0);
      for (const c of a.citations) {
        const res = await fetch(server.url + c.url);
        expect(res.status, `${q}: ${c.url}`).toBe(200);
        const body = await res.text();
        // The record's own figures (a derived change, gap or age after them is computed from these).
        const own = c.quote.split(/; (?:change|difference from \w+|series ends)\b/)[0]!;
        for (const figure of own.match(/\d{4}-\d{2}-\d{2}|-?\d+(?:\.\d+)?/g) ?? []) {
          if (/^\d{1,2}$/.test(figure)) continue; // ranks, counts, ids
          expect(body, `${q}: ${c.url} should hold ${figure} (${own})`).toContain(figure);
        }
      }
    }
  });
});
