import { join } from 'node:path';
import type { Db } from '../db.ts';
import { readCsvText, requireColumns, requireFile, requireRows, writeCsv } from './support.ts';
import { SourceError, type SourceAdapter, type SourceKeys } from './types.ts';

const ID = 'eia-oil-prices' as const;
const self = { id: ID };
const SERIES = { brent: 'RBRTE', wti: 'RWTC' } as const;
const FREQUENCIES = { daily: 'd', weekly: 'w', monthly: 'm' } as const;
type Series = keyof typeof SERIES;
type Frequency = keyof typeof FREQUENCIES;

const FILES = (Object.keys(SERIES) as Series[]).flatMap((series) =>
  (Object.keys(FREQUENCIES) as Frequency[]).map((frequency) => ({
    series,
    frequency,
    path: `${series}-${frequency}.csv`,
    // EIA's own per-series history download (old binary .xls); download() reads the same series from API v2.
    url: `https://www.eia.gov/dnav/pet/hist_xls/${SERIES[series]}${FREQUENCIES[frequency]}.xls`,
  })),
);

export const EIA_API = 'https://api.eia.gov/v2';

/** The EIA API v2 key (EIA_API_KEY) from the download's keys; the API refuses anonymous requests. */
export function eiaApiKey(sourceId: string, keys: SourceKeys = {}): string {
  const key = keys.eia;
  if (!key) throw new SourceError(sourceId, 'EIA_API_KEY is not set (EIA API v2 needs a free key: https://www.eia.gov/opendata/register.php)');
  return key;
}

/**
 * All rows of one EIA API v2 series, oldest first. The API serves at most 5,000 rows per call, so page by offset.
 * Returns [period, value] with value as EIA sent it (a number or numeric string; null when not reported).
 * The offset advances by the rows received, in case the API caps a page below the requested length.
 */
export async function fetchEiaSeries(
  sourceId: string,
  fetchImpl: typeof fetch,
  key: string,
  route: string,
  series: string,
  frequency: string,
): Promise<[string, unknown][]> {
  const out: [string, unknown][] = [];
  for (;;) {
    const offset = out.length;
    const q = new URLSearchParams({ api_key: key, frequency, 'data[0]': 'value', 'facets[series][]': series });
    q.set('sort[0][column]', 'period');
    q.set('sort[0][direction]', 'asc');
    q.set('offset', String(offset));
    q.set('length', '5000');
    const url = `${EIA_API}/${route}/data/?${q}`;
    const res = await fetchImpl(url);
    if (!res.ok) throw new SourceError(sourceId, `EIA API ${route} ${series} ${frequency} answered ${res.status}`);
    const body = (await res.json()) as { response?: { total?: number | string; data?: { period: string; value: unknown }[] } };
    const data = body.response?.data;
    if (!Array.isArray(data)) throw new SourceError(sourceId, `EIA API ${route} ${series}: no response.data`);
    for (const row of data) out.push([row.period, row.value]);
    if (data.length === 0 || out.length >= Number(body.response?.total ?? 0)) break;
  }
  if (out.length === 0) throw new SourceError(sourceId, `EIA API ${route} ${series} ${frequency}: no rows`);
  return out;
}

export const eiaOilPricesSource: SourceAdapter = {
  id: ID,
  publisher: 'U.S. Energy Information Administration (EIA)',
  dataset: 'Spot prices: Europe Brent (RBRTE) and Cushing WTI (RWTC), US$/bbl',
  url: 'https://www.eia.gov/dnav/pet/pet_pri_spt_s1_d.htm',
  licence: 'Public domain (US government)',
  redistribution: 'open',
  files: FILES.map(({ path, url }) => ({ path, url })),
  tables: ['eia_oil_prices'],

  async load(db: Db, dir: string): Promise<void> {
    const parts: string[] = [];
    for (const f of FILES) {
      const file = requireFile(self, dir, f.path);
      await requireColumns(self, file, ['Date', 'Price']);
      // Monthly rows are stamped on the 15th (monthly average): store the month's first day.
      const date = f.frequency === 'monthly' ? `date_trunc('month', CAST(Date AS DATE))::DATE` : `CAST(Date AS DATE)`;
      parts.push(
        `SELECT '${f.series}' AS series, '${f.frequency}' AS frequency, ${date} AS date, CAST(trim(Price) AS DOUBLE) AS value
         FROM ${readCsvText(file)} WHERE nullif(trim(Price), '') IS NOT NULL`,
      );
    }
    try {
      // Negative prices are kept: WTI's 2020-04-20 print of -36.98 is real.
      await db.run(`CREATE OR REPLACE TABLE eia_oil_prices AS ${parts.join(' UNION ALL ')} ORDER BY series, frequency, date`);
    } catch (e) {
      throw new SourceError(ID, `cannot read prices: ${(e as Error).message}`);
    }
    await requireRows(self, db, 'eia_oil_prices');
  },

  async download(dir: string, fetchImpl: typeof fetch, keys?: SourceKeys): Promise<void> {
    const key = eiaApiKey(ID, keys);
    // The hist_xls files are old binary Excel (not readable by exceljs); API v2 serves the same series as JSON.
    for (const f of FILES) {
      const rows = await fetchEiaSeries(ID, fetchImpl, key, 'petroleum/pri/spt', SERIES[f.series], f.frequency);
      // API monthly periods are 'YYYY-MM'; the mirror (EIA's xls) stamps the 15th.
      const date = (p: string): string => (f.frequency === 'monthly' ? `${p}-15` : p);
      await writeCsv(
        join(dir, f.path),
        ['Date', 'Price'],
        rows.map(([p, v]) => [date(p), v]),
      );
    }
  },
};
