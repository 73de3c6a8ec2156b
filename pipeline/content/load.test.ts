import { describe, expect, it } from 'vitest';
import { ContentError, loadContent, type Content } from './load.ts';
import { TEST_COUNTRIES, TEST_SLUGS, fixtureFigures, writeDataDir } from './fixtures.ts';

const NBSP = '\u00a0';

async function load(files: Record<string, string>): Promise<Content> {
  const dataDir = await writeDataDir(files);
  return loadContent({
    dataDir,
    commodities: new Set(TEST_SLUGS),
    countries: new Set(TEST_COUNTRIES),
    figures: fixtureFigures,
  });
}

/** The lines of the ContentError thrown for `files` (fails the test if nothing is thrown). */
async function problems(files: Record<string, string>): Promise<string[]> {
  try {
    await load(files);
  } catch (e) {
    if (e instanceof ContentError) return e.message.split('\n').slice(1);
    throw e;
  }
  throw new Error('expected a ContentError');
}

const I18N = '{en: English, fr: Français, de: Deutsch, es: Español}';

function event(id: string, date: string, extra: Record<string, string> = {}): string {
  const fields: Record<string, string> = {
    id,
    date,
    category: 'policy',
    title: I18N,
    summary: '{en: Two sentences. Of summary., fr: Deux phrases. De résumé., de: Zwei Sätze. Zusammenfassung., es: Dos frases. De resumen.}',
    commodities: '[metals.cobalt]',
    countries: '[COD]',
    source_url: 'https://example.org/report',
    source_name: 'Example',
    effect: 'tightening',
    kind: 'one-off',
    ...extra,
  };
  return Object.entries(fields)
    .map(([k, v], i) => `${i === 0 ? '- ' : '  '}${k}: ${v}`)
    .join('\n');
}

function scenario(id: string, status: string, history: string[]): string {
  return [
    `id: ${id}`,
    `title: ${I18N}`,
    `summary: ${I18N}`,
    'commodities: [energy.oil]',
    'countries: [IRN]',
    'probability: 0.5',
    'severity: 5',
    `status: ${status}`,
    'status_history:',
    ...history.map((h) => `  - ${h}`),
    '',
  ].join('\n');
}

function briefing(lang: string, key: string, publishedAt: string, body: string): string {
  return [
    '---',
    `id: ${key}-${lang}`,
    `lang: ${lang}`,
    `translation_key: ${key}`,
    'title: A briefing',
    'summary: "Brent at {{price energy.oil 2026-08-18}}."',
    `published_at: ${publishedAt}`,
    'commodities: [energy.oil]',
    'countries: [SAU]',
    '---',
    body,
    '',
  ].join('\n');
}

describe('loadContent — valid content', () => {
  it('loads, canonicalises codes, resolves figures and sorts', async () => {
    const content = await load({
      'events/2025.yaml': [
        event('2025-02-22-cobalt-halt', '2025-02-22', { commodities: '[Metals.Cobalt]', countries: '[cod, chn]' }),
        event('2025-10-16-cobalt-quotas', '2025-10-16', { category: 'sanction' }),
      ].join('\n\n'),
      'events/2024.yaml': event('2024-12-03-ban', '2024-12-03'),
      'scenarios/b-scenario.yaml': scenario('b-scenario', 'active', [
        '{status: monitoring, date: 2024-01-15, note: opened}',
        '{status: elevated, date: 2025-06-13, note: war}',
        '{status: active, date: 2026-02-28, note: closed}',
      ]),
      'scenarios/a-scenario.yaml': scenario('a-scenario', 'monitoring', ['{status: monitoring, date: 2024-01-15, note: opened}']),
      'briefings/en/old.md': briefing('en', 'old', '2026-08-18', 'Old body {{price energy.oil 2026-08-18}}.'),
      'briefings/en/new.md': briefing('en', 'new', '2026-08-19', 'New body.'),
      'briefings/fr/new.md': briefing('fr', 'new', '2026-08-19', 'Nouveau {{price energy.oil 2026-08-18}}.'),
    });
    expect(content.events.map((e) => e.id)).toEqual(['2025-10-16-cobalt-quotas', '2025-02-22-cobalt-halt', '2024-12-03-ban']);
    const halt = content.events[1];
    expect(halt?.commodities).toEqual(['metals.cobalt']);
    expect(halt?.countries).toEqual(['COD', 'CHN']);
    expect(halt?.title).toBe('English');
    expect(halt?.translations.es).toEqual({ title: 'Español', summary: 'Dos frases. De resumen.' });
    expect(content.scenarios.map((s) => s.id)).toEqual(['a-scenario', 'b-scenario']);
    const b = content.scenarios[1];
    expect(b?.title).toBe('English');
    expect(b?.translations.de).toEqual({ title: 'Deutsch', summary: 'Deutsch' });
    expect(b?.updated_at).toBe('2026-02-28');
    expect(content.briefings.map((x) => x.id)).toEqual(['new-en', 'new-fr', 'old-en']);
    const old = content.briefings[2];
    expect(old?.body).toBe('Old body US$67.43/bbl.');
    expect(old?.summary).toBe('Brent at US$67.43/bbl.');
    expect(content.briefings[1]?.body).toBe(`Nouveau 67,43${NBSP}US$/bbl.`);
  });

  it('accepts an empty data folder', async () => {
    expect(await load({})).toEqual({ events: [], scenarios: [], briefings: [], skipped: [] });
  });
});

describe('loadContent — friendly errors', () => {
  it('names file, line and field for a bad category', async () => {
    expect(
      await problems({
        'events/2023.yaml': [event('2023-01-01-a', '2023-01-01'), event('2023-10-09-b', '2023-10-09', { category: 'war' })].join('\n'),
      }),
    ).toEqual(["data/events/2023.yaml:14 category: 'war' is not one of conflict, sanction, catastrophe, policy, infrastructure"]);
  });

  it('suggests the nearest slug for an unknown commodity', async () => {
    expect(
      await problems({
        'events/2022.yaml': [
          event('2022-01-01-a', '2022-01-01'),
          '',
          event('2022-02-01-b', '2022-02-01', { commodities: '\n    - metals.copper\n    - metals.cobalts' }),
        ].join('\n'),
      }),
    ).toEqual(["data/events/2022.yaml:20 commodities[1]: unknown commodity 'metals.cobalts' (did you mean metals.cobalt?)"]);
  });

  it('rejects unknown countries and pseudo-codes', async () => {
    expect(await problems({ 'events/2024.yaml': event('2024-01-01-a', '2024-01-01', { countries: '[XYZ, EU, cdo]' }) })).toEqual([
      "data/events/2024.yaml:7 countries[0]: unknown country 'XYZ' (expected an ISO 3166-1 alpha-3 code)",
      "data/events/2024.yaml:7 countries[1]: unknown country 'EU' (expected an ISO 3166-1 alpha-3 code; for an EU-wide matter list the member states most concerned)",
      "data/events/2024.yaml:7 countries[2]: unknown country 'cdo' (expected an ISO 3166-1 alpha-3 code) (did you mean COD?)",
    ]);
  });

  it('points at the line of an impossible transition', async () => {
    const text = [
      '# Strait of Hormuz',
      '# (fixture)',
      scenario('hormuz', 'elevated', [
        '{status: active, date: 2026-02-28, note: strait closed}',
        '{status: resolved, date: 2026-06-30, note: reopened}',
        '{status: elevated, date: 2026-07-15, note: tension again}',
      ]),
    ].join('\n');
    expect(text.split('\n')[13]).toContain('elevated');
    expect(await problems({ 'scenarios/hormuz.yaml': text })).toEqual([
      "data/scenarios/hormuz.yaml:14 status_history[2]: 'resolved' → 'elevated' is not allowed (from resolved: none, it is terminal)",
    ]);
  });

  it('lists the allowed next statuses of a non-terminal status', async () => {
    const text = scenario('x', 'resolved', ['{status: monitoring, date: 2024-01-15, note: opened}', '{status: resolved, date: 2024-02-01, note: over}']);
    expect(await problems({ 'scenarios/x.yaml': text })).toEqual([
      "data/scenarios/x.yaml:11 status_history[1]: 'monitoring' → 'resolved' is not allowed (from monitoring: elevated, active, dismissed)",
    ]);
  });

  it('requires the history to end in the current status', async () => {
    const text = scenario('y', 'active', ['{status: monitoring, date: 2024-01-15, note: opened}', '{status: elevated, date: 2025-06-13, note: war}']);
    expect(await problems({ 'scenarios/y.yaml': text })).toEqual([
      "data/scenarios/y.yaml:8 status: 'active' does not match the last status_history entry ('elevated', status_history[1]); add the change to the history",
    ]);
  });

  it('rejects a history out of date order, a terminal start and an unknown status', async () => {
    const text = scenario('z', 'resolved', ['{status: resolved, date: 2024-01-15, note: odd}']);
    const unknown = scenario('w', 'monitoring', ['{status: watching, date: 2024-01-15, note: opened}']);
    const order = scenario('v', 'elevated', ['{status: monitoring, date: 2024-01-15, note: opened}', '{status: elevated, date: 2023-06-13, note: war}']);
    expect(await problems({ 'scenarios/z.yaml': text, 'scenarios/w.yaml': unknown, 'scenarios/v.yaml': order })).toEqual([
      "data/scenarios/v.yaml:11 status_history[1].date: 2023-06-13 is before the previous entry's date 2024-01-15; keep the history in date order",
      "data/scenarios/w.yaml:10 status_history[0].status: 'watching' is not one of monitoring, elevated, active, resolved, dismissed",
      "data/scenarios/z.yaml:10 status_history[0]: a scenario cannot start as 'resolved' (a terminal status); start with monitoring, elevated or active",
    ]);
  });

  it('refuses an end date on a one-off event and an end before the start', async () => {
    expect(
      await problems({
        'events/2021.yaml': [
          event('2021-03-23-ever-given', '2021-03-23', { ended_on: '2021-03-29' }),
          event('2021-05-07-colonial', '2021-05-07', { kind: 'lasting', ended_on: '2021-05-01' }),
          event('2021-05-08-fine', '2021-05-08', { effect: 'easing', kind: 'lasting', ended_on: '2021-05-08' }),
        ].join('\n'),
      }),
    ).toEqual([
      "data/events/2021.yaml:12 ended_on: is only for lasting events, and this one is 'one-off'; set kind: lasting or remove ended_on",
      "data/events/2021.yaml:24 ended_on: 2021-05-01 is before the event's date 2021-05-07",
    ]);
  });

  it('names the allowed values of effect and kind', async () => {
    expect(await problems({ 'events/2021.yaml': event('2021-03-23-a', '2021-03-23', { effect: 'tighter', kind: 'permanent' }) })).toEqual([
      "data/events/2021.yaml:10 effect: 'tighter' is not one of tightening, easing",
      "data/events/2021.yaml:11 kind: 'permanent' is not one of one-off, lasting",
    ]);
  });

  it('reports duplicate ids with the first occurrence', async () => {
    expect(
      await problems({
        'events/2021.yaml': event('2021-05-07-colonial', '2021-05-07'),
        'events/extra.yaml': event('2021-05-07-colonial', '2021-05-07'),
      }),
    ).toEqual(["data/events/extra.yaml:1 id: duplicate event id '2021-05-07-colonial' (first at data/events/2021.yaml:1)"]);
  });

  it('reports malformed directives and empty lookups at their line in the Markdown file', async () => {
    const body = ['## Heading', '', 'Brent {{price energy.oil}} and', 'gallium {{price metals.gallium 2026-05-01}}.'].join('\n');
    expect(await problems({ 'briefings/en/b.md': briefing('en', 'b', '2026-08-19', body) })).toEqual([
      'data/briefings/en/b.md:13 body: {{price energy.oil}}: expected {{price <slug> <YYYY-MM-DD>}}, got 1 argument',
      'data/briefings/en/b.md:14 body: {{price metals.gallium 2026-05-01}}: no price for metals.gallium on or before 2026-05-01',
    ]);
  });

  it('refuses figures dated after publication, in the summary as well', async () => {
    expect(await problems({ 'briefings/en/c.md': briefing('en', 'c', '2026-08-01', 'Body.') })).toEqual([
      "data/briefings/en/c.md:6 summary: {{price energy.oil 2026-08-18}}: date 2026-08-18 is after the briefing's published_at 2026-08-01",
    ]);
  });

  it('checks front matter, language folders and translation keys', async () => {
    const noFront = 'Just text';
    const wrongFolder = briefing('fr', 'd', '2026-08-19', 'Corps.');
    expect(
      await problems({
        'briefings/en/a.md': noFront,
        'briefings/en/d.md': wrongFolder,
        'briefings/it/e.md': briefing('en', 'e', '2026-08-19', 'Body.'),
      }),
    ).toEqual([
      "data/briefings/en/a.md:1 expected YAML front matter between a first line '---' and a closing '---'",
      "data/briefings/en/d.md:3 lang: 'fr' but the file is in the 'en' folder",
      "data/briefings/it unknown language folder 'it' (expected one of en, fr, de, es)",
    ]);
  });

  it('refuses figure directives in a title', async () => {
    const text = briefing('en', 't', '2026-08-19', 'Body.').replace('title: A briefing', 'title: "Brent at {{price energy.oil 2026-08-18}}"');
    expect(await problems({ 'briefings/en/t.md': text })).toEqual([
      'data/briefings/en/t.md:5 title: figure directives are not allowed in the title; quote figures in the summary or body',
    ]);
  });

  it('refuses an event without its title or summary in every language', async () => {
    const text = event('2023-01-01-a', '2023-01-01', { title: '{en: English, fr: Français, es: Español}', summary: 'Only English.' });
    expect(await problems({ 'events/2023.yaml': text })).toEqual([
      'data/events/2023.yaml:4 title.de: is required',
      "data/events/2023.yaml:5 summary: expected a mapping of fields, got text 'Only English.'",
    ]);
  });

  it('suggests the right name for a misspelt field and reports missing ones', async () => {
    const text = event('2023-01-01-a', '2023-01-01').replace('category: policy', 'catgory: policy');
    expect(await problems({ 'events/2023.yaml': text })).toEqual([
      'data/events/2023.yaml:1 category: is required',
      'data/events/2023.yaml:3 catgory: unknown field (did you mean category?)',
    ]);
  });

  it('checks ids, dates, URLs and numbers', async () => {
    const e = event('2023-01-01-a', '2023-02-30', { source_url: 'http://example.org/x' });
    const s = scenario('q', 'monitoring', ['{status: monitoring, date: 2024-01-15, note: opened}'])
      .replace('probability: 0.5', 'probability: 1.5')
      .replace('severity: 5', 'severity: 2.5');
    expect(await problems({ 'events/2023.yaml': e, 'scenarios/other-name.yaml': s, 'events/2024.yaml': event('Bad_ID', '2024-01-01') })).toEqual([
      "data/events/2023.yaml:2 date: '2023-02-30' is not a valid date (expected YYYY-MM-DD)",
      "data/events/2023.yaml:8 source_url: 'http://example.org/x' is not an https:// address",
      "data/events/2024.yaml:1 id: 'Bad_ID' is not kebab-case (lower-case letters, digits and single dashes)",
      'data/scenarios/other-name.yaml:6 probability: 1.5 is above the maximum 1',
      'data/scenarios/other-name.yaml:7 severity: expected a whole number, got number 2.5',
    ]);
  });

  it('checks that an event id starts with its date and sits in the file of its year', async () => {
    expect(await problems({ 'events/2023.yaml': event('2024-01-01-moved', '2024-01-01') })).toEqual([
      'data/events/2023.yaml:2 date: 2024-01-01 is not in 2023; move the event to 2024.yaml',
    ]);
    expect(await problems({ 'events/misc.yaml': event('tamar-shut', '2023-10-09') })).toEqual([
      "data/events/misc.yaml:1 id: 'tamar-shut' must start with the event's date, e.g. '2023-10-09-tamar-shut'",
    ]);
  });

  it('reports YAML syntax errors with their line', async () => {
    const lines = await problems({ 'events/2023.yaml': '- id: a\n  title: "unclosed\n' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^data\/events\/2023\.yaml:\d+ YAML: /);
  });

  it('collects every problem of every file into one error', async () => {
    try {
      await load({
        'events/2023.yaml': event('2023-10-09-b', '2023-10-09', { category: 'war', commodities: '[metals.cobalts]' }),
        'scenarios/y.yaml': scenario('y', 'active', ['{status: monitoring, date: 2024-01-15, note: opened}']),
      });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ContentError);
      const err = e as ContentError;
      expect(err.message.split('\n')[0]).toBe('3 problems in the editorial content:');
      expect(err.problems.map((p) => [p.file, p.line, p.path])).toEqual([
        ['data/events/2023.yaml', 3, 'category'],
        ['data/events/2023.yaml', 6, 'commodities[0]'],
        ['data/scenarios/y.yaml', 8, 'status'],
      ]);
    }
  });
});
