import { createServer } from 'node:http';
import { mkdtemp, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Db } from '../db.ts';
import { eiStatisticalReviewSource as ei } from './ei-statistical-review.ts';
import { SourceError } from './types.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
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

  it('downloads the xlsx and converts its sheets to the mirror layout', async () => {
    const wb = new ExcelJS.Workbook();
    const title = (ws: ExcelJS.Worksheet, t: string) => ws.addRow([t]) && ws.addRow([]);
    const gas = wb.addWorksheet('Gas Production - Bcm');
    title(gas, 'Natural Gas: Production in billion cubic metres*');
    gas.addRow(['Billion cubic metres', 2021, 2022, 2023, 2023, '2013-23', 2023]);
    gas.addRow(['Germany', 4.5, 4.2, 3.8061187027960317, -0.1, -0.08, 0.001]);
    gas.addRow(['Iraq', 'n/a', 9.4, 9.5, 0.01, 0.02, 0.002]);
    gas.addRow(['Total World', 4050, 4040, 4059.8, 0, 0.02, 1]);
    gas.addRow([]);
    gas.addRow(['Source: includes data from …']);
    const cobalt = wb.addWorksheet('Cobalt P-R');
    title(cobalt, 'Cobalt production and reserves');
    cobalt.addRow(['Thousand tonnes', 2022, 2023, null, 'At end of 2023']);
    cobalt.addRow(['DR Congo', 130, 139.838, null, 6000]);
    cobalt.addRow(['Rest of World2', 19, 20.9, null, 1036.6]);
    const prices = wb.addWorksheet('Critical Minerals Prices');
    title(prices, 'Prices');
    prices.addRow(['Year', 'Cobalt1', 'Lithium carbonate2', 'Lithium Iron Phosphate Cells7']);
    prices.addRow([2023, 35.43, 41.9, 95.5]);
    const pipe = wb.addWorksheet('Gas trade - pipeline');
    title(pipe, 'Gas trade in 2023: pipeline');
    pipe.addRow(['Billion cubic metres', 'From']);
    pipe.addRow(['To', 'Norway', 'Russian Federation', 'Total imports']);
    pipe.addRow(['Germany', 40, { formula: 'B5*0', result: 0 }, 40]);
    pipe.addRow(['Europe', 80, 49.8, 129.8]);
    pipe.addRow(['Total exports', 120, 60, 180]);
    const xlsx = Buffer.from(await wb.xlsx.writeBuffer());

    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(req.url ?? '');
      const ok = req.url === '/__data/assets/excel_doc/0020/1540550/EI-Stats-Review-All-Data.xlsx';
      res.writeHead(ok ? 200 : 404);
      res.end(ok ? xlsx : '');
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const fetchImpl: typeof fetch = (input, init) => fetch(String(input).replace(/^https:\/\/[^/]+/, base), init);
    try {
      const dir = await mkdtemp(join(tmpdir(), 'ei-dl-'));
      await ei.download(dir, fetchImpl);
      expect(seen).toHaveLength(1);
      await ei.load(db, dir);
      expect(await db.all(`SELECT country, year, value FROM ei_energy ORDER BY country, year`)).toEqual([
        { country: 'Germany', year: 2021, value: 4.5 },
        { country: 'Germany', year: 2022, value: 4.2 },
        { country: 'Germany', year: 2023, value: 3.8061187027960317 },
        { country: 'Iraq', year: 2022, value: 9.4 },
        { country: 'Iraq', year: 2023, value: 9.5 },
        { country: 'Total World', year: 2021, value: 4050 },
        { country: 'Total World', year: 2022, value: 4040 },
        { country: 'Total World', year: 2023, value: 4059.8 },
      ]);
      expect(await db.all(`SELECT mineral, country, is_aggregate, year, value FROM ei_mine_production WHERE year = 2023 ORDER BY country`)).toEqual([
        { mineral: 'cobalt', country: 'DR Congo', is_aggregate: false, year: 2023, value: 139.838 },
        { mineral: 'cobalt', country: 'Rest of World', is_aggregate: true, year: 2023, value: 20.9 },
      ]);
      expect(await db.all(`SELECT as_of, country, value FROM ei_mineral_reserves ORDER BY country`)).toEqual([
        { as_of: 'At end of 2023', country: 'DR Congo', value: 6000 },
        { as_of: 'At end of 2023', country: 'Rest of World', value: 1036.6 },
      ]);
      expect(await db.all(`SELECT series, unit, value FROM ei_mineral_prices ORDER BY series`)).toEqual([
        { series: 'Cobalt', unit: 'thousand US$/t', value: 35.43 },
        { series: 'Lithium Iron Phosphate Cells', unit: 'US$/kWh', value: 95.5 },
        { series: 'Lithium carbonate', unit: 'thousand US$/t', value: 41.9 },
      ]);
      expect(await db.all(`SELECT flow, exporter, importer, importer_is_aggregate, value FROM ei_trade ORDER BY importer, exporter`)).toEqual([
        { flow: 'natural gas (pipeline)', exporter: 'Norway', importer: 'Europe', importer_is_aggregate: true, value: 80 },
        { flow: 'natural gas (pipeline)', exporter: 'Russian Federation', importer: 'Europe', importer_is_aggregate: true, value: 49.8 },
        { flow: 'natural gas (pipeline)', exporter: 'Norway', importer: 'Germany', importer_is_aggregate: false, value: 40 },
      ]);
    } finally {
      server.close();
    }
  });
});
