import type { IncomingMessage, ServerResponse } from 'node:http';
import { BULK_BUDGET, BULK_PATH } from '../contract/limits.ts';
import { problemOf } from '../contract/problems.ts';
import type { RawProblem } from './connections.ts';

/**
 * The bytes-per-window budget of the bulk downloads per client address (contract/limits.ts
 * BULK_BUDGET). What each answer sent is counted once it is done (the socket's bytes written
 * while it was under way); a request from an address whose answers of the last window add up to
 * the budget is refused with 429 and Retry-After: the moment enough of them leave the window.
 * Per address, the bytes are kept per second (at most one entry per second of the window).
 */
export interface BulkBudget {
  /** A 429 problem for this request, or null (then its bytes are counted when it is answered). */
  check(req: IncomingMessage, res: ServerResponse, key: string): RawProblem | null;
  /** Bytes counted in the window per address (tests, metrics). */
  used(key: string): number;
}

export function bulkBudget(bytesPerWindow: number, windowSeconds: number = BULK_BUDGET.windowSeconds): BulkBudget | null {
  if (bytesPerWindow <= 0) return null;
  /** Per address: [second, bytes] from oldest to newest, and their sum. */
  const spent = new Map<string, { seconds: number[]; bytes: number[]; sum: number }>();

  const trim = (key: string, now: number) => {
    const s = spent.get(key);
    if (!s) return undefined;
    while (s.seconds.length && (s.seconds[0] as number) <= now - windowSeconds) {
      s.seconds.shift();
      s.sum -= s.bytes.shift() as number;
    }
    if (!s.seconds.length) spent.delete(key);
    return s.seconds.length ? s : undefined;
  };

  const record = (key: string, n: number) => {
    if (n <= 0) return;
    const now = Math.floor(Date.now() / 1000);
    // Addresses are dropped when their window is empty; a flood of addresses costs one sweep.
    if (spent.size >= 100_000) for (const k of [...spent.keys()]) trim(k, now);
    const s = trim(key, now) ?? { seconds: [], bytes: [], sum: 0 };
    spent.set(key, s);
    const last = s.seconds.length - 1;
    if (s.seconds[last] === now) s.bytes[last] = (s.bytes[last] as number) + n;
    else {
      s.seconds.push(now);
      s.bytes.push(n);
    }
    s.sum += n;
  };

  return {
    check(req, res, key) {
      const url = req.url ?? '/';
      if (!BULK_PATH.test(url)) return null;
      const now = Math.floor(Date.now() / 1000);
      const s = trim(key, now);
      if (s && s.sum >= bytesPerWindow) {
        // The window has room again once the oldest seconds that put it over have left it.
        let over = s.sum - bytesPerWindow;
        let i = 0;
        while (i < s.seconds.length - 1 && over - (s.bytes[i] as number) >= 0) over -= s.bytes[i++] as number;
        const retry = Math.max(1, (s.seconds[i] as number) + windowSeconds - now);
        const mb = Math.round(bytesPerWindow / 2 ** 20);
        return {
          ...problemOf(429),
          detail: `the bulk downloads may send one client address ${mb} MB per ${windowSeconds} seconds; this address has had them; retry in ${retry} s`,
          instance: url.split('?')[0]!.slice(0, 200),
          headers: { 'retry-after': String(retry) },
        };
      }
      const socket = req.socket;
      const start = socket.bytesWritten;
      res.once('close', () => record(key, socket.bytesWritten - start));
      return null;
    },
    used: (key) => trim(key, Math.floor(Date.now() / 1000))?.sum ?? 0,
  };
}
