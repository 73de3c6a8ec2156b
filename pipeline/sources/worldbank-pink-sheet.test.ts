import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Db } from '../db.ts';
import { SourceError } from './types.ts';
import { CMO_LISTING, worldbankPinkSheetSource as adapter } from './worldbank-pink-sheet.ts';
import { readCsvRecords, recording, replayFetch } from '../../test/publisher-recordings.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const mirror = join(process.env.SOURCES_DIR ?? resolve(repoRoot, '../shared/sources'), adapter.id);

const FIXTURE: Record<string, string> = {
  'cmo-monthly-prices.csv': [
    'date,"Crude oil, Brent","Natural gas, Europe","Liquefied natural gas, Japan",Copper,"Coal, South African **"',
    '1960-01,1.63,0.4,,715.4,',
    '2026-05,107.54,16.17,15.77,13543.19,95.56',
  ].join('\n'),
  'cmo-monthly-indices.csv': ['date,Total Index,Energy,Metals  & Minerals', '2026-04,139.96,146.7,143.57', '2026-05,132.43,133.91,148.82'].join('\n'),
  // A trailing space on one name (as in the workbook) and an index row that must not land in worldbank_series.
  'cmo-series.csv': [
    'sheet,column,unit',
    'Monthly Prices,"Crude oil, Brent",($/bbl)',
    'Monthly Prices,"Natural gas, Europe",($/mmbtu)',
    'Monthly Prices,"Liquefied natural gas, Japan",($/mmbtu)',
    'Monthly Prices,Copper,($/mt)',
    'Monthly Prices,"Coal, South African ** ",($/mt)',
    'Monthly Indices,Metals  & Minerals,(2010=100)',
  ].join('\n'),
};

const dirs: string[] = [];
async function writeFixture(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wb-'));
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

describe('worldbank-pink-sheet', () => {
  it('unpivots prices and indices, keeps header text, strips unit parentheses', async () => {
    await adapter.load(db, await writeFixture(FIXTURE));
    expect(await db.all(`SELECT series, date, value FROM worldbank_prices ORDER BY series, date`)).toEqual([
      { series: 'Coal, South African **', date: '2026-05-01', value: 95.56 },
      { series: 'Copper', date: '1960-01-01', value: 715.4 },
      { series: 'Copper', date: '2026-05-01', value: 13543.19 },
      { series: 'Crude oil, Brent', date: '1960-01-01', value: 1.63 },
      { series: 'Crude oil, Brent', date: '2026-05-01', value: 107.54 },
      { series: 'Liquefied natural gas, Japan', date: '2026-05-01', value: 15.77 },
      { series: 'Natural gas, Europe', date: '1960-01-01', value: 0.4 },
      { series: 'Natural gas, Europe', date: '2026-05-01', value: 16.17 },
    ]);
    expect(await db.all(`SELECT series, unit FROM worldbank_series ORDER BY series`)).toEqual([
      { series: 'Coal, South African **', unit: '$/mt' },
      { series: 'Copper', unit: '$/mt' },
      { series: 'Crude oil, Brent', unit: '$/bbl' },
      { series: 'Liquefied natural gas, Japan', unit: '$/mmbtu' },
      { series: 'Natural gas, Europe', unit: '$/mmbtu' },
    ]);
    expect(await db.all(`SELECT series, date, value FROM worldbank_indices WHERE series LIKE 'Metals%' ORDER BY date`)).toEqual([
      { series: 'Metals  & Minerals', date: '2026-04-01', value: 143.57 },
      { series: 'Metals  & Minerals', date: '2026-05-01', value: 148.82 },
    ]);
    const types = await db.all(
      `SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_name LIKE 'worldbank_%' ORDER BY table_name, ordinal_position`,
    );
    expect(types.map((t) => Object.values(t).join(' '))).toEqual([
      'worldbank_indices series VARCHAR',
      'worldbank_indices date DATE',
      'worldbank_indices value DOUBLE',
      'worldbank_prices series VARCHAR',
      'worldbank_prices date DATE',
      'worldbank_prices value DOUBLE',
      'worldbank_series series VARCHAR',
      'worldbank_series unit VARCHAR',
    ]);
  });

  it('throws SourceError on a missing file, a bad header, a price without unit or an empty table', async () => {
    const { 'cmo-series.csv': _, ...missing } = FIXTURE;
    const cases: Record<string, string>[] = [
      missing,
      { ...FIXTURE, 'cmo-monthly-prices.csv': 'month,"Crude oil, Brent"\n2026-05,1' },
      { ...FIXTURE, 'cmo-monthly-indices.csv': 'date,Energy\n2026-05,1' },
      { ...FIXTURE, 'cmo-series.csv': FIXTURE['cmo-series.csv']!.replace('Monthly Prices,Copper,($/mt)\n', '') },
      { ...FIXTURE, 'cmo-monthly-prices.csv': FIXTURE['cmo-monthly-prices.csv']!.replace('16.17', '…') },
    ];
    for (const files of cases) await expect(adapter.load(db, await writeFixture(files))).rejects.toBeInstanceOf(SourceError);
    const empty = { ...FIXTURE, 'cmo-monthly-indices.csv': 'date,Total Index,Energy' };
    await expect(adapter.load(db, await writeFixture(empty))).rejects.toThrow(/worldbank_indices has no rows/);
  });

  it('loads the real mirror', async () => {
    await adapter.load(db, mirror);
    const last = readFileSync(join(mirror, 'cmo-monthly-prices.csv'), 'utf8').trim().split('\n').at(-1)!;
    expect(last.startsWith('2026-05,100.43,107.54,94.67,99.09,136.86,95.56,2.93,16.17,15.77,')).toBe(true);
    expect(await db.one(`SELECT max(date) AS d, arg_max(value, date) AS v FROM worldbank_prices WHERE series = 'Natural gas, Europe'`)).toEqual({
      d: '2026-05-01',
      v: 16.17,
    });
    expect(await db.one(`SELECT value FROM worldbank_prices WHERE series = 'Crude oil, Brent' AND date = '2026-05-01'`)).toEqual({ value: 107.54 });
    expect(await db.one(`SELECT value FROM worldbank_prices WHERE series = 'Liquefied natural gas, Japan' AND date = '2026-02-01'`)).toEqual({ value: 11.32 });
    expect(await db.one(`SELECT min(date) AS first, max(date) AS last FROM worldbank_prices`)).toEqual({ first: '1960-01-01', last: '2026-05-01' });
    // 797 months x 71 series minus 6,420 empty cells; 797 x 16 indices, none empty.
    const counts = `SELECT (SELECT count(*) FROM worldbank_prices)::INTEGER AS p, (SELECT count(DISTINCT series) FROM worldbank_prices)::INTEGER AS ps,
      (SELECT count(*) FROM worldbank_indices)::INTEGER AS i, (SELECT count(*) FROM worldbank_series)::INTEGER AS s`;
    expect(await db.one(counts)).toEqual({ p: 50167, ps: 71, i: 12752, s: 71 });
    expect(
      await db.all(
        `SELECT series, unit FROM worldbank_series WHERE series IN ('Natural gas, Europe', 'Iron ore, cfr spot', 'Potassium chloride **', 'Gold') ORDER BY series`,
      ),
    ).toEqual([
      { series: 'Gold', unit: '$/troy oz' },
      { series: 'Iron ore, cfr spot', unit: '$/dmtu' },
      { series: 'Natural gas, Europe', unit: '$/mmbtu' },
      { series: 'Potassium chloride **', unit: '$/mt' },
    ]);
    expect(await db.one(`SELECT value FROM worldbank_indices WHERE series = 'Metals  & Minerals' AND date = '2026-05-01'`)).toEqual({ value: 148.82 });
  });

  describe('download', () => {
    const RECORDED = 'worldbank-pink-sheet/CMO-Historical-Data-Monthly.2026-06-02.xlsx';
    const CURRENT = CMO_LISTING.known;
    // No recording of the commodity-markets page exists (RECORDINGS.md): this stands for it, built from
    // what scrapers of that page document (an <a> whose href is the thedocs.worldbank.org file).
    const LISTING_PAGE = `<html><body><h3>Pink Sheet Data</h3><ul>
      <li><a href="https://thedocs.worldbank.org/en/doc/74e8be41ceb20fa0da750cda2f6b9e4e-0050012026/related/CMO-Historical-Data-Monthly.xlsx">Monthly prices</a></li>
      <li><a href="https://thedocs.worldbank.org/en/doc/74e8be41ceb20fa0da750cda2f6b9e4e-0050012026/related/CMO-Historical-Data-Annual.xlsx">Annual prices</a></li></ul></body></html>`;
    const publisher = (workbookBody: Buffer, page = LISTING_PAGE) =>
      replayFetch([
        { url: /^https:\/\/www\.worldbank\.org\/en\/research\/commodity-markets$/, body: page },
        { url: new RegExp(`^${CURRENT.replaceAll('.', '\\.')}$`), body: workbookBody },
      ]);
    // The recorded edition was current in June 2026; the build's clock is set there so the freshness check passes.
    beforeEach(() => vi.useFakeTimers({ now: new Date('2026-06-10T12:00:00Z'), toFake: ['Date'] }));
    afterEach(() => vi.useRealTimers());

    it('reads the real 2026-06-02 workbook: every price and index column, equal to the mirror cell by cell', async () => {
      const dir = await writeFixture({});
      const lines: string[] = [];
      const { fetch: f, asked } = publisher(recording(RECORDED));
      await adapter.download(dir, f, { log: (l) => lines.push(l) });
      expect(asked).toEqual([CMO_LISTING.page, CURRENT]);
      expect(lines).toEqual([`worldbank-pink-sheet: edition address found on ${CMO_LISTING.page}: ${CURRENT}`]);
      // Same workbook as the mirror, so every file must match it exactly: 797 months x 71 prices, x 16 indices.
      for (const file of ['cmo-monthly-prices.csv', 'cmo-monthly-indices.csv', 'cmo-series.csv']) {
        const ours = readCsvRecords(join(dir, file));
        const theirs = readCsvRecords(join(mirror, file));
        expect(ours.length, file).toBe(theirs.length);
        expect(Object.keys(ours[0]!), file).toEqual(Object.keys(theirs[0]!));
        expect(ours, file).toEqual(theirs);
      }
      expect(Object.keys(readCsvRecords(join(dir, 'cmo-monthly-indices.csv'))[0]!)).toHaveLength(17);
      await adapter.load(db, dir);
      expect(await db.one(`SELECT (SELECT count(*) FROM worldbank_prices)::INTEGER AS p, (SELECT count(*) FROM worldbank_indices)::INTEGER AS i`)).toEqual({
        p: 50167,
        i: 12752,
      });
    });

    it('uses the configured address over the listed one, and the last known one when the page lists none', async () => {
      const lines: string[] = [];
      const { fetch: f, asked } = publisher(recording(RECORDED), '<html>maintenance</html>');
      await adapter.download(await writeFixture({}), f, { log: (l) => lines.push(l) });
      expect(asked).toEqual([CMO_LISTING.page, CURRENT]);
      expect(lines[0]).toMatch(/lists no link to the file; using the last known edition address/);
      const configured = replayFetch([{ url: /^https:\/\/mirror\.example\/cmo\.xlsx$/, body: recording(RECORDED) }]);
      await adapter.download(await writeFixture({}), configured.fetch, { worldbankCmoUrl: 'https://mirror.example/cmo.xlsx' });
      expect(configured.asked).toEqual(['https://mirror.example/cmo.xlsx']);
    });

    it('refuses a file whose newest month has not advanced as the monthly cadence says it should', async () => {
      vi.setSystemTime(new Date('2026-11-27T12:00:00Z'));
      const { fetch: f } = publisher(recording(RECORDED));
      await expect(adapter.download(await writeFixture({}), f)).rejects.toThrow(
        /serves data up to 2026-05 only; by the publisher's monthly cadence a newer period was due by/,
      );
    });

    it('reads the 2025 layout too (a row of series codes under the units, indices without a unit row)', async () => {
      const dir = await writeFixture({});
      vi.setSystemTime(new Date('2026-06-10T12:00:00Z'));
      await adapter.download(dir, publisher(Buffer.from(await workbook())).fetch);
      expect(readFileSync(join(dir, 'cmo-monthly-prices.csv'), 'utf8')).toBe(
        'date,"Crude oil, Brent","Natural gas, Europe","Liquefied natural gas, Japan",Copper,"Coal, South African **"\r\n' +
          '1960-01,1.63,0.4,,715.4,\r\n2026-05,107.54,16.17,15.77,13543.19,95.56\r\n',
      );
      expect(readFileSync(join(dir, 'cmo-monthly-indices.csv'), 'utf8')).toBe(
        'date,Total Index,Energy,Non-energy **,Agriculture **,Metals  & Minerals\r\n2026-05,132.43,133.91,129.45,116.11,148.82\r\n',
      );
      expect(readFileSync(join(dir, 'cmo-series.csv'), 'utf8')).toContain(
        'Monthly Prices,"Coal, South African **",($/mt)\r\nMonthly Indices,Total Index,(2010=100)\r\n',
      );
      await adapter.load(db, dir);
      expect(await db.all(`SELECT series, value FROM worldbank_indices ORDER BY series`)).toEqual([
        { series: 'Agriculture **', value: 116.11 },
        { series: 'Energy', value: 133.91 },
        { series: 'Metals  & Minerals', value: 148.82 },
        { series: 'Non-energy **', value: 129.45 },
        { series: 'Total Index', value: 132.43 },
      ]);
    });

    it('fails clearly on an answer that is not a workbook', async () => {
      const { fetch: f } = publisher(Buffer.from('<html>Access denied</html>'));
      await expect(adapter.download(await writeFixture({}), f)).rejects.toThrow(/is not a readable xlsx workbook/);
    });
  });
});

/**
 * A small workbook laid out like the 2025 editions of CMO-Historical-Data-Monthly.xlsx (RECORDINGS.md):
 * prices with names, units and a row of series codes; indices with the base in the title, a note in
 * parentheses in column A, multi-level names and a row of codes, but no unit row.
 */
async function workbook(): Promise<ArrayBuffer> {
  const wb = new ExcelJS.Workbook();
  const p = wb.addWorksheet('Monthly Prices');
  p.addRow(['World Bank Commodity Price Data (The Pink Sheet)']);
  p.addRow(['Updated on June 02, 2026']);
  p.addRow([]);
  p.addRow([null, 'Crude oil, Brent', 'Natural gas, Europe', 'Liquefied natural gas, Japan', 'Copper', 'Coal, South African ** ']);
  p.addRow([null, '($/bbl)', '($/mmbtu)', '($/mmbtu)', '($/mt)', '($/mt)']);
  p.addRow([null, 'CRUDE_BRENT', 'NGAS_EUR', 'NGAS_JP', 'COPPER', 'COAL_SAFRICA']);
  p.addRow(['1960M01', 1.63, 0.4, '…', { formula: 'E8', result: 715.4 }, '...']);
  p.addRow(['2026M05', 107.54, 16.17, 15.77, 13543.19, 95.56]);
  const i = wb.addWorksheet('Monthly Indices');
  i.addRow(['World Bank Commodity Price Data (The Pink Sheet)']);
  i.addRow(['monthly indices based on nominal US dollars, 2010=100, 1960 to present']);
  i.addRow(['(monthly series are available only in nominal US dollar terms)']);
  i.addRow([null, 'Total Index', 'Energy', 'Non-energy **']);
  i.addRow([null, null, null, null, 'Agriculture **', 'Metals  & Minerals']);
  i.addRow([null, 'iTOTAL', 'iENERGY', 'iNONFUEL', 'iAGRICULTURE', 'iMETMIN']);
  i.addRow(['2026M05', 132.43, 133.91, 129.45, 116.11, 148.82]);
  return (await wb.xlsx.writeBuffer()) as ArrayBuffer;
}
