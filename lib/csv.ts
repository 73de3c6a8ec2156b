/**
 * The one CSV dialect Chokepoint writes (RFC 4180), for the API's CSV answers, the build's files,
 * the source mirror and the site: comma-separated, CRLF after every record (the last one too), a
 * field in double quotes when it holds a comma, a double quote, CR or LF (its quotes doubled),
 * UTF-8 text without a byte-order mark once encoded. The caller fixes the columns and their order.
 * null and undefined are empty fields; numbers are JavaScript's shortest round-trip text
 * (String(n): 0.1, 1e-7, 1e+21), a non-finite one an empty field as JSON makes it null.
 *
 * Written here rather than taken from csv-stringify: its ESM entry reads the global Buffer when
 * loaded (the API app must load at the edge, where there is none), its browser build carries an
 * 80 kB Buffer polyfill, it writes booleans as 1 and '' unless told otherwise, and it took 3–4×
 * as long on 20 000 rows of six columns (64–82 ms against 19 ms). The tests read what this writes
 * back with csv-parse. The bulk package's CSVs come from DuckDB's COPY in this same dialect.
 */
import type { StressHistoryPoint } from '../contract/stress.ts';

export const CSV_LINE_END = '\r\n';
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * Text a spreadsheet would take for a formula (OWASP, CSV injection): a cell starting with
 * `=`, `+`, `-`, `@`, a tab or a carriage return. Such text is written with a `'` in front, which
 * spreadsheets show as text and do not evaluate. A number is not text: numbers (and text that is
 * a plain decimal number, such as `-12.5`) are written as they are.
 */
export const FORMULA_START = /^[=+\-@\t\r]/;
export const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
/** The same rule as a DuckDB expression over the text column `column` (a quoted name), for CSVs DuckDB writes. */
export const formulaSafeSql = (column: string) =>
  `CASE WHEN regexp_matches(${column}, '${FORMULA_START.source}') AND NOT regexp_matches(${column}, '${PLAIN_NUMBER.source}') THEN '''' || ${column} ELSE ${column} END`;

/** Text as a spreadsheet will show it, never as a formula (see FORMULA_START). */
export function formulaSafe(s: string): string {
  return FORMULA_START.test(s) && !PLAIN_NUMBER.test(s) ? `'${s}` : s;
}

/** One field as CSV text. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined || (typeof value === 'number' && !Number.isFinite(value))) return '';
  const s = typeof value === 'string' ? formulaSafe(value) : String(value);
  return NEEDS_QUOTES.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** One record with its line end. */
export function csvRecord(values: readonly unknown[]): string {
  return values.map(csvField).join(',') + CSV_LINE_END;
}

/**
 * A header record of `columns`, then one record per row, each row's values in the columns' order.
 * A short row ends in empty fields; a row longer than the header is an error (its tail would
 * land under no column).
 */
export function toCsv(columns: readonly string[], rows: Iterable<readonly unknown[]>): string {
  let out = csvRecord(columns);
  for (const row of rows) {
    if (row.length > columns.length) throw new RangeError(`CSV row of ${row.length} fields under ${columns.length} columns (${columns.join(', ')})`);
    out += csvRecord(row.length === columns.length ? row : [...row, ...new Array<undefined>(columns.length - row.length)]);
  }
  return out;
}

/** Objects as CSV: each record's properties named by `columns`, in that order (a missing one is an empty field). */
export function recordsToCsv(columns: readonly string[], records: Iterable<Readonly<Record<string, unknown>>>): string {
  let out = csvRecord(columns);
  for (const r of records) out += csvRecord(columns.map((c) => r[c]));
  return out;
}

/** Month-end stress readings of many commodities or countries: one record per id and month (data/stress/*.csv). */
export function stressHistoryCsv(rows: Iterable<readonly [string, readonly StressHistoryPoint[]]>): string {
  const records: unknown[][] = [];
  for (const [id, history] of rows) for (const h of history) records.push([id, h.date, h.index, h.band, h.coverage]);
  return toCsv(['id', 'date', 'index', 'band', 'coverage'], records);
}
