import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_DIR, NO_SITE, SOURCES_DIR, tempDir, testEffects } from '../../test/support.ts';
import { sendFrom, startTestServer } from '../../test/http.ts';
import { runBuild } from '../build.ts';

/**
 * Issue 34, finding 4: editorial text that a spreadsheet would run as a formula is neutralised
 * (a ' in front, OWASP) in every CSV: the API's /v1/events?format=csv and the build's
 * bulk/events.csv, from a real build whose events include such text. Numbers stay numbers.
 */

const HOSTILE = [
  { id: '2026-11-01-formula-equals', title: '=HYPERLINK("https://evil.example","click")' },
  { id: '2026-11-02-formula-minus', title: '-2+3+cmd|" /C calc"!A0' },
  { id: '2026-11-03-formula-at', title: '@SUM(1+1)' },
];

let api: Awaited<ReturnType<typeof startTestServer>>;
let out: string;
beforeAll(async () => {
  const data = await tempDir('csv-injection-data');
  await cp(DATA_DIR, data, { recursive: true });
  const events = HOSTILE.map(
    (e) => `
- id: ${e.id}
  date: ${e.id.slice(0, 10)}
  category: policy
  title: { en: ${JSON.stringify(e.title)}, fr: ${JSON.stringify(e.title)}, de: ${JSON.stringify(e.title)}, es: ${JSON.stringify(e.title)} }
  summary:
    en: A summary long enough to read as one, about an event that is made up for this test.
    fr: Un résumé assez long pour se lire comme tel, sur un événement inventé pour ce test.
    de: Eine Zusammenfassung, lang genug, um als solche gelesen zu werden, zu einem erfundenen Ereignis.
    es: Un resumen lo bastante largo para leerse como tal, sobre un suceso inventado para esta prueba.
  commodities: [metals.nickel]
  countries: [IDN]
  source_url: https://example.org/source
  source_name: Example
  effect: tightening
  kind: one-off
`,
  ).join('');
  await writeFile(join(data, 'events/2026.yaml'), (await readFile(join(data, 'events/2026.yaml'), 'utf8')) + events);
  out = await tempDir('csv-injection-dist');
  await runBuild({ sourcesDir: SOURCES_DIR, dataDir: data, outDir: out, baseUrl: 'https://chokepoint.test', site: NO_SITE }, testEffects());
  api = await startTestServer({ DIST_DIR: out });
}, 600_000);
afterAll(() => api?.close());

const expected = (title: string) => `'${title}`;

describe('formula-like text in CSVs', () => {
  it('is written with a quote in front in /v1/events?format=csv, and the JSON keeps it as it is', async () => {
    // Every event: by default the API gives the 90 days before the newest, which here holds only the made-up ones.
    const csv = await sendFrom(api.port, 'GET', '/v1/events?format=csv&since=2000-01-01&limit=500');
    expect(csv.status).toBe(200);
    const rows = parse(csv.body, { columns: true }) as Record<string, string>[];
    for (const e of HOSTILE) {
      const row = rows.find((r) => r.id === e.id);
      expect(row?.title).toBe(expected(e.title));
    }
    // Untouched: text that starts otherwise.
    const others = rows.filter((r) => !HOSTILE.some((h) => h.id === r.id));
    expect(others.length).toBeGreaterThan(0);
    expect(others.filter((r) => r.title!.startsWith("'"))).toEqual([]);
    const json = JSON.parse((await sendFrom(api.port, 'GET', '/v1/events?limit=500')).body) as { data: { id: string; title: string }[] };
    expect(json.data.find((x) => x.id === HOSTILE[0]!.id)?.title).toBe(HOSTILE[0]!.title);
  });

  it('is written with a quote in front in bulk/events.csv; negative numbers in bulk/prices.csv stay numbers', async () => {
    const events = parse(await readFile(join(out, 'current/bulk/events.csv'), 'utf8'), { columns: true }) as Record<string, string>[];
    for (const e of HOSTILE) expect(events.find((r) => r.id === e.id)?.title).toBe(expected(e.title));
    const prices = await readFile(join(out, 'current/bulk/prices.csv'), 'utf8');
    // WTI settled below zero on 2020-04-20: written as a number, not as text.
    expect(prices).toContain('energy.wti,2020-04-20,-36.98,');
    expect(prices).not.toContain("'-");
  });
});
