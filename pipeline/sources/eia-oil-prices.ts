import { join } from 'node:path';
import type { Db } from '../db.ts';
import { readCsvText, requireColumns, requireFile, requireRows, writeCsv } from './support.ts';
import { eiaApiKey, fetchEiaSeries } from './eia-api.ts';
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

/** Shared with the other EIA adapters (and kept importable from here). */
export { EIA_API, eiaApiKey, fetchEiaSeries } from './eia-api.ts';

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
