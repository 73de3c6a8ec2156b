import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from '../db.ts';
import { aggregateSql } from './country-aliases.ts';
import { downloadTo, parseCsv, readCsvText, requireColumns, requireFile, requireRows, writeCsv } from './support.ts';
import { SourceError, type SourceAdapter } from './types.ts';

const FILE = 'eurostat_nrg_ti_gas_russia_total_2011_2020.csv';
const RAW = 'nrg_ti_gas.sdmx.csv';

// SDMX 3.0 because only it returns labels ('DE: Germany'); the mirror columns hold labels, not codes.
// G3000 natural gas, G3200 LNG; partner RU and TOTAL; terajoules (GCV) as in the mirror.
const API =
  'https://ec.europa.eu/eurostat/api/dissemination/sdmx/3.0/data/dataflow/ESTAT/nrg_ti_gas/1.0/*.*.*.*.*' +
  '?c[freq]=A&c[siec]=G3000,G3200&c[partner]=RU,TOTAL&c[unit]=TJ_GCV' +
  '&compress=false&format=csvdata&formatVersion=2.0&lang=en&labels=both';

/**
 * Eurostat labels carry qualifiers in brackets ('Germany (until 1990 former territory of the FRG)',
 * 'Kosovo (under United Nations Security Council Resolution 1244/99)', 'Euro area - 19 countries  (from 2015)').
 */
const geoSql = `trim(regexp_replace(regexp_replace(trim(geo), '\\s*\\(.*\\)\\s*$', ''), '\\s+', ' ', 'g'))`;

export const eurostatGasImportsSource: SourceAdapter = {
  id: 'eurostat-gas-imports-by-partner',
  publisher: 'Eurostat',
  dataset: 'Imports of natural gas by partner country (nrg_ti_gas)',
  url: 'https://ec.europa.eu/eurostat/databrowser/view/nrg_ti_gas/default/table?lang=en',
  licence: 'CC-BY-4.0',
  redistribution: 'open',
  files: [{ path: FILE, url: API }],
  tables: ['eurostat_gas_imports'],

  async load(db: Db, dir: string): Promise<void> {
    const file = requireFile(this, dir, FILE);
    await requireColumns(this, file, ['siec', 'partner', 'unit', 'geo', 'year', 'value', 'flag']);
    // ':' = not available: no value, so no row.
    await db.run(`
      CREATE OR REPLACE TABLE eurostat_gas_imports AS
      SELECT trim(siec) AS siec, trim(partner) AS partner, trim(unit) AS unit, g AS geo,
             ${aggregateSql('g')} AS is_aggregate, CAST(trim(year) AS INTEGER) AS year, v AS value
      FROM (SELECT *, ${geoSql} AS g, TRY_CAST(trim(value) AS DOUBLE) AS v FROM ${readCsvText(file)})
      WHERE v IS NOT NULL AND coalesce(trim(flag), '') <> ':'`);
    await requireRows(this, db, 'eurostat_gas_imports');
  },

  async download(dir: string, fetchImpl: typeof fetch): Promise<void> {
    await downloadTo(this, fetchImpl, API, dir, RAW);
    const [first = [], ...records] = parseCsv(await readFile(join(dir, RAW), 'utf8'));
    // Header cells may read 'geo: Geopolitical entity (reporting)' with labels=both; the code is before ':'.
    const header = first.map((h) => h.split(':')[0]!.trim());
    const col = (name: string) => {
      const i = header.indexOf(name);
      if (i < 0) throw new SourceError(this.id, `SDMX-CSV lacks column ${name}`);
      return i;
    };
    const [siec, partner, unit, geo, time, obs] = ['siec', 'partner', 'unit', 'geo', 'TIME_PERIOD', 'OBS_VALUE'].map(col);
    const flag = header.indexOf('OBS_FLAG');
    const label = (cell: string | undefined) => (cell ?? '').replace(/^[^:]*:\s*/, '').trim();
    const rows = records.map((c) => {
      const value = (c[obs!] ?? '').trim();
      const f = flag >= 0 ? label(c[flag]) : '';
      return [label(c[siec!]), label(c[partner!]), label(c[unit!]), label(c[geo!]), (c[time!] ?? '').trim(), value, value === '' ? ':' : f];
    });
    await writeCsv(join(dir, FILE), ['siec', 'partner', 'unit', 'geo', 'year', 'value', 'flag'], rows);
    await rm(join(dir, RAW));
  },
};
