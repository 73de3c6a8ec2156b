import type { createClient as CreateClient } from 'redis';
import type { Admission } from './window.ts';

/**
 * The Redis side of the window: one node-redis connection, the two Lua scripts and their
 * replies. It counts and copies; whether Redis may be asked at all is the outage state's
 * question (./outage.ts), which hears the connection's 'error' and 'ready' through the callbacks.
 */

export const REDIS_PREFIX = 'chokepoint:rl:';

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

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the configured REDIS_URL';
  }
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export interface TransportEvents {
  /** The connection failed or was lost (node-redis 'error'). */
  onError(reason: string): void;
  /** The connection is ready again (node-redis 'ready'). */
  onReady(): void;
}

export class RedisTransport {
  private readonly client: ReturnType<typeof CreateClient>;
  private closed = false;
  /** Names this instance's members in the shared sorted sets. */
  readonly instance = globalThis.crypto.randomUUID().slice(0, 12);

  readonly url: string;
  private readonly windowUs: number;
  private readonly timeoutMs: number;
  constructor(url: string, windowUs: number, timeoutMs: number, createClient: typeof CreateClient, events: TransportEvents) {
    this.url = url;
    this.windowUs = windowUs;
    this.timeoutMs = timeoutMs;
    this.client = createClient({
      url,
      disableOfflineQueue: true,
      socket: {
        connectTimeout: 2000,
        // Reconnect in the background: 100 ms, doubling up to every 2 s.
        reconnectStrategy: (retries: number) => (this.closed ? false : Math.min(100 * 2 ** Math.min(retries, 5), 2000)),
      },
    });
    this.client.on('error', (err: unknown) => events.onError(message(err)));
    this.client.on('ready', () => events.onReady());
  }

  get ready(): boolean {
    return this.client.isReady;
  }

  /**
   * Connect, waiting at most `waitMs` (less when the first attempt fails outright): null when
   * connected, else why not (the client keeps trying in the background).
   */
  async start(waitMs: number): Promise<string | null> {
    let timer: NodeJS.Timeout | undefined;
    let onError: ((err: unknown) => void) | undefined;
    const outcome = await Promise.race([
      this.client.connect().then(() => null, message),
      new Promise<string>((r) => {
        timer = setTimeout(() => r(`no answer within ${waitMs} ms at start-up`), waitMs);
      }),
      new Promise<string>((r) => {
        onError = (err) => r(`${message(err)}, at start-up`);
        this.client.once('error', onError);
      }),
    ]);
    clearTimeout(timer);
    if (onError) this.client.off('error', onError);
    return outcome;
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

  /** Count one request at `now` (µs) under `limit` in the sorted set `key`. */
  async admit(key: string, limit: number, now: number): Promise<Admission> {
    const reply = (await this.timed(
      this.client.eval(ADMIT_SCRIPT, { keys: [key], arguments: [String(now), String(this.windowUs), String(limit), `${this.instance}:${now}`] }),
    )) as unknown;
    if (!Array.isArray(reply) || reply.length !== 3) throw new Error('unexpected reply to the rate-limit script');
    const [allowed, count, oldest] = reply.map(Number) as [number, number, number];
    if (![allowed, count, oldest].every(Number.isFinite)) throw new Error('unexpected reply to the rate-limit script');
    return { allowed: allowed === 1, count, oldest };
  }

  /** Copy admissions made elsewhere (times in µs) into the sorted set `key`. */
  merge(key: string, times: number[], now: number): Promise<unknown> {
    const args = [String(now), String(this.windowUs), ...times.flatMap((t) => [String(t), `${this.instance}:${t}`])];
    return this.timed(this.client.eval(MERGE_SCRIPT, { keys: [key], arguments: args }), 5000);
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
