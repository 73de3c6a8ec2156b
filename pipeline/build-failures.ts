import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { FAILED_BUILDS_FILE, FailedBuilds } from '../contract/health.ts';
import { writeFileAtomic } from './atomic.ts';
import type { Effects } from './effects.ts';

/**
 * Builds that failed in a row, kept beside the builds (`<DIST_DIR>/build-failures.json`) for
 * /healthz: a failed build publishes nothing, so without this the served build and every source
 * in it look as healthy as when they were published (issue 34: builds failing on a full disk).
 */
const file = (outDir: string) => join(outDir, FAILED_BUILDS_FILE);

export async function readFailedBuilds(outDir: string): Promise<FailedBuilds | null> {
  try {
    return FailedBuilds.parse(JSON.parse(await readFile(file(outDir), 'utf8')));
  } catch {
    // None recorded, or a record cut short: counting starts again.
    return null;
  }
}

/** Count one more failed build. Best effort: on a full disk even this small write may fail, and the build's own error matters more. */
export async function recordFailedBuild(outDir: string, err: unknown, fx: Effects): Promise<void> {
  const at = fx.now().toISOString();
  const reason = (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 500);
  try {
    const before = await readFailedBuilds(outDir);
    const next: FailedBuilds = { count: (before?.count ?? 0) + 1, since: before?.since ?? at, last_at: at, last_reason: reason };
    await writeFileAtomic(file(outDir), JSON.stringify(next, null, 2));
  } catch (e) {
    fx.log.warn(`could not record the failed build in ${FAILED_BUILDS_FILE}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** A build published: the count starts again. */
export async function clearFailedBuilds(outDir: string): Promise<void> {
  await rm(file(outDir), { force: true });
}
