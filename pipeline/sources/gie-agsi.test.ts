import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Db } from '../db.ts';
import { gieAgsiSource as adapter, readAgsiPage } from './gie-agsi.ts';
import { readCsvRecords, recording, replayFetch } from '../../test/publisher-recordings.ts';
import { SourceError } from './types.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const mirror = join(process.env.SOURCES_DIR ?? resolve(repoRoot, '../shared/sources'), adapter.id);

const DE_EU_HEADER =
  'scope,date,name,code,gas_in_storage_twh,working_gas_volume_twh,fill_pct,consumption_gwh_per_day,injection_gwh_per_day,withdrawal_gwh_per_day,net_withdrawal_gwh_per_day,injection_capacity_gwh_per_day,withdrawal_capacity_gwh_per_day,trend_pct,status,full_pct,norm_5y_fill_pct,source';

/** Small copies of the five mirror files, each exercising one quirk or one precedence step. */
const FIXTURE: Record<string, string> = {
  'agsi_de_eu_daily_2020_2026.csv': [
    DE_EU_HEADER,
    // Older DE reference consumption 871, newer 903.9: the newest must win.
    'DE,2023-12-30,Germany,DE,200.1,250.5,79.88,871,10,500,490,4000,6800,-0.5,C,79.88,,GIE AGSI+ API v013',
    'DE,2024-01-15,Germany,DE,210.2292,254.8323,82.5,903.9,14.29,2084.2,2069.9,4025.71,6812.96,-0.81,C,82.5,72.2175,GIE AGSI+ API v013',
    'EU,2024-01-15,EU,eu,900.5,1141.2834,78.9,3519,800,3000,2200,11645,20063,-0.3,E,78.9,70.1,GIE AGSI+ API v013',
  ].join('\n'),
  'agsi_country_fill_daily_2023_2026.csv': [
    'code,name,date,fullPct,gasInStorageTWh',
    'DE,Germany,2024-01-15,82.49,210.23', // loses to the de_eu file
    'EU,EU,2024-01-15,78.8,900', // loses to the de_eu file
    'EU,EU,2023-12-30,86,980', // beats the Excel export
    'FR,France,2024-01-15,70.1,90.5',
  ].join('\n'),
  // Unsorted, mixed date formats, quoted thousands separators.
  'agsi_eu_daily_2011_2025_excel_export.csv': [
    'name,gasDayStart,gasInStorage,consumption,consumptionFull,injection,withdrawal,workingGasVolume,injectionCapacity,withdrawalCapacity,status,trend,full',
    'EU,30-Dec-23,"1,000.00","3,495.22",28.6,"1,234.50",200,"1,146.57","11,739.23","19,580.11",C,0,87.22',
    'EU,2015-06-01,414.26,"3,760.87",11,"3,699.75",213,"1,045.25","11,000.00","19,000.00",C,1,39.63',
    'EU,30-Dec-23,"1,000.00","3,495.22",28.6,"1,234.50",200,"1,146.57","11,739.23","19,580.11",C,0,87.22'.replace('30-Dec-23', '31-Dec-23'),
    'EU,01-Jan-11,440.39,"4,000.00",11,147.02,"1,536.00",617.51,"9,000.00","18,000.00",C,-1,71.32',
  ].join('\n'),
  'agsi_eu_fill_vs_5y_norm_2025_2026.csv': [
    'date,fill_pct,norm_5y_fill_pct,source,source_note',
    '2024-01-15,11.11,99,GIE AGSI+ API v013,x', // loses to the de_eu file
    '2024-01-16,78.5,99,GIE AGSI+ API v013,x', // only source: fill only, the norm is ignored
  ].join('\n'),
  'agsi_country_snapshot_2026-05-06.csv': [
    'code,name,gasDayStart,gasInStorageTWh,workingGasVolumeTWh,fullPct,injectionGWhPerDay,withdrawalGWhPerDay,netWithdrawalGWhPerDay,status,dayOverDayFullPctChange',
    'eu,EU,2024-01-10,950,1140,83.3,1,2,1,E,',
    'DE,Germany,2024-01-10,215,250,86,1,2,1,C,0.1',
    'FR,France,2024-01-10,92,131.5,70,1,2,1,C,-0.2',
  ].join('\n'),
};

async function writeFixture(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agsi-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text + '\n');
  return dir;
}

describe('gie-agsi-gas-storage load', () => {
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
    const dir = await writeFixture(files);
    dirs.push(dir);
    return dir;
  };

  it('merges the daily files by precedence and cleans the Excel export', async () => {
    await adapter.load(db, await fixture());
    const rows = await db.all(`SELECT * FROM agsi_storage ORDER BY country, date`);
    const row = (
      country: string,
      date: string,
      fill: number,
      gis: number | null,
      wgv: number | null,
      inj: number | null,
      wd: number | null,
      net: number | null,
      status: string | null,
      file: string,
    ) => ({
      country,
      date,
      fill_pct: fill,
      gas_in_storage_twh: gis,
      working_gas_volume_twh: wgv,
      injection_gwh_d: inj,
      withdrawal_gwh_d: wd,
      net_withdrawal_gwh_d: net,
      status,
      file,
    });
    const deEu = 'agsi_de_eu_daily_2020_2026.csv';
    const fill = 'agsi_country_fill_daily_2023_2026.csv';
    const excel = 'agsi_eu_daily_2011_2025_excel_export.csv';
    expect(rows).toEqual([
      row('de', '2023-12-30', 79.88, 200.1, 250.5, 10, 500, 490, 'C', deEu),
      row('de', '2024-01-15', 82.5, 210.2292, 254.8323, 14.29, 2084.2, 2069.9, 'C', deEu),
      row('eu', '2011-01-01', 71.32, 440.39, 617.51, 147.02, 1536, null, 'C', excel),
      row('eu', '2015-06-01', 39.63, 414.26, 1045.25, 3699.75, 213, null, 'C', excel),
      row('eu', '2023-12-30', 86, 980, null, null, null, null, null, fill),
      row('eu', '2023-12-31', 87.22, 1000, 1146.57, 1234.5, 200, null, 'C', excel),
      row('eu', '2024-01-15', 78.9, 900.5, 1141.2834, 800, 3000, 2200, 'E', deEu),
      row('eu', '2024-01-16', 78.5, null, null, null, null, null, null, 'agsi_eu_fill_vs_5y_norm_2025_2026.csv'),
      row('fr', '2024-01-15', 70.1, 90.5, null, null, null, null, null, fill),
    ]);
  });

  it('builds agsi_reference from the newest working gas volume and the mislabelled consumption column', async () => {
    await adapter.load(db, await fixture());
    expect(await db.all(`SELECT * FROM agsi_reference ORDER BY country`)).toEqual([
      // 903.9 is annual TWh despite the column name consumption_gwh_per_day; 871 is older.
      { country: 'de', working_gas_volume_twh: 254.8323, annual_consumption_twh: 903.9, as_of: '2024-01-15', file: 'agsi_de_eu_daily_2020_2026.csv' },
      // de_eu 3519 (2024-01-15) is newer than the Excel export's 3,495.22 (2023-12-31).
      { country: 'eu', working_gas_volume_twh: 1141.2834, annual_consumption_twh: 3519, as_of: '2024-01-15', file: 'agsi_de_eu_daily_2020_2026.csv' },
      { country: 'fr', working_gas_volume_twh: 131.5, annual_consumption_twh: null, as_of: '2024-01-10', file: 'agsi_country_snapshot_2026-05-06.csv' },
    ]);
    expect(await db.all(`SELECT table_name FROM information_schema.tables ORDER BY 1`)).toEqual([
      { table_name: 'agsi_reference' },
      { table_name: 'agsi_storage' },
    ]);
  });

  it('takes the EU consumption from the Excel export when it is the newest', async () => {
    const files = { ...FIXTURE, 'agsi_de_eu_daily_2020_2026.csv': FIXTURE['agsi_de_eu_daily_2020_2026.csv']!.split('\n').slice(0, 3).join('\n') };
    await adapter.load(db, await fixture(files));
    expect(await db.one(`SELECT annual_consumption_twh, working_gas_volume_twh, as_of FROM agsi_reference WHERE country = 'eu'`)).toEqual({
      annual_consumption_twh: 3495.22,
      working_gas_volume_twh: 1140,
      as_of: '2024-01-10',
    });
  });

  it('fails loudly on a missing file, a bad header, an unparseable value or no rows', async () => {
    for (const name of Object.keys(FIXTURE)) {
      const files = { ...FIXTURE };
      delete files[name];
      await expect(adapter.load(db, await fixture(files))).rejects.toThrow(SourceError);
    }
    const badHeader = { ...FIXTURE, 'agsi_country_fill_daily_2023_2026.csv': 'code,name,date,fill,gasInStorageTWh\nDE,Germany,2024-01-15,1,2' };
    await expect(adapter.load(db, await fixture(badHeader))).rejects.toThrow(/header lacks fullPct/);
    const badDate = {
      ...FIXTURE,
      'agsi_eu_daily_2011_2025_excel_export.csv': FIXTURE['agsi_eu_daily_2011_2025_excel_export.csv']!.replace('01-Jan-11', '2011/01/01'),
    };
    await expect(adapter.load(db, await fixture(badDate))).rejects.toThrow(SourceError);
    const headersOnly = Object.fromEntries(Object.entries(FIXTURE).map(([k, v]) => [k, v.split('\n')[0]!]));
    await expect(adapter.load(db, await fixture(headersOnly))).rejects.toThrow(/agsi_storage has no rows/);
  });
});

describe.skipIf(!existsSync(mirror))('gie-agsi-gas-storage on the real mirror', () => {
  it('pins facts read from the files', async () => {
    const db = await Db.open();
    try {
      await adapter.load(db, mirror);
      expect(await db.one(`SELECT count(*)::INTEGER AS n FROM agsi_storage`)).toEqual({ n: 25655 });
      expect(await db.one(`SELECT count(*)::INTEGER AS n FROM (SELECT DISTINCT country, date FROM agsi_storage)`)).toEqual({ n: 25655 });
      // Germany's newest gas day, from agsi_de_eu_daily_2020_2026.csv.
      expect(await db.one(`SELECT date, fill_pct, file FROM agsi_storage WHERE country = 'de' ORDER BY date DESC LIMIT 1`)).toEqual({
        date: '2026-08-20',
        fill_pct: 50.25,
        file: 'agsi_de_eu_daily_2020_2026.csv',
      });
      const de = await db.one<{ fill_pct: number; gas_in_storage_twh: number }>(
        `SELECT fill_pct, gas_in_storage_twh FROM agsi_storage WHERE country = 'de' AND date = '2024-01-15'`,
      );
      expect(de?.fill_pct).toBe(82.5);
      expect(de?.gas_in_storage_twh).toBeCloseTo(210.23, 2);
      // EU: every day from 2011-01-01, no gaps (Excel export, then the de_eu file).
      expect(
        await db.one(`SELECT min(date) AS first, max(date) AS last, count(*)::INTEGER AS n,
          (max(date) - min(date) + 1)::INTEGER AS span FROM agsi_storage WHERE country = 'eu'`),
      ).toEqual({ first: '2011-01-01', last: '2026-08-20', n: 5711, span: 5711 });
      expect(await db.one(`SELECT count(DISTINCT country)::INTEGER AS n FROM agsi_storage`)).toEqual({ n: 18 });
      expect(await db.one(`SELECT fill_pct, gas_in_storage_twh, withdrawal_gwh_d FROM agsi_storage WHERE country = 'eu' AND date = '2011-01-01'`)).toEqual({
        fill_pct: 71.32,
        gas_in_storage_twh: 440.39,
        withdrawal_gwh_d: 1536,
      });
      expect(
        await db.all(`SELECT country, working_gas_volume_twh, annual_consumption_twh, as_of FROM agsi_reference
          WHERE country IN ('de', 'eu', 'it') ORDER BY country`),
      ).toEqual([
        { country: 'de', working_gas_volume_twh: 246.489, annual_consumption_twh: 903.9, as_of: '2026-08-20' },
        { country: 'eu', working_gas_volume_twh: 1130.2094, annual_consumption_twh: 3519, as_of: '2026-08-20' },
        { country: 'it', working_gas_volume_twh: 203.84, annual_consumption_twh: null, as_of: '2026-05-06' },
      ]);
      expect(await db.one(`SELECT count(*)::INTEGER AS n FROM agsi_reference`)).toEqual({ n: 18 });
    } finally {
      db.close();
    }
  });
});

describe('gie-agsi-gas-storage download', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
  });

  it('needs AGSI_API_KEY', async () => {
    await expect(adapter.download('/nonexistent', fetch)).rejects.toThrow(/AGSI_API_KEY/);
    await expect(adapter.download('/nonexistent', fetch, { eia: 'not-this-one' })).rejects.toThrow(/AGSI_API_KEY/);
  });

  it('pages through the AGSI API and writes files that load() reads', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-08-21T06:00:00Z'));

    // AGSI answers: numbers as strings, '-' for not reported; EU comes in two pages.
    const day = (code: string, name: string, date: string, full: string, extra: Record<string, string> = {}) => ({
      name,
      code,
      url: code,
      updatedAt: `${date} 18:00:00`,
      gasDayStart: date,
      gasInStorage: '123.8547',
      consumption: '903.9',
      consumptionFull: '13.7',
      injection: '261.21',
      withdrawal: '140',
      netWithdrawal: '-121.2',
      workingGasVolume: '246.489',
      injectionCapacity: '4292.58',
      withdrawalCapacity: '7067.36',
      contractedCapacity: '-',
      status: 'C',
      trend: '0.06',
      full,
      info: [],
      ...extra,
    });
    const seen: URL[] = [];
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      seen.push(url);
      if (req.headers['x-key'] !== 'test-key') {
        res.writeHead(401).end('{"error":"access denied"}');
        return;
      }
      const page = Number(url.searchParams.get('page'));
      let data: unknown[] = [];
      let lastPage = 1;
      if (url.searchParams.get('type') === 'eu') {
        lastPage = 2;
        data =
          page === 1
            ? [day('eu', 'EU', '2026-08-19', '61.82', { consumption: '3519', workingGasVolume: '1130.2094', gasInStorage: '698.6393' })]
            : [day('eu', 'EU', '2026-08-20', '62.04', { consumption: '3519', workingGasVolume: '1130.2094', gasInStorage: '701.1793', status: 'E' })];
      } else {
        const code = url.searchParams.get('country') ?? '';
        data =
          code === 'DE'
            ? [day('DE', 'Germany', '2026-08-20', '50.25'), day('DE', 'Germany', '2026-08-19', '50.19', { netWithdrawal: '-' })]
            : [day(code, code, '2026-08-20', '70', { gasInStorage: '10', workingGasVolume: '20' })];
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ last_page: lastPage, total: 2, dataset: 'Storage', gas_day: '2026-08-20', data }));
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const fetchImpl = ((input: string | URL | Request, init?: RequestInit) =>
      fetch(String(input).replace('https://agsi.gie.eu', origin), init)) as typeof fetch;
    const dir = await mkdtemp(join(tmpdir(), 'agsi-dl-'));
    const db = await Db.open();
    try {
      await adapter.download(dir, fetchImpl, { agsi: 'test-key' });
      const euPages = seen.filter((u) => u.searchParams.get('type') === 'eu').map((u) => u.searchParams.get('page'));
      expect(euPages).toEqual(['1', '2']);
      const eu = seen.find((u) => u.searchParams.get('type') === 'eu');
      expect([eu?.pathname, eu?.searchParams.get('from'), eu?.searchParams.get('to'), eu?.searchParams.get('size')]).toEqual([
        '/api',
        '2011-01-01',
        '2026-08-21',
        '300',
      ]);
      expect(seen.find((u) => u.searchParams.get('country') === 'FR')?.searchParams.get('from')).toBe('2023-08-22');
      expect(seen.filter((u) => u.searchParams.has('country'))).toHaveLength(17);

      await adapter.load(db, dir);
      expect(await db.one(`SELECT count(*)::INTEGER AS n FROM agsi_storage`)).toEqual({ n: 20 });
      expect(await db.all(`SELECT * FROM agsi_storage WHERE country IN ('de', 'eu') ORDER BY country, date`)).toEqual([
        {
          country: 'de',
          date: '2026-08-19',
          fill_pct: 50.19,
          gas_in_storage_twh: 123.8547,
          working_gas_volume_twh: 246.489,
          injection_gwh_d: 261.21,
          withdrawal_gwh_d: 140,
          net_withdrawal_gwh_d: null,
          status: 'C',
          file: 'agsi_de_eu_daily_2020_2026.csv',
        },
        {
          country: 'de',
          date: '2026-08-20',
          fill_pct: 50.25,
          gas_in_storage_twh: 123.8547,
          working_gas_volume_twh: 246.489,
          injection_gwh_d: 261.21,
          withdrawal_gwh_d: 140,
          net_withdrawal_gwh_d: -121.2,
          status: 'C',
          file: 'agsi_de_eu_daily_2020_2026.csv',
        },
        {
          country: 'eu',
          date: '2026-08-19',
          fill_pct: 61.82,
          gas_in_storage_twh: 698.6393,
          working_gas_volume_twh: 1130.2094,
          injection_gwh_d: 261.21,
          withdrawal_gwh_d: 140,
          net_withdrawal_gwh_d: -121.2,
          status: 'C',
          file: 'agsi_de_eu_daily_2020_2026.csv',
        },
        {
          country: 'eu',
          date: '2026-08-20',
          fill_pct: 62.04,
          gas_in_storage_twh: 701.1793,
          working_gas_volume_twh: 1130.2094,
          injection_gwh_d: 261.21,
          withdrawal_gwh_d: 140,
          net_withdrawal_gwh_d: -121.2,
          status: 'E',
          file: 'agsi_de_eu_daily_2020_2026.csv',
        },
      ]);
      expect(await db.one(`SELECT * FROM agsi_storage WHERE country = 'fr'`)).toEqual({
        country: 'fr',
        date: '2026-08-20',
        fill_pct: 70,
        gas_in_storage_twh: 10,
        working_gas_volume_twh: null,
        injection_gwh_d: null,
        withdrawal_gwh_d: null,
        net_withdrawal_gwh_d: null,
        status: null,
        file: 'agsi_country_fill_daily_2023_2026.csv',
      });
      expect(await db.all(`SELECT * FROM agsi_reference WHERE country IN ('de', 'eu', 'fr') ORDER BY country`)).toEqual([
        { country: 'de', working_gas_volume_twh: 246.489, annual_consumption_twh: 903.9, as_of: '2026-08-20', file: 'agsi_de_eu_daily_2020_2026.csv' },
        { country: 'eu', working_gas_volume_twh: 1130.2094, annual_consumption_twh: 3519, as_of: '2026-08-20', file: 'agsi_de_eu_daily_2020_2026.csv' },
        { country: 'fr', working_gas_volume_twh: 20, annual_consumption_twh: null, as_of: '2026-08-20', file: 'agsi_country_snapshot_2026-05-06.csv' },
      ]);
    } finally {
      db.close();
      await new Promise<void>((ok) => server.close(() => ok()));
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads the recorded answer: strings as numbers, "-" as not reported, the EU row close to the mirror', () => {
    const body = JSON.parse(recording('gie-agsi-gas-storage/api_date=2026-06-09.json').toString('utf8')) as unknown;
    const eu = readAgsiPage(body, { type: 'eu' }, 'recorded');
    expect(eu.lastPage).toBe(1);
    expect(eu.rows).toHaveLength(1); // the Non-EU row is another scope
    const ne = readAgsiPage(body, { type: 'ne' }, 'recorded').rows[0]!;
    expect([ne.contractedCapacity, ne.status]).toEqual(['-', 'E']);
    const row = eu.rows[0]!;
    const mirrored = readCsvRecords(join(mirror, 'agsi_de_eu_daily_2020_2026.csv')).find((r) => r.scope === 'EU' && r.date === '2026-06-09')!;
    // Same gas day, fetched a day apart: capacity and annual consumption are identical; storage, fill and
    // flows were revised by GIE between the two fetches (updatedAt 2026-06-10 18:20 here), by at most 0.31 %.
    expect([row.workingGasVolume, row.consumption, row.injectionCapacity, row.withdrawalCapacity, row.withdrawal, row.status]).toEqual([
      mirrored.working_gas_volume_twh,
      mirrored.consumption_gwh_per_day,
      mirrored.injection_capacity_gwh_per_day,
      mirrored.withdrawal_capacity_gwh_per_day,
      mirrored.withdrawal_gwh_per_day,
      mirrored.status,
    ]);
    const pairs = [
      [row.gasInStorage, mirrored.gas_in_storage_twh],
      [row.full, mirrored.fill_pct],
      [row.injection, mirrored.injection_gwh_per_day],
    ].map(([a, b]) => Math.abs(Number(a) - Number(b)) / Number(b));
    expect(Math.max(...pairs)).toBeLessThan(0.0032);
  });

  it('fails on an answer with no data (a bad key is answered 200 with data: []), on any page', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-06-10T20:00:00Z'));
    const empty = JSON.stringify({ last_page: 0, total: 0, dataset: '', gas_day: '2026-06-09', data: [] });
    const dead = replayFetch([{ url: /^https:\/\/agsi\.gie\.eu\/api\?/, body: empty }]);
    const dir = await mkdtemp(join(tmpdir(), 'agsi-dead-'));
    try {
      await expect(adapter.download(dir, dead.fetch, { agsi: 'dead-key' })).rejects.toThrow(/answered no gas days for 'eu'.*bad or missing AGSI_API_KEY/);
      expect(dead.asked).toHaveLength(1);
      // Page 2 of 2 empty: not "no more pages" either.
      const recorded = recording('gie-agsi-gas-storage/api_date=2026-06-09.json').toString('utf8').replace('"last_page": 1', '"last_page": 2');
      const half = replayFetch([
        { url: /[?&]page=1&/, body: recorded },
        { url: /[?&]page=2&/, body: empty },
      ]);
      await expect(adapter.download(dir, half.fetch, { agsi: 'k' })).rejects.toThrow(/page=2.*answered no gas days/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
