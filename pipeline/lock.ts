import { readFileSync } from 'node:fs';
import { link, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

/**
 * One build at a time per DIST_DIR. Two builds writing one DIST_DIR race on the build folders,
 * the `current` link and the snapshots (issue 20, finding 4), so every build takes
 * `<DIST_DIR>/build.lock` first, created with O_EXCL, and removes it when it ends. A lock whose
 * holder process is gone (killed, crashed, host rebooted) is taken over.
 */
export const LOCK_FILE = 'build.lock';

interface Holder {
  pid: number;
  host: string;
  /** Kernel start time of the holder (Linux), so a pid reused by another process is not mistaken for the holder. */
  start: string | null;
  since: string;
}

/** Thrown when another live build holds the lock: names it, so the operator knows whom to wait for. */
export class BuildLockedError extends Error {
  readonly outDir: string;
  readonly holder: Holder;
  constructor(outDir: string, holder: Holder) {
    super(
      `another build is running in ${outDir} (pid ${holder.pid} on ${holder.host}, since ${holder.since}); not starting a second one (wait for it with --wait, or stop pid ${holder.pid})`,
    );
    this.outDir = outDir;
    this.holder = holder;
    this.name = 'BuildLockedError';
  }
}

export interface BuildLock {
  /** A stale lock this one replaced, for the log. */
  tookOverFrom: Holder | null;
  release(): Promise<void>;
}

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks since boot. */
function startTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function alive(h: Holder): boolean {
  // A lock from another host cannot be checked from here: treat it as held.
  if (h.host !== hostname()) return true;
  try {
    process.kill(h.pid, 0);
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  const now = startTime(h.pid);
  return h.start === null || now === null || now === h.start;
}

const me = (): Holder => ({ pid: process.pid, host: hostname(), start: startTime(process.pid), since: new Date().toISOString() });

/**
 * Take the lock, waiting up to `waitMs` for a live holder to finish (0: fail at once with
 * BuildLockedError).
 */
export async function acquireBuildLock(outDir: string, waitMs = 0, pollMs = 500): Promise<BuildLock> {
  await mkdir(outDir, { recursive: true });
  const path = join(outDir, LOCK_FILE);
  const deadline = Date.now() + waitMs;
  let tookOverFrom: Holder | null = null;
  for (;;) {
    const self = me();
    // Written whole beside the lock, then hard-linked into place: link(2) fails if the lock
    // exists, and a lock is never seen empty or half-written by a build that starts meanwhile.
    const mine = `${path}.${process.pid}`;
    await writeFile(mine, JSON.stringify(self));
    try {
      await link(mine, path);
      await clearDeadAttempts(outDir);
      return { tookOverFrom, release: () => release(path, self) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      await rm(mine, { force: true });
    }
    const text = await readFile(path, 'utf8').catch(() => null);
    if (text === null) continue; // released between our open and read
    const holder = parseHolder(text);
    if (!holder || !alive(holder)) {
      // Move the stale lock aside, then check that what we moved is the stale one: two builds
      // taking over at once must not both win (the second would move the first one's new lock).
      const aside = `${path}.stale-${process.pid}`;
      if (
        await rename(path, aside).then(
          () => true,
          () => false,
        )
      ) {
        const moved = await readFile(aside, 'utf8').catch(() => null);
        if (moved === text) {
          tookOverFrom = holder ?? { pid: 0, host: '?', start: null, since: '?' };
          await rm(aside, { force: true });
        } else {
          await rename(aside, path).catch(() => {});
        }
      }
      continue;
    }
    if (Date.now() >= deadline) throw new BuildLockedError(outDir, holder);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

function parseHolder(text: string): Holder | null {
  try {
    const h = JSON.parse(text) as Partial<Holder>;
    return typeof h.pid === 'number' && typeof h.host === 'string' ? { pid: h.pid, host: h.host, start: h.start ?? null, since: h.since ?? '?' } : null;
  } catch {
    // Not a lock this code wrote (locks appear whole): nobody holds it.
    return null;
  }
}

/** Files `build.lock.<pid>` / `build.lock.stale-<pid>` of processes killed while taking the lock. */
async function clearDeadAttempts(outDir: string): Promise<void> {
  for (const n of await readdir(outDir)) {
    const m = /^build\.lock\.(?:stale-)?(\d+)$/.exec(n);
    if (!m || Number(m[1]) === process.pid) continue;
    if (!alive({ pid: Number(m[1]), host: hostname(), start: null, since: '' })) await rm(join(outDir, n), { force: true });
  }
}

/** Remove the lock only if it is still ours (never another build's, after a takeover). */
async function release(path: string, self: Holder): Promise<void> {
  const text = await readFile(path, 'utf8').catch(() => null);
  if (text !== null && parseHolder(text)?.pid === self.pid && parseHolder(text)?.start === self.start) await rm(path, { force: true });
}
