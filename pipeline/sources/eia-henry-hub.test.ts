import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Db } from '../db.ts';
import { eiaHenryHubSource as adapter } from './eia-henry-hub.ts';
import { SourceError } from './types.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const mirror = join(process.env.SOURCES_DIR ?? resolve(repoRoot, '../shared/sources'), adapter.id);

const FIXTURE: Record<string, string> = {
  // CRLF line ends and a day without a price, as in the mirror (2018-01-05).
  'henry-hub-daily.csv': 'Date,Price\r\n2026-08-14,2.7\r\n2026-08-17,\r\n2026-08-18,2.82\r\n',
  'henry-hub-monthly.csv': 'Month,Price\n2026-06,3.15\n2026-07,2.89\n2026-08,\n',
};

async function writeFixture(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'eia-hh-'));
  dirs.push(dir);
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

describe('eia-henry-hub', () => {
  it('cleans the fixture: Month YYYY-MM -> first day, blanks dropped', async () => {
    await adapter.load(db, await writeFixture(FIXTURE));
    expect(await db.all(`SELECT frequency, date, value FROM eia_henry_hub ORDER BY frequency, date`)).toEqual([
      { frequency: 'daily', date: '2026-08-14', value: 2.7 },
      { frequency: 'daily', date: '2026-08-18', value: 2.82 },
      { frequency: 'monthly', date: '2026-06-01', value: 3.15 },
      { frequency: 'monthly', date: '2026-07-01', value: 2.89 },
    ]);
    expect(await db.all(`SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'eia_henry_hub' ORDER BY ordinal_position`)).toEqual([
      { column_name: 'frequency', data_type: 'VARCHAR' },
      { column_name: 'date', data_type: 'DATE' },
      { column_name: 'value', data_type: 'DOUBLE' },
    ]);
  });

  it('throws SourceError on a missing file, a bad header, a bad month or an empty table', async () => {
    const cases: Record<string, string>[] = [
      { 'henry-hub-daily.csv': FIXTURE['henry-hub-daily.csv']! },
      { ...FIXTURE, 'henry-hub-monthly.csv': 'Date,Price\n2026-07-15,2.89\n' },
      { ...FIXTURE, 'henry-hub-monthly.csv': 'Month,Price\nJul 2026,2.89\n' },
    ];
    for (const files of cases) await expect(adapter.load(db, await writeFixture(files))).rejects.toBeInstanceOf(SourceError);
    const empty = { 'henry-hub-daily.csv': 'Date,Price\n', 'henry-hub-monthly.csv': 'Month,Price\n' };
    await expect(adapter.load(db, await writeFixture(empty))).rejects.toThrow(/eia_henry_hub has no rows/);
  });

  it('loads the real mirror', async () => {
    await adapter.load(db, mirror);
    const last = readFileSync(join(mirror, 'henry-hub-daily.csv'), 'utf8').trim().split('\n').at(-1)!.split(',');
    expect(await db.one(`SELECT max(date) AS d, arg_max(value, date) AS v FROM eia_henry_hub WHERE frequency = 'daily'`)).toEqual({
      d: last[0],
      v: Number(last[1]),
    });
    expect(last[0]).toBe('2026-08-18');
    expect(await db.one(`SELECT count(*)::INTEGER AS n FROM eia_henry_hub WHERE date = '2018-01-05'`)).toEqual({ n: 0 });
    expect(await db.one(`SELECT max(date) AS d, arg_max(value, date) AS v FROM eia_henry_hub WHERE frequency = 'monthly'`)).toEqual({
      d: '2026-07-01',
      v: 2.89,
    });
    expect(await db.one(`SELECT min(date) AS d, arg_min(value, date) AS v FROM eia_henry_hub WHERE frequency = 'monthly'`)).toEqual({
      d: '1997-01-01',
      v: 3.45,
    });
    expect(await db.all(`SELECT frequency, count(*)::INTEGER AS n FROM eia_henry_hub GROUP BY ALL ORDER BY frequency`)).toEqual([
      // 7,437 lines, but 2018-01-05 has no price in the file.
      { frequency: 'daily', n: 7436 },
      { frequency: 'monthly', n: 355 },
    ]);
  });

  describe('download', () => {
    const DATA: Record<string, { period: string; value: number | string | null }[]> = {
      daily: [
        { period: '2026-08-17', value: null },
        { period: '2026-08-18', value: 2.82 },
      ],
      monthly: [{ period: '2026-07', value: '2.89' }],
    };
    let server: Server;
    let base = '';
    beforeAll(async () => {
      server = createServer((req, res) => {
        const url = new URL(req.url ?? '/', 'http://x');
        const rows = DATA[url.searchParams.get('frequency') ?? ''];
        const ok =
          url.pathname === '/v2/natural-gas/pri/fut/data/' &&
          url.searchParams.get('facets[series][]') === 'RNGWHHD' &&
          url.searchParams.get('api_key') === 'test-key';
        if (!ok || !rows) {
          res.writeHead(404).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ response: { total: rows.length, data: rows } }));
      });
      await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((ok) => server.close(() => ok())));
    const fetchLocal: typeof fetch = (input, init) => fetch(String(input).replace('https://api.eia.gov', base), init);

    it('needs EIA_API_KEY', async () => {
      await expect(adapter.download(await writeFixture({}), fetchLocal)).rejects.toThrow(/EIA_API_KEY/);
    });

    it('writes the mirror layout from API v2 and loads it', async () => {
      const dir = await writeFixture({});
      await adapter.download(dir, fetchLocal, { eia: 'test-key' });
      expect(readFileSync(join(dir, 'henry-hub-monthly.csv'), 'utf8')).toBe('Month,Price\r\n2026-07,2.89\r\n');
      await adapter.load(db, dir);
      expect(await db.all(`SELECT frequency, date, value FROM eia_henry_hub ORDER BY frequency, date`)).toEqual([
        { frequency: 'daily', date: '2026-08-18', value: 2.82 },
        { frequency: 'monthly', date: '2026-07-01', value: 2.89 },
      ]);
    });
  });
});
