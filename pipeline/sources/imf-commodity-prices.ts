import { join } from 'node:path';
import { sqlString, type Db } from '../db.ts';
import { requireAdvanced } from './edition.ts';
import { parseCsv, readCsvText, requireColumns, requireFile, requireRows, writeCsv } from './support.ts';
import { SourceError, type SourceAdapter, type SourceKeys, todayOf } from './types.ts';

const ID = 'imf-commodity-prices' as const;
const self = { id: ID };
const MONTHLY = 'imf-pcps-monthly.csv';
const SERIES = 'imf-pcps-series.csv';
/**
 * The IMF data portal's SDMX 2.1 API, dataflow IMF.RES:PCPS, key COUNTRY.INDICATOR.DATA_TRANSFORMATION.FREQUENCY:
 * the world (G001; W00 was the retired dataservices.imf.org code), every indicator, US$ prices and indices
 * (USD, INDEX; the old API said IX), monthly. detail=dataonly leaves out some 40 attribute columns a row.
 * Series start in 1992 on this API (the mirror's 1990-1991 come from IMF's workbook).
 */
export const IMF_PCPS_URL = 'https://api.imf.org/external/sdmx/2.1/data/IMF.RES,PCPS/G001..INDEX+USD.M?startPeriod=1990-01&detail=dataonly';
/** Transformation codes of an index, current API first. */
const INDEX_CODES = new Set(['INDEX', 'IX']);

/**
 * Units as IMF words them in its descriptions, first match wins (cents before dollars, so that
 * 'US cents per kilogram' is not read as US$/kg). A description that matches none gets no unit.
 */
const UNITS: [pattern: string, unit: string][] = [
  ['US cents per pound', 'USc/lb'],
  ['US cents per kilogram', 'USc/kg'],
  ['US\\$ per metric ton|US dollars per metric ton|USD/ton\\b|USD/metric tonne|\\(US\\$/MT\\)', 'US$/t'],
  ['US\\$ per barrel', 'US$/bbl'],
  ['US\\$ per Million Metric British Thermal Unit', 'US$/MMBtu'],
  ['US\\$ per pound|USD/lb\\b', 'US$/lb'],
  ['US\\$ per kilogram', 'US$/kg'],
  ['US\\$ per cubic meter', 'US$/m3'],
  ['US\\$ per troy ounce|USD/ ?troy ounce', 'US$/troy oz'],
  ['USD/bushel', 'US$/bu'],
  ['USD/ST\\b', 'US$/short ton'],
  ['USD/cwt', 'US$/cwt'],
  ['INR/100 Kgs', 'INR/100 kg'],
  ['\\(1 Kg\\), EUR', 'EUR/kg'],
];

const UNIT_SQL = `CASE
  -- IMF reused the crude index's description for the average crude price (SOURCES.md): the column is US$/bbl.
  WHEN code = 'POILAPSP_col44' THEN 'US$/bbl'
  WHEN data_type = 'Index' AND regexp_matches(description, '\\d{4} ?= ?100') THEN regexp_extract(description, '(\\d{4}) ?= ?100', 1) || '=100'
  ${UNITS.map(([p, u]) => `WHEN regexp_matches(description, ${sqlString(p)}) THEN ${sqlString(u)}`).join('\n  ')}
END`;

export const imfCommodityPricesSource: SourceAdapter = {
  id: ID,
  publisher: 'International Monetary Fund (IMF)',
  dataset: 'Primary Commodity Prices (PCPS), monthly',
  url: 'https://www.imf.org/en/Research/commodity-prices',
  licence: 'IMF Copyright and Usage terms: all rights reserved (personal, non-commercial use)',
  redistribution: 'derived-only',
  files: [MONTHLY, SERIES].map((path) => ({ path, url: IMF_PCPS_URL })),
  tables: ['imf_prices', 'imf_series'],

  async load(db: Db, dir: string): Promise<void> {
    const monthly = requireFile(self, dir, MONTHLY);
    const series = requireFile(self, dir, SERIES);
    await requireColumns(self, monthly, ['date', 'PCOPP', 'PNICK', 'PCOBA', 'POILBRE', 'PNGASEU']);
    await requireColumns(self, series, ['column', 'imf_code', 'data_type', 'frequency', 'description']);
    try {
      // Zero is no price: the workbook fills PTOMATO/PAPPLE with 0.0 for 1990-1997 before their series start.
      await db.run(`
        CREATE OR REPLACE TABLE imf_prices AS
        SELECT code, date, value FROM (
          SELECT code, CAST(strptime(trim(date), '%Y-%m') AS DATE) AS date, CAST(trim(value) AS DOUBLE) AS value
          FROM (UNPIVOT (SELECT * FROM ${readCsvText(monthly)}) ON COLUMNS(* EXCLUDE (date)) INTO NAME code VALUE value)
          WHERE nullif(trim(value), '') IS NOT NULL)
        WHERE value <> 0
        ORDER BY code, date`);
      await db.run(`
        CREATE OR REPLACE TABLE imf_series AS
        SELECT code, imf_code, data_type, description, CAST(${UNIT_SQL} AS VARCHAR) AS unit FROM (
          SELECT trim("column") AS code, nullif(trim(imf_code), '') AS imf_code, trim(data_type) AS data_type, trim(description) AS description
          FROM ${readCsvText(series)})
        ORDER BY code`);
    } catch (e) {
      throw new SourceError(ID, `cannot read PCPS files: ${(e as Error).message}`);
    }
    await requireRows(self, db, 'imf_prices');
    await requireRows(self, db, 'imf_series');
    const orphans = await db.all<{ code: string }>(`SELECT DISTINCT p.code FROM imf_prices p ANTI JOIN imf_series s ON p.code = s.code ORDER BY 1`);
    if (orphans.length > 0) throw new SourceError(ID, `${SERIES} does not describe ${orphans.map((o) => o.code).join(', ')}`);
  },

  async download(dir: string, fetchImpl: typeof fetch, keys?: SourceKeys): Promise<void> {
    // The IMF workbook is old binary xls; the data portal's SDMX API serves the same series as SDMX-CSV.
    // labels=both makes each code come with IMF's label ('PCOPP: Copper, ...'), kept as the description.
    const res = await fetchImpl(IMF_PCPS_URL, { headers: { accept: 'application/vnd.sdmx.data+csv;version=1.0.0;labels=both' } });
    if (!res.ok) throw new SourceError(ID, `download ${IMF_PCPS_URL} answered ${res.status}`);
    const { monthly, series } = pcpsFromSdmxCsv(await res.text());
    requireAdvanced(ID, IMF_PCPS_URL, String(monthly.rows.at(-1)?.[0] ?? ''), todayOf(keys));
    await writeCsv(join(dir, MONTHLY), monthly.header, monthly.rows);
    await writeCsv(join(dir, SERIES), ['column', 'imf_code', 'data_type', 'frequency', 'description'], series);
  },
};

/** 'PCOPP: Copper, ...' -> ['PCOPP', 'Copper, ...']; a bare id has no label. */
function idAndLabel(cell: string): [string, string] {
  const at = cell.indexOf(': ');
  return at < 0 ? [cell.trim(), ''] : [cell.slice(0, at).trim(), cell.slice(at + 2).trim()];
}

type Found = { code: string; label: string; transformation: string; obs: Map<string, string> };

/** Reshape SDMX-CSV observations into the mirror's wide monthly file and its series list. */
export function pcpsFromSdmxCsv(text: string): {
  monthly: { header: string[]; rows: string[][] };
  series: string[][];
} {
  const [first = [], ...records] = parseCsv(text);
  const header = first.map((h) => idAndLabel(h)[0]);
  const col = (name: string): number => {
    const i = header.indexOf(name);
    if (i < 0) throw new SourceError(ID, `SDMX-CSV answer lacks ${name} (header: ${header.join(', ')})`);
    return i;
  };
  const [ind, tr, time, val] = ['INDICATOR', 'DATA_TRANSFORMATION', 'TIME_PERIOD', 'OBS_VALUE'].map(col) as [number, number, number, number];
  const country = header.indexOf('COUNTRY');
  const found = new Map<string, Found>();
  for (const f of records) {
    // Only the world series; another area in the answer would otherwise mix into the same columns.
    if (country >= 0 && !['G001', 'W00'].includes(idAndLabel(f[country] ?? '')[0])) continue;
    const [code, label] = idAndLabel(f[ind] ?? '');
    const [transformation] = idAndLabel(f[tr] ?? '');
    const m = /^(\d{4})-?M?(\d{2})$/.exec((f[time] ?? '').trim());
    if (!m) throw new SourceError(ID, `unexpected TIME_PERIOD ${f[time]}`);
    const key = `${code}|${transformation}`;
    const s = found.get(key) ?? { code, label, transformation, obs: new Map() };
    s.obs.set(`${m[1]}-${m[2]}`, (f[val] ?? '').trim());
    found.set(key, s);
  }
  // Like IMF's workbook: US$ prices under their code, indices only for aggregates (no US$ series), except the
  // crude average, which the workbook carries both ways (index POILAPSP, price POILAPSP_col44).
  const columns: { name: string; s: Found }[] = [];
  for (const s of found.values()) {
    const hasUsd = found.has(`${s.code}|USD`);
    if (s.transformation === 'USD') columns.push({ name: s.code === 'POILAPSP' ? 'POILAPSP_col44' : s.code, s });
    else if (INDEX_CODES.has(s.transformation) && (!hasUsd || s.code === 'POILAPSP')) columns.push({ name: s.code, s });
  }
  if (columns.length === 0) throw new SourceError(ID, 'SDMX-CSV answer has no world (G001) USD or INDEX series');
  const dates = [...new Set(columns.flatMap((c) => [...c.s.obs.keys()]))].sort();
  return {
    monthly: {
      header: ['date', ...columns.map((c) => c.name)],
      rows: dates.map((d) => [d, ...columns.map((c) => c.s.obs.get(d) ?? '')]),
    },
    series: columns.map((c) => [c.name, c.s.code, INDEX_CODES.has(c.s.transformation) ? 'Index' : 'USD', 'Monthly', c.s.label]),
  };
}
