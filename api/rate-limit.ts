import type { Context, MiddlewareHandler } from 'hono';
import { rateLimiter, type ClientRateLimitInfo, type RateLimitInfo, type Store } from 'hono-rate-limiter';
import type { createClient as CreateClient } from 'redis';
import { clientIp, ipv6Groups, formatIpv6, type TrustProxy } from './client-ip.ts';
import { ApiError, problemResponse } from './problem.ts';
import { LIMIT_HEADERS } from './http.ts';

/**
 * Rate limits per client IP (SPEC §7): the data routes and MCP tool calls share one budget
 * ("data", 60/min by default), /v1/ask has its own ("ask", 10/min). Fixed windows that start
 * with a client's first request. Counters live in memory, or in Redis when REDIS_URL is set so
 * that every instance shares them; when Redis is unreachable the counting falls back to memory
 * for as long as the outage lasts (one warning per outage) and goes back to Redis when it answers.
 */

export type Policy = 'data' | 'ask';

export interface RateLimitOptions {
  /** Requests per window on the data routes (and MCP tool calls); 0 turns the policy off. */
  data: number;
  /** Requests per window on /v1/ask; 0 turns the policy off. */
  ask: number;
  /** Window length, default 60 000 ms. */
  windowMs?: number;
  /** redis:// or rediss:// URL; counters then live in Redis, shared by every instance. */
  redisUrl?: string;
  trust: TrustProxy;
  log?: (msg: string) => void;
  /** How long one Redis command may take before the request is counted in memory instead (default 500 ms). */
  redisTimeoutMs?: number;
}

export interface ConsumeResult {
  allowed: boolean;
  /** 0 when the policy is off (then allowed is always true and no header should be sent). */
  limit: number;
  remaining: number;
  resetSeconds: number;
}

export interface RateLimits {
  /** Middleware for the data routes: counts, sets RateLimit/RateLimit-Policy, answers 429. */
  data: MiddlewareHandler;
  /** Middleware for /v1/ask. */
  ask: MiddlewareHandler;
  /** Count one hit of `policy` for this request's client (MCP tool calls use 'data'). */
  consume(c: Context, policy: Policy): Promise<ConsumeResult>;
  /** The headers to send with a consume() result: RateLimit-Policy, RateLimit, and Retry-After when refused; {} when the policy is off. */
  headers(policy: Policy, result: ConsumeResult): Record<string, string>;
  close(): Promise<void>;
}

export const REDIS_PREFIX = 'chokepoint:rl:';
const INFO = 'rateLimit';

/**
 * The bucket a client address counts against: an IPv4 address as it is, an IPv6 address by its
 * /64 (one subscriber usually holds a whole /64 and could otherwise rotate through it).
 */
export function rateKey(ip: string): string {
  if (!ip.includes(':')) return ip;
  const groups = ipv6Groups(ip);
  if (!groups) return ip;
  return `${formatIpv6([...groups.slice(0, 4), 0, 0, 0, 0])}/64`;
}

// --- stores --------------------------------------------------------------------------------

interface Hit {
  totalHits: number;
  resetTime: Date;
}

/**
 * Fixed-window counters in this process. increment() is synchronous, so concurrent requests in
 * one Node process are counted exactly. Expired clients are swept once per window.
 */
class MemoryCounter {
  private readonly hits = new Map<string, { n: number; resetAt: number }>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly windowMs: number) {
    this.timer = setInterval(() => this.sweep(), windowMs);
    this.timer.unref();
  }

  increment(key: string): Hit {
    const now = Date.now();
    let e = this.hits.get(key);
    if (!e || e.resetAt <= now) {
      e = { n: 0, resetAt: now + this.windowMs };
      this.hits.set(key, e);
    }
    e.n++;
    return { totalHits: e.n, resetTime: new Date(e.resetAt) };
  }

  get(key: string): Hit | undefined {
    const e = this.hits.get(key);
    return e && e.resetAt > Date.now() ? { totalHits: e.n, resetTime: new Date(e.resetAt) } : undefined;
  }

  decrement(key: string): void {
    const e = this.hits.get(key);
    if (e && e.n > 0) e.n--;
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [k, e] of this.hits) if (e.resetAt <= now) this.hits.delete(k);
  }

  shutdown(): void {
    clearInterval(this.timer);
    this.hits.clear();
  }
}

/** INCR and, on a key without expiry (the first hit of a window), PEXPIRE; returns hits and the TTL. */
const INCR_SCRIPT = `local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}`;
const DECR_SCRIPT = `local n = tonumber(redis.call('GET', KEYS[1]))
if n and n > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the configured REDIS_URL';
  }
}

/**
 * One node-redis connection shared by both policies. Commands go to Redis only while the client
 * is ready and no failure happened in the last second; anything else (not connected, an error, a
 * command slower than the timeout) counts the request in memory. The client keeps reconnecting
 * in the background; the first success after an outage is logged and counting is back in Redis.
 */
class RedisBackend {
  private readonly client: ReturnType<typeof CreateClient>;
  private down = false;
  private retryAt = 0;
  private closed = false;

  constructor(
    readonly url: string,
    private readonly windowMs: number,
    private readonly log: (msg: string) => void,
    private readonly timeoutMs: number,
    createClient: typeof CreateClient,
  ) {
    this.client = createClient({
      url,
      disableOfflineQueue: true,
      socket: {
        connectTimeout: 2000,
        reconnectStrategy: (retries: number) => (this.closed ? false : Math.min(100 * 2 ** Math.min(retries, 5), 2000)),
      },
    });
    this.client.on('error', (err: unknown) => this.markDown(err instanceof Error ? err.message : String(err)));
    this.client.on('ready', () => this.markUp());
  }

  /**
   * Connect, waiting at most `waitMs` (less when the first attempt fails outright); if Redis is
   * not there yet, counting starts in memory and the client keeps trying in the background.
   */
  async start(waitMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    let onError: ((err: unknown) => void) | undefined;
    const outcome = await Promise.race([
      this.client.connect().then(
        () => 'ready' as const,
        (err: unknown) => (err instanceof Error ? err.message : String(err)),
      ),
      new Promise<string>((r) => {
        timer = setTimeout(() => r(`no answer within ${waitMs} ms at start-up`), waitMs);
      }),
      new Promise<string>((r) => {
        onError = (err) => r(`${err instanceof Error ? err.message : String(err)}, at start-up`);
        this.client.once('error', onError);
      }),
    ]);
    clearTimeout(timer);
    if (onError) this.client.off('error', onError);
    if (outcome === 'ready') this.log(`rate limits: counting in Redis at ${redactUrl(this.url)}`);
    else this.markDown(outcome);
  }

  get usable(): boolean {
    return !this.closed && this.client.isReady && Date.now() >= this.retryAt;
  }

  get connected(): boolean {
    return this.client.isReady;
  }

  /** Log the outage once; after a failed command (`backoff`), leave Redis alone for a second. */
  markDown(reason: string, backoff = false): void {
    if (this.closed) return;
    if (backoff) this.retryAt = Date.now() + 1000;
    if (this.down) return;
    this.down = true;
    this.log(`warning: rate limits: Redis at ${redactUrl(this.url)} unavailable (${reason}); counting in memory on this instance until it is reachable again`);
  }

  markUp(): void {
    this.retryAt = 0;
    if (!this.down || this.closed) return;
    this.down = false;
    this.log(`rate limits: Redis at ${redactUrl(this.url)} is back; counting in Redis again`);
  }

  /**
   * A command's promise, rejected after timeoutMs. (node-redis's own command timeout stops at the
   * write; a Redis that accepts the bytes and then hangs would hold the request.) A late reply
   * is still read by the client, in order, and dropped.
   */
  private timed<T>(p: Promise<T>, ms = this.timeoutMs): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timeout: no reply within ${ms} ms`)), ms);
    });
    return Promise.race([p, limit]).finally(() => clearTimeout(timer));
  }

  async increment(key: string): Promise<Hit> {
    const reply = (await this.timed(this.client.eval(INCR_SCRIPT, { keys: [key], arguments: [String(this.windowMs)] }))) as unknown;
    if (!Array.isArray(reply) || reply.length !== 2) throw new Error('unexpected reply to the rate-limit script');
    const n = Number(reply[0]);
    const ttl = Number(reply[1]);
    if (!Number.isFinite(n) || !Number.isFinite(ttl)) throw new Error('unexpected reply to the rate-limit script');
    return { totalHits: n, resetTime: new Date(Date.now() + ttl) };
  }

  async get(key: string): Promise<Hit | undefined> {
    const [n, ttl] = await this.timed(Promise.all([this.client.get(key), this.client.pTTL(key)]));
    if (n === null || ttl < 0) return undefined;
    return { totalHits: Number(n), resetTime: new Date(Date.now() + ttl) };
  }

  async decrement(key: string): Promise<void> {
    await this.timed(this.client.eval(DECR_SCRIPT, { keys: [key], arguments: [] }));
  }

  async reset(key: string): Promise<void> {
    await this.timed(this.client.del(key));
  }

  /** Close the connection (waiting at most a second for commands in flight) and stop reconnecting. */
  async close(): Promise<void> {
    this.closed = true;
    try {
      if (this.client.isReady) await this.timed(this.client.close(), 1000);
      else if (this.client.isOpen) this.client.destroy();
    } catch {
      if (this.client.isOpen) this.client.destroy();
    }
  }
}

/** The hono-rate-limiter Store of one policy: Redis when usable, memory otherwise. */
class PolicyStore implements Store {
  readonly prefix: string;
  readonly localKeys: boolean;

  constructor(
    policy: Policy,
    private readonly memory: MemoryCounter,
    private readonly redis: RedisBackend | null,
  ) {
    this.prefix = `${REDIS_PREFIX}${policy}:`;
    this.localKeys = redis === null;
  }

  increment(key: string): Hit | Promise<Hit> {
    const redis = this.redis;
    if (!redis) return this.memory.increment(key);
    if (!redis.usable) {
      if (!redis.connected) redis.markDown('not connected');
      return this.memory.increment(key);
    }
    return redis.increment(this.prefix + key).then(
      (hit) => {
        redis.markUp();
        return hit;
      },
      (err: unknown) => {
        redis.markDown(err instanceof Error ? err.message : String(err), true);
        return this.memory.increment(key);
      },
    );
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    if (this.redis?.usable) {
      try {
        return await this.redis.get(this.prefix + key);
      } catch {
        // fall through to memory
      }
    }
    return this.memory.get(key);
  }

  async decrement(key: string): Promise<void> {
    if (this.redis?.usable) {
      try {
        await this.redis.decrement(this.prefix + key);
        return;
      } catch {
        // fall through to memory
      }
    }
    this.memory.decrement(key);
  }

  async resetKey(key: string): Promise<void> {
    this.memory.reset(key);
    if (this.redis?.usable) await this.redis.reset(this.prefix + key).catch(() => undefined);
  }

  shutdown(): void {
    this.memory.shutdown();
  }
}

// --- headers and middleware ---------------------------------------------------------------

const secondsUntil = (t: Date | undefined, windowMs: number) => Math.max(1, Math.ceil(((t?.getTime() ?? Date.now() + windowMs) - Date.now()) / 1000));

function headerValues(policy: Policy, limit: number, windowMs: number, remaining: number, resetSeconds: number): Record<string, string> {
  return {
    'RateLimit-Policy': `"${policy}";q=${limit};w=${Math.ceil(windowMs / 1000)}`,
    RateLimit: `"${policy}";r=${remaining};t=${resetSeconds}`,
  };
}

/** Build the limits from the configuration (RATE_LIMIT_DATA, RATE_LIMIT_ASK, REDIS_URL, TRUST_PROXY). */
export async function createRateLimits(opts: RateLimitOptions): Promise<RateLimits> {
  const windowMs = opts.windowMs ?? 60_000;
  const log = opts.log ?? (() => {});
  for (const p of ['data', 'ask'] as const) {
    if (!Number.isInteger(opts[p]) || opts[p] < 0) throw new Error(`rate limit for ${p} must be a whole number ≥ 0 (0 turns it off), got ${opts[p]}`);
  }
  if (!Number.isInteger(windowMs) || windowMs < 1000) throw new Error(`rate-limit window must be a whole number of milliseconds ≥ 1000, got ${windowMs}`);

  const anyOn = opts.data > 0 || opts.ask > 0;
  const redis = opts.redisUrl && anyOn ? new RedisBackend(opts.redisUrl, windowMs, log, opts.redisTimeoutMs ?? 500, (await import('redis')).createClient) : null;
  if (redis) await redis.start(2000);

  const limits: Record<Policy, number> = { data: opts.data, ask: opts.ask };
  const stores: Record<Policy, PolicyStore> = {
    data: new PolicyStore('data', new MemoryCounter(windowMs), redis),
    ask: new PolicyStore('ask', new MemoryCounter(windowMs), redis),
  };
  const keyOf = (c: Context) => rateKey(clientIp(c, opts.trust));

  const pass: MiddlewareHandler = async (_c, next) => {
    await next();
  };

  function middleware(policy: Policy): MiddlewareHandler {
    const limit = limits[policy];
    if (limit === 0) return pass;
    const limiter = rateLimiter({
      windowMs,
      limit,
      standardHeaders: false,
      requestPropertyName: INFO,
      keyGenerator: keyOf,
      store: stores[policy],
      handler: (c) => {
        const info = c.get(INFO) as RateLimitInfo;
        const reset = secondsUntil(info.resetTime, windowMs);
        const headers = { ...headerValues(policy, limit, windowMs, 0, reset), 'Retry-After': String(reset) };
        const detail = `rate limit exceeded: the "${policy}" policy allows ${limit} requests per ${Math.ceil(windowMs / 1000)} seconds per client; retry in ${reset} s`;
        return problemResponse(c, new ApiError(429, detail, { policy }, headers));
      },
    });
    // The headers go into the context before the route runs, and the response builders
    // (sendBytes, problemResponse) put them in the response they construct: a header added to a
    // finished response would make the Node adapter copy the body through a stream.
    return async (c, next) => {
      const refused = await limiter(c, async () => {
        const info = c.get(INFO) as RateLimitInfo | undefined;
        if (info) c.set(LIMIT_HEADERS, headerValues(policy, limit, windowMs, info.remaining, secondsUntil(info.resetTime, windowMs)));
        await next();
      });
      if (refused) return refused;
    };
  }

  return {
    data: middleware('data'),
    ask: middleware('ask'),
    async consume(c, policy) {
      const limit = limits[policy];
      if (limit === 0) return { allowed: true, limit: 0, remaining: 0, resetSeconds: 0 };
      const hit = await stores[policy].increment(keyOf(c));
      return { allowed: hit.totalHits <= limit, limit, remaining: Math.max(0, limit - hit.totalHits), resetSeconds: secondsUntil(hit.resetTime, windowMs) };
    },
    headers(policy, r) {
      if (r.limit === 0) return {};
      const h = headerValues(policy, r.limit, windowMs, r.remaining, r.resetSeconds);
      return r.allowed ? h : { ...h, 'Retry-After': String(r.resetSeconds) };
    },
    async close() {
      stores.data.shutdown();
      stores.ask.shutdown();
      await redis?.close();
    },
  };
}
