import type { Context } from 'hono';
import { LIMIT_OFF, rateLimitHeaders, type RateLimitPolicy, type RateLimitResult } from '../contract/rate-limits.ts';
import { rateKey } from '../api/ip-text.ts';
import { limitMiddleware, type Counter } from '../api/rate-limit/middleware.ts';

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
 * Rate limits with the Workers rate-limiting binding, through the app's middleware
 * (api/rate-limit/middleware.ts). The binding answers only "allowed or not" for a key, counted
 * per Cloudflare location and eventually consistent: a client spread over several locations, or
 * sending a burst faster than the counters settle, may get somewhat more than the quota
 * (docs/deploy.md). So the headers say what can be said: `RateLimit-Policy` on every counted
 * response (the quota and window, as on Node), and on a refusal `RateLimit` with r=0 and
 * `Retry-After` of the whole period (the binding does not tell when the window rolls). A 200
 * carries no `RateLimit` remaining count: the binding does not know it.
 */
export function edgeRateLimits(policies: Record<RateLimitPolicy, EdgePolicy>, keyOf: (c: Context) => string = edgeClientKey) {
  const on = (p: RateLimitPolicy) => policies[p].limit > 0 && policies[p].binding !== undefined;

  async function consume(c: Context, policy: RateLimitPolicy): Promise<RateLimitResult> {
    const p = policies[policy];
    if (!on(policy)) return LIMIT_OFF;
    const { success } = await p.binding!.limit({ key: `${policy}:${keyOf(c)}` });
    // remaining: unknown when admitted; the quota is reported in RateLimit-Policy only.
    return { allowed: success, limit: p.limit, remaining: success ? p.limit : 0, resetSeconds: p.period, windowSeconds: p.period };
  }

  const headers = (policy: RateLimitPolicy, r: RateLimitResult) => rateLimitHeaders(policy, r, { knowsRemaining: false });
  const counter: Counter = { count: consume, headers };
  return { data: limitMiddleware('data', counter, on('data')), ask: limitMiddleware('ask', counter, on('ask')), consume, headers };
}
