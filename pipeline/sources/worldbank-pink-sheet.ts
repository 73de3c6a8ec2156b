import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { Db } from '../db.ts';
import { editionAddress, type EditionListing, requireAdvanced } from './edition.ts';
import { readCsvText, requireColumns, requireFile, requireRows, writeCsv } from './support.ts';
import { SourceError, type SourceAdapter, type SourceKeys, todayOf } from './types.ts';

const ID = 'worldbank-pink-sheet' as const;
const self = { id: ID };
const PRICES = 'cmo-monthly-prices.csv';
const INDICES = 'cmo-monthly-indices.csv';
const SERIES = 'cmo-series.csv';
/**
 * The "Pink Sheet" workbook. World Bank re-posts it each month under the same path, but the path's
 * document hash changes now and then (…-0050012025 froze at 2025-12; …-0050012026 since 2026-02-03),
 * so the address is read from the commodity-markets page, which links the current file.
 */
export const CMO_LISTING: EditionListing = {
  page: 'https://www.worldbank.org/en/research/commodity-markets',
  link: /(?:https?:\/\/thedocs\.worldbank\.org)?\/en\/doc\/[0-9a-f]+-[0-9]+\/related\/CMO-Historical-Data-Monthly\.xlsx/i,
  known: 'https://thedocs.worldbank.org/en/doc/74e8be41ceb20fa0da750cda2f6b9e4e-0050012026/related/CMO-Historical-Data-Monthly.xlsx',
};

/** Long format of a wide 'date' (YYYY-MM) + one-column-per-series CSV; empty cells are no data. */
function unpivot(file: string): string {
  return `
    SELECT series, CAST(strptime(trim(date), '%Y-%m') AS DATE) AS date, CAST(trim(value) AS DOUBLE) AS value
    FROM (UNPIVOT (SELECT * FROM ${readCsvText(file)}) ON COLUMNS(* EXCLUDE (date)) INTO NAME series VALUE value)
    WHERE nullif(trim(value), '') IS NOT NULL
    ORDER BY series, date`;
}

export const worldbankPinkSheetSource: SourceAdapter = {
  id: ID,
  publisher: 'World Bank',
  dataset: 'Commodity Price Data ("Pink Sheet"), CMO Historical Data Monthly',
  url: 'https://www.worldbank.org/en/research/commodity-markets',
  licence: 'CC-BY-4.0',
  redistribution: 'open',
  files: [PRICES, INDICES, SERIES].map((path) => ({ path, url: CMO_LISTING.known })),
  tables: ['worldbank_prices', 'worldbank_series', 'worldbank_indices'],

  async load(db: Db, dir: string): Promise<void> {
    const prices = requireFile(self, dir, PRICES);
    const indices = requireFile(self, dir, INDICES);
    const series = requireFile(self, dir, SERIES);
    await requireColumns(self, prices, ['date', 'Crude oil, Brent', 'Natural gas, Europe', 'Liquefied natural gas, Japan', 'Copper']);
    await requireColumns(self, indices, ['date', 'Total Index', 'Energy']);
    await requireColumns(self, series, ['sheet', 'column', 'unit']);
    try {
      await db.run(`CREATE OR REPLACE TABLE worldbank_prices AS ${unpivot(prices)}`);
      await db.run(`CREATE OR REPLACE TABLE worldbank_indices AS ${unpivot(indices)}`);
      // Names are trimmed (the workbook pads some with trailing spaces) but inner double spaces are the
      // World Bank's own ('Metals  & Minerals'), so they stay. Units lose their parentheses: '($/bbl)' -> '$/bbl'.
      await db.run(`
        CREATE OR REPLACE TABLE worldbank_series AS
        SELECT trim("column") AS series, nullif(trim(regexp_replace(trim(unit), '^\\((.*)\\)$', '\\1')), '') AS unit
        FROM ${readCsvText(series)} WHERE trim(sheet) = 'Monthly Prices' ORDER BY series`);
    } catch (e) {
      throw new SourceError(ID, `cannot read CMO files: ${(e as Error).message}`);
    }
    await requireRows(self, db, 'worldbank_prices');
    await requireRows(self, db, 'worldbank_indices');
    await requireRows(self, db, 'worldbank_series');
    // Every price column must find its unit by plain equality, so consumers can join without trimming.
    const orphans = await db.all<{ series: string }>(`
      SELECT DISTINCT p.series FROM worldbank_prices p ANTI JOIN worldbank_series s ON p.series = s.series ORDER BY 1`);
    if (orphans.length > 0) {
      throw new SourceError(ID, `${SERIES} has no unit for ${orphans.map((o) => JSON.stringify(o.series)).join(', ')}`);
    }
  },

  async download(dir: string, fetchImpl: typeof fetch, keys: SourceKeys = {}): Promise<void> {
    const url = await editionAddress(ID, CMO_LISTING, fetchImpl, keys, keys.worldbankCmoUrl);
    const res = await fetchImpl(url);
    if (!res.ok) throw new SourceError(ID, `download ${url} answered ${res.status}`);
    const wb = new ExcelJS.Workbook();
    try {
      await wb.xlsx.load(await res.arrayBuffer());
    } catch (e) {
      throw new SourceError(ID, `${url} is not a readable xlsx workbook (${(e as Error).message})`);
    }
    const units: string[][] = [];
    let newest = '';
    for (const [sheet, file] of [
      ['Monthly Prices', PRICES],
      ['Monthly Indices', INDICES],
    ] as const) {
      const ws = wb.getWorksheet(sheet);
      if (!ws) throw new SourceError(ID, `workbook has no sheet '${sheet}'`);
      const { names, unitRow, rows } = readCmoSheet(ws);
      if (rows.length === 0) throw new SourceError(ID, `sheet '${sheet}' has no monthly rows`);
      names.forEach((n, i) => units.push([sheet, n, unitRow[i] ?? '']));
      newest = String(rows.at(-1)![0]);
      await writeCsv(join(dir, file), ['date', ...names], rows);
    }
    requireAdvanced(ID, url, newest, todayOf(keys));
    await writeCsv(join(dir, SERIES), ['sheet', 'column', 'unit'], units);
  },
};

type Cell = ExcelJS.CellValue;
/** Plain text or number of a cell (formula results, rich text), or null when empty. */
function plain(v: Cell): string | number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number' || typeof v === 'string') return v;
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object' && 'result' in v) return plain(v.result as Cell);
  if (typeof v === 'object' && 'richText' in v) return v.richText.map((t) => t.text).join('');
  return String(v);
}

/**
 * A CMO sheet: title rows, a (possibly multi-level) header of names, then rows dated '1960M01'.
 * "Monthly Prices" has a row of units in parentheses under the names ('($/bbl)'); editions up to 2025
 * add a row of series codes under it ('CRUDE_PETRO'), 2026 editions do not. "Monthly Indices" has no
 * unit row: its base is in the title ('… 2010=100, 1960 to present'), and a note in column A
 * ('(monthly series are available only …)') must not be taken for units. Each column's name is the
 * nearest label above its unit, or above the data where there is no unit row.
 */
export function readCmoSheet(ws: ExcelJS.Worksheet): { names: string[]; unitRow: string[]; rows: (string | number)[][] } {
  const grid: (string | number | null)[][] = [];
  ws.eachRow({ includeEmpty: true }, (row, n) => {
    grid[n - 1] = (row.values as Cell[]).slice(1).map(plain);
  });
  const isMonth = (v: unknown) => typeof v === 'string' && /^\d{4}M\d{2}$/.test(v.trim());
  const filled = (v: unknown) => v !== null && v !== undefined && String(v).trim() !== '';
  const first = grid.findIndex((r) => isMonth(r?.[0]));
  if (first < 0) throw new SourceError(ID, `sheet '${ws.name}' has no row dated like 1960M01`);
  // Column A holds dates and notes only; units and codes sit over the data columns.
  const dataCells = (i: number) =>
    (grid[i] ?? [])
      .slice(1)
      .filter(filled)
      .map((v) => String(v).trim());
  const isUnitRow = (i: number) => dataCells(i).some((v) => /^\(.+\)$/.test(v));
  const isCodeRow = (i: number) => dataCells(i).length > 0 && dataCells(i).every((v) => /^[A-Za-z][A-Za-z0-9_]*$/.test(v) && /[A-Z_]{3}/.test(v));
  let unitAt = -1;
  for (let i = first - 1; i >= 0 && unitAt < 0; i--) if (isUnitRow(i)) unitAt = i;
  let namesEnd = unitAt >= 0 ? unitAt : first;
  while (namesEnd > 0 && isCodeRow(namesEnd - 1)) namesEnd--;
  const width = Math.max(...grid.slice(first).map((r) => r?.length ?? 0));
  const nameOf = (c: number): string | null => {
    for (let i = namesEnd - 1; i >= 0; i--) if (filled(grid[i]?.[c])) return String(grid[i]![c]).trimEnd();
    return null;
  };
  const cols: number[] = [];
  for (let c = 1; c < width; c++) if (unitAt >= 0 ? filled(grid[unitAt]![c]) : nameOf(c) !== null) cols.push(c);
  if (cols.length === 0) throw new SourceError(ID, `sheet '${ws.name}' has no named columns above its monthly rows`);
  const names = cols.map((c) => {
    const name = nameOf(c);
    if (name === null) throw new SourceError(ID, `sheet '${ws.name}' column ${c + 1} has a unit but no name`);
    return name;
  });
  const base = grid
    .slice(0, namesEnd)
    .map((r) => /\b(\d{4}=100)\b/.exec(String(r?.[0] ?? ''))?.[1])
    .find(Boolean);
  const unitRow = cols.map((c) => (unitAt >= 0 ? String(grid[unitAt]![c]).trim() : base ? `(${base})` : ''));
  // '…' and '...' are the World Bank's "no data" markers.
  const value = (v: string | number | null | undefined) => (v === null || v === undefined || (typeof v === 'string' && /^\s*(…|\.\.\.)?\s*$/.test(v)) ? '' : v);
  const rows = grid
    .slice(first)
    .filter((r) => isMonth(r?.[0]))
    .map((r) => [String(r[0]).trim().replace('M', '-'), ...cols.map((c) => value(r[c]))]);
  return { names, unitRow, rows };
}
