import { join } from 'node:path';
import type { Db } from '../db.ts';
import { eiaApiKey, fetchEiaSeries } from './eia-api.ts';
import { readCsvText, requireColumns, requireFile, requireRows, writeCsv } from './support.ts';
import { SourceError, type SourceAdapter, type SourceKeys } from './types.ts';

const ID = 'eia-henry-hub' as const;
const self = { id: ID };
const DAILY = 'henry-hub-daily.csv';
const MONTHLY = 'henry-hub-monthly.csv';

export const eiaHenryHubSource: SourceAdapter = {
  id: ID,
  publisher: 'U.S. Energy Information Administration (EIA)',
  dataset: 'Henry Hub natural gas spot price (RNGWHHD), US$/MMBtu',
  url: 'https://www.eia.gov/dnav/ng/hist/rngwhhdD.htm',
  licence: 'Public domain (US government)',
  redistribution: 'open',
  files: [
    // EIA's own history downloads (old binary .xls); download() reads the same series from API v2.
    { path: DAILY, url: 'https://www.eia.gov/dnav/ng/hist_xls/RNGWHHDd.xls' },
    { path: MONTHLY, url: 'https://www.eia.gov/dnav/ng/hist_xls/RNGWHHDm.xls' },
  ],
  tables: ['eia_henry_hub'],

  async load(db: Db, dir: string): Promise<void> {
    const daily = requireFile(self, dir, DAILY);
    const monthly = requireFile(self, dir, MONTHLY);
    await requireColumns(self, daily, ['Date', 'Price']);
    await requireColumns(self, monthly, ['Month', 'Price']);
    try {
      await db.run(`
        CREATE OR REPLACE TABLE eia_henry_hub AS
        SELECT 'daily' AS frequency, CAST(Date AS DATE) AS date, CAST(trim(Price) AS DOUBLE) AS value
          FROM ${readCsvText(daily)} WHERE nullif(trim(Price), '') IS NOT NULL
        UNION ALL
        -- Month is 'YYYY-MM': store the first day of the month.
        SELECT 'monthly', CAST(strptime(trim(Month), '%Y-%m') AS DATE), CAST(trim(Price) AS DOUBLE)
          FROM ${readCsvText(monthly)} WHERE nullif(trim(Price), '') IS NOT NULL
        ORDER BY frequency, date`);
    } catch (e) {
      throw new SourceError(ID, `cannot read prices: ${(e as Error).message}`);
    }
    await requireRows(self, db, 'eia_henry_hub');
  },

  async download(dir: string, fetchImpl: typeof fetch, keys?: SourceKeys): Promise<void> {
    const key = eiaApiKey(ID, keys);
    // Henry Hub spot sits in API v2's natural-gas/pri/fut route (spot and NYMEX futures share it).
    const daily = await fetchEiaSeries(ID, fetchImpl, key, 'natural-gas/pri/fut', 'RNGWHHD', 'daily');
    await writeCsv(join(dir, DAILY), ['Date', 'Price'], daily);
    const monthly = await fetchEiaSeries(ID, fetchImpl, key, 'natural-gas/pri/fut', 'RNGWHHD', 'monthly');
    await writeCsv(join(dir, MONTHLY), ['Month', 'Price'], monthly);
  },
};
