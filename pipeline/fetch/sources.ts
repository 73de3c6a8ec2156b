import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { SourceFetch } from '../../contract/manifest.ts';
import type { SourceCadence } from '../../contract/freshness.ts';
import type { Effects } from '../effects.ts';
import type { SourceAdapter, SourceKeys } from '../sources/types.ts';
import { DEFAULT_POLICY, type FetchLine, type FetchPolicy, type FetchStats, Pacers, pastDeadline, politeFetch } from './polite.ts';
import { isDue, nextDue } from './schedule.ts';
import { type FetchState, SourceAnswers, liveDir, readFetchState } from './state.ts';

/** How a build fetches live (DATA_SOURCE=live, `--download`). */
export interface LiveOptions {
  /** `--force`: every source asked, without validators (a full refresh). */
  force?: boolean;
  policy?: Partial<FetchPolicy>;
  /** PUBLISHER_URL_<ID> by source id: the origin that stands in for the publisher's. */
  publisherUrls?: Readonly<Record<string, string>>;
}

/** The fetch half of a source's live load; ingest loads what it brought, then `settle` records the outcome. */
export type Fetched =
  | { kind: 'skipped'; state: FetchState }
  | { kind: 'downloaded'; dir: string; attempt: string; stats: FetchStats; answers: SourceAnswers; previous: FetchState | null }
  | { kind: 'failed'; reason: string; attempt: string; stats: FetchStats; answers: SourceAnswers; previous: FetchState | null };

export interface FetchSourcesOptions {
  snapshotsDir: string;
  keys: SourceKeys;
  live: LiveOptions;
  /** Whether the source has a complete snapshot to serve when it is not asked. */
  hasSnapshot: (adapter: SourceAdapter) => boolean;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Fetch every due source from its publisher, all at once, each isolated: one that fails, hangs
 * or overruns its deadline fails alone (its result says why) and never holds the others past
 * that deadline. Sources not due are not asked; a mirror-only source has no result, and is read
 * from the mirror.
 */
export async function fetchSources(adapters: readonly SourceAdapter[], o: FetchSourcesOptions, fx: Effects): Promise<Map<string, Fetched>> {
  const policy: FetchPolicy = { ...DEFAULT_POLICY, ...o.live.policy };
  const pacers = new Pacers();
  const log = fx.fetchLog ?? (() => {});
  const one = async (adapter: SourceAdapter): Promise<Fetched> => {
    const dir = liveDir(o.snapshotsDir, adapter.id);
    const previous = await readFetchState(dir);
    const now = fx.now();
    if (previous && !isDue({ force: o.live.force ?? false, hasSnapshot: o.hasSnapshot(adapter), nextDue: previous.next_due, now })) {
      return { kind: 'skipped', state: previous };
    }
    const out = join(o.snapshotsDir, '.downloads', adapter.id);
    const answers = new SourceAnswers(dir, previous?.validators ?? {});
    const deadline = AbortSignal.timeout(policy.deadlineMs);
    const client = politeFetch({
      sourceId: adapter.id,
      fetch: fx.fetch,
      policy,
      pacers,
      origin: o.live.publisherUrls?.[adapter.id],
      cache: answers,
      force: o.live.force ?? false,
      signal: deadline,
      log: (line: FetchLine) => log(line),
    });
    const base = { attempt: now.toISOString(), stats: client.stats, answers, previous };
    try {
      await rm(out, { recursive: true, force: true });
      await mkdir(out, { recursive: true });
      // The client aborts its requests at the deadline; the race also ends a source whose adapter is stuck elsewhere.
      const overrun = new Promise<never>((_, reject) => deadline.addEventListener('abort', () => reject(pastDeadline(policy)), { once: true }));
      overrun.catch(() => {});
      await Promise.race([
        adapter.download(out, client.fetch, { ...o.keys, today: now.toISOString().slice(0, 10), log: (line) => fx.log.info(line) }),
        overrun,
      ]);
      return { kind: 'downloaded', dir: out, ...base };
    } catch (err) {
      return { kind: 'failed', reason: message(err).replace(`${adapter.id}: `, ''), ...base };
    }
  };
  for (const a of adapters.filter((x) => x.mirrorOnly)) fx.log.info(`${a.id}: read from the embedded mirror (${a.mirrorOnly})`);
  const results = await Promise.all(adapters.filter((a) => !a.mirrorOnly).map(async (a) => [a.id, await one(a)] as const));
  return new Map(results);
}

/**
 * The outcome of a source's live fetch once it was loaded (or not): what meta.sources and
 * /healthz show, and the state to keep for the next build (null: nothing changed).
 */
export function settle(
  f: Fetched,
  load: { status: 'fresh' | 'unchanged' | 'stale' | 'unavailable'; stale_reason: string | null; data_as_of: string | null },
  cadence: SourceCadence,
  now: Date,
): { fetch: SourceFetch; state: FetchState | null } {
  if (f.kind === 'skipped') {
    const s = f.state;
    return {
      fetch: {
        outcome: 'skipped-not-due',
        reason: null,
        last_attempt: s.last_attempt,
        last_success: s.last_success,
        next_due: s.next_due,
        requests: 0,
        not_modified: 0,
        retries: 0,
        bytes: 0,
      },
      state: null,
    };
  }
  const failed = f.kind === 'failed' || load.status === 'stale' || load.status === 'unavailable';
  const reason = f.kind === 'failed' ? f.reason : failed ? load.stale_reason : null;
  const failures = failed ? (f.previous?.failures ?? 0) + 1 : 0;
  const state: FetchState = {
    last_attempt: f.attempt,
    outcome: failed ? 'failed' : load.status === 'fresh' ? 'fetched' : 'unchanged',
    reason,
    last_success: failed ? (f.previous?.last_success ?? null) : now.toISOString(),
    next_due: nextDue(cadence, load.data_as_of, failed, failures, now),
    failures,
    // After a failure the validators of the answers that did arrive are kept with the older ones: their bodies are kept too.
    validators: failed ? { ...f.previous?.validators, ...f.answers.validators } : f.answers.validators,
  };
  const { validators: _v, failures: _f, ...shown } = state;
  return { fetch: { ...shown, ...f.stats }, state };
}
