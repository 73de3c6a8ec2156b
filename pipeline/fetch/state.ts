import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { FetchOutcome } from '../../contract/manifest.ts';
import { writeFileAtomic } from '../atomic.ts';
import type { AnswerCache, Validated } from './polite.ts';

/**
 * What live fetching remembers of each source between builds, beside the snapshots
 * (`<DIST_DIR>/snapshots/.live/<id>/`): `state.json` (the last attempt, its outcome, the last
 * success, when the source is next due, and the validators of each URL it fetched) and
 * `answers/<sha256>`, the bodies those validators stand for, so that a 304 gives the adapter
 * the bytes it validated. state.json is written atomically, after the build that made it has
 * published (SnapshotPlan.afterCommit): a build that fails leaves the source due again.
 */

const Validators = z.strictObject({
  etag: z.string().nullable(),
  last_modified: z.string().nullable(),
  content_type: z.string().nullable(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

export const FetchState = z.strictObject({
  last_attempt: z.string().nullable(),
  outcome: FetchOutcome,
  reason: z.string().nullable(),
  last_success: z.string().nullable(),
  next_due: z.string().nullable(),
  /** Failed attempts in a row (the retry interval grows with them). */
  failures: z.number().int().nonnegative(),
  validators: z.record(z.string(), Validators),
});
export type FetchState = z.infer<typeof FetchState>;

export const liveDir = (snapshotsDir: string, id: string) => join(snapshotsDir, '.live', id);

/** The source's state, or null when it was never fetched live (or the file is unreadable: then it is simply due). */
export async function readFetchState(dir: string): Promise<FetchState | null> {
  try {
    return FetchState.parse(JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')));
  } catch {
    return null;
  }
}

/** Write the state, and drop the kept answers no validator refers to any more. */
export async function writeFetchState(dir: string, state: FetchState): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFileAtomic(join(dir, 'state.json'), JSON.stringify(state, null, 2));
  const kept = new Set(Object.values(state.validators).map((v) => v.sha256));
  for (const name of await readdir(join(dir, 'answers')).catch(() => [] as string[])) {
    if (!kept.has(name)) await rm(join(dir, 'answers', name), { force: true });
  }
}

/**
 * The answers of one source: reads the validators of the last state, and collects those of this
 * fetch (only the URLs asked this time are kept, so a URL the adapter stopped asking drops out).
 */
export class SourceAnswers implements AnswerCache {
  readonly validators: FetchState['validators'] = {};
  private readonly dir: string;
  private readonly previous: FetchState['validators'];
  constructor(dir: string, previous: FetchState['validators']) {
    this.dir = dir;
    this.previous = previous;
  }

  async get(url: string): Promise<(Validated & { body: Buffer }) | undefined> {
    const v = this.previous[url];
    if (!v) return undefined;
    const file = join(this.dir, 'answers', v.sha256);
    if (!existsSync(file)) return undefined;
    const body = await readFile(file);
    if (createHash('sha256').update(body).digest('hex') !== v.sha256) return undefined;
    // Validated again by this fetch's 304: keep it for the next one.
    this.validators[url] = v;
    return { ...v, body };
  }

  async put(url: string, v: Validated, body: Buffer): Promise<void> {
    const sha256 = createHash('sha256').update(body).digest('hex');
    await mkdir(join(this.dir, 'answers'), { recursive: true });
    const file = join(this.dir, 'answers', sha256);
    if (!existsSync(file)) await writeFileAtomic(file, body);
    this.validators[url] = { ...v, sha256 };
  }
}
