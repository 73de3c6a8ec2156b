/** Federal Reserve Bank of New York, Global Supply Chain Pressure Index (monthly, standard deviations). */
import type { Db } from '../db.ts';
import { readCsvText, requireColumns, requireFile, requireRows } from './support.ts';
import { SourceError, type SourceAdapter, mirrorOnly } from './types.ts';

const ID = 'nyfed-gscpi' as const;
const FILE = 'gscpi_monthly.csv';
const XLS = 'https://www.newyorkfed.org/medialibrary/research/interactives/gscpi/downloads/gscpi_data.xlsx';

export const nyfedGscpiSource: SourceAdapter = {
  id: ID,
  publisher: 'Federal Reserve Bank of New York',
  dataset: 'Global Supply Chain Pressure Index (GSCPI), monthly',
  url: 'https://www.newyorkfed.org/research/policy/gscpi',
  licence: 'NY Fed terms of use; attribution "Federal Reserve Bank of New York, GSCPI"; no open licence',
  redistribution: 'derived-only',
  files: [{ path: FILE, url: XLS }],
  tables: ['gscpi'],

  async load(db: Db, dir: string): Promise<void> {
    const file = requireFile(this, dir, FILE);
    await requireColumns(this, file, ['date', 'value']);
    try {
      await db.run(`
        CREATE OR REPLACE TABLE gscpi AS
        SELECT CAST(trim(date) AS DATE) AS date, CAST(trim(value) AS DOUBLE) AS value
        FROM ${readCsvText(file)} WHERE nullif(trim(value), '') IS NOT NULL ORDER BY date`);
    } catch (e) {
      throw new SourceError(ID, `cannot read the index: ${(e as Error).message}`);
    }
    await requireRows(this, db, 'gscpi');
  },

  // The NY Fed serves a legacy binary .xls under an .xlsx name; exceljs reads only OOXML.
  ...mirrorOnly(ID, `no download: ${XLS} is a legacy .xls workbook, which our xlsx reader cannot parse`),
};
