import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Db } from '../db.ts';
import { eiaOilPricesSource as adapter } from './eia-oil-prices.ts';
import { SourceError } from './types.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const mirror = join(process.env.SOURCES_DIR ?? resolve(repoRoot, '../shared/sources'), adapter.id);

const FIXTURE: Record<string, string> = {
  'brent-daily.csv': 'Date,Price\n2026-08-17,92.43\n2026-08-18,95.29\n',
  'brent-weekly.csv': 'Date,Price\n2026-08-14,92.51\n',
  'brent-monthly.csv': 'Date,Price\n2026-06-15,85.4\n2026-07-15,83.76\n',
  // Blank price (not reported) and the real negative print.
  'wti-daily.csv': 'Date,Price\n2020-04-17,18.31\n2020-04-20,-36.98\n2020-04-21,\n',
  'wti-weekly.csv': 'Date,Price\n2020-04-24,3.32\n',
  'wti-monthly.csv': 'Date,Price\n2020-04-15,16.55\n',
};

async function writeFixture(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'eia-oil-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

let db: Db;
const dirs: string[] = [];
beforeAll(async () => {
  db = await Db.open();
});
afterAll(async () => {
  db.close();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('eia-oil-prices', () => {
  it('cleans the fixture: monthly 15th -> 1st, blanks dropped, negative WTI kept', async () => {
    const dir = await writeFixture(FIXTURE);
    dirs.push(dir);
    await adapter.load(db, dir);
    const rows = await db.all(`SELECT series, frequency, date, value FROM eia_oil_prices ORDER BY series, frequency, date`);
    expect(rows).toEqual([
      { series: 'brent', frequency: 'daily', date: '2026-08-17', value: 92.43 },
      { series: 'brent', frequency: 'daily', date: '2026-08-18', value: 95.29 },
      { series: 'brent', frequency: 'monthly', date: '2026-06-01', value: 85.4 },
      { series: 'brent', frequency: 'monthly', date: '2026-07-01', value: 83.76 },
      { series: 'brent', frequency: 'weekly', date: '2026-08-14', value: 92.51 },
      { series: 'wti', frequency: 'daily', date: '2020-04-17', value: 18.31 },
      { series: 'wti', frequency: 'daily', date: '2020-04-20', value: -36.98 },
      { series: 'wti', frequency: 'monthly', date: '2020-04-01', value: 16.55 },
      { series: 'wti', frequency: 'weekly', date: '2020-04-24', value: 3.32 },
    ]);
    const types = await db.all(`SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'eia_oil_prices' ORDER BY ordinal_position`);
    expect(types).toEqual([
      { column_name: 'series', data_type: 'VARCHAR' },
      { column_name: 'frequency', data_type: 'VARCHAR' },
      { column_name: 'date', data_type: 'DATE' },
      { column_name: 'value', data_type: 'DOUBLE' },
    ]);
  });

  it('throws SourceError on a missing file, a bad header, garbage or an empty table', async () => {
    const { 'wti-weekly.csv': _, ...missing } = FIXTURE;
    const cases: Record<string, string>[] = [
      missing,
      { ...FIXTURE, 'wti-weekly.csv': 'Day,Value\n2020-04-24,3.32\n' },
      { ...FIXTURE, 'brent-daily.csv': 'Date,Price\n2026-08-18,n/a\n' },
    ];
    for (const files of cases) {
      const dir = await writeFixture(files);
      dirs.push(dir);
      await expect(adapter.load(db, dir)).rejects.toBeInstanceOf(SourceError);
    }
    const empty = Object.fromEntries(Object.keys(FIXTURE).map((k) => [k, 'Date,Price\n']));
    const dir = await writeFixture(empty);
    dirs.push(dir);
    await expect(adapter.load(db, dir)).rejects.toThrow(/eia_oil_prices has no rows/);
  });

  it('loads the real mirror', async () => {
    await adapter.load(db, mirror);
    const lastLine = (f: string) => readFileSync(join(mirror, f), 'utf8').trim().split('\n').at(-1)!.split(',');
    const [brentDate, brentPrice] = lastLine('brent-daily.csv');
    expect(brentDate).toBe('2026-08-18');
    expect(await db.one(`SELECT max(date) AS d, arg_max(value, date) AS v FROM eia_oil_prices WHERE series = 'brent' AND frequency = 'daily'`)).toEqual({
      d: '2026-08-18',
      v: Number(brentPrice),
    });
    expect(await db.one(`SELECT value FROM eia_oil_prices WHERE series = 'wti' AND frequency = 'daily' AND date = '2020-04-20'`)).toEqual({ value: -36.98 });
    expect(await db.one(`SELECT max(date) AS d, arg_max(value, date) AS v FROM eia_oil_prices WHERE series = 'brent' AND frequency = 'monthly'`)).toEqual({
      d: '2026-07-01',
      v: 83.76,
    });
    expect(await db.one(`SELECT max(date) AS d FROM eia_oil_prices WHERE series = 'wti' AND frequency = 'weekly'`)).toEqual({ d: '2026-08-14' });
    expect(await db.all(`SELECT series, frequency, count(*)::INTEGER AS n FROM eia_oil_prices GROUP BY ALL ORDER BY series, frequency`)).toEqual([
      { series: 'brent', frequency: 'daily', n: 9958 },
      { series: 'brent', frequency: 'monthly', n: 471 },
      { series: 'brent', frequency: 'weekly', n: 2049 },
      { series: 'wti', frequency: 'daily', n: 10226 },
      { series: 'wti', frequency: 'monthly', n: 487 },
      { series: 'wti', frequency: 'weekly', n: 2120 },
    ]);
  });

  describe('download', () => {
    // A fake EIA API v2: two rows per page so that paging is exercised; values as EIA sends them (strings).
    const DATA: Record<string, { period: string; value: string | null }[]> = {
      'RBRTE/daily': [
        { period: '2026-08-14', value: '91.1' },
        { period: '2026-08-17', value: '92.43' },
        { period: '2026-08-18', value: '95.29' },
      ],
      'RBRTE/weekly': [{ period: '2026-08-14', value: '92.51' }],
      'RBRTE/monthly': [{ period: '2026-07', value: '83.76' }],
      'RWTC/daily': [
        { period: '2020-04-20', value: '-36.98' },
        { period: '2020-04-21', value: null },
      ],
      'RWTC/weekly': [{ period: '2020-04-24', value: '3.32' }],
      'RWTC/monthly': [{ period: '2020-04', value: '16.55' }],
    };
    let server: Server;
    let base = '';
    const seen: string[] = [];
    beforeAll(async () => {
      server = createServer((req, res) => {
        const url = new URL(req.url ?? '/', 'http://x');
        seen.push(url.pathname + url.search);
        const rows = DATA[`${url.searchParams.get('facets[series][]')}/${url.searchParams.get('frequency')}`];
        if (url.pathname !== '/v2/petroleum/pri/spt/data/' || url.searchParams.get('api_key') !== 'test-key' || !rows) {
          res.writeHead(404).end();
          return;
        }
        const offset = Number(url.searchParams.get('offset'));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ response: { total: String(rows.length), data: rows.slice(offset, offset + 2) } }));
      });
      await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((ok) => server.close(() => ok())));
    const fetchLocal: typeof fetch = (input, init) => fetch(String(input).replace('https://api.eia.gov', base), init);

    it('needs EIA_API_KEY', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'eia-oil-dl-'));
      dirs.push(dir);
      await expect(adapter.download(dir, fetchLocal)).rejects.toThrow(/EIA_API_KEY/);
      await expect(adapter.download(dir, fetchLocal, { eia: '' })).rejects.toThrow(/EIA_API_KEY/);
    });

    it('writes the mirror layout from API v2 and loads it', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'eia-oil-dl-'));
      dirs.push(dir);
      await adapter.download(dir, fetchLocal, { eia: 'test-key' });
      expect(readFileSync(join(dir, 'brent-monthly.csv'), 'utf8')).toBe('Date,Price\r\n2026-07-15,83.76\r\n');
      expect(readFileSync(join(dir, 'wti-daily.csv'), 'utf8')).toBe('Date,Price\r\n2020-04-20,-36.98\r\n2020-04-21,\r\n');
      expect(seen.some((s) => s.includes('offset=2'))).toBe(true);
      await adapter.load(db, dir);
      expect(await db.all(`SELECT series, frequency, date, value FROM eia_oil_prices ORDER BY series, frequency, date`)).toEqual([
        { series: 'brent', frequency: 'daily', date: '2026-08-14', value: 91.1 },
        { series: 'brent', frequency: 'daily', date: '2026-08-17', value: 92.43 },
        { series: 'brent', frequency: 'daily', date: '2026-08-18', value: 95.29 },
        { series: 'brent', frequency: 'monthly', date: '2026-07-01', value: 83.76 },
        { series: 'brent', frequency: 'weekly', date: '2026-08-14', value: 92.51 },
        { series: 'wti', frequency: 'daily', date: '2020-04-20', value: -36.98 },
        { series: 'wti', frequency: 'monthly', date: '2020-04-01', value: 16.55 },
        { series: 'wti', frequency: 'weekly', date: '2020-04-24', value: 3.32 },
      ]);
    });
  });
});
