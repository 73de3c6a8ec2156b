/**
 * The rate-limit policies as clients see them, stated once for the Node server, the Worker, the
 * MCP gate and the discovery files: the policy names and default quotas, the window, the
 * RateLimit header fields (IETF draft-ietf-httpapi-ratelimit-headers, docs/rate-limits.md) and
 * the words of a refusal.
 */

/** The rate-limit policies, as RateLimit-Policy names them: the data routes and MCP reads, and /v1/ask. */
export type RateLimitPolicy = 'data' | 'ask';
export const RATE_LIMIT_POLICIES = ['data', 'ask'] as const satisfies readonly RateLimitPolicy[];

/** Requests per window per client IP of each policy unless configured (0 turns one off). */
export const DEFAULT_RATE_LIMITS = { data: 60, ask: 10 } as const satisfies Record<RateLimitPolicy, number>;
/** The window of every policy on the Node server (the Worker's binding period may differ). */
export const RATE_LIMIT_WINDOW_SECONDS = 60;

/** What counting one request said. */
export interface RateLimitResult {
  allowed: boolean;
  /** The quota that applied (the conservative one during a Redis outage); 0 when the policy is off (then allowed is always true and no header is sent). */
  limit: number;
  remaining: number;
  /** Seconds until the oldest counted request leaves the window (one more request is then admitted); the Retry-After of a refusal. */
  resetSeconds: number;
  /** The window the quota is counted over, in seconds. */
  windowSeconds: number;
}

/** The result of a policy that is off: always allowed, no headers. */
export const LIMIT_OFF: RateLimitResult = Object.freeze({ allowed: true, limit: 0, remaining: 0, resetSeconds: 0, windowSeconds: 0 });

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

/** `RateLimit-Policy`: the quota (q) per window (w, seconds). */
export const policyHeader = (policy: RateLimitPolicy, quota: number, windowSeconds = RATE_LIMIT_WINDOW_SECONDS) => `"${policy}";q=${quota};w=${windowSeconds}`;
/** `RateLimit`: the requests left (r) and the seconds until one more is admitted (t). */
export const limitHeader = (policy: RateLimitPolicy, remaining: number, resetSeconds: number) => `"${policy}";r=${decimal(remaining)};t=${resetSeconds}`;

/**
 * The headers of a counted response: RateLimit-Policy, RateLimit (unless the counter cannot know
 * what remains, as the Worker's binding on an admission), and Retry-After on a refusal; none
 * when the policy is off. `quota` is the RateLimit-Policy value when it is already made.
 */
export function rateLimitHeaders(policy: RateLimitPolicy, r: RateLimitResult, opts: { knowsRemaining?: boolean; quota?: string } = {}): Record<string, string> {
  if (r.limit === 0) return {};
  const h: Record<string, string> = { 'RateLimit-Policy': opts.quota ?? policyHeader(policy, r.limit, r.windowSeconds) };
  if (opts.knowsRemaining !== false || !r.allowed) h.RateLimit = limitHeader(policy, r.remaining, r.resetSeconds);
  if (!r.allowed) h['Retry-After'] = String(r.resetSeconds);
  return h;
}

/** The detail of a 429 (and of an MCP refusal, with `scope` saying what shares the budget). */
export const refusalDetail = (policy: RateLimitPolicy, r: RateLimitResult, scope = '') =>
  `rate limit exceeded: the "${policy}" policy allows ${r.limit} requests per ${r.windowSeconds} seconds per client${scope}; retry in ${r.resetSeconds} s`;
