import { BOUNDS, type Bound, JUMP_DEVIATIONS, MAD_SCALE, type TableBounds } from '../contract/bounds.ts';
import { type Db, sqlString } from './db.ts';
import { TABLE_SCHEMAS, type TableName } from './sources/schemas.ts';

/**
 * The value gates of contract/bounds.ts, run in DuckDB over a table as loaded or over a
 * snapshot's Parquet file (`from` gives the relation to read for a table).
 */

/** Where to read a table: its name in the database, or `read_parquet('…')` of a snapshot. */
export type TableSource = (table: string) => string;
export const loaded: TableSource = (t) => t;

/** At most this many rows are named per broken rule (the count says how many more). */
const SHOWN = 3;

const bounds = (table: string) => (BOUNDS as Record<string, TableBounds<TableName> | undefined>)[table];
const num = (v: unknown) => Number(Number(v).toPrecision(6));
const signed = (v: number) => (v > 0 ? `+${num(v)}` : String(num(v)));

/** SQL naming a row: its series (as declared) and its date or year, e.g. `de 2026-08-21`. */
function rowLabel(table: string, series: readonly string[], dated = true): string {
  const cols = Object.keys(TABLE_SCHEMAS[table] ?? {});
  const when = !dated ? null : cols.includes('date') ? `strftime(date, '%Y-%m-%d')` : cols.includes('year') ? 'CAST(year AS VARCHAR)' : null;
  const parts = [...series.map((c) => `CAST(${c} AS VARCHAR)`), ...(when ? [when] : [])];
  return parts.length ? `concat_ws(' ', ${parts.join(', ')})` : `'all rows'`;
}

const whenSql = (when: Partial<Record<string, string>> | undefined) =>
  Object.entries(when ?? {})
    .map(([c, v]) => ` AND ${c} = ${sqlString(v!)}`)
    .join('');

function interval(b: { min?: number; above?: number; max?: number }): string {
  const low = b.above !== undefined ? `(${b.above}` : b.min !== undefined ? `[${b.min}` : '(−∞';
  return `${low}, ${b.max !== undefined ? `${b.max}]` : '∞)'}`;
}

type Found = { label: string; a: number; b: number | null; n: number };

/** Rows (or groups) breaking one rule, the first SHOWN of them with the total count. */
async function broken(db: Db, table: string, from: string, series: readonly string[], rule: Bound<TableName>): Promise<string[]> {
  const label = rowLabel(table, series);
  let sql: string;
  let say: (f: Found) => string;
  switch (rule.kind) {
    case 'range': {
      const outside = [
        rule.min !== undefined ? `${rule.column} < ${rule.min}` : null,
        rule.above !== undefined ? `${rule.column} <= ${rule.above}` : null,
        rule.max !== undefined ? `${rule.column} > ${rule.max}` : null,
      ].filter(Boolean);
      sql = `SELECT ${label} AS label, ${rule.column}::DOUBLE AS a, NULL AS b FROM ${from}
             WHERE ${rule.column} IS NOT NULL AND (${outside.join(' OR ')})${whenSql(rule.when)}`;
      say = (f) => `${table} ${f.label}: ${rule.column} ${num(f.a)} is outside ${interval(rule)} (${rule.why})`;
      break;
    }
    case 'at-most':
      sql = `SELECT ${label} AS label, ${rule.column}::DOUBLE AS a, ${rule.limit}::DOUBLE AS b FROM ${from}
             WHERE ${rule.column} > ${rule.factor} * ${rule.limit}`;
      say = (f) => `${table} ${f.label}: ${rule.column} ${num(f.a)} exceeds ${rule.factor} × ${rule.limit} ${num(f.b)} (${rule.why})`;
      break;
    case 'sums-to': {
      const group = rowLabel(table, rule.group, false);
      sql = `SELECT ${group} AS label, sum(${rule.column})::DOUBLE AS a, NULL AS b FROM ${from}
             WHERE true${whenSql(rule.when)} GROUP BY ${rule.group.join(', ')}
             HAVING count(${rule.column}) > 0 AND abs(sum(${rule.column}) - ${rule.total}) > ${rule.tolerance}`;
      say = (f) => `${table} ${f.label}: ${rule.column} sums to ${num(f.a)}, not ${rule.total} ± ${rule.tolerance} (${rule.why})`;
      break;
    }
    case 'jump':
      return [];
  }
  const rows = await db.all<Found>(`SELECT *, count(*) OVER ()::INTEGER AS n FROM (${sql}) ORDER BY label LIMIT ${SHOWN}`);
  if (rows.length === 0) return [];
  const more = rows[0]!.n - rows.length;
  return [...rows.map(say), ...(more > 0 ? [`${table}: ${more} more row(s) break the same bound`] : [])];
}

/** Every value of the adapter's tables outside its bound, in words (empty when all pass). */
export async function valueViolations(db: Db, tables: readonly string[], from: TableSource = loaded): Promise<string[]> {
  const out: string[] = [];
  for (const table of tables) {
    const b = bounds(table);
    if (!b) continue;
    for (const rule of b.rules) out.push(...(await broken(db, table, from(table), b.series, rule)));
  }
  return out;
}

/**
 * Jumps among the rows new or changed since `before` (the last good snapshot): a change from
 * the series' previous observation more than JUMP_DEVIATIONS robust deviations from the median
 * of all its changes. With no snapshot nothing is flagged: history is what it is.
 */
export async function valueJumps(db: Db, tables: readonly string[], before: TableSource | null, from: TableSource = loaded): Promise<string[]> {
  if (!before) return [];
  const out: string[] = [];
  for (const table of tables) {
    const b = bounds(table);
    if (!b || !Object.keys(TABLE_SCHEMAS[table] ?? {}).includes('date')) continue;
    const key = b.series.length ? `concat_ws(' ', ${b.series.map((c) => `CAST(${c} AS VARCHAR)`).join(', ')})` : `''`;
    for (const rule of b.rules) {
      if (rule.kind !== 'jump') continue;
      const c = rule.column;
      // A ratio is measured on the log scale, so a doubling and a halving weigh the same.
      const change = rule.change === 'ratio' ? `ln(${c} / prev)` : `${c} - prev`;
      const usable = rule.change === 'ratio' ? `${c} > 0` : `${c} IS NOT NULL`;
      const rows = await db.all<{ k: string; d: string; v: number; prev: number; z: number; m: number; mad: number }>(`
        WITH obs AS (
          SELECT ${key} AS k, date, ${c}::DOUBLE AS ${c}, lag(${c}::DOUBLE) OVER (PARTITION BY ${key} ORDER BY date) AS prev
          FROM ${from(table)} WHERE ${usable}
        ),
        ch AS (SELECT k, date, ${c} AS v, prev, ${change} AS x FROM obs WHERE prev IS NOT NULL AND ${rule.change === 'ratio' ? 'prev > 0' : 'true'}),
        mid AS (SELECT k, median(x) AS m FROM ch GROUP BY k),
        spread AS (SELECT k, m, median(abs(x - m)) AS mad FROM ch JOIN mid USING (k) GROUP BY k, m),
        old AS (SELECT ${key} AS k, date, ${c}::DOUBLE AS v FROM ${before(table)})
        SELECT ch.k, strftime(ch.date, '%Y-%m-%d') AS d, ch.v, ch.prev, abs(ch.x - s.m) / (${MAD_SCALE} * s.mad) AS z, s.m, s.mad
        FROM ch JOIN spread s USING (k)
        WHERE s.mad > 0 AND abs(ch.x - s.m) > ${JUMP_DEVIATIONS} * ${MAD_SCALE} * s.mad
          AND NOT EXISTS (SELECT 1 FROM old WHERE old.k = ch.k AND old.date = ch.date AND old.v IS NOT DISTINCT FROM ch.v)
        ORDER BY z DESC LIMIT ${SHOWN}`);
      for (const r of rows) {
        const series = r.k ? `${r.k} ` : '';
        out.push(
          `${table} ${series}${r.d}: ${c} ${num(r.v)} after ${num(r.prev)} (${rule.change === 'ratio' ? `×${num(r.v / r.prev)}` : signed(r.v - r.prev)}), ` +
            `${Math.round(r.z)} robust deviations from the series' usual change (flagged at ${JUMP_DEVIATIONS})`,
        );
      }
    }
  }
  return out;
}
