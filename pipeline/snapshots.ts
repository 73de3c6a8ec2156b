import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic.ts';
import { type Db, sqlString } from './db.ts';
import type { SourceAdapter } from './sources/types.ts';

/**
 * The last good load of each source (`<DIST_DIR>/snapshots/<id>/`: raw files, clean tables as
 * Parquet, snapshot.json). A build only proposes changes to them; they are applied after the
 * build is published, so a load the build then rejects never replaces the last good one
 * (issue 20, finding 5).
 */
export interface Snapshot {
  sha256: string;
  retrieved_at: string;
  data_as_of: string | null;
  files: { path: string; sha256: string; bytes: number }[];
  /** Set while loads keep failing, so the manifest can say since when the data is stale. */
  failing_since?: string | null;
  /** Jumps the load was accepted with (pipeline/bounds.ts valueJumps), repeated while it stays unchanged. */
  warnings?: string[];
}

export async function readSnapshot(dir: string): Promise<Snapshot | null> {
  try {
    return JSON.parse(await readFile(join(dir, 'snapshot.json'), 'utf8')) as Snapshot;
  } catch {
    return null;
  }
}

export const tablePath = (dir: string, table: string) => join(dir, 'tables', `${table}.parquet`);

/** Changes to the snapshots proposed by one build, applied by commit() once it has published. */
export class SnapshotPlan {
  private readonly staged = new Map<string, string>();
  private readonly metas = new Map<string, Snapshot>();
  private readonly after: (() => Promise<void>)[] = [];

  /** Bookkeeping beside the snapshots (live fetching's state) written only once the build has published. */
  afterCommit(write: () => Promise<void>): void {
    this.after.push(write);
  }

  /** Copy a good load (its raw files and the tables as loaded now) beside the live snapshot. */
  async stage(db: Db, adapter: SourceAdapter, inputDir: string, target: string, snap: Snapshot): Promise<void> {
    const tmp = `${target}.tmp-${process.pid}`;
    await rm(tmp, { recursive: true, force: true });
    await mkdir(join(tmp, 'tables'), { recursive: true });
    for (const f of adapter.files) {
      await mkdir(join(tmp, 'files', f.path, '..'), { recursive: true });
      await cp(join(inputDir, f.path), join(tmp, 'files', f.path));
    }
    for (const t of adapter.tables) await db.run(`COPY ${t} TO ${sqlString(tablePath(tmp, t))} (FORMAT parquet)`);
    await writeFileAtomic(join(tmp, 'snapshot.json'), JSON.stringify(snap, null, 2));
    this.staged.set(target, tmp);
    this.metas.delete(target);
  }

  /** New bookkeeping (failing_since) for a snapshot whose data stay as they are. */
  setMeta(target: string, snap: Snapshot): void {
    if (!this.staged.has(target)) this.metas.set(target, snap);
  }

  /** Swap each staged snapshot in whole, then rewrite the changed snapshot.json files atomically. */
  async commit(): Promise<void> {
    for (const [target, tmp] of this.staged) {
      const old = `${target}.old-${process.pid}`;
      await rm(old, { recursive: true, force: true });
      if (existsSync(target)) await rename(target, old);
      await rename(tmp, target);
      await rm(old, { recursive: true, force: true });
    }
    for (const [target, snap] of this.metas) await writeFileAtomic(join(target, 'snapshot.json'), JSON.stringify(snap, null, 2));
    for (const write of this.after) await write();
    this.staged.clear();
    this.metas.clear();
    this.after.length = 0;
  }

  async discard(): Promise<void> {
    for (const tmp of this.staged.values()) await rm(tmp, { recursive: true, force: true });
    this.staged.clear();
    this.metas.clear();
    this.after.length = 0;
  }
}

/**
 * Clear what a build killed half-way left in the snapshots folder (run under the build lock, so
 * no other build is writing): staged copies are dropped; a snapshot moved aside for a swap that
 * never finished is put back.
 */
export async function recoverSnapshots(snapshotsDir: string): Promise<string[]> {
  const removed: string[] = [];
  const names = await readdir(snapshotsDir).catch(() => [] as string[]);
  for (const name of names) {
    const m = /^(.+)\.(tmp|old)-\d+$/.exec(name);
    if (!m) continue;
    const target = join(snapshotsDir, m[1]!);
    if (m[2] === 'old' && !existsSync(target)) {
      await rename(join(snapshotsDir, name), target);
      continue;
    }
    await rm(join(snapshotsDir, name), { recursive: true, force: true });
    removed.push(`snapshots/${name}`);
  }
  for (const name of names) {
    const files = await readdir(join(snapshotsDir, name)).catch(() => [] as string[]);
    for (const f of files.filter((f) => f.startsWith('snapshot.json.tmp-'))) {
      await rm(join(snapshotsDir, name, f), { force: true });
      removed.push(`snapshots/${name}/${f}`);
    }
  }
  return removed;
}
