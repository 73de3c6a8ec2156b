import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { RateLimitPolicy } from '../contract/rate-limits.ts';

/** The formats a /v1 answer is negotiated between (api/negotiate.ts). */
export type Format = 'json' | 'csv';

/**
 * The app's context variables, declared once. The app is `new Hono<AppEnv>()` and whatever reads
 * or sets one takes an `AppContext`, so the compiler checks each name and the type of its value.
 * Each is optional: a request sets only those its route needs.
 */
export interface AppVariables {
  /** This request's id (X-Request-Id), set by requestIds() where the Node listener gave none (api/request-id.ts). */
  requestId?: string;
  /** The RateLimit and RateLimit-Policy headers counted for this request: every response builder adds them (api/rate-limit/middleware.ts). */
  limitHeaders?: Record<string, string>;
  /** The policy that counted this request: the fast path records it with the answer (api/prebuilt.ts). */
  limitPolicy?: RateLimitPolicy;
  /** The memo key a memoised route's answer is kept under (app.ts `memoised`, api/http.ts). */
  memoKey?: string;
  /** The format decided for this request's answer (api/negotiate.ts). */
  negotiatedFormat?: Format;
  /** The formats this request's route offers. */
  offeredFormats?: readonly Format[];
  /** The request headers this request's answer varies on. */
  vary?: string;
}

export interface AppEnv {
  Variables: AppVariables;
}
export type AppContext = Context<AppEnv>;
export type AppMiddleware = MiddlewareHandler<AppEnv>;
export type AppHono = Hono<AppEnv>;
