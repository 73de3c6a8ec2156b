import { join } from 'node:path';
import type { Db } from '../db.ts';
import { readCsvText, requireColumns, requireFile, requireRows, writeCsv } from './support.ts';
import { SourceError, type SourceAdapter, type SourceKeys, todayOf } from './types.ts';

const ID = 'gie-agsi-gas-storage' as const;
const API = 'https://agsi.gie.eu/api';

const DE_EU = 'agsi_de_eu_daily_2020_2026.csv';
const COUNTRY_FILL = 'agsi_country_fill_daily_2023_2026.csv';
const EXCEL = 'agsi_eu_daily_2011_2025_excel_export.csv';
const EU_NORM = 'agsi_eu_fill_vs_5y_norm_2025_2026.csv';
const SNAPSHOT = 'agsi_country_snapshot_2026-05-06.csv';

/** The 17 countries the mirror's country files cover (AGSI codes, ISO 3166-1 alpha-2). */
const COUNTRIES = ['DE', 'IT', 'FR', 'NL', 'AT', 'BE', 'CZ', 'DK', 'ES', 'HR', 'HU', 'LV', 'PL', 'PT', 'RO', 'SE', 'SK'];

const DE_EU_COLUMNS = [
  'scope',
  'date',
  'name',
  'code',
  'gas_in_storage_twh',
  'working_gas_volume_twh',
  'fill_pct',
  'consumption_gwh_per_day',
  'injection_gwh_per_day',
  'withdrawal_gwh_per_day',
  'net_withdrawal_gwh_per_day',
  'injection_capacity_gwh_per_day',
  'withdrawal_capacity_gwh_per_day',
  'trend_pct',
  'status',
  'full_pct',
  'norm_5y_fill_pct',
  'source',
];
const COUNTRY_FILL_COLUMNS = ['code', 'name', 'date', 'fullPct', 'gasInStorageTWh'];
const EXCEL_COLUMNS = [
  'name',
  'gasDayStart',
  'gasInStorage',
  'consumption',
  'consumptionFull',
  'injection',
  'withdrawal',
  'workingGasVolume',
  'injectionCapacity',
  'withdrawalCapacity',
  'status',
  'trend',
  'full',
];
const EU_NORM_COLUMNS = ['date', 'fill_pct', 'norm_5y_fill_pct', 'source', 'source_note'];
const SNAPSHOT_COLUMNS = [
  'code',
  'name',
  'gasDayStart',
  'gasInStorageTWh',
  'workingGasVolumeTWh',
  'fullPct',
  'injectionGWhPerDay',
  'withdrawalGWhPerDay',
  'netWithdrawalGWhPerDay',
  'status',
  'dayOverDayFullPctChange',
];

/** Text → DOUBLE; strips the Excel export's thousands separators. A non-number fails loudly. */
const num = (col: string): string => `CAST(NULLIF(replace(trim(${col}), ',', ''), '') AS DOUBLE)`;

export const gieAgsiSource: SourceAdapter = {
  id: ID,
  publisher: 'Gas Infrastructure Europe (GIE), AGSI+ transparency platform',
  dataset: 'AGSI+ aggregated gas storage inventory (EU and country level, daily)',
  url: 'https://agsi.gie.eu/',
  licence: 'No explicit open licence; free access with attribution "GIE AGSI+"',
  redistribution: 'derived-only',
  tables: ['agsi_storage', 'agsi_reference'],
  files: [
    // One endpoint for everything: ?country=XX for a country, ?type=eu for the EU aggregate, paged by page/size.
    { path: DE_EU, url: `${API}?country=DE&from=2020-01-01&size=300` },
    { path: COUNTRY_FILL, url: `${API}?country=IT&size=300` },
    { path: SNAPSHOT, url: `${API}?country=DE&size=1` },
    { path: EXCEL, url: `${API}?type=eu&from=2011-01-01&size=300` },
    { path: EU_NORM, url: `${API}?type=eu&size=300` },
  ],

  async load(db: Db, dir: string): Promise<void> {
    const deEu = requireFile(this, dir, DE_EU);
    const fill = requireFile(this, dir, COUNTRY_FILL);
    const excel = requireFile(this, dir, EXCEL);
    const norm = requireFile(this, dir, EU_NORM);
    const snap = requireFile(this, dir, SNAPSHOT);
    // Only the columns we read are required; the author-computed ones (norm_5y_fill_pct, trend, ...) may go.
    await requireColumns(this, deEu, [
      'date',
      'code',
      'gas_in_storage_twh',
      'working_gas_volume_twh',
      'fill_pct',
      'consumption_gwh_per_day',
      'injection_gwh_per_day',
      'withdrawal_gwh_per_day',
      'net_withdrawal_gwh_per_day',
      'status',
    ]);
    await requireColumns(this, fill, ['code', 'date', 'fullPct', 'gasInStorageTWh']);
    await requireColumns(this, excel, ['gasDayStart', 'gasInStorage', 'consumption', 'injection', 'withdrawal', 'workingGasVolume', 'status', 'full']);
    await requireColumns(this, norm, ['date', 'fill_pct']);
    await requireColumns(this, snap, ['code', 'gasDayStart', 'workingGasVolumeTWh']);

    try {
      await db.run(`
        CREATE OR REPLACE TEMP TABLE _agsi_candidates AS
        SELECT 1 AS rank, lower(trim(code)) AS country, CAST(date AS DATE) AS date, ${num('fill_pct')} AS fill_pct,
               ${num('gas_in_storage_twh')} AS gas_in_storage_twh, ${num('working_gas_volume_twh')} AS working_gas_volume_twh,
               ${num('injection_gwh_per_day')} AS injection_gwh_d, ${num('withdrawal_gwh_per_day')} AS withdrawal_gwh_d,
               ${num('net_withdrawal_gwh_per_day')} AS net_withdrawal_gwh_d, NULLIF(trim(status), '') AS status,
               -- Mislabelled upstream: this is AGSI's reference ANNUAL consumption in TWh, not GWh/d.
               ${num('consumption_gwh_per_day')} AS annual_consumption_twh, '${DE_EU}' AS file
        FROM ${readCsvText(deEu)}
        UNION ALL
        SELECT 2, lower(trim(code)), CAST(date AS DATE), ${num('fullPct')}, ${num('gasInStorageTWh')},
               NULL, NULL, NULL, NULL, NULL, NULL, '${COUNTRY_FILL}'
        FROM ${readCsvText(fill)}
        UNION ALL
        -- The Excel round trip mixes ISO dates with 'DD-Mon-YY' (two-digit years are 2011-2025 here).
        SELECT 3, 'eu',
               CASE WHEN regexp_matches(trim(gasDayStart), '^\\d{4}-\\d{2}-\\d{2}$') THEN CAST(trim(gasDayStart) AS DATE)
                    ELSE CAST(strptime(trim(gasDayStart), '%d-%b-%y') AS DATE) END,
               ${num('"full"')}, ${num('gasInStorage')}, ${num('workingGasVolume')}, ${num('injection')}, ${num('withdrawal')},
               -- AGSI's netWithdrawal is not in this export; we publish only what GIE published.
               NULL, NULLIF(trim(status), ''), ${num('consumption')}, '${EXCEL}'
        FROM ${readCsvText(excel)}
        UNION ALL
        -- Only the fill: the file's norm_5y_fill_pct is the repo author's own computation, not GIE's.
        SELECT 4, 'eu', CAST(date AS DATE), ${num('fill_pct')}, NULL, NULL, NULL, NULL, NULL, NULL, NULL, '${EU_NORM}'
        FROM ${readCsvText(norm)}
      `);
      await db.run(`
        CREATE OR REPLACE TABLE agsi_storage AS
        SELECT country, date, fill_pct, gas_in_storage_twh, working_gas_volume_twh, injection_gwh_d, withdrawal_gwh_d,
               net_withdrawal_gwh_d, status, file
        FROM _agsi_candidates
        WHERE fill_pct IS NOT NULL
        QUALIFY row_number() OVER (PARTITION BY country, date ORDER BY rank) = 1
        ORDER BY country, date
      `);
      await db.run(`
        CREATE OR REPLACE TABLE agsi_reference AS
        WITH wgv AS (
          SELECT lower(trim(code)) AS country, CAST(gasDayStart AS DATE) AS as_of,
                 ${num('workingGasVolumeTWh')} AS working_gas_volume_twh, 2 AS rank, '${SNAPSHOT}' AS file
          FROM ${readCsvText(snap)}
          UNION ALL
          SELECT country, date, working_gas_volume_twh, 1, file FROM _agsi_candidates WHERE rank = 1
        ),
        newest_wgv AS (
          SELECT * FROM wgv WHERE working_gas_volume_twh IS NOT NULL
          QUALIFY row_number() OVER (PARTITION BY country ORDER BY as_of DESC, rank) = 1
        ),
        newest_consumption AS (
          SELECT country, annual_consumption_twh FROM _agsi_candidates WHERE annual_consumption_twh IS NOT NULL
          QUALIFY row_number() OVER (PARTITION BY country ORDER BY date DESC, rank) = 1
        )
        SELECT w.country, w.working_gas_volume_twh, c.annual_consumption_twh, w.as_of, w.file
        FROM newest_wgv w LEFT JOIN newest_consumption c USING (country)
        ORDER BY w.country
      `);
    } catch (err) {
      throw new SourceError(ID, `cleaning failed: ${(err as Error).message}`);
    } finally {
      await db.run('DROP TABLE IF EXISTS _agsi_candidates');
    }
    await requireRows(this, db, 'agsi_storage');
    await requireRows(this, db, 'agsi_reference');
  },

  async download(dir: string, fetchImpl: typeof fetch, keys?: SourceKeys): Promise<void> {
    const key = keys?.agsi;
    if (!key) throw new SourceError(ID, 'AGSI_API_KEY is not set (AGSI+ API key, sent as the x-key header)');
    const today = todayOf(keys);
    // The mirror's country file spans three years; keep that window rather than all history (17 × ~20 pages).
    const windowStart = isoDay(new Date(Date.parse(today) - 1095 * 86_400_000));

    const eu = await fetchAgsi(fetchImpl, key, { type: 'eu' }, '2011-01-01', today);
    const countries = new Map<string, AgsiRow[]>();
    for (const code of COUNTRIES) {
      countries.set(code, await fetchAgsi(fetchImpl, key, { country: code }, code === 'DE' ? '2020-01-01' : windowStart, today));
    }
    const de = countries.get('DE') ?? [];
    const byDate = (a: AgsiRow, b: AgsiRow): number => a.gasDayStart.localeCompare(b.gasDayStart);
    const v = (x: unknown): string => (x === undefined || x === null || x === '-' ? '' : String(x));

    const deEuRow = (scope: string, r: AgsiRow): string[] => [
      scope,
      r.gasDayStart,
      v(r.name),
      scope === 'EU' ? 'eu' : scope,
      v(r.gasInStorage),
      v(r.workingGasVolume),
      v(r.full),
      // Same (mislabelled) column as the mirror: AGSI's "consumption" is annual TWh.
      v(r.consumption),
      v(r.injection),
      v(r.withdrawal),
      v(r.netWithdrawal),
      v(r.injectionCapacity),
      v(r.withdrawalCapacity),
      v(r.trend),
      v(r.status),
      v(r.full),
      '',
      'GIE AGSI+ API',
    ];
    await writeCsv(join(dir, DE_EU), DE_EU_COLUMNS, [
      ...de.sort(byDate).map((r) => deEuRow('DE', r)),
      ...eu
        .filter((r) => r.gasDayStart >= '2020-01-01')
        .sort(byDate)
        .map((r) => deEuRow('EU', r)),
    ]);

    const fillRows: string[][] = [];
    for (const [code, rows] of [['EU', eu] as const, ...countries]) {
      for (const r of rows.filter((x) => x.gasDayStart >= windowStart).sort(byDate)) {
        fillRows.push([code, v(r.name), r.gasDayStart, v(r.full), v(r.gasInStorage)]);
      }
    }
    await writeCsv(join(dir, COUNTRY_FILL), COUNTRY_FILL_COLUMNS, fillRows);

    const latest = (rows: AgsiRow[]): AgsiRow | undefined => [...rows].sort(byDate).at(-1);
    const snapRows: string[][] = [];
    for (const [code, rows] of [['eu', eu] as const, ...countries]) {
      const r = latest(rows);
      if (!r) continue;
      snapRows.push([
        code,
        v(r.name),
        r.gasDayStart,
        v(r.gasInStorage),
        v(r.workingGasVolume),
        v(r.full),
        v(r.injection),
        v(r.withdrawal),
        v(r.netWithdrawal),
        v(r.status),
        '',
      ]);
    }
    // The snapshot keeps the mirror's file name (the file list is the adapter's contract); its gasDayStart column carries the real date.
    await writeCsv(join(dir, SNAPSHOT), SNAPSHOT_COLUMNS, snapRows);

    await writeCsv(
      join(dir, EXCEL),
      EXCEL_COLUMNS,
      [...eu]
        .sort(byDate)
        .map((r) => [
          'EU',
          r.gasDayStart,
          v(r.gasInStorage),
          v(r.consumption),
          v(r.consumptionFull),
          v(r.injection),
          v(r.withdrawal),
          v(r.workingGasVolume),
          v(r.injectionCapacity),
          v(r.withdrawalCapacity),
          v(r.status),
          v(r.trend),
          v(r.full),
        ]),
    );
    await writeCsv(
      join(dir, EU_NORM),
      EU_NORM_COLUMNS,
      [...eu]
        .sort(byDate)
        .filter((r) => r.gasDayStart >= windowStart)
        .map((r) => [r.gasDayStart, v(r.full), '', 'GIE AGSI+ API', API]),
    );
  },
};

/** One gas day as the AGSI+ API returns it (numbers arrive as strings; '-' means not reported). */
export interface AgsiRow {
  name?: string;
  code?: string;
  gasDayStart: string;
  gasInStorage?: string | number;
  consumption?: string | number;
  consumptionFull?: string | number;
  injection?: string | number;
  withdrawal?: string | number;
  netWithdrawal?: string | number;
  workingGasVolume?: string | number;
  injectionCapacity?: string | number;
  withdrawalCapacity?: string | number;
  contractedCapacity?: string | number;
  status?: string;
  trend?: string | number;
  full?: string | number;
}

/**
 * All pages of one AGSI query; the API pages with page/size (size at most 300) and reports last_page.
 * Every query here asks for a span that has data, so a page with no rows is an error, not the end: AGSI+
 * answers a bad or missing key with 200 and `data: []` (RECORDINGS.md), which must not publish empty files.
 * Pacing and retries belong to the fetch the build hands in.
 */
async function fetchAgsi(fetchImpl: typeof fetch, key: string, selector: Record<string, string>, from: string, to: string): Promise<AgsiRow[]> {
  const rows: AgsiRow[] = [];
  let lastPage = 1;
  for (let page = 1; page <= lastPage; page++) {
    const url = `${API}?${new URLSearchParams({ ...selector, from, to, page: String(page), size: '300' })}`;
    const res = await fetchImpl(url, { headers: { 'x-key': key, 'user-agent': 'chokepoint-pipeline' } });
    if (!res.ok) throw new SourceError(ID, `download ${url} answered ${res.status}`);
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      throw new SourceError(ID, `download ${url}: the answer is not JSON`);
    }
    const read = readAgsiPage(body, selector, url);
    rows.push(...read.rows);
    lastPage = read.lastPage;
  }
  return rows;
}

/**
 * One AGSI+ answer ({last_page, total, gas_day, data: [...]}, every number a string, '-' not reported):
 * its gas days for the queried scope (`type: 'eu'` → code 'eu', `country: 'DE'` → code 'DE') and its last page.
 */
export function readAgsiPage(body: unknown, selector: Record<string, string>, url: string): { rows: AgsiRow[]; lastPage: number } {
  const b = body as { data?: unknown; last_page?: unknown; error?: unknown } | null;
  if (!b || typeof b !== 'object' || b.error || !Array.isArray(b.data))
    throw new SourceError(ID, `download ${url}: unexpected answer ${JSON.stringify(body).slice(0, 200)}`);
  const scope = (selector.type ?? selector.country ?? '').toLowerCase();
  const rows = (b.data as AgsiRow[]).filter(
    (r) => typeof r?.gasDayStart === 'string' && r.gasDayStart !== '' && (r.code === undefined || String(r.code).toLowerCase() === scope),
  );
  if (rows.length === 0) {
    throw new SourceError(
      ID,
      `download ${url} answered no gas days for '${scope}' (${b.data.length} rows in all); AGSI+ answers a bad or missing AGSI_API_KEY this way`,
    );
  }
  const lastPage = Number(b.last_page ?? 1);
  if (!Number.isInteger(lastPage) || lastPage < 1) throw new SourceError(ID, `download ${url}: last_page ${JSON.stringify(b.last_page)} is not a page number`);
  return { rows, lastPage };
}

function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}
