import type { Context, MiddlewareHandler } from 'hono';
import type { RateLimitPolicy } from '../contract/http.ts';
import { rateKey } from '../api/ip-text.ts';
import { LIMIT_HEADERS, LIMIT_POLICY } from '../api/prebuilt.ts';
import { ApiError } from '../api/problem.ts';
import type { ConsumeResult } from '../api/rate-limit.ts';

/** The Workers rate-limiting binding (wrangler.jsonc `ratelimits`): one counter per key and location. */
export interface RateLimitBinding {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

export interface EdgePolicy {
  binding: RateLimitBinding | undefined;
  /** Requests per period, as configured on the binding (0: off). */
  limit: number;
  /** The binding's period in seconds (10 or 60). */
  period: number;
}

/**
 * The client a request counts as on Cloudflare: CF-Connecting-IP, which Cloudflare sets on every
 * request (a client cannot forge it), IPv6 grouped by /64 as on Node (api/ip-text.ts).
 */
export const edgeClientKey = (c: Context): string => rateKey(c.req.header('cf-connecting-ip') ?? 'unknown');

/**
 * Rate limits with the Workers rate-limiting binding. The binding answers only "allowed or not"
 * for a key, counted per Cloudflare location and eventually consistent: a client spread over
 * several locations, or sending a burst faster than the counters settle, may get somewhat more
 * than the quota (docs/deploy.md). So the headers say what can be said: `RateLimit-Policy` on
 * every counted response (the quota and window, as on Node), and on a refusal `RateLimit` with
 * r=0 and `Retry-After` of the whole period (the binding does not tell when the window rolls). A
 * 200 carries no `RateLimit` remaining count: the binding does not know it.
 */
export function edgeRateLimits(policies: Record<RateLimitPolicy, EdgePolicy>, keyOf: (c: Context) => string = edgeClientKey) {
  const OFF: ConsumeResult = { allowed: true, limit: 0, remaining: 0, resetSeconds: 0 };
  const on = (p: RateLimitPolicy) => policies[p].limit > 0 && policies[p].binding !== undefined;

  async function consume(c: Context, policy: RateLimitPolicy): Promise<ConsumeResult> {
    const p = policies[policy];
    if (!on(policy)) return OFF;
    const { success } = await p.binding!.limit({ key: `${policy}:${keyOf(c)}` });
    // remaining: unknown when admitted; the quota is reported in RateLimit-Policy only.
    return { allowed: success, limit: p.limit, remaining: success ? p.limit : 0, resetSeconds: p.period };
  }

  function headers(policy: RateLimitPolicy, r: ConsumeResult): Record<string, string> {
    if (r.limit === 0) return {};
    const h: Record<string, string> = { 'RateLimit-Policy': `"${policy}";q=${r.limit};w=${policies[policy].period}` };
    if (!r.allowed) {
      h.RateLimit = `"${policy}";r=0;t=${r.resetSeconds}`;
      h['Retry-After'] = String(r.resetSeconds);
    }
    return h;
  }

  function middleware(policy: RateLimitPolicy): MiddlewareHandler {
    if (!on(policy)) return async (_c, next) => next();
    return async (c, next) => {
      const r = await consume(c, policy);
      if (!r.allowed) {
        const detail = `rate limit exceeded: the "${policy}" policy allows ${r.limit} requests per ${policies[policy].period} seconds per client; retry in ${r.resetSeconds} s`;
        throw new ApiError(429, detail, { policy }, headers(policy, r));
      }
      c.set(LIMIT_HEADERS, headers(policy, r));
      c.set(LIMIT_POLICY, policy);
      await next();
    };
  }

  return { data: middleware('data'), ask: middleware('ask'), consume, headers };
}
