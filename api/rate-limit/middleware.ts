import type { Context } from 'hono';
import { refusalDetail, type RateLimitPolicy, type RateLimitResult } from '../../contract/rate-limits.ts';
import type { AppMiddleware } from '../env.ts';
import { ApiError, type Problem } from '../problem.ts';

/**
 * The rate-limit middleware of the app, on Node and in the Worker alike: whatever counts (the
 * sliding window in memory or Redis, the Workers binding) is a Counter.
 */
export interface Counter {
  /** Count one request of this client under `policy`: at once, or a promise when the count goes elsewhere. */
  count(c: Context, policy: RateLimitPolicy): RateLimitResult | Promise<RateLimitResult>;
  /** The headers a counted response carries. */
  headers(policy: RateLimitPolicy, r: RateLimitResult): Record<string, string>;
}

/** The 429 problem of a refused result, its headers included: the one refusal of every path. */
export function refusal(policy: RateLimitPolicy, r: RateLimitResult, headers: Record<string, string>): Problem {
  return { status: 429, detail: refusalDetail(policy, r), extras: { policy }, headers };
}

export const pass: AppMiddleware = async (_c, next) => {
  await next();
};

/**
 * Count, then refuse or go on. The headers go into the context before the route runs, and the
 * response builders (sendBytes, problemResponse) put them in the response they construct: a
 * header added to a finished response would make the Node adapter copy the body through a
 * stream. A refusal is thrown: the app's error handler answers it with the headers every
 * response carries.
 */
export function limitMiddleware(policy: RateLimitPolicy, counter: Counter, on: boolean): AppMiddleware {
  if (!on) return pass;
  return async (c, next) => {
    const counted = counter.count(c, policy);
    const r = counted instanceof Promise ? await counted : counted;
    if (!r.allowed) {
      const p = refusal(policy, r, counter.headers(policy, r));
      throw new ApiError(p.status, p.detail, p.extras, p.headers);
    }
    c.set('limitHeaders', counter.headers(policy, r));
    c.set('limitPolicy', policy);
    await next();
  };
}
