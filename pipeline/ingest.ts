import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SourceStatus } from '../contract/manifest.ts';
import { type Db, sqlString } from './db.ts';
import type { Effects } from './effects.ts';
import { type SourceCadence, buildFreshness, cadenceFor, isoDay } from './freshness.ts';
import { type Fetched, settle } from './fetch/sources.ts';
import { liveDir, writeFetchState } from './fetch/state.ts';
import { loaded, valueJumps, valueViolations } from './bounds.ts';
import { checkPlausible } from './plausibility.ts';
import { type Snapshot, type SnapshotPlan, readSnapshot, tablePath } from './snapshots.ts';
import { TABLE_SCHEMAS, createTableSql, sameTypeFamily } from './sources/schemas.ts';
import type { SourceAdapter } from './sources/types.ts';

export interface IngestOptions {
  /** The mirror folder (SOURCES_DIR): one sub-folder per source id. */
  sourcesDir: string;
  /** Where snapshots of the last good load of each source are kept (beside the builds). */
  snapshotsDir: string;
  /** What live fetching brought for this source (pipeline/fetch/sources.ts); absent: read the mirror. */
  fetched?: Fetched;
  /** data/cadence.yaml (loadCadences): how old each source may be before it is late or stale. */
  cadences: Record<string, SourceCadence>;
  /** Collects the snapshot changes of this load; the build applies them once it has published. */
  plan: SnapshotPlan;
}

/** A source status before its freshness is known. */
type LoadStatus = Omit<SourceStatus, 'cadence' | 'freshness' | 'expected_next' | 'overdue_days'>;

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

async function hashFiles(adapter: SourceAdapter, dir: string) {
  const files = [];
  for (const f of adapter.files) {
    const body = await readFile(join(dir, f.path)).catch(() => {
      throw new Error(`missing file ${f.path}`);
    });
    files.push({ path: f.path, sha256: sha256(body), bytes: body.length });
  }
  return { files, sha256: sha256(files.map((f) => `${f.path}:${f.sha256}`).join('\n')) };
}

/** The adapter's tables must exist with the declared columns; anything else is a broken load. */
async function verifyTables(db: Db, adapter: SourceAdapter): Promise<void> {
  for (const table of adapter.tables) {
    const declared = TABLE_SCHEMAS[table];
    if (!declared) throw new Error(`table ${table} has no declared schema`);
    const cols = await db.all<{ column_name: string; data_type: string }>(
      `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = ?`,
      [table],
    );
    if (cols.length === 0) throw new Error(`load did not create table ${table}`);
    const actual = new Map(cols.map((c) => [c.column_name, c.data_type]));
    for (const [col, type] of Object.entries(declared)) {
      const got = actual.get(col);
      if (!got) throw new Error(`table ${table} lacks column ${col}`);
      if (!sameTypeFamily(type, got)) throw new Error(`table ${table}.${col} is ${got}, expected ${type}`);
    }
    // NaN and ±Infinity parse as DOUBLE but are no figure a client can use.
    const doubles = Object.entries(declared)
      .filter(([, t]) => t === 'DOUBLE')
      .map(([c]) => c);
    if (doubles.length > 0) {
      const bad = await db.one<{ n: number }>(
        `SELECT count(*)::INTEGER AS n FROM ${table} WHERE ${doubles.map((c) => `isnan(${c}) OR isinf(${c})`).join(' OR ')}`,
      );
      if (bad && bad.n > 0) throw new Error(`table ${table} has ${bad.n} row(s) with NaN or infinite values`);
    }
  }
}

/** Newest observation across the adapter's tables: max(date), else the end of max(year). */
async function dataAsOf(db: Db, adapter: SourceAdapter): Promise<string | null> {
  let newest: string | null = null;
  for (const table of adapter.tables) {
    const cols = Object.keys(TABLE_SCHEMAS[table] ?? {});
    const expr = cols.includes('date')
      ? `strftime(max(date), '%Y-%m-%d')`
      : cols.includes('year')
        ? `max(try_cast(regexp_extract(CAST(year AS VARCHAR), '^\\d{4}') AS INTEGER))::VARCHAR || '-12-31'`
        : null;
    if (!expr) continue;
    const row = await db.one<{ d: string | null }>(`SELECT ${expr} AS d FROM ${table}`);
    if (row?.d && (!newest || row.d > newest)) newest = row.d;
  }
  return newest;
}

async function dropTables(db: Db, adapter: SourceAdapter) {
  for (const t of adapter.tables) await db.run(`DROP TABLE IF EXISTS ${t}`);
}

const fromSnapshot = (dir: string) => (t: string) => `read_parquet(${sqlString(tablePath(dir, t))})`;

async function loadFromSnapshot(db: Db, adapter: SourceAdapter, dir: string) {
  for (const t of adapter.tables) {
    await db.run(`CREATE OR REPLACE TABLE ${t} AS SELECT * FROM read_parquet(${sqlString(tablePath(dir, t))})`);
  }
}

/**
 * Bring one source into the database. A source whose files hash the same as the last good
 * load is read back from its snapshot (not re-parsed); a source that fails to load, loads a
 * value outside its bound (contract/bounds.ts), or loads less than its last good snapshot held
 * (checkPlausible), keeps that snapshot and is reported stale; with no snapshot it is reported unavailable and its tables are created empty, so the outputs that need it come out empty rather than wrong.
 * Beside that load status, the freshness of its newest observation on the build clock
 * (`fx.now()`) under its cadence in data/cadence.yaml: the two answer different questions.
 */
export async function ingestSource(db: Db, adapter: SourceAdapter, opts: IngestOptions, fx: Effects): Promise<SourceStatus> {
  const cadence = cadenceFor(opts.cadences, adapter.id);
  const today = isoDay(fx.now());
  const status = await loadSource(db, adapter, opts, fx);
  const f = buildFreshness(cadence, status.data_as_of, today);
  const loaded = { ...status, cadence: cadence.cadence, freshness: f.freshness, expected_next: f.expected_next, overdue_days: f.overdue_days };
  if (!opts.fetched) return loaded;
  const { fetch, state } = settle(opts.fetched, status, cadence, fx.now());
  if (state) opts.plan.afterCommit(() => writeFetchState(liveDir(opts.snapshotsDir, adapter.id), state));
  return { ...loaded, fetch };
}

/** Whether a source has a snapshot complete enough to load from (one taken before the adapter declared a new table is not). */
export function hasSnapshot(snapshotsDir: string, adapter: SourceAdapter): boolean {
  const dir = join(snapshotsDir, adapter.id);
  return existsSync(join(dir, 'snapshot.json')) && adapter.tables.every((t) => existsSync(tablePath(dir, t)));
}

/** The load half of ingestSource: what loaded, from where, and the newest observation. */
async function loadSource(db: Db, adapter: SourceAdapter, opts: IngestOptions, fx: Effects): Promise<LoadStatus> {
  const snapDir = join(opts.snapshotsDir, adapter.id);
  const snap = await readSnapshot(snapDir);
  const base = {
    id: adapter.id,
    publisher: adapter.publisher,
    dataset: adapter.dataset,
    url: adapter.url,
    license: adapter.licence,
    redistribution: adapter.redistribution,
  };
  const now = fx.now().toISOString();
  try {
    const fetched = opts.fetched;
    if (fetched?.kind === 'failed') throw new Error(fetched.reason);
    // Not asked again yet after a failure: still stale, for the same reason.
    if (fetched?.kind === 'skipped' && snap?.failing_since) throw new Error(fetched.state.reason ?? 'the last fetch failed');
    const inputDir = fetched?.kind === 'downloaded' ? fetched.dir : join(opts.sourcesDir, adapter.id);
    // A source not due is served from its snapshot as it stands (fetchSources asks when there is none).
    const hashed = fetched?.kind === 'skipped' && snap ? { sha256: snap.sha256 } : await hashFiles(adapter, inputDir);
    // A snapshot taken before the adapter declared a new table must not stand in for a load.
    const complete = adapter.tables.every((t) => existsSync(tablePath(snapDir, t)));
    // Only a snapshot within the value bounds is good: one an older version took without them is
    // neither served as unchanged nor the baseline a new load is compared with, so the load that
    // corrects it is accepted (issue 34, finding 2: a poisoned snapshot locked itself in).
    const baseline = snap && complete ? await goodSnapshot(db, adapter, snapDir, fx) : null;
    if (snap && snap.sha256 === hashed.sha256 && baseline) {
      await loadFromSnapshot(db, adapter, snapDir);
      if (snap.failing_since) opts.plan.setMeta(snapDir, { ...snap, failing_since: null });
      return {
        ...base,
        status: 'unchanged',
        sha256: snap.sha256,
        retrieved_at: snap.retrieved_at,
        data_as_of: snap.data_as_of,
        stale_reason: null,
        stale_since: null,
        files: snap.files,
        ...(snap.warnings?.length ? { warnings: snap.warnings } : {}),
      };
    }
    if (!('files' in hashed)) throw new Error(snap && complete ? 'its snapshot breaks the value bounds' : 'its snapshot is incomplete');
    await adapter.load(db, inputDir);
    await verifyTables(db, adapter);
    const bad = await valueViolations(db, adapter.tables, loaded);
    if (bad.length)
      throw new Error(`implausible value, the load is refused: ${bad.slice(0, 3).join('; ')}${bad.length > 3 ? `; and ${bad.length - 3} more` : ''}`);
    if (baseline) await checkPlausible(db, adapter, snapDir);
    // Jumps are flagged, not refused: a crisis moves prices and stocks further than any usual day.
    const warnings = await valueJumps(db, adapter.tables, baseline);
    for (const w of warnings) fx.log.warn(`${adapter.id}: jump flagged, the load is accepted: ${w}`);
    const fresh: Snapshot = {
      sha256: hashed.sha256,
      retrieved_at: now,
      data_as_of: await dataAsOf(db, adapter),
      files: hashed.files,
      failing_since: null,
      ...(warnings.length ? { warnings } : {}),
    };
    await opts.plan.stage(db, adapter, inputDir, snapDir, fresh);
    return {
      ...base,
      status: 'fresh',
      sha256: fresh.sha256,
      retrieved_at: now,
      data_as_of: fresh.data_as_of,
      stale_reason: null,
      stale_since: null,
      files: fresh.files,
      ...(warnings.length ? { warnings } : {}),
    };
  } catch (err) {
    const reason = err instanceof Error ? err.message.replace(`${adapter.id}: `, '') : String(err);
    await dropTables(db, adapter);
    if (snap && existsSync(join(snapDir, 'tables'))) {
      await loadFromSnapshot(db, adapter, snapDir);
      const since = snap.failing_since ?? now;
      if (!snap.failing_since) opts.plan.setMeta(snapDir, { ...snap, failing_since: since });
      fx.log.warn(`${adapter.id}: ${reason} — serving the snapshot retrieved ${snap.retrieved_at}`);
      return {
        ...base,
        status: 'stale',
        sha256: snap.sha256,
        retrieved_at: snap.retrieved_at,
        data_as_of: snap.data_as_of,
        stale_reason: reason,
        stale_since: since,
        files: snap.files,
      };
    }
    for (const t of adapter.tables) await db.run(createTableSql(t));
    fx.log.warn(`${adapter.id}: ${reason} — no snapshot to fall back on; its outputs are left out`);
    return { ...base, status: 'unavailable', sha256: null, retrieved_at: null, data_as_of: null, stale_reason: reason, stale_since: now, files: [] };
  }
}

/** The snapshot's tables, to serve and compare a new load with; null when its own values break the bounds. */
async function goodSnapshot(db: Db, adapter: SourceAdapter, snapDir: string, fx: Effects) {
  const from = fromSnapshot(snapDir);
  const bad = await valueViolations(db, adapter.tables, from);
  if (bad.length === 0) return from;
  fx.log.warn(`${adapter.id}: the last snapshot breaks the value bounds (${bad[0]}): the files are loaded again, and not compared with it`);
  return null;
}
