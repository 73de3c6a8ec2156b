import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Db } from '../db.ts';
import { readCsvRecords } from '../../test/publisher-recordings.ts';
import { imfCommodityPricesSource as adapter } from './imf-commodity-prices.ts';
import { SourceError } from './types.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const mirror = join(process.env.SOURCES_DIR ?? resolve(repoRoot, '../shared/sources'), adapter.id);

const SERIES_CSV = [
  'column,imf_code,data_type,frequency,description',
  'POILAPSP,POILAPSP,Index,Monthly,"Crude Oil (petroleum), Price index, 2016 = 100, simple average of three spot prices; Dated Brent, West Texas Intermediate, and the Dubai Fateh"',
  'PCOPP,PCOPP,USD,Monthly,"Copper, grade A cathode, LME spot price, CIF European ports, US$ per metric ton"',
  'PNICK,PNICK,USD,Monthly,"Nickel, melting grade, LME spot price, CIF European ports, US$ per metric ton"',
  'PCOBA,PCOBA,USD,Monthly,"Cobalt, minimum 99.80% purity, LME spot price, USD/ton"',
  'POILBRE,POILBRE,USD,Monthly,"Crude Oil (petroleum),  Dated Brent, light blend 38 API, fob U.K., US$ per barrel"',
  'PNGASEU,PNGASEU,USD,Monthly,"Natural Gas, Netherlands TTF Natural Gas Forward Day Ahead, US$ per Million Metric British Thermal Unit"',
  'POILAPSP_col44,POILAPSP,USD,Monthly,"Crude Oil (petroleum), Price index, 2016 = 100, simple average of three spot prices; Dated Brent, West Texas Intermediate, and the Dubai Fateh"',
  'PURAN,PURAN,USD,Monthly,"Uranium, NUEXCO, Restricted Price, Nuexco exchange spot, US$ per pound"',
  'PCOFFROB,PCOFFROB,USD,Monthly,"Coffee, Robusta, International Coffee Organization New York cash price, ex-dock New York, US cents per pound"',
  'PTOMATO,PTOMATO,USD,Monthly,"Monthly average consumer prices in metropolitan France - Tomatoes (1 Kg), EUR"',
  'NOCODE_COL91,,USD,Monthly,Manganese Electro CIF NWE (US$/MT)',
  'NOCODE_COL92,,USD,Monthly,Rare Earth Carbonate REO 42-45 Dom.',
].join('\n');

const MONTHLY_CSV = [
  'date,POILAPSP,PCOPP,PNICK,PCOBA,POILBRE,PNGASEU,POILAPSP_col44,PURAN,PCOFFROB,PTOMATO,NOCODE_COL91,NOCODE_COL92',
  // 0.0 for tomatoes before the series starts: not a price.
  '1990-01,,2365.55699088135,7056.0,7630.00011444092,20.98913043478261,,20.36507246376811,9.0,75.8299865722656,0.0,,',
  '2025-09,157.54502851840627,9994.77318181818,15118.37,33482.068181818184,67.98,11.023574537037,67.16848484848487,62.87544369946743,,3.1,2405.5,6529.653408870527',
].join('\n');

const FIXTURE = { 'imf-pcps-monthly.csv': MONTHLY_CSV, 'imf-pcps-series.csv': SERIES_CSV };

const dirs: string[] = [];
async function writeFixture(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'imf-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text + '\n');
  return dir;
}

let db: Db;
beforeAll(async () => {
  db = await Db.open();
});
afterAll(async () => {
  db.close();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe('imf-commodity-prices', () => {
  it('unpivots prices, drops blanks and zero placeholders, parses units', async () => {
    await adapter.load(db, await writeFixture(FIXTURE));
    expect(await db.all(`SELECT code, date, value FROM imf_prices ORDER BY code, date`)).toEqual([
      { code: 'NOCODE_COL91', date: '2025-09-01', value: 2405.5 },
      { code: 'NOCODE_COL92', date: '2025-09-01', value: 6529.653408870527 },
      { code: 'PCOBA', date: '1990-01-01', value: 7630.00011444092 },
      { code: 'PCOBA', date: '2025-09-01', value: 33482.068181818184 },
      { code: 'PCOFFROB', date: '1990-01-01', value: 75.8299865722656 },
      { code: 'PCOPP', date: '1990-01-01', value: 2365.55699088135 },
      { code: 'PCOPP', date: '2025-09-01', value: 9994.77318181818 },
      { code: 'PNGASEU', date: '2025-09-01', value: 11.023574537037 },
      { code: 'PNICK', date: '1990-01-01', value: 7056 },
      { code: 'PNICK', date: '2025-09-01', value: 15118.37 },
      { code: 'POILAPSP', date: '2025-09-01', value: 157.54502851840627 },
      { code: 'POILAPSP_col44', date: '1990-01-01', value: 20.36507246376811 },
      { code: 'POILAPSP_col44', date: '2025-09-01', value: 67.16848484848487 },
      { code: 'POILBRE', date: '1990-01-01', value: 20.98913043478261 },
      { code: 'POILBRE', date: '2025-09-01', value: 67.98 },
      { code: 'PTOMATO', date: '2025-09-01', value: 3.1 },
      { code: 'PURAN', date: '1990-01-01', value: 9 },
      { code: 'PURAN', date: '2025-09-01', value: 62.87544369946743 },
    ]);
    expect(await db.all(`SELECT code, imf_code, data_type, unit FROM imf_series ORDER BY code`)).toEqual([
      { code: 'NOCODE_COL91', imf_code: null, data_type: 'USD', unit: 'US$/t' },
      { code: 'NOCODE_COL92', imf_code: null, data_type: 'USD', unit: null },
      { code: 'PCOBA', imf_code: 'PCOBA', data_type: 'USD', unit: 'US$/t' },
      { code: 'PCOFFROB', imf_code: 'PCOFFROB', data_type: 'USD', unit: 'USc/lb' },
      { code: 'PCOPP', imf_code: 'PCOPP', data_type: 'USD', unit: 'US$/t' },
      { code: 'PNGASEU', imf_code: 'PNGASEU', data_type: 'USD', unit: 'US$/MMBtu' },
      { code: 'PNICK', imf_code: 'PNICK', data_type: 'USD', unit: 'US$/t' },
      { code: 'POILAPSP', imf_code: 'POILAPSP', data_type: 'Index', unit: '2016=100' },
      { code: 'POILAPSP_col44', imf_code: 'POILAPSP', data_type: 'USD', unit: 'US$/bbl' },
      { code: 'POILBRE', imf_code: 'POILBRE', data_type: 'USD', unit: 'US$/bbl' },
      { code: 'PTOMATO', imf_code: 'PTOMATO', data_type: 'USD', unit: 'EUR/kg' },
      { code: 'PURAN', imf_code: 'PURAN', data_type: 'USD', unit: 'US$/lb' },
    ]);
    expect(await db.one(`SELECT description FROM imf_series WHERE code = 'NOCODE_COL92'`)).toEqual({ description: 'Rare Earth Carbonate REO 42-45 Dom.' });
    const types = await db.all(
      `SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_name LIKE 'imf_%' ORDER BY table_name, ordinal_position`,
    );
    expect(types.map((t) => Object.values(t).join(' '))).toEqual([
      'imf_prices code VARCHAR',
      'imf_prices date DATE',
      'imf_prices value DOUBLE',
      'imf_series code VARCHAR',
      'imf_series imf_code VARCHAR',
      'imf_series data_type VARCHAR',
      'imf_series description VARCHAR',
      'imf_series unit VARCHAR',
    ]);
  });

  it('throws SourceError on a missing file, a bad header, an undescribed column or an empty table', async () => {
    const cases: Record<string, string>[] = [
      { 'imf-pcps-monthly.csv': MONTHLY_CSV },
      { ...FIXTURE, 'imf-pcps-monthly.csv': MONTHLY_CSV.replace('PCOBA', 'PCOBALT') },
      { ...FIXTURE, 'imf-pcps-series.csv': SERIES_CSV.replace('column,', 'code,') },
      { ...FIXTURE, 'imf-pcps-series.csv': SERIES_CSV.replace(/\nPURAN,[^\n]*/, '') },
      { ...FIXTURE, 'imf-pcps-monthly.csv': MONTHLY_CSV.replace('1990-01', '1990M01') },
    ];
    for (const files of cases) await expect(adapter.load(db, await writeFixture(files))).rejects.toBeInstanceOf(SourceError);
    const empty = { ...FIXTURE, 'imf-pcps-monthly.csv': MONTHLY_CSV.split('\n')[0]! };
    await expect(adapter.load(db, await writeFixture(empty))).rejects.toThrow(/imf_prices has no rows/);
  });

  it('loads the real mirror', async () => {
    await adapter.load(db, mirror);
    const lines = readFileSync(join(mirror, 'imf-pcps-monthly.csv'), 'utf8').trim().split('\n');
    const header = lines[0]!.split(',');
    const last = lines.at(-1)!.split(',');
    expect(last[0]).toBe('2025-09');
    expect(await db.one(`SELECT max(date) AS d, arg_max(value, date) AS v FROM imf_prices WHERE code = 'PCOBA'`)).toEqual({
      d: '2025-09-01',
      v: Number(last[header.indexOf('PCOBA')]),
    });
    expect(Number(last[header.indexOf('PCOBA')])).toBe(33482.068181818184);
    expect(await db.one(`SELECT min(date) AS d FROM imf_prices WHERE code = 'NOCODE_COL90'`)).toEqual({ d: '2012-06-01' });
    expect(await db.one(`SELECT min(date) AS d FROM imf_prices WHERE code = 'PLMMODY'`)).toEqual({ d: '2010-05-01' });
    expect(await db.one(`SELECT min(date) AS d FROM imf_prices WHERE code = 'PTOMATO'`)).toEqual({ d: '1998-01-01' });
    // 429 months x 94 columns, minus 3,432 empty cells and 192 zero placeholders (PTOMATO, PAPPLE 1990-1997).
    expect(await db.one(`SELECT count(*)::INTEGER AS n, count(DISTINCT code)::INTEGER AS codes FROM imf_prices`)).toEqual({ n: 36702, codes: 94 });
    expect(await db.one(`SELECT count(*)::INTEGER AS n FROM imf_series`)).toEqual({ n: 94 });
    const units = await db.all(
      `SELECT code, unit FROM imf_series WHERE code IN ('PCOPP','PCOBA','PIORECR','PURAN','POILBRE','POILAPSP_col44','PNGASEU','PALLFNF','PWHEAMT') ORDER BY code`,
    );
    expect(units).toEqual([
      { code: 'PALLFNF', unit: '2016=100' },
      { code: 'PCOBA', unit: 'US$/t' },
      { code: 'PCOPP', unit: 'US$/t' },
      { code: 'PIORECR', unit: 'US$/t' },
      { code: 'PNGASEU', unit: 'US$/MMBtu' },
      { code: 'POILAPSP_col44', unit: 'US$/bbl' },
      { code: 'POILBRE', unit: 'US$/bbl' },
      { code: 'PURAN', unit: 'US$/lb' },
      { code: 'PWHEAMT', unit: 'US$/t' },
    ]);
    // IMF states no unit for these (SOURCES.md: chromium, ETM index, lithium, REO, vanadium); Mn and Si say (US$/MT).
    expect(await db.all(`SELECT code, unit FROM imf_series WHERE code LIKE 'NOCODE%' ORDER BY code`)).toEqual([
      { code: 'NOCODE_COL88', unit: null },
      { code: 'NOCODE_COL89', unit: null },
      { code: 'NOCODE_COL90', unit: null },
      { code: 'NOCODE_COL91', unit: 'US$/t' },
      { code: 'NOCODE_COL92', unit: null },
      { code: 'NOCODE_COL93', unit: 'US$/t' },
      { code: 'NOCODE_COL94', unit: null },
    ]);
    expect(await db.one(`SELECT count(*)::INTEGER AS n FROM imf_series WHERE data_type = 'Index' AND unit = '2016=100'`)).toEqual({ n: 18 });
  });

  describe('download', () => {
    // No answer of api.imf.org has been recorded (RECORDINGS.md). This fixture follows the publisher's
    // documentation: SDMX-CSV 1.0 (the SDMX "CSV data format" spec; labels=both writes 'ID: label' in the
    // header and in dimension cells), the PCPS dataflow's columns DATAFLOW, COUNTRY, INDICATOR,
    // DATA_TRANSFORMATION, FREQUENCY, TIME_PERIOD, OBS_VALUE, world G001, transformations USD and INDEX,
    // periods 2025-M09 (as IMF's API and a client tested against it, jalonso1979/puremacro, show them).
    // Its values are the mirror's own for 2025-08/09, so the reshaped file must equal the mirror on them.
    const mirrorRows = readCsvRecords(join(mirror, 'imf-pcps-monthly.csv'));
    const at = (month: string, code: string) => mirrorRows.find((r) => r.date === month)![code]!;
    const line = (indicator: string, transformation: string, month: string, value: string) =>
      `IMF.RES:PCPS(9.0.0),G001: World,"${indicator}",${transformation},M: Monthly,${month.replace('-', '-M')},${value}`;
    const USD = 'USD: US Dollar';
    const INDEX = 'INDEX: Index';
    const SDMX = [
      'DATAFLOW: Dataflow,COUNTRY: Country,INDICATOR: Indicator,DATA_TRANSFORMATION: Data transformation,FREQUENCY: Frequency,TIME_PERIOD: Time period,OBS_VALUE: Observation value',
      line('PCOBA: Cobalt, US$ per metric ton', USD, '2025-08', at('2025-08', 'PCOBA')),
      line('PCOBA: Cobalt, US$ per metric ton', USD, '2025-09', at('2025-09', 'PCOBA')),
      line('PCOBA: Cobalt, US$ per metric ton', INDEX, '2025-09', '250.1'),
      line('PCOPP: Copper, US$ per metric ton', USD, '2025-09', at('2025-09', 'PCOPP')),
      line('PNICK: Nickel, US$ per metric ton', USD, '2025-09', at('2025-09', 'PNICK')),
      line('POILBRE: Crude oil, Brent, US$ per barrel', USD, '2025-09', at('2025-09', 'POILBRE')),
      line('PNGASEU: Natural gas, EU, US$ per Million Metric British Thermal Unit', USD, '2025-09', at('2025-09', 'PNGASEU')),
      line('POILAPSP: Crude oil, average', USD, '2025-09', at('2025-09', 'POILAPSP_col44')),
      line('POILAPSP: Crude oil, average', INDEX, '2025-09', at('2025-09', 'POILAPSP')),
      line('PALLFNF: All Commodity Price Index, 2016 = 100', INDEX, '2025-09', at('2025-09', 'PALLFNF')),
      // Another area in the answer must not mix into the world columns.
      'IMF.RES:PCPS(9.0.0),G998: Other,"PCOPP: Copper, US$ per metric ton",USD: US Dollar,M: Monthly,2025-M09,1',
    ].join('\r\n');
    let server: Server;
    let base = '';
    let accept = '';
    beforeAll(async () => {
      server = createServer((req, res) => {
        if (req.url !== '/external/sdmx/2.1/data/IMF.RES,PCPS/G001..INDEX+USD.M?startPeriod=1990-01&detail=dataonly') {
          res.writeHead(404).end();
          return;
        }
        accept = String(req.headers.accept);
        res.writeHead(200, { 'content-type': 'application/vnd.sdmx.data+csv; charset=utf-8' });
        res.end(SDMX);
      });
      await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((ok) => server.close(() => ok())));
    const fetchLocal: typeof fetch = (input, init) => fetch(String(input).replace('https://api.imf.org', base), init);

    // The answer's newest month, 2025-09, was current in October 2025: the build's clock is set there.
    beforeEach(() => vi.useFakeTimers({ now: new Date('2025-10-20T12:00:00Z'), toFake: ['Date'] }));
    afterEach(() => vi.useRealTimers());

    it('refuses an answer whose newest month has not advanced as the monthly cadence says it should', async () => {
      vi.setSystemTime(new Date('2026-11-27T12:00:00Z'));
      await expect(adapter.download(await writeFixture({}), fetchLocal)).rejects.toThrow(/serves data up to 2025-09 only; by the publisher's monthly cadence/);
    });

    it('reshapes SDMX-CSV to the mirror layout and loads it', async () => {
      const dir = await writeFixture({});
      await adapter.download(dir, fetchLocal);
      expect(accept).toContain('labels=both');
      const ours = readCsvRecords(join(dir, 'imf-pcps-monthly.csv'));
      expect(Object.keys(ours[0]!)).toEqual(['date', 'PCOBA', 'PCOPP', 'PNICK', 'POILBRE', 'PNGASEU', 'POILAPSP_col44', 'POILAPSP', 'PALLFNF']);
      // Every cell the answer shares with the mirror (9 of them) is the mirror's.
      const cells = ours.flatMap((r) =>
        Object.entries(r)
          .filter(([k, v]) => k !== 'date' && v !== '')
          .map(([k, v]) => [r.date, k, v]),
      );
      expect(cells).toHaveLength(9);
      for (const [month, code, v] of cells) expect([month, code, v]).toEqual([month, code, at(month!, code!)]);
      await adapter.load(db, dir);
      expect(await db.all(`SELECT code, date, value FROM imf_prices WHERE code IN ('PCOBA', 'POILAPSP') ORDER BY code, date`)).toEqual([
        { code: 'PCOBA', date: '2025-08-01', value: Number(at('2025-08', 'PCOBA')) },
        { code: 'PCOBA', date: '2025-09-01', value: Number(at('2025-09', 'PCOBA')) },
        { code: 'POILAPSP', date: '2025-09-01', value: Number(at('2025-09', 'POILAPSP')) },
      ]);
      expect(
        await db.all(`SELECT code, imf_code, data_type, description, unit FROM imf_series WHERE code IN ('PCOBA', 'PALLFNF', 'POILAPSP_col44') ORDER BY code`),
      ).toEqual([
        { code: 'PALLFNF', imf_code: 'PALLFNF', data_type: 'Index', description: 'All Commodity Price Index, 2016 = 100', unit: '2016=100' },
        { code: 'PCOBA', imf_code: 'PCOBA', data_type: 'USD', description: 'Cobalt, US$ per metric ton', unit: 'US$/t' },
        { code: 'POILAPSP_col44', imf_code: 'POILAPSP', data_type: 'USD', description: 'Crude oil, average', unit: 'US$/bbl' },
      ]);
    });
  });
});
