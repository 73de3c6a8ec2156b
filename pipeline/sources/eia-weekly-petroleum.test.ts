import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Db } from '../db.ts';
import { eiaWeeklyPetroleumSource as adapter } from './eia-weekly-petroleum.ts';
import { SourceError } from './types.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const mirror = join(process.env.SOURCES_DIR ?? resolve(repoRoot, '../shared/sources'), adapter.id);
const WPSR = 'eia-wpsr-us-weekly.csv';
const STOCKS = 'eia-us-stocks-weekly-1982-2022.csv';
const SERIES = 'eia-us-stocks-weekly-1982-2022-series.csv';

const FIXTURE: Record<string, string> = {
  [WPSR]: [
    'period,id,name,value',
    '2014-12-26,WCSSTUS1,SPR Stocks (kb),690963',
    '2026-02-27,WCSSTUS1,SPR Stocks (kb),415441',
    '2014-12-26,WPRSTUS1,US C3/C3= Stocks (kb),', // blank: the wide file's value must show through
    '2014-12-26,WPRUP_NUS_2, C3/C3= Supplied (kbd),1234.5', // leading space in the label
    '2014-12-26,WPULEUS3,US Refinery Utilization (pct),91.2',
  ].join('\n'),
  [STOCKS]: [
    'date,WCRSTUS1,WCESTUS1,WCSSTUS1,WPRSTUS1',
    '1982-08-20,609219,338764,270455,',
    '2014-12-26,1,2,999999,70000', // WCSSTUS1 here loses to the WPSR file
  ].join('\n'),
  [SERIES]: [
    'sourcekey,description',
    'WCRSTUS1,Stocks',
    'WCESTUS1,Weekly U.S. Ending Stocks excluding SPR of Crude Oil  (Thousand Barrels)',
    'WCSSTUS1,Weekly U.S. Ending Stocks of Crude Oil in SPR  (Thousand Barrels)',
    'WPRSTUS1,Weekly U.S. Propane and Propylene Ending Stocks Excluding Propylene at Terminal (Thousand Barrels)',
  ].join('\n'),
};

describe('eia-weekly-petroleum load', () => {
  let db: Db;
  const dirs: string[] = [];
  beforeEach(async () => {
    db = await Db.open();
  });
  afterEach(async () => {
    db.close();
    for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
  });
  const fixture = async (files = FIXTURE): Promise<string> => {
    const dir = await mkdtemp(join(tmpdir(), 'eia-'));
    dirs.push(dir);
    for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text + '\n');
    return dir;
  };

  it('unions the long WPSR file and the wide stocks file, preferring WPSR', async () => {
    await adapter.load(db, await fixture());
    const w = (series_id: string, name: string, unit: string, date: string, value: number, file: string) => ({ series_id, name, unit, date, value, file });
    expect(await db.all(`SELECT * FROM eia_petroleum_weekly ORDER BY series_id, date`)).toEqual([
      w('WCESTUS1', 'Weekly U.S. Ending Stocks excluding SPR of Crude Oil', 'kb', '1982-08-20', 338764, STOCKS),
      w('WCESTUS1', 'Weekly U.S. Ending Stocks excluding SPR of Crude Oil', 'kb', '2014-12-26', 2, STOCKS),
      w('WCRSTUS1', 'Stocks', 'kb', '1982-08-20', 609219, STOCKS),
      w('WCRSTUS1', 'Stocks', 'kb', '2014-12-26', 1, STOCKS),
      // The WPSR label wins for every row of a series that is in both files.
      w('WCSSTUS1', 'SPR Stocks', 'kb', '1982-08-20', 270455, STOCKS),
      w('WCSSTUS1', 'SPR Stocks', 'kb', '2014-12-26', 690963, WPSR),
      w('WCSSTUS1', 'SPR Stocks', 'kb', '2026-02-27', 415441, WPSR),
      w('WPRSTUS1', 'US C3/C3= Stocks', 'kb', '2014-12-26', 70000, STOCKS),
      w('WPRUP_NUS_2', 'C3/C3= Supplied', 'kbd', '2014-12-26', 1234.5, WPSR),
      w('WPULEUS3', 'US Refinery Utilization', 'pct', '2014-12-26', 91.2, WPSR),
    ]);
  });

  it('fails loudly on a missing file, a bad header, an unknown unit or no rows', async () => {
    for (const name of Object.keys(FIXTURE)) {
      const files = { ...FIXTURE };
      delete files[name];
      await expect(adapter.load(db, await fixture(files))).rejects.toThrow(new RegExp(`missing file ${name}`));
    }
    await expect(adapter.load(db, await fixture({ ...FIXTURE, [WPSR]: FIXTURE[WPSR]!.replace('period', 'week') }))).rejects.toThrow(/header lacks period/);
    await expect(adapter.load(db, await fixture({ ...FIXTURE, [STOCKS]: FIXTURE[STOCKS]!.replace('WCSSTUS1', 'SPR') }))).rejects.toThrow(
      /header lacks WCSSTUS1/,
    );
    await expect(adapter.load(db, await fixture({ ...FIXTURE, [WPSR]: FIXTURE[WPSR]!.replace('(pct)', '(percent)') }))).rejects.toThrow(
      /unknown unit 'percent'/,
    );
    await expect(adapter.load(db, await fixture({ ...FIXTURE, [WPSR]: FIXTURE[WPSR]!.replace('690963', '690,963') }))).rejects.toThrow(SourceError);
    const headersOnly = Object.fromEntries(Object.entries(FIXTURE).map(([k, v]) => [k, v.split('\n')[0]!]));
    await expect(adapter.load(db, await fixture(headersOnly))).rejects.toThrow(/has no rows/);
  });
});

describe.skipIf(!existsSync(mirror))('eia-weekly-petroleum on the real mirror', () => {
  it('pins facts read from the files', async () => {
    const db = await Db.open();
    try {
      await adapter.load(db, mirror);
      expect(await db.one(`SELECT count(*)::INTEGER AS n, count(DISTINCT series_id)::INTEGER AS series FROM eia_petroleum_weekly`)).toEqual({
        n: 66242,
        series: 71,
      });
      expect(await db.one(`SELECT count(*)::INTEGER AS n FROM (SELECT DISTINCT series_id, date FROM eia_petroleum_weekly)`)).toEqual({ n: 66242 });
      expect(await db.one(`SELECT date, value, name, unit, file FROM eia_petroleum_weekly WHERE series_id = 'WCSSTUS1' ORDER BY date DESC LIMIT 1`)).toEqual({
        date: '2026-02-27',
        value: 415441,
        name: 'SPR Stocks',
        unit: 'kb',
        file: WPSR,
      });
      expect(await db.one(`SELECT value, file FROM eia_petroleum_weekly WHERE series_id = 'WCSSTUS1' AND date = '2014-12-26'`)).toEqual({
        value: 690963,
        file: WPSR,
      });
      expect(await db.one(`SELECT min(date) AS first, count(*)::INTEGER AS n FROM eia_petroleum_weekly WHERE series_id = 'WCSSTUS1'`)).toEqual({
        first: '1982-08-20',
        n: 2266,
      }); // 2,058 wide + 584 WPSR - 376 shared weeks
      expect(await db.all(`SELECT unit, count(DISTINCT series_id)::INTEGER AS n FROM eia_petroleum_weekly GROUP BY unit ORDER BY unit`)).toEqual([
        { unit: 'kb', n: 39 },
        { unit: 'kbd', n: 31 },
        { unit: 'pct', n: 1 },
      ]);
      expect(await db.one(`SELECT count(*)::INTEGER AS n FROM eia_petroleum_weekly WHERE dayofweek(date) <> 5`)).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});

describe('eia-weekly-petroleum download', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('needs EIA_API_KEY', async () => {
    await expect(adapter.download('/nonexistent', fetch)).rejects.toThrow(/EIA_API_KEY/);
    await expect(adapter.download('/nonexistent', fetch, { agsi: 'not-this-one' })).rejects.toThrow(/EIA_API_KEY/);
  });

  it('pages through EIA API v2 and writes files that load() reads', async () => {
    // EIA API v2 answers (values as strings since v2.1.6). The stocks route serves 2 rows per page to force paging.
    const point = (period: string, series: string, desc: string, value: string | null, units = 'MBBL') => ({
      period,
      duoarea: 'NUS',
      'area-name': 'U.S.',
      product: 'EPC0',
      'product-name': 'Crude Oil',
      process: 'SAS',
      'process-name': 'Ending Stocks',
      series,
      'series-description': desc,
      value,
      units,
    });
    const stocks = [
      point('2022-03-04', 'WCESTUS1', 'U.S. Ending Stocks excluding SPR of Crude Oil (Thousand Barrels)', '411562'),
      point('2022-03-04', 'WCRSTUS1', 'U.S. Ending Stocks of Crude Oil (Thousand Barrels)', '989058'),
      point('2022-03-04', 'WCSSTUS1', 'U.S. Ending Stocks of Crude Oil in SPR (Thousand Barrels)', '577496'),
      point('2026-02-27', 'WCSSTUS1', 'U.S. Ending Stocks of Crude Oil in SPR (Thousand Barrels)', '415000'),
      point('2026-02-27', 'WCRFPUS2', 'U.S. Field Production of Crude Oil (Thousand Barrels per Day)', '13500', 'MBBL/D'),
    ];
    const seriesPoints: Record<string, unknown[]> = {
      WCSSTUS1: [
        point('2026-02-27', 'WCSSTUS1', 'U.S. Ending Stocks of Crude Oil in SPR (Thousand Barrels)', '415441'),
        point('2026-02-20', 'WCSSTUS1', 'U.S. Ending Stocks of Crude Oil in SPR (Thousand Barrels)', '415100'),
      ],
      WPULEUS3: [point('2026-02-27', 'WPULEUS3', 'U.S. Percent Utilization of Refinery Operable Capacity', '90.1', '%')],
      WPRSTUS1: [point('2026-02-27', 'WPRSTUS1', 'U.S. Propane and Propylene Ending Stocks', null)],
    };
    const seen: URL[] = [];
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      seen.push(url);
      if (url.searchParams.get('api_key') !== 'test-key') {
        res.writeHead(403).end('{"error":{"code":"API_KEY_INVALID"}}');
        return;
      }
      const offset = Number(url.searchParams.get('offset'));
      let all: unknown[] = [];
      let data: unknown[] = [];
      if (url.pathname === '/v2/petroleum/stoc/wstk/data/') {
        all = stocks;
        data = all.slice(offset, offset + 2);
      } else {
        const id = /^\/v2\/seriesid\/PET\.(.+)\.W$/.exec(url.pathname)?.[1] ?? '';
        all = seriesPoints[id] ?? [];
        data = all.slice(offset);
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          response: { total: String(all.length), dateFormat: 'YYYY-MM-DD', frequency: 'weekly', data, description: '' },
          request: { command: url.pathname, params: {} },
          apiVersion: '2.1.12',
        }),
      );
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const fetchImpl = ((input: string | URL | Request, init?: RequestInit) =>
      fetch(String(input).replace('https://api.eia.gov', origin), init)) as typeof fetch;
    const dir = await mkdtemp(join(tmpdir(), 'eia-dl-'));
    const db = await Db.open();
    try {
      await adapter.download(dir, fetchImpl, { eia: 'test-key' });
      const stockPages = seen.filter((u) => u.pathname.includes('/stoc/wstk/'));
      expect(stockPages.map((u) => u.searchParams.get('offset'))).toEqual(['0', '2', '4']);
      expect([
        stockPages[0]?.searchParams.get('frequency'),
        stockPages[0]?.searchParams.get('data[0]'),
        stockPages[0]?.searchParams.get('facets[duoarea][]'),
      ]).toEqual(['weekly', 'value', 'NUS']);
      expect(seen.filter((u) => u.pathname.startsWith('/v2/seriesid/'))).toHaveLength(42);
      expect(seen.find((u) => u.pathname === '/v2/seriesid/PET.WCSSTUS1.W')?.searchParams.get('start')).toBe('2014-12-26');

      await adapter.load(db, dir);
      expect(await db.all(`SELECT * FROM eia_petroleum_weekly ORDER BY series_id, date`)).toEqual([
        { series_id: 'WCESTUS1', name: 'U.S. Ending Stocks excluding SPR of Crude Oil', unit: 'kb', date: '2022-03-04', value: 411562, file: STOCKS },
        { series_id: 'WCRSTUS1', name: 'U.S. Ending Stocks of Crude Oil', unit: 'kb', date: '2022-03-04', value: 989058, file: STOCKS },
        { series_id: 'WCSSTUS1', name: 'SPR Stocks', unit: 'kb', date: '2022-03-04', value: 577496, file: STOCKS },
        { series_id: 'WCSSTUS1', name: 'SPR Stocks', unit: 'kb', date: '2026-02-20', value: 415100, file: WPSR },
        { series_id: 'WCSSTUS1', name: 'SPR Stocks', unit: 'kb', date: '2026-02-27', value: 415441, file: WPSR },
        { series_id: 'WPULEUS3', name: 'US Refinery Utilization', unit: 'pct', date: '2026-02-27', value: 90.1, file: WPSR },
      ]);
    } finally {
      db.close();
      await new Promise<void>((ok) => server.close(() => ok()));
      await rm(dir, { recursive: true, force: true });
    }
  });
});
