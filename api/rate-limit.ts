import type { Context, MiddlewareHandler } from 'hono';
import type { createClient as CreateClient } from 'redis';
import { clientIp, type TrustProxy } from './client-ip.ts';
import { rateKey } from './ip-text.ts';
import type { RateLimitPolicy } from '../contract/http.ts';
import { ApiError, type Problem } from './problem.ts';
import { LIMIT_HEADERS, LIMIT_POLICY } from './prebuilt.ts';

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
 * The admissions of one client, oldest first: a ring of (time, count) buckets that grows
 * (doubling) up to the quota. Dropping what left the window and adding the newest are O(1), so a
 * high limit (a benchmark's, a proxy's) never costs time per request; and admissions of the same
 * bucket share one entry, so in memory it costs at most one entry per millisecond of the window
 * (60,000 entries, 720 KB, for a client sending thousands of requests a second) rather than one
 * per request.
 */
class Ring {
  private times = new Float64Array(4);
  private counts = new Uint32Array(4);
  private head = 0;
  /** Buckets held. */
  private used = 0;
  /** Admissions held: the sum of the counts. */
  size = 0;

  private slot(i: number): number {
    return (this.head + i) % this.times.length;
  }

  /** The time of the oldest admission held. */
  oldest(): number {
    return this.times[this.head]!;
  }

  /** Drop the admissions at or before `cutoff`. */
  dropUntil(cutoff: number): void {
    while (this.used > 0 && this.times[this.head]! <= cutoff) this.dropBucket();
  }

  /** Drop the `n` oldest admissions. */
  dropOldest(n: number): void {
    while (n > 0 && this.used > 0) {
      const c = this.counts[this.head]!;
      if (c > n) {
        this.counts[this.head] = c - n;
        this.size -= n;
        return;
      }
      n -= c;
      this.dropBucket();
    }
  }

  private dropBucket(): void {
    this.size -= this.counts[this.head]!;
    this.head = (this.head + 1) % this.times.length;
    this.used--;
  }

  /** Add an admission at `t`, in order (a Redis admission may come back after a later one; the newest is the common case). */
  insert(t: number, cap: number): void {
    this.size++;
    let i = this.used;
    while (i > 0 && this.times[this.slot(i - 1)]! > t) i--;
    if (i > 0 && this.times[this.slot(i - 1)] === t) {
      this.counts[this.slot(i - 1)]!++;
      return;
    }
    if (this.used === this.times.length) this.grow(cap);
    for (let j = this.used; j > i; j--) {
      this.times[this.slot(j)] = this.times[this.slot(j - 1)]!;
      this.counts[this.slot(j)] = this.counts[this.slot(j - 1)]!;
    }
    this.times[this.slot(i)] = t;
    this.counts[this.slot(i)] = 1;
    this.used++;
  }

  private grow(cap: number): void {
    const length = Math.max(4, Math.min(this.times.length * 2, cap + 1));
    const times = new Float64Array(length);
    const counts = new Uint32Array(length);
    for (let i = 0; i < this.used; i++) {
      times[i] = this.times[this.slot(i)]!;
      counts[i] = this.counts[this.slot(i)]!;
    }
    this.times = times;
    this.counts = counts;
    this.head = 0;
  }

  /** Every admission's time, oldest first. */
  toArray(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.used; i++) for (let c = this.counts[this.slot(i)]!; c > 0; c--) out.push(this.times[this.slot(i)]!);
    return out;
  }
}

/**
 * Admitted requests per client in this process, oldest first, at most `limit` per client (a log
 * never holds more than its quota), swept once per window. admit() is synchronous, so
 * concurrent requests in one Node process are counted exactly.
 *
 * Times are kept to `resolutionUs`, rounded up: counting alone, a millisecond (an admission
 * leaves the window up to 1 ms after its exact time, never before, so the limit still holds for
 * every span of the window); beside Redis, the microsecond (each admission keeps its own stamp,
 * which names it in Redis when this instance's admissions are copied back there).
 */
class MemoryLog {
  private readonly logs = new Map<string, Ring>();
  private readonly timer: NodeJS.Timeout;

  private readonly windowUs: number;
  private readonly cap: number;
  private readonly resolutionUs: number;
  constructor(windowUs: number, cap: number, resolutionUs = 1) {
    this.windowUs = windowUs;
    this.cap = cap;
    this.resolutionUs = resolutionUs;
    this.timer = setInterval(() => this.sweep(), windowUs / 1000);
    this.timer.unref();
  }

  private live(key: string, now: number): Ring | undefined {
    const log = this.logs.get(key);
    if (!log) return undefined;
    log.dropUntil(now - this.windowUs);
    if (log.size === 0) {
      this.logs.delete(key);
      return undefined;
    }
    return log;
  }

  admit(key: string, limit: number, now: number): Admission {
    const log = this.live(key, now);
    const n = log?.size ?? 0;
    if (n >= limit) return { allowed: false, count: n, oldest: log!.oldest() };
    this.record(key, now);
    return { allowed: true, count: n + 1, oldest: this.logs.get(key)!.oldest() };
  }

  /** Remember an admission (Redis admitted it, or this log did). */
  record(key: string, t: number): void {
    let log = this.logs.get(key);
    if (!log) this.logs.set(key, (log = new Ring()));
    log.insert(this.resolutionUs === 1 ? t : Math.ceil(t / this.resolutionUs) * this.resolutionUs, this.cap);
    if (log.size > this.cap) log.dropOldest(log.size - this.cap);
  }

  /** Every client's admissions still in the window (for copying to Redis). */
  *recent(now: number): Generator<[string, number[]]> {
    for (const key of [...this.logs.keys()]) {
      const log = this.live(key, now);
      if (log) yield [key, log.toArray()];
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

  const redis =
    opts.redisUrl && anyOn
      ? new RedisBackend(opts.redisUrl, windowUs, log, opts.redisTimeoutMs ?? 500, (await import('redis')).createClient, [
          ['data', memory.data],
          ['ask', memory.ask],
        ])
      : null;
  if (redis) await redis.start(2000);
  const keyOf = (c: Context) => rateKey(clientIp(c, opts.trust));
  const windowSeconds = Math.ceil(windowMs / 1000);

  /** What one admission means for the client: its quota, what remains, when a slot frees. */
  function resultOf(policy: Policy, a: Admission, limit: number, now: number): ConsumeResult {
    if (!a.allowed) opts.onLimited?.(policy);
    // When the oldest admission leaves the window, measured from this request's own time (the
    // log's clock): a retry after that many seconds is admitted.
    const resetSeconds = Math.min(windowSeconds, Math.max(1, Math.ceil((a.oldest + windowUs - now) / 1e6)));
    return { allowed: a.allowed, limit, remaining: a.allowed ? Math.max(0, limit - a.count) : 0, resetSeconds };
  }

  /** Count in memory: conservatively (this instance's share) when Redis is configured but unusable. */
  function inMemory(policy: Policy, key: string): ConsumeResult {
    const limit = redis ? fallback[policy] : limits[policy];
    const now = stamp();
    return resultOf(policy, memory[policy].admit(key, limit, now), limit, now);
  }

  async function inRedis(backend: RedisBackend, policy: Policy, key: string): Promise<ConsumeResult> {
    const now = stamp();
    try {
      const a = await backend.admit(`${REDIS_PREFIX}${policy}:${key}`, limits[policy], now);
      if (a.allowed) memory[policy].record(key, now);
      return resultOf(policy, a, limits[policy], now);
    } catch (err) {
      backend.markDown(err instanceof Error ? err.message : String(err), true);
      return inMemory(policy, key);
    }
  }

  /** Count one request of `key` under `policy`: in Redis when usable (a promise), else in memory (at once). */
  function consumeKey(policy: Policy, key: string): ConsumeResult | Promise<ConsumeResult> {
    if (limits[policy] === 0) return OFF;
    return redis?.check() ? inRedis(redis, policy, key) : inMemory(policy, key);
  }

  async function consume(c: Context, policy: Policy): Promise<ConsumeResult> {
    return consumeKey(policy, keyOf(c));
  }

  /** RateLimit-Policy of each policy at its quota and at its share during a Redis outage: the same strings on every response. */
  const policyHeader = (policy: Policy, limit: number) => `"${policy}";q=${limit};w=${windowSeconds}`;
  const usual = { data: policyHeader('data', limits.data), ask: policyHeader('ask', limits.ask) };
  const outage = { data: policyHeader('data', fallback.data), ask: policyHeader('ask', fallback.ask) };
  function headers(policy: Policy, r: ConsumeResult): Record<string, string> {
    if (r.limit === 0) return {};
    const p = r.limit === limits[policy] ? usual[policy] : r.limit === fallback[policy] ? outage[policy] : policyHeader(policy, r.limit);
    const h: Record<string, string> = { 'RateLimit-Policy': p, RateLimit: `"${policy}";r=${decimal(r.remaining)};t=${r.resetSeconds}` };
    if (!r.allowed) h['Retry-After'] = String(r.resetSeconds);
    return h;
  }

  function refusal(policy: Policy, r: ConsumeResult): Problem {
    const detail = `rate limit exceeded: the "${policy}" policy allows ${r.limit} requests per ${windowSeconds} seconds per client; retry in ${r.resetSeconds} s`;
    return { status: 429, detail, extras: { policy }, headers: headers(policy, r) };
  }

  const pass: MiddlewareHandler = async (_c, next) => {
    await next();
  };

  function middleware(policy: Policy): MiddlewareHandler {
    if (limits[policy] === 0) return pass;
    // The headers go into the context before the route runs, and the response builders
    // (sendBytes, problemResponse) put them in the response they construct: a header added to a
    // finished response would make the Node adapter copy the body through a stream. A refusal is
    // thrown: the app's error handler answers it with the headers every response carries.
    return async (c, next) => {
      const counted = consumeKey(policy, keyOf(c));
      const r = counted instanceof Promise ? await counted : counted;
      if (!r.allowed) {
        const p = refusal(policy, r);
        throw new ApiError(p.status, p.detail, p.extras, p.headers);
      }
      c.set(LIMIT_HEADERS, headers(policy, r));
      c.set(LIMIT_POLICY, policy);
      await next();
    };
  }

  return {
    data: middleware('data'),
    ask: middleware('ask'),
    consume,
    consumeKey,
    headers,
    refusal,
    mode: () => (!redis ? 'memory' : redis.usable ? 'redis' : 'fallback'),
    async close() {
      memory.data.shutdown();
      memory.ask.shutdown();
      await redis?.close();
    },
  };
}

/** '000' to '999'. */
const THREE_DIGITS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
/** '0' to '999'. */
const SMALL = Array.from({ length: 1000 }, (_, i) => String(i));

/**
 * A whole number ≥ 0 in decimal, without V8's number-to-string cache: with a high limit the
 * remaining count is a new number on every request, and each one cached there is a string kept
 * from the old generation, which survives the young collections and costs a full one later
 * (measured: ~24 bytes promoted per request under load). Three digits at a time from a table.
 */
export function decimal(n: number): string {
  if (n < 1000) return SMALL[n]!;
  let out = THREE_DIGITS[n % 1000]!;
  for (n = Math.floor(n / 1000); n >= 1000; n = Math.floor(n / 1000)) out = THREE_DIGITS[n % 1000]! + out;
  return SMALL[n]! + out;
}

/** The result of a policy that is off: always allowed, no headers. */
const OFF: ConsumeResult = Object.freeze({ allowed: true, limit: 0, remaining: 0, resetSeconds: 0 });

export { rateKey };
