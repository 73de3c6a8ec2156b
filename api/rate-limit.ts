import type { Context } from 'hono';
import type { AppMiddleware } from './env.ts';
import type { createClient as CreateClient } from 'redis';
import { clientIp, type TrustProxy } from './client-ip.ts';
import { rateKey } from './ip-text.ts';
import { LIMIT_OFF, policyHeader, RATE_LIMIT_POLICIES, rateLimitHeaders, type RateLimitPolicy, type RateLimitResult } from '../contract/rate-limits.ts';
import { takeCounted } from './prebuilt.ts';
import type { Problem } from './problem.ts';
import { limitMiddleware, refusal as refusalOf } from './rate-limit/middleware.ts';
import { Outage } from './rate-limit/outage.ts';
import { redactUrl, REDIS_PREFIX, RedisTransport } from './rate-limit/redis.ts';
import { MemoryLog, stamp, type Admission } from './rate-limit/window.ts';

/**
 * Rate limits per client IP (SPEC §7, docs/rate-limits.md), assembled from their parts: the
 * sliding window in memory (./rate-limit/window.ts), the Redis transport (./rate-limit/redis.ts)
 * with the outage state that says when to use it (./rate-limit/outage.ts), the headers and words
 * of the contract (contract/rate-limits.ts) and the middleware (./rate-limit/middleware.ts).
 *
 * Each instance keeps its own admissions in memory; when Redis is unreachable it counts there,
 * against a conservative quota (the limit divided by RATE_LIMIT_INSTANCES), and when Redis
 * answers again it first copies its recent admissions there, then counts in Redis again.
 */

export type Policy = RateLimitPolicy;

export interface RateLimitOptions {
  /** Requests per window on the data routes (and MCP reads); 0 turns the policy off. */
  data: number;
  /** Requests per window on /v1/ask; 0 turns the policy off. */
  ask: number;
  /** Window length, default 60 000 ms. */
  windowMs?: number;
  /** redis:// or rediss:// URL; the log then lives in Redis, shared by every instance. */
  redisUrl?: string;
  /** Instances expected to share Redis (RATE_LIMIT_INSTANCES, default 1): during an outage each admits limit / instances. */
  instances?: number;
  trust: TrustProxy;
  log?: (msg: string) => void;
  /** How long one Redis command may take before the request is counted in memory instead (default 500 ms). */
  redisTimeoutMs?: number;
  /** Called for each refused request (a 429 on a route, an MCP message refused): the metrics count them. */
  onLimited?: (policy: Policy) => void;
}

/** What counting one request said (contract/rate-limits.ts). */
export type ConsumeResult = RateLimitResult;

export interface RateLimits {
  /** Middleware for the data routes: counts, sets RateLimit/RateLimit-Policy, answers 429. */
  data: AppMiddleware;
  /** Middleware for /v1/ask. */
  ask: AppMiddleware;
  /** Count one hit of `policy` for this request's client (MCP reads use 'data'). */
  consume(c: Context, policy: Policy): Promise<ConsumeResult>;
  /**
   * Count one hit of `policy` for a client key (rateKey of its address): the result at once when
   * counting in memory, a promise when the count goes to Redis. What consume() and the middleware
   * do once they have the key; the listener's fast path (api/fast-path.ts) calls it directly.
   */
  consumeKey(policy: Policy, key: string): ConsumeResult | Promise<ConsumeResult>;
  /** The 429 problem of a refused result, its headers included: the one refusal of every path. */
  refusal(policy: Policy, result: ConsumeResult): Problem;
  /** The headers to send with a consume() result: RateLimit-Policy, RateLimit, and Retry-After when refused; {} when the policy is off. */
  headers(policy: Policy, result: ConsumeResult): Record<string, string>;
  /** Where counting happens now: 'memory' (no Redis configured), 'redis', or 'fallback' (Redis configured, unavailable). */
  mode(): 'memory' | 'redis' | 'fallback';
  close(): Promise<void>;
}

export { REDIS_PREFIX };

/** Build the limits from the configuration (RATE_LIMIT_DATA, RATE_LIMIT_ASK, RATE_LIMIT_INSTANCES, REDIS_URL, TRUST_PROXY). */
export async function createRateLimits(opts: RateLimitOptions): Promise<RateLimits> {
  const windowMs = opts.windowMs ?? 60_000;
  const windowUs = windowMs * 1000;
  const instances = opts.instances ?? 1;
  const log = opts.log ?? (() => {});
  for (const p of ['data', 'ask'] as const) {
    if (!Number.isInteger(opts[p]) || opts[p] < 0) throw new Error(`rate limit for ${p} must be a whole number ≥ 0 (0 turns it off), got ${opts[p]}`);
  }
  if (!Number.isInteger(windowMs) || windowMs < 1000) throw new Error(`rate-limit window must be a whole number of milliseconds ≥ 1000, got ${windowMs}`);
  if (!Number.isInteger(instances) || instances < 1) throw new Error(`the expected number of instances must be a whole number ≥ 1, got ${instances}`);

  const limits: Record<Policy, number> = { data: opts.data, ask: opts.ask };
  /** The quota of one instance counting alone while Redis is away. */
  const fallback: Record<Policy, number> = { data: Math.max(1, Math.floor(opts.data / instances)), ask: Math.max(1, Math.floor(opts.ask / instances)) };
  const anyOn = opts.data > 0 || opts.ask > 0;
  // Counting alone, to the millisecond; beside Redis, each admission keeps its microsecond stamp (MemoryLog).
  const resolutionUs = opts.redisUrl && anyOn ? 1 : 1000;
  const memory: Record<Policy, MemoryLog> = {
    data: new MemoryLog(windowUs, Math.max(1, opts.data), resolutionUs),
    ask: new MemoryLog(windowUs, Math.max(1, opts.ask), resolutionUs),
  };

  const redis = opts.redisUrl && anyOn ? await connectRedis(opts.redisUrl, windowUs, log, opts.redisTimeoutMs ?? 500, memory) : null;
  const keyOf = (c: Context) => rateKey(clientIp(c, opts.trust));
  const windowSeconds = Math.ceil(windowMs / 1000);

  /** What one admission means for the client: its quota, what remains, when a slot frees. */
  function resultOf(policy: Policy, a: Admission, limit: number, now: number): ConsumeResult {
    if (!a.allowed) opts.onLimited?.(policy);
    // When the oldest admission leaves the window, measured from this request's own time (the
    // log's clock): a retry after that many seconds is admitted.
    const resetSeconds = Math.min(windowSeconds, Math.max(1, Math.ceil((a.oldest + windowUs - now) / 1e6)));
    return { allowed: a.allowed, limit, remaining: a.allowed ? Math.max(0, limit - a.count) : 0, resetSeconds, windowSeconds };
  }

  /** Count in memory: conservatively (this instance's share) when Redis is configured but unusable. */
  function inMemory(policy: Policy, key: string): ConsumeResult {
    const limit = redis ? fallback[policy] : limits[policy];
    const now = stamp();
    return resultOf(policy, memory[policy].admit(key, limit, now), limit, now);
  }

  async function inRedis({ transport, outage }: Shared, policy: Policy, key: string): Promise<ConsumeResult> {
    const now = stamp();
    try {
      const a = await transport.admit(`${REDIS_PREFIX}${policy}:${key}`, limits[policy], now);
      if (a.allowed) memory[policy].record(key, now);
      return resultOf(policy, a, limits[policy], now);
    } catch (err) {
      outage.fail(err instanceof Error ? err.message : String(err), true);
      return inMemory(policy, key);
    }
  }

  /** Count one request of `key` under `policy`: in Redis when usable (a promise), else in memory (at once). */
  function consumeKey(policy: Policy, key: string): ConsumeResult | Promise<ConsumeResult> {
    if (limits[policy] === 0) return LIMIT_OFF;
    return redis?.outage.check() ? inRedis(redis, policy, key) : inMemory(policy, key);
  }

  async function consume(c: Context, policy: Policy): Promise<ConsumeResult> {
    return consumeKey(policy, keyOf(c));
  }

  /** RateLimit-Policy of each policy at its quota and at its share during a Redis outage: the same strings on every response. */
  const usual = { data: policyHeader('data', limits.data, windowSeconds), ask: policyHeader('ask', limits.ask, windowSeconds) };
  const outage = { data: policyHeader('data', fallback.data, windowSeconds), ask: policyHeader('ask', fallback.ask, windowSeconds) };
  function headers(policy: Policy, r: ConsumeResult): Record<string, string> {
    const quota = r.limit === limits[policy] ? usual[policy] : r.limit === fallback[policy] ? outage[policy] : undefined;
    return rateLimitHeaders(policy, r, quota ? { quota } : {});
  }

  // A request the listener's fast path counted before handing it over is not counted again.
  const counter = { count: (c: Context, policy: Policy) => takeCounted(c, policy) ?? consumeKey(policy, keyOf(c)), headers };
  return {
    data: limitMiddleware('data', counter, limits.data > 0),
    ask: limitMiddleware('ask', counter, limits.ask > 0),
    consume,
    consumeKey,
    headers,
    refusal: (policy, r) => refusalOf(policy, r, headers(policy, r)),
    mode: () => (!redis ? 'memory' : redis.outage.usable ? 'redis' : 'fallback'),
    async close() {
      memory.data.shutdown();
      memory.ask.shutdown();
      redis?.outage.close();
      await redis?.transport.close();
    },
  };
}

/** Redis and the state that says whether to ask it. */
interface Shared {
  transport: RedisTransport;
  outage: Outage;
}

/**
 * Connect to Redis (waiting up to 2 s; if it is not there yet, counting starts in memory and the
 * client keeps trying), wiring the connection's events to the outage state, whose recovery
 * copies this instance's recent admissions of every policy to Redis.
 */
async function connectRedis(url: string, windowUs: number, log: (msg: string) => void, timeoutMs: number, memory: Record<Policy, MemoryLog>): Promise<Shared> {
  const createClient: typeof CreateClient = (await import('redis')).createClient;
  const name = redactUrl(url);
  async function copyRecent(): Promise<number> {
    const now = Date.now() * 1000;
    let clients = 0;
    const batch: Promise<unknown>[] = [];
    for (const policy of RATE_LIMIT_POLICIES) {
      for (const [key, times] of memory[policy].recent(now)) {
        batch.push(transport.merge(`${REDIS_PREFIX}${policy}:${key}`, times, now));
        clients++;
        if (batch.length >= 100) await Promise.all(batch.splice(0));
      }
    }
    await Promise.all(batch);
    return clients;
  }
  // The transport's events move the outage state; the state asks the transport whether it is connected.
  const outage: Outage = new Outage({ name, log, connected: () => transport.ready, recover: copyRecent });
  const transport = new RedisTransport(url, windowUs, timeoutMs, createClient, {
    onError: (reason) => outage.fail(reason),
    onReady: () => outage.recovered(),
  });
  const failed = await transport.start(2000);
  if (failed === null) log(`rate limits: counting in Redis at ${name}`);
  else outage.fail(failed);
  return { transport, outage };
}

export { decimal } from '../contract/rate-limits.ts';
export { rateKey };
