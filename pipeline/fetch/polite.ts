import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polite, robust fetching from the publishers, for every adapter: each source gets a function
 * shaped like `fetch` (so adapters keep `download(dir, fetchImpl)`) that paces its requests per
 * publisher host, times out each request, gives up at the source's deadline, retries network
 * errors, 429 and 5xx with exponential backoff and jitter (or as long as Retry-After asks),
 * caps the size of an answer, sends the validators of the last answer (If-None-Match,
 * If-Modified-Since) and hands a 304 back to the adapter as the body it validated, and logs one
 * line per fetch.
 *
 * Written here rather than taken from a library: undici's RetryAgent and interceptors work at
 * the dispatcher, below the `fetch` the adapters are handed (tests and the replay server inject
 * their own), and add no jitter; p-retry cannot wait the time a Retry-After asks for; p-throttle
 * cannot withdraw one queued call when its source's deadline passes. The pieces are small.
 */

export interface FetchPolicy {
  /** One request, headers and body, may take this long before it is abandoned (and retried). */
  timeoutMs: number;
  /** All the requests of one source: past this the source fails and the build goes on without it. */
  deadlineMs: number;
  /** Attempts after the first, on a network error, a timeout, 429, 5xx or an empty 2xx body. */
  retries: number;
  /** Backoff before retry n is about backoffMs·2ⁿ (half of it fixed, half random), at most maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  /** A Retry-After longer than this (or past the deadline) ends the retries at once. */
  maxRetryAfterMs: number;
  /** An answer larger than this is refused (a runaway or wrong file never fills the disk). */
  maxBytes: number;
}

export const DEFAULT_POLICY: FetchPolicy = {
  timeoutMs: 60_000,
  deadlineMs: 600_000,
  retries: 3,
  backoffMs: 1_000,
  maxBackoffMs: 30_000,
  maxRetryAfterMs: 120_000,
  maxBytes: 256 * 2 ** 20,
};

/** How fast one publisher may be asked: a gap between request starts, and optionally a cap per minute. */
export interface Pace {
  gapMs: number;
  perMinute?: number;
}

/**
 * Pacing per publisher host, shared by every source of that publisher in a build (the three EIA
 * sources share one key). Keyed by the publisher's own host, also when PUBLISHER_URL_* sends the
 * requests elsewhere.
 */
export const PACING: Readonly<Record<string, Pace>> = {
  // GIE blocks a key for 60 s past 60 requests a minute, and may ban it.
  'agsi.gie.eu': { gapMs: 1_000, perMinute: 60 },
  // EIA API v2: under 5 requests a second.
  'api.eia.gov': { gapMs: 250 },
};
/** Any other publisher: a request at a time, at most five a second. */
const DEFAULT_PACE: Pace = { gapMs: 200 };

/** Reserves request slots for one host: each start at least gapMs after the last, at most perMinute in any minute. */
export class Pacer {
  private next = 0;
  private readonly starts: number[] = [];
  private readonly pace: Pace;
  private readonly clock: () => number;
  constructor(pace: Pace, clock: () => number = () => performance.now()) {
    this.pace = pace;
    this.clock = clock;
  }

  /** When a request may start, in ms from now; the slot is taken (the caller waits that long). */
  reserve(): number {
    const now = this.clock();
    let at = Math.max(now, this.next);
    const cap = this.pace.perMinute;
    if (cap) {
      while (this.starts.length > 0 && this.starts[0]! <= at - 60_000) this.starts.shift();
      if (this.starts.length >= cap) at = Math.max(at, this.starts[this.starts.length - cap]! + 60_000);
      this.starts.push(at);
    }
    this.next = at + this.pace.gapMs;
    return at - now;
  }
}

/** One Pacer per publisher host for a build. */
export class Pacers {
  private readonly byHost = new Map<string, Pacer>();
  private readonly clock: (() => number) | undefined;
  constructor(clock?: () => number) {
    this.clock = clock;
  }
  for(host: string): Pacer {
    let p = this.byHost.get(host);
    if (!p) this.byHost.set(host, (p = new Pacer(PACING[host] ?? DEFAULT_PACE, this.clock)));
    return p;
  }
}

/** What the last good answer to a URL carried, to ask again conditionally. */
export interface Validated {
  etag: string | null;
  last_modified: string | null;
  content_type: string | null;
}

/** Where answers with validators are kept between builds (pipeline/fetch/state.ts). */
export interface AnswerCache {
  /** The validators and body of the last good answer to `url`, when both are at hand. */
  get(url: string): Promise<(Validated & { body: Buffer }) | undefined>;
  put(url: string, v: Validated, body: Buffer): Promise<void>;
}

/** One line of the structured log per fetch (after its retries). */
export interface FetchLine {
  source: string;
  url: string;
  status: number | null;
  bytes: number;
  ms: number;
  retries: number;
  /** Answered 304: the body is the one validated. */
  not_modified?: boolean;
  error?: string;
}

/** What one source's fetching came to. */
export interface FetchStats {
  requests: number;
  retries: number;
  bytes: number;
  not_modified: number;
}

export interface PoliteOptions {
  sourceId: string;
  /** The fetch underneath (fx.fetch: the global one, or a test's). */
  fetch: typeof fetch;
  policy: FetchPolicy;
  pacers: Pacers;
  /** PUBLISHER_URL_<ID>: replaces scheme, host and port of every request; path and query stay. */
  origin?: string | undefined;
  /** Absent: no conditional requests (a forced refresh still records the new validators via put). */
  cache?: AnswerCache | undefined;
  /** Validators only recorded, never sent (`--force`). */
  force?: boolean;
  /** Aborts at the source's deadline. */
  signal: AbortSignal;
  log: (line: FetchLine) => void;
  random?: () => number;
}

/** A fetch that failed for good: the message names the URL (without keys) and why. */
export class FetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FetchError';
  }
}

/** Query parameters that carry credentials; dropped from every URL that is logged or reported. */
const SECRET_PARAMS = /^(api[_-]?key|key|token|access[_-]?token|x-key)$/i;

/** The URL as it may be logged: credentials in the query removed. */
export function redactUrl(url: string | URL): string {
  const u = new URL(String(url));
  for (const name of [...u.searchParams.keys()]) if (SECRET_PARAMS.test(name)) u.searchParams.delete(name);
  return u.href;
}

/** The request's URL with scheme, host and port taken from `origin`. */
export function withOrigin(url: URL, origin: string | undefined): URL {
  if (!origin) return url;
  const o = new URL(origin);
  const u = new URL(url.href);
  u.protocol = o.protocol;
  u.host = o.host;
  return u;
}

/** Retry-After as milliseconds from now (delay-seconds or an HTTP-date), or null. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** A failed attempt that may succeed when tried again, with the answer's status when there was one. */
class Retryable extends Error {
  readonly waitMs: number | null;
  constructor(message: string, waitMs: number | null = null) {
    super(message);
    this.waitMs = waitMs;
  }
}

const RETRY_STATUS = (s: number) => s === 429 || s >= 500;

/** Read a body up to `max` bytes; larger is refused before it is all read. */
async function readCapped(res: Response, max: number, url: string): Promise<Buffer> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > max) {
    await res.body?.cancel();
    throw new FetchError(`${url} is ${declared} bytes, over the cap of ${max}`);
  }
  if (!res.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > max) throw new FetchError(`${url} sent more than the cap of ${max} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** A source past its deadline: its requests are aborted and it fails with this. */
export const pastDeadline = (policy: Pick<FetchPolicy, 'deadlineMs'>) => new FetchError(`the source's deadline of ${seconds(policy.deadlineMs)} passed`);

/** A `fetch` for one source's adapter, with everything the module comment says. */
export function politeFetch(o: PoliteOptions): { fetch: typeof fetch; stats: FetchStats } {
  const stats: FetchStats = { requests: 0, retries: 0, bytes: 0, not_modified: 0 };
  const random = o.random ?? Math.random;
  const deadlineAt = Date.now() + o.policy.deadlineMs;

  const one = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const original = new URL(input instanceof Request ? input.url : String(input));
    const target = withOrigin(original, o.origin);
    const shown = redactUrl(target);
    const headers = new Headers(init.headers);
    if (!headers.has('user-agent')) headers.set('user-agent', 'chokepoint-pipeline (+https://github.com/chokepoint)');
    const cached = o.force ? undefined : await o.cache?.get(original.href);
    if (cached?.etag) headers.set('if-none-match', cached.etag);
    if (cached?.last_modified) headers.set('if-modified-since', cached.last_modified);
    const started = performance.now();
    let retries = 0;
    let line: Omit<FetchLine, 'source' | 'url' | 'ms' | 'retries'> = { status: null, bytes: 0 };
    try {
      for (let attempt = 0; ; attempt++) {
        if (o.signal.aborted) throw pastDeadline(o.policy);
        await sleep(o.pacers.for(original.host).reserve(), undefined, { signal: o.signal }).catch(() => {
          throw pastDeadline(o.policy);
        });
        stats.requests++;
        try {
          const res = await o.fetch(target, { ...init, headers, signal: AbortSignal.any([o.signal, AbortSignal.timeout(o.policy.timeoutMs)]) });
          line = { status: res.status, bytes: 0 };
          if (res.status === 304 && cached) {
            await res.body?.cancel();
            stats.not_modified++;
            line = { status: 304, bytes: 0, not_modified: true };
            const h = new Headers(cached.content_type ? { 'content-type': cached.content_type } : {});
            return new Response(new Uint8Array(cached.body), { status: 200, headers: h });
          }
          if (RETRY_STATUS(res.status)) {
            await res.body?.cancel();
            throw new Retryable(`${shown} answered ${res.status}`, retryAfterMs(res.headers.get('retry-after')));
          }
          const body = await readCapped(res, o.policy.maxBytes, shown);
          stats.bytes += body.length;
          line = { status: res.status, bytes: body.length };
          if (res.ok && body.length === 0) throw new Retryable(`${shown} answered ${res.status} with an empty body`);
          const v: Validated = {
            etag: res.headers.get('etag'),
            last_modified: res.headers.get('last-modified'),
            content_type: res.headers.get('content-type'),
          };
          if (res.ok && (v.etag || v.last_modified)) await o.cache?.put(original.href, v, body);
          // A body read here is handed on whole: null-body statuses must not carry one.
          const nullBody = res.status === 204 || res.status === 205 || res.status === 304;
          return new Response(nullBody ? null : new Uint8Array(body), { status: res.status, statusText: res.statusText, headers: res.headers });
        } catch (err) {
          if (err instanceof FetchError) throw err;
          if (o.signal.aborted) throw pastDeadline(o.policy);
          const why =
            err instanceof Retryable
              ? err
              : new Retryable(
                  err instanceof Error && err.name === 'TimeoutError'
                    ? `${shown} did not answer within ${seconds(o.policy.timeoutMs)}`
                    : `${shown} failed: ${err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err)}`,
                );
          if (attempt >= o.policy.retries) throw new FetchError(`${why.message} (${attempt + 1} attempts)`);
          const backoff = Math.min(o.policy.maxBackoffMs, o.policy.backoffMs * 2 ** attempt);
          const wait = why.waitMs ?? backoff / 2 + (random() * backoff) / 2;
          if (why.waitMs !== null && (wait > o.policy.maxRetryAfterMs || Date.now() + wait > deadlineAt)) {
            throw new FetchError(`${why.message} and asked to retry after ${seconds(wait)}, past what the source may wait`);
          }
          retries++;
          stats.retries++;
          await sleep(wait, undefined, { signal: o.signal }).catch(() => {
            throw pastDeadline(o.policy);
          });
        }
      }
    } catch (err) {
      line = { ...line, error: err instanceof Error ? err.message : String(err) };
      throw err;
    } finally {
      o.log({ source: o.sourceId, url: shown, ...line, ms: Math.round(performance.now() - started), retries });
    }
  };
  return { fetch: one as typeof fetch, stats };
}
