import { existsSync } from 'node:fs';
import { type Db, sqlString } from './db.ts';
import { tablePath } from './snapshots.ts';
import { TABLE_SCHEMAS } from './sources/schemas.ts';
import type { SourceAdapter } from './sources/types.ts';

/**
 * A load that parses and fits the schema can still be cut short: a download that stopped
 * early, a publisher's export that lost its last months. Published as fresh it would move
 * `as_of` backwards with /healthz saying ok (issue 20, finding 5). So a new load is compared
 * with the last good snapshot and refused when it has lost ground.
 */

/** A table keeping fewer rows than this share of the last good load's is refused. */
export const MIN_ROW_SHARE = 0.9;

/** Columns that tell one series of a dated table from another (brent vs wti, DE vs EU, daily vs weekly). */
const SERIES_COLUMNS = ['series', 'series_id', 'code', 'frequency', 'country', 'file'];

/** Throws with every way the new load falls behind the snapshot in `snapDir`; silent when it does not. */
export async function checkPlausible(db: Db, adapter: SourceAdapter, snapDir: string): Promise<void> {
  const problems: string[] = [];
  for (const table of adapter.tables) {
    const old = tablePath(snapDir, table);
    if (!existsSync(old)) continue;
    const before = `read_parquet(${sqlString(old)})`;
    const rows = async (from: string) => Number((await db.one<{ n: number }>(`SELECT count(*)::BIGINT AS n FROM ${from}`))?.n ?? 0);
    const [had, has] = [await rows(before), await rows(table)];
    if (had > 0 && has < had * MIN_ROW_SHARE) {
      problems.push(`${table} has ${has} rows, ${Math.round((has / had) * 100)} % of the last good load's ${had} (below ${MIN_ROW_SHARE * 100} %)`);
    }
    for (const p of await newestBySeries(db, table, before)) problems.push(p);
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, 3).join('; ') + (problems.length > 3 ? `; and ${problems.length - 3} more` : '');
    throw new Error(`implausible load, the last good snapshot is kept: ${shown}`);
  }
}

/** Per series, the newest observation must not be older than the snapshot's (nor the series gone). */
async function newestBySeries(db: Db, table: string, before: string): Promise<string[]> {
  const cols = Object.keys(TABLE_SCHEMAS[table] ?? {});
  // Compared as numbers (days, years): as text, a year past 9999 would sort before 2026.
  const year = `try_cast(regexp_extract(CAST(year AS VARCHAR), '^\\d{4}') AS INTEGER)`;
  const newest = cols.includes('date')
    ? `strftime(max(date), '%Y-%m-%d') AS d, (max(date) - DATE '1970-01-01')::INTEGER AS n`
    : cols.includes('year')
      ? `max(${year})::VARCHAR AS d, max(${year}) AS n`
      : null;
  if (!newest) return [];
  // Year tables (annual editions) are compared whole; dated tables series by series.
  const keys = cols.includes('date') ? SERIES_COLUMNS.filter((c) => cols.includes(c)) : [];
  const key = keys.length ? `concat_ws(' / ', ${keys.map((c) => `coalesce(CAST(${c} AS VARCHAR), '')`).join(', ')})` : `'all rows'`;
  type Row = { k: string; d: string | null; n: number | null };
  const q = (from: string) => db.all<Row>(`SELECT ${key} AS k, ${newest} FROM ${from} GROUP BY ALL`);
  const now = new Map((await q(table)).map((r) => [r.k, r]));
  const out: string[] = [];
  for (const { k, d, n } of await q(before)) {
    if (n === null) continue;
    const got = now.get(k);
    if (!got || got.n === null) out.push(`${table} ${k} is missing (the last good load ran to ${d})`);
    else if (got.n < n) out.push(`${table} ${k} ends ${got.d}, before the last good load's ${d}`);
  }
  return out;
}
