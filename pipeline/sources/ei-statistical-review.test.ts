import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Db } from '../db.ts';
import { EI_LISTING, convertWorkbook, eiStatisticalReview2026Source as ei2026, eiStatisticalReviewSource as ei } from './ei-statistical-review.ts';
import { editionAddress } from './edition.ts';
import { compareByKey, readCsvRecords, recording, replayFetch } from '../../test/publisher-recordings.ts';
import { SourceError } from './types.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const WORKBOOK_2024 = 'ei-statistical-review/EI-Stats-Review-All-Data.2024.xlsx';
const WORKBOOK_2026 = 'ei-statistical-review/EI-Stats-Review-ALL-data.2026.xlsx';
const mirror = join(process.env.SOURCES_DIR ?? resolve(repoRoot, '../shared/sources'), ei.id);

const FILES: Record<string, string> = {
  'ei_energy_country_year.csv': [
    'sheet,unit,section,country,year,value,flag',
    'Gas Production - Bcm,Billion cubic metres,,Germany,2023,3.8,',
    'Gas Production - Bcm,Billion cubic metres,,Total World,2023,4059.8,',
    'Gas Production - Bcm,Billion cubic metres,,of which: OECD,2023,1700,',
    'Gas Production - Bcm,Billion cubic metres,,European Union #,2023,33,',
    'Gas Production - Bcm,Billion cubic metres,,USSR,1985,600,',
    'Gas - Proved reserves history,Trillion cubic metres,,Iraq,2020,,n/a',
    'Gas - Proved reserves history,Trillion cubic metres,,Iraq,2019,,',
    'Hydro Consumption - EJ,Exajoules (input-equivalent)*,,Other Europe*,2023,1.5,',
    'Coal - Trade movements,Exajoules,Imports,China Hong Kong SAR,2023,0.2,',
  ].join('\n'),
  'ei_minerals_mine_production.csv': [
    'sheet,unit,country,year,value,flag',
    'Cobalt P-R,Thousand tonnes,DR Congo,2023,139.838,',
    'Cobalt P-R,Thousand tonnes,Rest of World2,2023,20.9,',
    'Rare Earth metals P-R,Thousand tonnes1,Brazil1,2023,0.08,',
    'Natural Graphite P-R,Thousand tonnes,US,2023,,n/a',
    'Platinum Group Metals P-R,Thousand tonnes,South Africa,2023,0.2,',
  ].join('\n'),
  'ei_minerals_reserves.csv': [
    'sheet,unit,reserves_as_of,country,value,flag',
    'Natural Graphite P-R,Thousand tonnes,At end of 2023,India2,8600,',
    'Natural Graphite P-R,Thousand tonnes,At end of 2023,Total World,364395.4,',
  ].join('\n'),
  'ei_mineral_prices.csv': ['Year,Cobalt1,Lithium carbonate2,Lithium Iron Phosphate Cells7', '2022,67.05,70.1,', '2023,35.43,41.9,95.5'].join('\n'),
  'ei_trade_movements_2023.csv': [
    'sheet,unit,flow,exporter,importer,value,flag',
    'Gas trade - pipeline,Billion cubic metres,natural gas (pipeline),Russian Federation,Europe,49.8,',
    'Gas trade - pipeline,Billion cubic metres,natural gas (pipeline),Norway,EU,80.1,',
    'Gas trade - pipeline,Billion cubic metres,natural gas (pipeline),US,Mexico,0,',
    'Gas trade - pipeline,Billion cubic metres,natural gas (pipeline),Total imports,Mexico,60,',
    'Gas trade - pipeline,Billion cubic metres,natural gas (pipeline),US,Total exports,80,',
    'Gas trade - LNG,Billion cubic metres,natural gas (LNG),Other Europe*,Trinidad & Tobago,1.5,',
    'Coal trade movements 2023,Exajoules,coal,Russia,Total,5,',
  ].join('\n'),
};

async function fixtureDir(files: Record<string, string> = FILES): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ei-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text + '\n');
  return dir;
}

describe('ei-statistical-review-2024 adapter', () => {
  let db: Db;
  beforeAll(async () => (db = await Db.open()));
  afterAll(() => db.close());

  it('strips footnotes, flags aggregates, drops n/a, totals and zero flows', async () => {
    await ei.load(db, await fixtureDir());
    expect(await db.all(`SELECT country, is_aggregate, year, value, unit, section FROM ei_energy ORDER BY country, year`)).toEqual([
      { country: 'China Hong Kong SAR', is_aggregate: false, year: 2023, value: 0.2, unit: 'Exajoules', section: 'Imports' },
      { country: 'European Union', is_aggregate: true, year: 2023, value: 33, unit: 'Billion cubic metres', section: null },
      { country: 'Germany', is_aggregate: false, year: 2023, value: 3.8, unit: 'Billion cubic metres', section: null },
      { country: 'Other Europe', is_aggregate: true, year: 2023, value: 1.5, unit: 'Exajoules (input-equivalent)', section: null },
      { country: 'Total World', is_aggregate: true, year: 2023, value: 4059.8, unit: 'Billion cubic metres', section: null },
      { country: 'USSR', is_aggregate: true, year: 1985, value: 600, unit: 'Billion cubic metres', section: null },
      { country: 'of which: OECD', is_aggregate: true, year: 2023, value: 1700, unit: 'Billion cubic metres', section: null },
    ]);
    expect(await db.all(`SELECT mineral, unit, country, is_aggregate, value FROM ei_mine_production ORDER BY mineral, country`)).toEqual([
      { mineral: 'cobalt', unit: 'Thousand tonnes', country: 'DR Congo', is_aggregate: false, value: 139.838 },
      { mineral: 'cobalt', unit: 'Thousand tonnes', country: 'Rest of World', is_aggregate: true, value: 20.9 },
      { mineral: 'pgm', unit: 'Thousand tonnes', country: 'South Africa', is_aggregate: false, value: 0.2 },
      { mineral: 'rare_earths', unit: 'Thousand tonnes', country: 'Brazil', is_aggregate: false, value: 0.08 },
    ]);
    expect(await db.all(`SELECT mineral, as_of, country, is_aggregate, value FROM ei_mineral_reserves ORDER BY country`)).toEqual([
      { mineral: 'graphite', as_of: 'At end of 2023', country: 'India', is_aggregate: false, value: 8600 },
      { mineral: 'graphite', as_of: 'At end of 2023', country: 'Total World', is_aggregate: true, value: 364395.4 },
    ]);
    expect(await db.all(`SELECT series, unit, year, value FROM ei_mineral_prices ORDER BY series, year`)).toEqual([
      { series: 'Cobalt', unit: 'thousand US$/t', year: 2022, value: 67.05 },
      { series: 'Cobalt', unit: 'thousand US$/t', year: 2023, value: 35.43 },
      { series: 'Lithium Iron Phosphate Cells', unit: 'US$/kWh', year: 2023, value: 95.5 },
      { series: 'Lithium carbonate', unit: 'thousand US$/t', year: 2022, value: 70.1 },
      { series: 'Lithium carbonate', unit: 'thousand US$/t', year: 2023, value: 41.9 },
    ]);
    expect(await db.all(`SELECT exporter, exporter_is_aggregate, importer, importer_is_aggregate, value FROM ei_trade ORDER BY exporter`)).toEqual([
      { exporter: 'Norway', exporter_is_aggregate: false, importer: 'EU', importer_is_aggregate: true, value: 80.1 },
      { exporter: 'Other Europe', exporter_is_aggregate: true, importer: 'Trinidad & Tobago', importer_is_aggregate: false, value: 1.5 },
      { exporter: 'Russian Federation', exporter_is_aggregate: false, importer: 'Europe', importer_is_aggregate: true, value: 49.8 },
    ]);
  });

  it('throws SourceError for a missing file, a bad header or an empty table', async () => {
    const { ['ei_minerals_reserves.csv']: _dropped, ...withoutReserves } = FILES;
    await expect(ei.load(db, await fixtureDir(withoutReserves))).rejects.toBeInstanceOf(SourceError);
    await expect(ei.load(db, await fixtureDir({ ...FILES, 'ei_energy_country_year.csv': 'sheet,country,value\nX,Y,1' }))).rejects.toBeInstanceOf(SourceError);
    await expect(ei.load(db, await fixtureDir({ ...FILES, 'ei_mineral_prices.csv': 'Year,Cobalt1\n2023,' }))).rejects.toBeInstanceOf(SourceError);
  });

  it('loads the real 2024 edition', async () => {
    await ei.load(db, mirror);
    const gas = await db.all(`SELECT sheet, value FROM ei_energy WHERE country = 'Germany' AND year = 2023
                              AND sheet IN ('Gas Production - Bcm', 'Gas Consumption - Bcm') ORDER BY sheet`);
    expect(gas).toEqual([
      { sheet: 'Gas Consumption - Bcm', value: 75.6638138552003 },
      { sheet: 'Gas Production - Bcm', value: 3.8061187027960317 },
    ]);
    expect(await db.one(`SELECT count(*)::INTEGER AS n FROM ei_energy`)).toEqual({ n: 101326 - 279 });
    const minerals = await db.all<{ mineral: string }>(`SELECT DISTINCT mineral FROM ei_mine_production ORDER BY mineral`);
    expect(minerals.map((m) => m.mineral)).toEqual(['cobalt', 'copper', 'graphite', 'lithium', 'manganese', 'nickel', 'pgm', 'rare_earths']);
    expect(
      await db.one(`SELECT country, value FROM ei_mine_production WHERE mineral = 'cobalt' AND year = 2023 AND NOT is_aggregate ORDER BY value DESC LIMIT 1`),
    ).toEqual({ country: 'DR Congo', value: 139.838 });
    expect(await db.one(`SELECT unit FROM ei_mine_production WHERE mineral = 'rare_earths' LIMIT 1`)).toEqual({ unit: 'Thousand tonnes' });
    expect(await db.one(`SELECT value FROM ei_mineral_reserves WHERE mineral = 'lithium' AND country = 'Chile'`)).toEqual({ value: 9299.999999999998 });
    expect(await db.one(`SELECT value FROM ei_mineral_prices WHERE series = 'Cobalt' AND year = 2023`)).toEqual({ value: 35.43697002083333 });
    expect(await db.one(`SELECT count(DISTINCT series)::INTEGER AS n FROM ei_mineral_prices`)).toEqual({ n: 8 });
    expect(await db.one(`SELECT count(*)::INTEGER AS n FROM ei_trade WHERE lower(exporter) LIKE 'total%' OR lower(importer) LIKE 'total%'`)).toEqual({ n: 0 });
    expect(await db.one(`SELECT value FROM ei_trade WHERE sheet = 'Gas trade - pipeline' AND exporter = 'US' AND importer = 'Canada'`)).toEqual({
      value: 27.966241028158123,
    });
  });

  // Value tables keyed as the mirror's rows are: the comparison of a conversion with the mirror.
  const keyed = (rows: Record<string, string>[], cols: readonly string[]) =>
    new Map(rows.filter((r) => r.value !== '').map((r) => [cols.map((c) => r[c]!.trim()).join('|'), Number(r.value)]));
  const KEYS = {
    'ei_energy_country_year.csv': ['sheet', 'section', 'country', 'year'],
    'ei_minerals_mine_production.csv': ['sheet', 'country', 'year'],
    'ei_minerals_reserves.csv': ['sheet', 'country'],
    'ei_trade_movements_2023.csv': ['sheet', 'flow', 'exporter', 'importer'],
  } as const;

  it('downloads the real 2024 workbook: every file equal to the mirror, oil and coal trade kept', async () => {
    const publisher = replayFetch([{ url: /\/__data\/assets\/excel_doc\/0020\/1540550\/EI-Stats-Review-All-Data\.xlsx$/, body: recording(WORKBOOK_2024) }]);
    const dir = await mkdtemp(join(tmpdir(), 'ei-dl-'));
    await ei.download(dir, publisher.fetch);
    expect(publisher.asked).toHaveLength(1);
    const figures: Record<string, [number, number, number]> = {};
    for (const [file, cols] of Object.entries(KEYS)) {
      const ours = readCsvRecords(join(dir, file));
      const theirs = readCsvRecords(join(mirror, file));
      const cmp = compareByKey(keyed(ours, cols), keyed(theirs, cols));
      expect([cmp.onlyOurs, cmp.onlyTheirs], file).toEqual([[], []]);
      figures[file] = [ours.length, cmp.shared, cmp.maxDiff];
    }
    // rows read, rows compared with the mirror, largest difference
    expect(figures).toEqual({
      'ei_energy_country_year.csv': [101326, 101047, 0],
      'ei_minerals_mine_production.csv': [1773, 1773, 0],
      'ei_minerals_reserves.csv': [81, 81, 0],
      'ei_trade_movements_2023.csv': [2386, 2386, 0],
    });
    expect(readCsvRecords(join(dir, 'ei_mineral_prices.csv'))).toEqual(readCsvRecords(join(mirror, 'ei_mineral_prices.csv')));
    // Loaded, the trade table is the mirror's: 1,043 flows, 617 of them crude, product and coal flows that the
    // converter used to drop (keeping the 426 gas flows), so that the plausibility gate refused every build.
    const flows = `SELECT flow, count(*)::INTEGER AS n FROM ei_trade GROUP BY flow ORDER BY flow`;
    await ei.load(db, dir);
    const downloaded = await db.all(flows);
    await ei.load(db, mirror);
    expect(downloaded).toEqual(await db.all(flows));
    expect((downloaded as { flow: string; n: number }[]).map((r) => [r.flow, r.n])).toEqual([
      ['coal', expect.any(Number)],
      ['crude oil', expect.any(Number)],
      ['natural gas (LNG)', expect.any(Number)],
      ['natural gas (pipeline)', expect.any(Number)],
      ['oil products', expect.any(Number)],
    ]);
    const n = (flow: string) => (downloaded as { flow: string; n: number }[]).filter((r) => r.flow === flow).reduce((a, r) => a + r.n, 0);
    expect([n('coal') + n('crude oil') + n('oil products'), n('natural gas (LNG)') + n('natural gas (pipeline)')]).toEqual([617, 426]);
  });

  it('converts the real 2026 workbook (data year 2025): shared rows equal the mirror conversion', async () => {
    const wb = new ExcelJS.Workbook();
    const bytes = recording(WORKBOOK_2026);
    await wb.xlsx.load(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    const dir = await mkdtemp(join(tmpdir(), 'ei-2026-'));
    await convertWorkbook(wb, dir);
    const edition2026 = join(mirror, '..', 'ei-statistical-review-2026');
    const long = readCsvRecords(join(edition2026, 'ei2026_country_year_long.csv'));
    const figures: Record<string, [number, number, number, number]> = {};
    for (const [file, theirs] of [
      ['ei_energy_country_year.csv', long],
      ['ei_minerals_mine_production.csv', long],
      ['ei_minerals_reserves.csv', readCsvRecords(join(edition2026, 'ei2026_minerals_reserves.csv'))],
    ] as const) {
      const cols = KEYS[file];
      const ours = readCsvRecords(join(dir, file));
      const cmp = compareByKey(keyed(ours, cols), keyed(theirs, cols));
      // Every value we convert is in the mirror's conversion (which also holds sheets we do not keep).
      figures[file] = [ours.length, cmp.shared, cmp.maxDiff, cmp.onlyOurs.length];
    }
    expect(figures).toEqual({
      // Total energy supply (TES), which replaces primary energy consumption in the 2026 edition, is kept too.
      'ei_energy_country_year.csv': [104596, 104317, 0, 0],
      'ei_minerals_mine_production.csv': [2360, 2348, 0, 0],
      'ei_minerals_reserves.csv': [120, 120, 0, 0],
    });
    // The matrices the mirror's conversion left out, read from the workbook: 2025 gas and coal, oil of 2024.
    const trade = readCsvRecords(join(dir, 'ei_trade_movements_2023.csv'));
    const bySheet = Object.fromEntries(
      [...new Set(trade.map((r) => `${r.sheet} / ${r.flow}`))].map((k) => [k, trade.filter((r) => `${r.sheet} / ${r.flow}` === k).length]),
    );
    expect(Object.keys(bySheet).sort()).toEqual([
      'Coal trade movements 2025 / coal',
      'Gas trade 2025 - LNG / natural gas (LNG)',
      'Gas trade 2025 - pipeline / natural gas (pipeline)',
      'Oil - Inter-area movements / crude oil',
      'Oil - Inter-area movements / oil products',
    ]);
    expect(trade.find((r) => r.flow === 'natural gas (LNG)' && r.exporter === 'Trinidad & Tobago' && r.importer === 'Canada')?.value).toBe(
      '0.5207286706965807',
    );
    expect(trade.find((r) => r.flow === 'crude oil' && r.exporter === 'Canada' && r.importer === 'US')?.value).toBe('194.7094133697135');
  });

  it('refuses a workbook that has lost a trade matrix', async () => {
    const wb = new ExcelJS.Workbook();
    const gas = wb.addWorksheet('Gas Production - Bcm');
    gas.addRow(['Billion cubic metres', 2022, 2023]);
    gas.addRow(['Germany', 4.2, 3.8]);
    await expect(convertWorkbook(wb, await mkdtemp(join(tmpdir(), 'ei-bad-')))).rejects.toThrow(/workbook has no crude oil trade matrix/);
  });
});

describe('ei-statistical-review-2026 adapter (the current edition)', () => {
  let db: Db;
  beforeAll(async () => {
    db = await Db.open();
  });
  afterAll(() => db.close());
  const mirror2026 = join(mirror, '..', ei2026.id);
  const germany = `SELECT sheet, year, value FROM ei_energy_2026 WHERE country = 'Germany' AND year = 2025 AND sheet IN ('Gas Consumption - Bcm', 'Total Energy Supply (TES) -EJ') ORDER BY sheet`;

  it('loads the year sheets of the 2026 mirror, total energy supply among them, data to 2025', async () => {
    await ei2026.load(db, mirror2026);
    const csv = readCsvRecords(join(mirror2026, 'ei2026_country_year_long.csv')).filter((r) => r.country === 'Germany' && r.year === '2025');
    const value = (sheet: string) => Number(csv.find((r) => r.sheet === sheet)!.value);
    expect(await db.all(germany)).toEqual([
      { sheet: 'Gas Consumption - Bcm', year: 2025, value: value('Gas Consumption - Bcm') },
      { sheet: 'Total Energy Supply (TES) -EJ', year: 2025, value: value('Total Energy Supply (TES) -EJ') },
    ]);
    // Only the sheets the 2024 mirror keeps (plus TES): no CO2, electricity or mineral sheets.
    expect(await db.one(`SELECT count(*)::INTEGER AS n FROM ei_energy_2026 WHERE sheet LIKE 'CO2%' OR sheet LIKE '%P-R'`)).toEqual({ n: 0 });
  });

  it('downloads the real 2026 workbook into the mirror layout: the same rows load as from the mirror, and no trade file', async () => {
    const publisher = replayFetch([{ url: /\/__data\/assets\/file\/0008\/1827620\/EI-Stats-Review-ALL-data\.xlsx$/, body: recording(WORKBOOK_2026) }]);
    const dir = await mkdtemp(join(tmpdir(), 'ei-2026-dl-'));
    await ei2026.download(dir, publisher.fetch);
    // The downloads page is not recorded (404 here, as a page blocked to scripts): the last known address is used.
    expect(publisher.asked).toEqual([EI_LISTING.page, EI_LISTING.known]);
    expect(existsSync(join(dir, 'ei_trade_movements_2023.csv'))).toBe(false);
    const all = `SELECT sheet, country, year, value FROM ei_energy_2026 ORDER BY ALL`;
    await ei2026.load(db, dir);
    const downloaded = await db.all(all);
    await ei2026.load(db, mirror2026);
    expect(downloaded.length).toBeGreaterThan(90_000);
    expect(downloaded).toEqual(await db.all(all));
  }, 120_000);

  it('finds the workbook’s address on the downloads page, where EI lists each edition; a configured address wins', async () => {
    const moved = 'https://www.energyinst.org/__data/assets/file/0009/1900000/EI-Stats-Review-ALL-data.xlsx';
    // A link as the page writes it (relative, with an entity); the address is not the last known one.
    const page = `<a href="/__data/assets/file/0009/1900000/EI-Stats-Review-ALL-data.xlsx?v=1&amp;x=2">Download all data</a>`;
    const found = await editionAddress('ei-statistical-review-2026', EI_LISTING, replayFetch([{ url: /resources-and-data-downloads$/, body: page }]).fetch);
    expect(found).toBe(moved);
    const configured = await editionAddress('ei-statistical-review-2026', EI_LISTING, replayFetch([]).fetch, {}, 'https://mirror.example/ei.xlsx');
    expect(configured).toBe('https://mirror.example/ei.xlsx');
    const asked = replayFetch([{ url: /^https:\/\/mirror\.example\/ei\.xlsx$/, body: 'not a workbook' }]);
    await expect(
      ei2026.download(await mkdtemp(join(tmpdir(), 'ei-conf-')), asked.fetch, { eiWorkbookUrl: 'https://mirror.example/ei.xlsx' }),
    ).rejects.toThrow();
    expect(asked.asked).toEqual(['https://mirror.example/ei.xlsx']);
  });
});
