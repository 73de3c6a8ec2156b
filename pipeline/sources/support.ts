import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type Db, sqlString } from '../db.ts';
import { SourceError, type SourceAdapter } from './types.ts';

/** Absolute path of one of the adapter's files inside `dir`, or a SourceError when it is missing. */
export function requireFile(adapter: Pick<SourceAdapter, 'id'>, dir: string, path: string): string {
  const full = join(dir, path);
  if (!existsSync(full)) throw new SourceError(adapter.id, `missing file ${path}`);
  return full;
}

/** Throw a SourceError unless the CSV's header contains every expected column. */
export async function requireColumns(
  adapter: Pick<SourceAdapter, 'id'>,
  file: string,
  expected: readonly string[],
): Promise<void> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const header = text.slice(0, text.indexOf('\n') >>> 0).replace(/\r$/, '');
  const columns = parseCsvLine(header);
  const missing = expected.filter((c) => !columns.includes(c));
  if (columns.length === 0 || missing.length > 0) {
    throw new SourceError(adapter.id, `${file}: header lacks ${missing.join(', ') || 'every column'}`);
  }
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
export async function downloadTo(
  adapter: Pick<SourceAdapter, 'id'>,
  fetchImpl: typeof fetch,
  url: string,
  dir: string,
  path: string,
): Promise<Buffer> {
  const res = await fetchImpl(url, { headers: { 'user-agent': 'chokepoint-pipeline (+https://github.com/chokepoint)' } });
  if (!res.ok) throw new SourceError(adapter.id, `download ${url} answered ${res.status}`);
  const body = Buffer.from(await res.arrayBuffer());
  const target = join(dir, path);
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, body);
  return body;
}

/** Minimal CSV line splitter for headers (quoted fields, doubled quotes). */
export function parseCsvLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (line.length > 0) out.push(cur);
  return out;
}

/** Write rows as a CSV file (used by download converters that turn JSON/xlsx into the mirror layout). */
export async function writeCsv(file: string, header: readonly string[], rows: readonly (readonly unknown[])[]): Promise<void> {
  const cell = (v: unknown): string => {
    const s = v === null || v === undefined ? '' : String(v);
    return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  const lines = [header.map(cell).join(','), ...rows.map((r) => r.map(cell).join(','))];
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, lines.join('\n') + '\n');
}
