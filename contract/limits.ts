/**
 * Length limits of every identifier and free-text input, the single source of truth: the HTTP
 * request schemas (contract/api.ts) apply them before any other check, the MCP tool schemas
 * (contract/tools.ts) are derived from those, and the OpenAPI document publishes them as
 * `maxLength`. A value over its limit is refused with 400 naming the limit, before it is
 * lower-cased, matched or compared with the known identifiers (suggestions never see it): with
 * the distance bound of lib/suggest.ts, an unknown identifier costs at most a few thousand
 * character comparisons per known name, microseconds in all.
 */
export const INPUT_LIMITS = {
  /**
   * A commodity code (`gas`), slug (`energy.gas`), name or alias in one of the four languages
   * (`Erdgas`, `gaz naturel`): the longest real one, `Gas natural (Henry Hub, EE. UU.)`, has 32.
   */
  commodity: 40,
  /**
   * A country: ISO 3166-1 alpha-2 or alpha-3, a common abbreviation (`UK`), or its name in one of
   * the four languages (`Allemagne`); the longest real one has 32.
   */
  country: 40,
  /** A calendar date, YYYY-MM-DD. */
  date: 10,
  /** A whole-number parameter (`limit`). */
  integer: 6,
  /** An enumerated value (group, status, category, metric, frequency, lang, type, format). */
  enumValue: 32,
  /** /v1/search `q`, after trimming. */
  searchQuery: 200,
  /** /v1/ask `q`, after trimming. */
  askQuestion: 500,
} as const;

/** The message of a value over its limit: `must be at most N characters`. */
export const tooLong = (max: number) => `must be at most ${max} characters`;

/** zod's check parameters for a limit: the message names it, and no later check runs on the value. */
export const maxLength = (max: number) => [max, { error: tooLong(max), abort: true }] as const;

/**
 * The defaults of the list routes, defined once: the request schemas (contract/api.ts) default
 * their parameters with these, the API's query functions compute with them, and the pipeline's
 * prebuilt default views (v1/events.json, v1/briefings/<lang>.json) are those same answers, so a
 * request without parameters and one that spells the defaults out get the same body.
 */
export const LIST_DEFAULTS = {
  /** GET /v1/events: the `sinceDays` days before the newest event, newest first, at most `limit`. */
  events: { sinceDays: 90, limit: 50, maxLimit: 500 },
  /** GET /v1/briefings: the newest `limit` briefings in `lang`. */
  briefings: { lang: 'en', limit: 10, maxLimit: 50 },
  /** GET /v1/search: the best `limit` hits. */
  search: { limit: 10, maxLimit: 50 },
} as const;

/**
 * The default `since` of /v1/events: `LIST_DEFAULTS.events.sinceDays` days before the newest
 * event (`newest`, YYYY-MM-DD), or null when there is no event.
 */
export function defaultEventsSince(newest: string | null | undefined): string | null {
  if (!newest) return null;
  return new Date(Date.parse(newest) - LIST_DEFAULTS.events.sinceDays * 86_400_000).toISOString().slice(0, 10);
}

/** How often `npm start` rebuilds when REBUILD_EVERY is not set (lib/config.ts), as every text that states it says (lib/i18n/every.ts). */
export const DEFAULT_REBUILD_EVERY_MS = 15 * 60_000;

/**
 * /healthz says `degraded` once this many builds in a row have failed (issue 34: it said ok
 * while every build failed on a full disk). One failure is retried at the next REBUILD_EVERY
 * (15 minutes by default) and is often gone by then: a build killed by a deploy, a disk full
 * for a moment until old builds are pruned. Three in a row, 45 minutes at the default interval,
 * is no accident, and is still said long before the shortest headline cadence (daily prices)
 * lets the data go late on its own.
 */
export const DEGRADED_AFTER_FAILED_BUILDS = 3;

/**
 * Bytes the bulk downloads (`/bulk/*`, `/vintages/*`) may send one client address in a sliding
 * window (RATE_LIMIT_BULK_MB sets the budget; 0 turns it off). A whole bulk package is a few
 * megabytes, so the default lets a client fetch it many times a minute; one address could read
 * 2.6 GB/s without it. Counted after each answer (its size is not known before): the answer under
 * way when an address passes its budget completes, the next gets 429 until the window has room.
 */
export const BULK_BUDGET = { megabytesPerMinute: 64, windowSeconds: 60 } as const;

/** Paths whose answers count against BULK_BUDGET. */
export const BULK_PATH = /^\/(?:bulk|vintages)\//;

/**
 * Search and ask work in progress at once (`concurrent`) and waiting for its turn (`queued`), all
 * clients together: a request past both gets 503 with Retry-After, at once and at no cost. Each
 * waits for its turn on a later turn of the event loop, so the answers of every other route get
 * through between two searches: five addresses sending their whole quota at once occupied the
 * server about 20 s without it.
 */
export const SEARCH_WORK = { concurrent: 2, queued: 8, retryAfterSeconds: 1 } as const;
