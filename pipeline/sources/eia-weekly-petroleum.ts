import { join } from 'node:path';
import type { Db } from '../db.ts';
import { EIA_API, eiaApiKey, fetchEiaPages } from './eia-api.ts';
import { readCsvText, requireColumns, requireFile, requireRows, writeCsv } from './support.ts';
import { SourceError, type SourceAdapter, type SourceKeys } from './types.ts';

const ID = 'eia-weekly-petroleum' as const;
const WPSR = 'eia-wpsr-us-weekly.csv';
const STOCKS = 'eia-us-stocks-weekly-1982-2022.csv';
const SERIES = 'eia-us-stocks-weekly-1982-2022-series.csv';
const API = EIA_API;
const WPSR_START = '2014-12-26';

/** The 42 national WPSR series the mirror keeps, with the mirror's labels (unit in parentheses). */
const WPSR_SERIES: readonly (readonly [string, string])[] = [
  ['WCEIMUS2', 'US Imports (kbd)'],
  ['WCESTUS1', 'US Commercial Stocks (kb)'],
  ['WCREXUS2', 'US Crude Exports (kbd)'],
  ['WCRFPUS2', 'US Production (kbd)'],
  ['WCRRIUS2', 'US Refinery Runs (kbd)'],
  ['WCRSTUS1', 'Total Stocks (kb)'],
  ['WCSSTUS1', 'SPR Stocks (kb)'],
  ['WDIEXUS2', 'US Distillate Exports (kbd)'],
  ['WDIIMUS2', 'US Distillate Imports (kbd)'],
  ['WDIRPUS2', 'US Distillate Production (kbd)'],
  ['WDISTUS1', 'US Distillate Stocks (kb)'],
  ['WDIUPUS2', 'Distillate Supplied (kbd)'],
  ['WGFRPUS2', 'US Gasoline Production (kbd)'],
  ['WGFUPUS2', 'Gasoline Supplied (kbd)'],
  ['WGIRIUS2', 'US Gross Runs (kbd)'],
  ['WGTIMUS2', 'US Gasoline Imports (kbd)'],
  ['WGTSTUS1', 'US Gasoline Stocks (kb)'],
  ['WKJEXUS2', 'US Jet Exports (kbd)'],
  ['WKJIMUS2', 'US Jet Imports (kbd)'],
  ['WKJRPUS2', 'US Jet Production (kbd)'],
  ['WKJSTUS1', 'US Jet Stocks (kb)'],
  ['WKJUPUS2', 'Jet Supplied (kbd)'],
  ['WOCLEUS2', 'US CDU Capacity (kbd)'],
  ['WPRIM_NUS-Z00_2', 'US C3/C3= Imports (kbd)'],
  ['WPRSTUS1', 'US C3/C3= Stocks (kb)'],
  ['WPRTP_NUS_2', 'US C3/C3= Production (kbd)'],
  ['WPRUP_NUS_2', 'C3/C3= Supplied (kbd)'],
  ['WPULEUS3', 'US Refinery Utilization (pct)'],
  ['WREEXUS2', 'US Fuel Oil Exports (kbd)'],
  ['WREIMUS2', 'US Fuel Oil Imports (kbd)'],
  ['WRERPUS2', 'US Fuel Oil Production (kbd)'],
  ['WRESTUS1', 'US Fuel Oil Stocks (kb)'],
  ['WREUPUS2', 'Fuel Oil Supplied (kbd)'],
  ['WRPUPUS2', 'Products Supplied (kbd)'],
  ['WWOUP_NUS_2', 'Other Oils Supplied (kbd)'],
  ['W_EPC0_FPF_R48_MBBLD', 'L48 Production (kbd)'],
  ['W_EPC0_FPF_SAK_MBBLD', 'AK Production (kbd)'],
  ['W_EPC0_SAX_YCUOK_MBBL', 'Cushing Stocks (kb)'],
  ['W_EPC0_SKA_NUS_MBBL', 'Alaska Stocks (kb)'],
  ['W_EPLLPZ_EEX_NUS-Z00_MBBLD', 'US C3/C3= Exports (kbd)'],
  ['W_EPM0F_EEX_NUS-Z00_MBBLD', 'US Gasoline Exports (kbd)'],
  ['W_EPOOXE_YOP_NUS_MBBLD', 'US Ethanol Production (kbd)'],
];

export const eiaWeeklyPetroleumSource: SourceAdapter = {
  id: ID,
  publisher: 'U.S. Energy Information Administration (EIA)',
  dataset: 'Weekly Petroleum Status Report: US stocks, supply and refinery operations (weekly)',
  url: 'https://www.eia.gov/petroleum/supply/weekly/',
  licence: 'Public domain (US government)',
  redistribution: 'open',
  tables: ['eia_petroleum_weekly'],
  files: [
    // WPSR series live under several API routes (stoc/wstk, sum/sndw, pnp/wiup, ...); the seriesid route takes them all.
    { path: WPSR, url: `${API}/seriesid/PET.WCSSTUS1.W?start=${WPSR_START}` },
    { path: STOCKS, url: `${API}/petroleum/stoc/wstk/data/?frequency=weekly&data[0]=value&facets[duoarea][]=NUS` },
    { path: SERIES, url: `${API}/petroleum/stoc/wstk/data/?frequency=weekly&data[0]=value&facets[duoarea][]=NUS` },
  ],

  async load(db: Db, dir: string): Promise<void> {
    const wpsr = requireFile(this, dir, WPSR);
    const stocks = requireFile(this, dir, STOCKS);
    const series = requireFile(this, dir, SERIES);
    await requireColumns(this, wpsr, ['period', 'id', 'name', 'value']);
    await requireColumns(this, stocks, ['date', 'WCSSTUS1', 'WCESTUS1', 'WCRSTUS1']);
    await requireColumns(this, series, ['sourcekey', 'description']);
    try {
      await db.run(`
        CREATE OR REPLACE TABLE eia_petroleum_weekly AS
        WITH wpsr AS (
          SELECT trim(id) AS series_id,
                 -- The unit sits in the label's trailing parentheses; the label is stored without it.
                 trim(regexp_replace(name, '\\s*\\([^()]*\\)\\s*$', '')) AS name,
                 regexp_extract(name, '\\(([^()]*)\\)\\s*$', 1) AS unit,
                 CAST(period AS DATE) AS date, CAST(NULLIF(trim(value), '') AS DOUBLE) AS value
          FROM ${readCsvText(wpsr)}
        ),
        wide AS (
          UNPIVOT (SELECT * FROM ${readCsvText(stocks)}) ON COLUMNS(* EXCLUDE (date)) INTO NAME series_id VALUE raw
        ),
        described AS (
          SELECT trim(sourcekey) AS series_id,
                 trim(regexp_replace(regexp_replace(description, '\\s*\\(Thousand Barrels\\)\\s*$', ''), '\\s+', ' ', 'g')) AS name
          FROM ${readCsvText(series)}
        ),
        -- One label per series: the WPSR label where the series is in both files, so a series reads the same across 2014.
        names AS (
          SELECT series_id, name FROM (
            SELECT DISTINCT series_id, name, 1 AS rank FROM wpsr
            UNION ALL SELECT series_id, name, 2 FROM described
          ) QUALIFY row_number() OVER (PARTITION BY series_id ORDER BY rank, name) = 1
        ),
        candidates AS (
          SELECT series_id, unit, date, value, 1 AS rank, '${WPSR}' AS file FROM wpsr
          UNION ALL
          SELECT series_id, 'kb', CAST(date AS DATE), CAST(NULLIF(trim(raw), '') AS DOUBLE), 2, '${STOCKS}' FROM wide
        )
        SELECT c.series_id, coalesce(n.name, c.series_id) AS name, c.unit, c.date, c.value, c.file
        FROM candidates c LEFT JOIN names n USING (series_id)
        -- A blank value is "not reported", not a row; it must not shadow the other file either.
        WHERE c.value IS NOT NULL
        QUALIFY row_number() OVER (PARTITION BY c.series_id, c.date ORDER BY c.rank) = 1
        ORDER BY c.series_id, c.date
      `);
    } catch (err) {
      throw new SourceError(ID, `cleaning failed: ${(err as Error).message}`);
    }
    const odd = await db.one<{ series_id: string; unit: string }>(
      `SELECT series_id, unit FROM eia_petroleum_weekly WHERE unit IS NULL OR unit NOT IN ('kb', 'kbd', 'pct') LIMIT 1`,
    );
    if (odd) throw new SourceError(ID, `series ${odd.series_id} has unknown unit '${odd.unit}' in ${WPSR}`);
    await requireRows(this, db, 'eia_petroleum_weekly');
  },

  async download(dir: string, fetchImpl: typeof fetch, keys?: SourceKeys): Promise<void> {
    const key = eiaApiKey(ID, keys);

    const wpsrRows: string[][] = [];
    for (const [id, name] of WPSR_SERIES) {
      for (const r of await fetchEiaPages(ID, fetchImpl, key, `/seriesid/PET.${id}.W`, { start: WPSR_START })) {
        wpsrRows.push([r.period, id, name, r.value === null || r.value === undefined ? '' : String(r.value)]);
      }
    }
    wpsrRows.sort((a, b) => (a[1] as string).localeCompare(b[1] as string) || (a[0] as string).localeCompare(b[0] as string));
    await writeCsv(join(dir, WPSR), ['period', 'id', 'name', 'value'], wpsrRows);

    // National weekly ending stocks, pivoted to the mirror's wide layout (one column per series id).
    const stockRows = (
      await fetchEiaPages(ID, fetchImpl, key, '/petroleum/stoc/wstk/data/', {
        frequency: 'weekly',
        'data[0]': 'value',
        'facets[duoarea][]': 'NUS',
        'sort[0][column]': 'period',
        'sort[0][direction]': 'asc',
        'sort[1][column]': 'series',
        'sort[1][direction]': 'asc',
      })
    ).filter((r) => r.series && r.units === 'MBBL');
    const descriptions = new Map<string, string>();
    const byDate = new Map<string, Map<string, string>>();
    for (const r of stockRows) {
      const series = r.series as string;
      if (!descriptions.has(series)) descriptions.set(series, r['series-description'] ?? series);
      if (!byDate.has(r.period)) byDate.set(r.period, new Map());
      byDate.get(r.period)?.set(series, r.value === null || r.value === undefined ? '' : String(r.value));
    }
    const ids = [...descriptions.keys()];
    await writeCsv(
      join(dir, STOCKS),
      ['date', ...ids],
      [...byDate.keys()].sort().map((d) => [d, ...ids.map((id) => byDate.get(d)?.get(id) ?? '')]),
    );
    await writeCsv(
      join(dir, SERIES),
      ['sourcekey', 'description'],
      [...descriptions].map(([id, desc]) => [id, desc]),
    );
  },
};
