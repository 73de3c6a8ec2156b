import { SEARCH_WORK } from '../contract/limits.ts';
import { SPECIAL_PROBLEMS } from '../contract/problems.ts';
import { ApiError } from './problem.ts';

export interface WorkGateStats {
  active: number;
  queued: number;
  refused: number;
}

/**
 * A gate around work (the search and ask handlers, after the memo: a memoised answer costs
 * nothing and never waits) that lets at most `concurrent` requests do their work at once and `queued` more
 * wait for a slot; past that 503 with Retry-After (contract/limits.ts SEARCH_WORK). A request
 * starts on a later turn of the event loop (setImmediate) than the one it arrived in, so the
 * requests that arrive together are counted before any of them works (a burst is refused beyond
 * the queue rather than run back to back), and the I/O of every other client is served between
 * two of them.
 */
export function workGate(opts: { concurrent: number; queued: number; retryAfterSeconds: number } = SEARCH_WORK): {
  run<T>(work: () => T | Promise<T>): Promise<T>;
  stats(): WorkGateStats;
} {
  let active = 0;
  let refused = 0;
  const waiting: (() => void)[] = [];
  const next = () => {
    const go = waiting.shift();
    if (!go) return;
    active++;
    setImmediate(go);
  };
  const run = async <T>(work: () => T | Promise<T>): Promise<T> => {
    if (active < opts.concurrent) {
      active++;
      await new Promise<void>((r) => setImmediate(r));
    } else if (waiting.length < opts.queued) {
      await new Promise<void>((r) => waiting.push(r));
    } else {
      refused++;
      throw new ApiError(
        503,
        `the server is busy with ${opts.concurrent + opts.queued} searches and questions; retry in ${opts.retryAfterSeconds} s`,
        {},
        { 'retry-after': String(opts.retryAfterSeconds) },
        SPECIAL_PROBLEMS['search-busy'],
      );
    }
    try {
      return await work();
    } finally {
      active--;
      next();
    }
  };
  return { run, stats: () => ({ active, queued: waiting.length, refused }) };
}
