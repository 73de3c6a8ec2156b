import { createReadStream, existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parse } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import { toCsv } from '../../lib/csv.ts';
import { type Db, sqlString } from '../db.ts';
import { SourceError, type SourceAdapter } from './types.ts';

/** Absolute path of one of the adapter's files inside `dir`, or a SourceError when it is missing. */
export function requireFile(adapter: Pick<SourceAdapter, 'id'>, dir: string, path: string): string {
  const full = join(dir, path);
  if (!existsSync(full)) throw new SourceError(adapter.id, `missing file ${path}`);
  return full;
}

/** Throw a SourceError unless the CSV's header contains every expected column. */
export async function requireColumns(adapter: Pick<SourceAdapter, 'id'>, file: string, expected: readonly string[]): Promise<void> {
  let columns: string[] = [];
  let why = '';
  try {
    columns = await csvHeader(file);
  } catch (e) {
    why = ` (${(e as Error).message})`;
  }
  const missing = expected.filter((c) => !columns.includes(c));
  if (columns.length === 0 || missing.length > 0) {
    throw new SourceError(adapter.id, `${file}: header lacks ${missing.join(', ') || 'every column'}${why}`);
  }
}

/** How the pipeline reads a CSV with csv-parse: RFC 4180 (quoted commas and newlines), a UTF-8 byte-order mark dropped, blank records skipped, ragged records and stray quotes kept. */
const READ = { bom: true, skip_records_with_empty_values: true, relax_column_count: true, relax_quotes: true } as const;

/** The first record of a CSV file, read from its first chunk rather than the whole file; [] for an empty file. */
async function csvHeader(file: string): Promise<string[]> {
  const source = createReadStream(file);
  const parser = source.pipe(parse(READ));
  source.once('error', (e) => parser.destroy(e));
  try {
    for await (const record of parser) return record as string[];
    return [];
  } finally {
    source.destroy();
  }
}

/** Every record of a CSV text, fields as text (for download converters that reshape what they fetched). */
export function parseCsv(text: string): string[][] {
  return parseSync(text, READ) as string[][];
}

/** Throw a SourceError when a freshly created table is empty (a truncated or blank file). */
export async function requireRows(adapter: Pick<SourceAdapter, 'id'>, db: Db, table: string): Promise<void> {
  const row = await db.one<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${table}`);
  if (!row || row.n === 0) throw new SourceError(adapter.id, `table ${table} has no rows`);
}

/** DuckDB expression that reads a CSV with every column as text, so that cleaning happens in SQL. */
export function readCsvText(file: string): string {
  return `read_csv(${sqlString(file)}, header = true, all_varchar = true, delim = ',', quote = '"', escape = '"')`;
}

/** Fetch `url` and write the body to `dir/path`; throws a SourceError on a non-2xx answer. */
export async function downloadTo(adapter: Pick<SourceAdapter, 'id'>, fetchImpl: typeof fetch, url: string, dir: string, path: string): Promise<Buffer> {
  const res = await fetchImpl(url, { headers: { 'user-agent': 'chokepoint-pipeline (+https://github.com/chokepoint)' } });
  if (!res.ok) throw new SourceError(adapter.id, `download ${url} answered ${res.status}`);
  const body = Buffer.from(await res.arrayBuffer());
  const target = join(dir, path);
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, body);
  return body;
}

/** Write rows as a CSV file (lib/csv.ts; used by download converters that turn JSON/xlsx into the mirror layout). */
export async function writeCsv(file: string, header: readonly string[], rows: readonly (readonly unknown[])[]): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, toCsv(header, rows));
}
