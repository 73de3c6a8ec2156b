import type { Context, MiddlewareHandler } from 'hono';
import type { createClient as CreateClient } from 'redis';
import { clientIp, type TrustProxy } from './client-ip.ts';
import { rateKey } from './ip-text.ts';
import { ApiError, problemResponse } from './problem.ts';
import { LIMIT_HEADERS } from './http.ts';

/**
 * Rate limits per client IP (SPEC §7): the data routes and MCP reads share one budget ("data",
 * 60/min by default), /v1/ask has its own ("ask", 10/min). A sliding window: a request is
 * admitted when fewer than `limit` requests of that client were admitted in the 60 seconds
 * before it, so no 60-second span ever holds more than `limit` admitted requests, whatever the
 * boundaries (a fixed window admits 2 × limit across one). Refused requests are not counted.
 *
 * The log of admitted requests lives in memory, or in Redis when REDIS_URL is set so that every
 * instance shares it (one sorted set per client and policy). Each instance also keeps its own
 * admissions in memory; when Redis is unreachable it counts there, against a conservative quota
 * (the limit divided by RATE_LIMIT_INSTANCES, the expected number of instances), and when Redis
 * answers again it first copies its recent admissions there (a Redis that restarted empty still
 * knows them), then counts in Redis again. One warning per outage.
 */

export type Policy = 'data' | 'ask';

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

export interface ConsumeResult {
  allowed: boolean;
  /** The quota that applied (the conservative one during a Redis outage); 0 when the policy is off (then allowed is always true and no header should be sent). */
  limit: number;
  remaining: number;
  /** Seconds until the oldest counted request leaves the window (one more request is then admitted); the Retry-After of a refusal. */
  resetSeconds: number;
}

export interface RateLimits {
  /** Middleware for the data routes: counts, sets RateLimit/RateLimit-Policy, answers 429. */
  data: MiddlewareHandler;
  /** Middleware for /v1/ask. */
  ask: MiddlewareHandler;
  /** Count one hit of `policy` for this request's client (MCP reads use 'data'). */
  consume(c: Context, policy: Policy): Promise<ConsumeResult>;
  /** The headers to send with a consume() result: RateLimit-Policy, RateLimit, and Retry-After when refused; {} when the policy is off. */
  headers(policy: Policy, result: ConsumeResult): Record<string, string>;
  /** Where counting happens now: 'memory' (no Redis configured), 'redis', or 'fallback' (Redis configured, unavailable). */
  mode(): 'memory' | 'redis' | 'fallback';
  close(): Promise<void>;
}

export const REDIS_PREFIX = 'chokepoint:rl:';

// --- the log of admitted requests ------------------------------------------------------------

/** Times are microseconds since the epoch: unique per instance, so that they also name the Redis members. */
let lastStamp = 0;
function stamp(): number {
  lastStamp = Math.max(Date.now() * 1000, lastStamp + 1);
  return lastStamp;
}

interface Admission {
  allowed: boolean;
  /** Admitted requests in the window, this one included when admitted. */
  count: number;
  /** Time (µs) of the oldest admitted request in the window, or of this one. */
  oldest: number;
}

/**
 * Admitted requests per client in this process, oldest first, at most `limit` per client (a log
 * never holds more than its quota), swept once per window. admit() is synchronous, so
 * concurrent requests in one Node process are counted exactly.
 */
class MemoryLog {
  private readonly logs = new Map<string, number[]>();
  private readonly timer: NodeJS.Timeout;

  private readonly windowUs: number;
  private readonly cap: number;
  constructor(windowUs: number, cap: number) {
    this.windowUs = windowUs;
    this.cap = cap;
    this.timer = setInterval(() => this.sweep(), windowUs / 1000);
    this.timer.unref();
  }

  private live(key: string, now: number): number[] | undefined {
    const log = this.logs.get(key);
    if (!log) return undefined;
    let drop = 0;
    while (drop < log.length && log[drop]! <= now - this.windowUs) drop++;
    if (drop) log.splice(0, drop);
    if (log.length === 0) {
      this.logs.delete(key);
      return undefined;
    }
    return log;
  }

  admit(key: string, limit: number, now: number): Admission {
    const log = this.live(key, now);
    const n = log?.length ?? 0;
    if (n >= limit) return { allowed: false, count: n, oldest: log![0]! };
    this.record(key, now);
    return { allowed: true, count: n + 1, oldest: log?.[0] ?? now };
  }

  /** Remember an admission (Redis admitted it, or this log did). */
  record(key: string, t: number): void {
    let log = this.logs.get(key);
    if (!log) this.logs.set(key, (log = []));
    let i = log.length;
    while (i > 0 && log[i - 1]! > t) i--;
    log.splice(i, 0, t);
    if (log.length > this.cap) log.splice(0, log.length - this.cap);
  }

  /** Every client's admissions still in the window (for copying to Redis). */
  *recent(now: number): Generator<[string, number[]]> {
    for (const key of [...this.logs.keys()]) {
      const log = this.live(key, now);
      if (log) yield [key, [...log]];
    }
  }

  private sweep(): void {
    const now = Date.now() * 1000;
    for (const key of [...this.logs.keys()]) this.live(key, now);
  }

  shutdown(): void {
    clearInterval(this.timer);
    this.logs.clear();
  }
}

/**
 * Drop what left the window, admit when fewer than the limit remain (ZADD this request), keep the
 * key for one window; returns {admitted 0/1, count, oldest score}.
 */
const ADMIT_SCRIPT = `local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local n = redis.call('ZCARD', KEYS[1])
local allowed = 0
if n < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  n = n + 1
  allowed = 1
end
redis.call('PEXPIRE', KEYS[1], math.ceil(window / 1000))
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {allowed, n, oldest[2] or ARGV[1]}`;

/** Add admissions (score, member pairs in ARGV[3..]) made elsewhere, e.g. in memory during an outage. */
const MERGE_SCRIPT = `local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
for i = 3, #ARGV, 2 do redis.call('ZADD', KEYS[1], tonumber(ARGV[i]), ARGV[i + 1]) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
redis.call('PEXPIRE', KEYS[1], math.ceil(window / 1000))
return redis.call('ZCARD', KEYS[1])`;

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
 * is ready, no failure happened in the last second and no copy after an outage is under way;
 * anything else (not connected, an error, a command slower than the timeout) counts the request
 * in memory. The client keeps reconnecting in the background; when it is back, this instance's
 * recent admissions are copied to Redis, then the recovery is logged and counting is back there.
 */
class RedisBackend {
  private readonly client: ReturnType<typeof CreateClient>;
  private down = false;
  private recovering = false;
  private retryAt = 0;
  private closed = false;
  /** Names this instance's members in the shared sorted sets. */
  readonly instance = globalThis.crypto.randomUUID().slice(0, 12);

  readonly url: string;
  private readonly windowUs: number;
  private readonly log: (msg: string) => void;
  private readonly timeoutMs: number;
  private readonly logs: Array<[string, MemoryLog]>;
  constructor(
    url: string,
    windowUs: number,
    log: (msg: string) => void,
    timeoutMs: number,
    createClient: typeof CreateClient,
    logs: Array<[string, MemoryLog]>,
  ) {
    this.url = url;
    this.windowUs = windowUs;
    this.log = log;
    this.timeoutMs = timeoutMs;
    this.logs = logs;
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
    return !this.closed && !this.down && !this.recovering && this.client.isReady && Date.now() >= this.retryAt;
  }

  /**
   * Whether this request may go to Redis. When it may not, note why: a client that is not
   * connected is an outage; a connected client past its back-off after a failed command (a
   * Redis that hung, then answered) is probed by starting the recovery.
   */
  check(): boolean {
    if (this.usable) return true;
    if (this.closed) return false;
    if (!this.client.isReady) this.markDown('not connected');
    else if (this.down && !this.recovering && Date.now() >= this.retryAt) this.markUp();
    return false;
  }

  /** Log the outage once; after a failed command (`backoff`), leave Redis alone for a second. */
  markDown(reason: string, backoff = false): void {
    if (this.closed) return;
    if (backoff) this.retryAt = Date.now() + 1000;
    if (this.down) return;
    this.down = true;
    this.log(
      `warning: rate limits: Redis at ${redactUrl(this.url)} unavailable (${reason}); counting in memory on this instance, conservatively, until it is reachable again`,
    );
  }

  /** Redis answers again: copy what was admitted meanwhile (and just before), then count there. */
  markUp(): void {
    if (!this.down || this.closed || this.recovering) {
      if (!this.down) this.retryAt = 0;
      return;
    }
    this.recovering = true;
    void this.copyRecent().then(
      (clients) => {
        this.recovering = false;
        if (this.closed) return;
        this.down = false;
        this.retryAt = 0;
        this.log(`rate limits: Redis at ${redactUrl(this.url)} is back; ${clients} client(s)' recent requests copied there; counting in Redis again`);
      },
      (err: unknown) => {
        // Still unusable: stay in memory; the next 'ready' (or the probe below) tries again.
        this.recovering = false;
        this.retryAt = Date.now() + 1000;
        setTimeout(() => this.markUp(), 1000).unref();
        void err;
      },
    );
  }

  private async copyRecent(): Promise<number> {
    const now = Date.now() * 1000;
    let clients = 0;
    const batch: Promise<unknown>[] = [];
    for (const [policy, log] of this.logs) {
      for (const [key, times] of log.recent(now)) {
        const args = [String(now), String(this.windowUs), ...times.flatMap((t) => [String(t), `${this.instance}:${t}`])];
        batch.push(this.timed(this.client.eval(MERGE_SCRIPT, { keys: [`${REDIS_PREFIX}${policy}:${key}`], arguments: args }), 5000));
        clients++;
        if (batch.length >= 100) await Promise.all(batch.splice(0));
      }
    }
    await Promise.all(batch);
    return clients;
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

  async admit(key: string, limit: number, now: number): Promise<Admission> {
    const reply = (await this.timed(
      this.client.eval(ADMIT_SCRIPT, { keys: [key], arguments: [String(now), String(this.windowUs), String(limit), `${this.instance}:${now}`] }),
    )) as unknown;
    if (!Array.isArray(reply) || reply.length !== 3) throw new Error('unexpected reply to the rate-limit script');
    const [allowed, count, oldest] = reply.map(Number) as [number, number, number];
    if (![allowed, count, oldest].every(Number.isFinite)) throw new Error('unexpected reply to the rate-limit script');
    return { allowed: allowed === 1, count, oldest };
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

// --- headers and middleware ---------------------------------------------------------------

function headerValues(policy: Policy, limit: number, windowMs: number, remaining: number, resetSeconds: number): Record<string, string> {
  return {
    'RateLimit-Policy': `"${policy}";q=${limit};w=${Math.ceil(windowMs / 1000)}`,
    RateLimit: `"${policy}";r=${remaining};t=${resetSeconds}`,
  };
}

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
  const memory: Record<Policy, MemoryLog> = { data: new MemoryLog(windowUs, Math.max(1, opts.data)), ask: new MemoryLog(windowUs, Math.max(1, opts.ask)) };

  const anyOn = opts.data > 0 || opts.ask > 0;
  const redis =
    opts.redisUrl && anyOn
      ? new RedisBackend(opts.redisUrl, windowUs, log, opts.redisTimeoutMs ?? 500, (await import('redis')).createClient, [
          ['data', memory.data],
          ['ask', memory.ask],
        ])
      : null;
  if (redis) await redis.start(2000);
  const keyOf = (c: Context) => rateKey(clientIp(c, opts.trust));

  /** Count one request of `key` under `policy`: in Redis when usable, else in memory (conservatively when Redis is configured). */
  async function admit(policy: Policy, key: string): Promise<Admission & { limit: number; now: number }> {
    const now = stamp();
    if (redis?.check()) {
      try {
        const a = await redis.admit(`${REDIS_PREFIX}${policy}:${key}`, limits[policy], now);
        if (a.allowed) memory[policy].record(key, now);
        return { ...a, limit: limits[policy], now };
      } catch (err) {
        redis.markDown(err instanceof Error ? err.message : String(err), true);
      }
    }
    const limit = redis ? fallback[policy] : limits[policy];
    const later = stamp();
    return { ...memory[policy].admit(key, limit, later), limit, now: later };
  }

  async function consume(c: Context, policy: Policy): Promise<ConsumeResult> {
    if (limits[policy] === 0) return { allowed: true, limit: 0, remaining: 0, resetSeconds: 0 };
    const a = await admit(policy, keyOf(c));
    if (!a.allowed) opts.onLimited?.(policy);
    // When the oldest admission leaves the window, measured from this request's own time (the
    // log's clock): a retry after that many seconds is admitted.
    const resetSeconds = Math.min(Math.ceil(windowMs / 1000), Math.max(1, Math.ceil((a.oldest + windowUs - a.now) / 1e6)));
    return { allowed: a.allowed, limit: a.limit, remaining: a.allowed ? Math.max(0, a.limit - a.count) : 0, resetSeconds };
  }

  function headers(policy: Policy, r: ConsumeResult): Record<string, string> {
    if (r.limit === 0) return {};
    const h = headerValues(policy, r.limit, windowMs, r.remaining, r.resetSeconds);
    return r.allowed ? h : { ...h, 'Retry-After': String(r.resetSeconds) };
  }

  const pass: MiddlewareHandler = async (_c, next) => {
    await next();
  };

  function middleware(policy: Policy): MiddlewareHandler {
    if (limits[policy] === 0) return pass;
    // The headers go into the context before the route runs, and the response builders
    // (sendBytes, problemResponse) put them in the response they construct: a header added to a
    // finished response would make the Node adapter copy the body through a stream.
    return async (c, next) => {
      const r = await consume(c, policy);
      const h = headers(policy, r);
      if (!r.allowed) {
        const detail = `rate limit exceeded: the "${policy}" policy allows ${r.limit} requests per ${Math.ceil(windowMs / 1000)} seconds per client; retry in ${r.resetSeconds} s`;
        return problemResponse(c, new ApiError(429, detail, { policy }, h));
      }
      c.set(LIMIT_HEADERS, h);
      await next();
    };
  }

  return {
    data: middleware('data'),
    ask: middleware('ask'),
    consume,
    headers,
    mode: () => (!redis ? 'memory' : redis.usable ? 'redis' : 'fallback'),
    async close() {
      memory.data.shutdown();
      memory.ask.shutdown();
      await redis?.close();
    },
  };
}

export { rateKey };
