/**
 * Length limits of every identifier and free-text input, the single source of truth: the HTTP
 * request schemas (contract/api.ts) apply them before any other check, the MCP tool schemas
 * (contract/tools.ts) are derived from those, and the OpenAPI document publishes them as
 * `maxLength`. A value over its limit is refused with 400 naming the limit, before it is
 * lower-cased, matched or compared with the known identifiers (suggestions never see it).
 */
export const INPUT_LIMITS = {
  /** A commodity code (`gas`) or slug (`energy.gas`): the longest real one, `metals.rareearths`, has 17. */
  commodity: 40,
  /** An ISO 3166-1 code: 2 or 3 letters. */
  country: 3,
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
