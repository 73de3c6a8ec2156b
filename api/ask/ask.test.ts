import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { type LoadedBuild, loadBuild } from '../build.ts';
import { findDate } from './dates.ts';
import { groundedAnswer, onOrBefore } from './grounded.ts';
import { languageScores, pickLanguage } from './lang.ts';
import { lexiconFor } from './lexicon.ts';
import { checkReply } from './llm.ts';
import { numUpTo } from '../../lib/format.ts';
import { numberReadings, sameFigure } from './numbers.ts';
import { recognise } from './recognise.ts';
import { tokenize } from './text.ts';

const NOW = new Date('2026-11-22T00:00:00Z');
let b: LoadedBuild;
beforeAll(async () => {
  b = await loadBuild((p) => readFile(join(inject('distDir'), 'current', p)));
});
const json = (path: string) => JSON.parse(new TextDecoder().decode(b.files.get(path)!.body)).data;

describe('language detection', () => {
  const lang = (q: string) => pickLanguage(languageScores(q, tokenize(q)));
  it.each([
    ['How full is the gas storage in Germany?', 'en'],
    ["What's the latest price of copper?", 'en'],
    ['Quel est le prix du cuivre ?', 'fr'],
    ["Où en est le stockage de gaz de l'UE ?", 'fr'],
    ['Wie hoch ist der Preis für Kupfer?', 'de'],
    ['Welche Szenarien sind aktiv?', 'de'],
    ['¿Cuál es el precio del cobre?', 'es'],
    ['Qué escenarios están activos', 'es'],
  ])('%s → %s', (q, expected) => expect(lang(q)).toBe(expected));

  it('takes entity names into account when function words are scarce', () => {
    const lex = lexiconFor(b);
    expect(recognise(lex, 'Gasspeicher Deutschland').lang).toBe('de');
    expect(recognise(lex, 'Kobalt Produktion').lang).toBe('de');
    expect(recognise(lex, 'cobalto producción').lang).toBe('es');
    expect(recognise(lex, 'Allemagne stockage gaz').lang).toBe('fr');
  });
});

describe('dates in four languages', () => {
  it.each([
    ['on 1 March 2026', 'en', '2026-03-01', 'day'],
    ['on March 1, 2026', 'en', '2026-03-01', 'day'],
    ['on 2026-03-01', 'en', '2026-03-01', 'day'],
    ['on 3/1/2026', 'en', '2026-03-01', 'day'],
    ['le 1er mars 2026', 'fr', '2026-03-01', 'day'],
    ['le 15 février 2025', 'fr', '2025-02-15', 'day'],
    ['le 1/3/2026', 'fr', '2026-03-01', 'day'],
    ['am 1. März 2026', 'de', '2026-03-01', 'day'],
    ['am 01.03.2026', 'de', '2026-03-01', 'day'],
    ['el 1 de marzo de 2026', 'es', '2026-03-01', 'day'],
    ['in March 2026', 'en', '2026-03-31', 'month'],
    ['en février 2024', 'fr', '2024-02-29', 'month'],
    ['im Dezember 2025', 'de', '2025-12-31', 'month'],
    ['en marzo de 2026', 'es', '2026-03-31', 'month'],
    ['at the end of 2024', 'en', '2024-12-31', 'year'],
  ] as const)('%s (%s)', (text, lang, date, granularity) => {
    const d = findDate(text, lang);
    expect(d?.date).toBe(date);
    expect(d?.granularity).toBe(granularity);
  });
  it('refuses impossible dates and finds none where there is none', () => {
    expect(findDate('on 2026-02-30', 'en')).toBeNull();
    expect(findDate('How full is the storage?', 'en')).toBeNull();
    expect(findDate('May I ask about gas?', 'en')).toBeNull();
  });
});

describe('recognition', () => {
  const rec = (q: string) => recognise(lexiconFor(b), q);
  it('knows commodity names and aliases in four languages', () => {
    expect(rec('price of cobalt').commodities).toEqual(['metals.cobalt']);
    expect(rec('Preis von Kobalt').commodities).toEqual(['metals.cobalt']);
    expect(rec('precio del cobalto').commodities).toEqual(['metals.cobalt']);
    expect(rec('les terres rares').commodities).toEqual(['metals.rareearths']);
    expect(rec('bei Seltenen Erden').commodities).toEqual(['metals.rareearths']);
    expect(rec('von Importen Seltener Erden').commodities).toEqual(['metals.rareearths']);
    expect(rec('tierras raras').commodities).toEqual(['metals.rareearths']);
    expect(rec('the Brent price').commodities).toEqual(['energy.oil']);
    expect(rec('le pétrole brut').commodities).toEqual(['energy.oil']);
    expect(rec('the Henry Hub price').commodities).toEqual(['energy.usgas']);
    expect(rec('US crude').commodities).toEqual(['energy.wti']);
  });
  it('splits German compounds', () => {
    expect(rec('Wie hoch ist der Ölpreis?').commodities).toEqual(['energy.oil']);
    expect(rec('der Goldpreis').commodities).toEqual(['metals.gold']);
    expect(rec('Wer ist der größte Kobaltproduzent?').commodities).toEqual(['metals.cobalt']);
  });
  it('accepts common-word aliases only in context', () => {
    expect(rec("Quel est le prix de l'or ?").commodities).toEqual(['metals.gold']);
    expect(rec('gas or oil').commodities).toEqual(['energy.gas', 'energy.oil']);
    expect(rec('Mais quel est le prix du cuivre ?').commodities).toEqual(['metals.copper']);
    expect(rec('Wie hoch ist der Preis für Mais?').commodities).toEqual(['agri.maize']);
  });
  it('knows country names in four languages, demonyms and ISO codes written in capitals', () => {
    const iso = (q: string) => rec(q).countries.map((c) => c.iso3 ?? c.iso2);
    expect(iso('gas storage in Germany')).toEqual(['DEU']);
    expect(iso("Germany's storage")).toEqual(['DEU']);
    expect(iso("le stockage de l'Allemagne")).toEqual(['DEU']);
    expect(iso('Gasspeicher Deutschlands')).toEqual(['DEU']);
    expect(iso('almacenamiento en Alemania')).toEqual(['DEU']);
    expect(iso('German gas storage')).toEqual(['DEU']);
    expect(iso('gas storage DE')).toEqual(['DEU']);
    expect(iso('profile of DEU')).toEqual(['DEU']);
    expect(iso('gas storage de la France')).toEqual(['FRA']);
    expect(iso('the US SPR')).toEqual(['USA']);
    expect(iso('let us know')).toEqual([]);
    expect(iso("stocks de l'UE")).toEqual(['eu']);
    expect(iso('EU gas storage')).toEqual(['eu']);
    expect(iso('Y a-t-il eu des événements ?')).toEqual([]);
    expect(iso('cobalt in the DRC')).toEqual(['COD']);
  });
  it('recognises metrics, statuses, the SPR and out-of-scope questions', () => {
    expect([...rec('How full is the storage?').metrics]).toContain('storage');
    expect([...rec('Wie voll sind die Gasspeicher?').metrics]).toContain('storage');
    expect([...rec('¿Cuál es el precio?').metrics]).toEqual(['price']);
    expect([...rec("Quelle est l'autosuffisance ?").metrics]).toContain('autonomy');
    expect([...rec('Welche Szenarien sind aktiv?').statuses]).toEqual(['active']);
    expect(rec('How much is in the SPR?').spr).toBe(true);
    expect(rec('What is the GDP of France?').outOfScope).toBe(true);
  });
});

describe('numbers', () => {
  it('formats per language', () => {
    expect(numUpTo(1234.5, 2, 'en')).toBe('1,234.5');
    expect(numUpTo(1234.5, 2, 'de')).toBe('1.234,5');
    expect(numUpTo(50.25, 2, 'fr')).toBe('50,25');
  });
  it('reads figures however they are written and matches them to record values', () => {
    const values = (s: string) => numberReadings(s).map((r) => r.map((x) => x.value).sort((a, z) => a - z));
    expect(values('50,25 %')).toEqual([[50.25]]);
    expect(values('1,234')).toEqual([[1.234, 1234]]);
    expect(values('1 130,21 TWh')).toEqual([[1130.21]]);
    expect(values('415.441 barrels')).toEqual([[415.441, 415441]]);
    expect(sameFigure(74.2, 1, 0.7419354838709677)).toBe(true);
    expect(sameFigure(50.3, 1, 50.25)).toBe(true);
    expect(sameFigure(51, 0, 50.25)).toBe(false);
  });
  it('finds the observation on or before a date', () => {
    const pts = [{ date: '2026-01-01' }, { date: '2026-01-08' }, { date: '2026-01-15' }];
    expect(onOrBefore(pts, '2026-01-10')?.date).toBe('2026-01-08');
    expect(onOrBefore(pts, '2025-12-31')).toBeNull();
    expect(onOrBefore(pts, '2027-01-01')?.date).toBe('2026-01-15');
  });
});

describe('composition', () => {
  const answer = async (q: string) => (await groundedAnswer(b, q, NOW)).answer;
  it('answers in the language asked, with the figure formatted for it and cited', async () => {
    const fill = json('v1/reserves/gas/de.json').fill_pct as number;
    const cases = [
      ["How full is Germany's gas storage?", 'en', numUpTo(fill, 2, 'en')],
      ["Quel est le taux de remplissage du stockage de gaz de l'Allemagne ?", 'fr', numUpTo(fill, 2, 'fr')],
      ['Wie voll sind die Gasspeicher in Deutschland?', 'de', numUpTo(fill, 2, 'de')],
      ['¿Qué nivel tiene el almacenamiento de gas en Alemania?', 'es', numUpTo(fill, 2, 'es')],
    ] as const;
    for (const [q, lang, shown] of cases) {
      const a = await answer(q);
      expect(a.lang).toBe(lang);
      expect(a.answer).toContain(shown);
      expect(a.mode).toBe('grounded');
      expect(a.citations[0]).toMatchObject({ id: 'gas/de', type: 'reserve', url: '/v1/reserves?commodity=gas&country=de' });
      expect(a.citations[0]!.quote).toContain(`fill_pct: ${fill}`);
      expect(a.confidence).toBeGreaterThan(0.5);
    }
  });
  it('uses the observation on or before a date named in the question', async () => {
    const points = json('data/reserves/gas/de.json').metrics.fill_pct.points as { date: string; value: number }[];
    const pt = onOrBefore(points, '2026-03-01')!;
    const a = await answer('Wie voll waren die Gasspeicher in Deutschland am 1. März 2026?');
    expect(a.answer).toContain(numUpTo(pt.value, 2, 'de'));
    expect(a.citations[0]!.url).toBe(`/v1/reserves/timeseries?commodity=gas&country=de&from=${pt.date}&to=${pt.date}`);
  });
  it('reports a target date already past as passed, counted from the day asked, not from the data (issue 12)', async () => {
    const q = 'How full is the EU gas storage?';
    const after = (await groundedAnswer(b, q, NOW)).answer;
    expect(after.answer).toMatch(/The deadline to reach 90 % \(1 November 2026\) has passed; the reading above is the newest in the data\./);
    expect(after.answer).not.toMatch(/The target is/);
    // The quote holds what the record holds; "passed" compares the target date with the day asked.
    expect(after.citations[0]!.quote).toMatch(/target: fill_pct 90, date 2026-11-01$/);
    const before = (await groundedAnswer(b, q, new Date('2026-10-01T00:00:00Z'))).answer;
    expect(before.answer).toMatch(/The target is 90 % by 1 November 2026\./);
  });
  it('says plainly when the data cannot answer, with no citation and confidence 0', async () => {
    for (const [q, phrase] of [
      ['What is the population of Germany?', 'cannot answer'],
      ['Quel est le niveau de stockage de gaz au Japon ?', 'ne permettent pas de répondre'],
      ['Wer hat die Fußball-Weltmeisterschaft 2014 gewonnen?', 'nicht beantworten'],
      ['¿Cuál será el precio del cobre en 2030?', 'no permiten responder'],
    ]) {
      const a = await answer(q!);
      expect(a.answer).toContain(phrase);
      expect(a.citations).toEqual([]);
      expect(a.confidence).toBe(0);
    }
  });
  it('declines a commodity it does not cover by name, in the language asked, suggesting only names spelled close to it', async () => {
    for (const [q, said] of [
      ['What is the price of coffee?', 'Chokepoint does not cover “coffee”.'],
      ['What is the stress index for coffee?', 'Chokepoint does not cover “coffee”.'],
      ['Quel est le prix du café ?', 'Chokepoint ne couvre pas « café ».'],
      ['Wie hoch ist der Kaffeepreis?', 'Chokepoint deckt „Kaffee“ nicht ab.'],
      ['¿Cuál es el precio del café?', 'Chokepoint no cubre «café».'],
      ['What is the price of coper?', 'Chokepoint does not cover “coper”; the nearest it covers: Copper.'],
    ]) {
      const a = await answer(q!);
      expect(a.answer, q).toContain(said);
      expect(a.citations).toEqual([]);
    }
    // A covered commodity or a figure of a country is answered as before.
    expect((await answer('What is the price of copper?')).citations.length).toBeGreaterThan(0);
    expect((await answer('Warum hat Deutschland diesen Versorgungsstressindex?')).citations.length).toBeGreaterThan(0);
  });
  it('never states a figure that is not in a cited record', async () => {
    const qs = [
      'Who is the largest producer of cobalt?',
      'How self-sufficient is Germany in gas?',
      'Welche Szenarien sind aktiv?',
      'cobalt',
      'Tell me about France',
      'What is the price of gold in March 2026?',
      'How much crude is in the SPR?',
    ];
    for (const q of qs) {
      const g = await groundedAnswer(b, q, NOW);
      const res = checkReply(
        JSON.stringify({
          answer: g.answer.answer,
          citations: g.answer.citations.map((c) => g.context.findIndex((f) => f.id === c.id && f.quote === c.quote) + 1),
        }),
        g.context,
        q,
      );
      expect(typeof res === 'string' ? res : '', q).toBe('');
    }
  });
});
