import type { AppHono } from '../api/env.ts';
import { createApp } from '../api/app.ts';
import { StatelessMcpEndpoint } from '../api/mcp/stateless.ts';
import { EdgeBuildSource, type AssetFetcher } from './source.ts';
import { DEFAULT_RATE_LIMITS, RATE_LIMIT_WINDOW_SECONDS } from '../contract/rate-limits.ts';
import { edgeClientKey, edgeRateLimits, type RateLimitBinding } from './rate-limit.ts';

/** The worker's bindings and variables (edge/wrangler.jsonc). */
export interface Env {
  ASSETS: AssetFetcher;
  RATE_LIMIT_DATA_LIMITER?: RateLimitBinding;
  RATE_LIMIT_ASK_LIMITER?: RateLimitBinding;
  /** Requests per period the bindings were configured with (they cannot be read back); "0" turns a policy off. */
  RATE_LIMIT_DATA?: string;
  RATE_LIMIT_ASK?: string;
  /** The bindings' period in seconds (10 or 60; default 60). */
  RATE_LIMIT_PERIOD?: string;
  PUBLIC_BASE_URL?: string;
  /** Comma-separated Host values /mcp accepts (default: the base URL's host and loopback). */
  MCP_ALLOWED_HOSTS?: string;
}

/** Paths whose answers read the search index (search, ask, MCP's search_briefings): the isolate loads it first. */
const SEARCHING = /^\/(?:v1\/search|v1\/ask|mcp)\/?$/;

interface Instance {
  app: AppHono;
  source: EdgeBuildSource;
}

const list = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** One app per isolate, over the build in its assets. */
export function createEdgeApp(env: Env): Instance {
  const source = new EdgeBuildSource(env.ASSETS);
  const period = Number(env.RATE_LIMIT_PERIOD ?? RATE_LIMIT_WINDOW_SECONDS) || RATE_LIMIT_WINDOW_SECONDS;
  const limits = edgeRateLimits({
    data: { binding: env.RATE_LIMIT_DATA_LIMITER, limit: Number(env.RATE_LIMIT_DATA ?? DEFAULT_RATE_LIMITS.data) || 0, period },
    ask: { binding: env.RATE_LIMIT_ASK_LIMITER, limit: Number(env.RATE_LIMIT_ASK ?? DEFAULT_RATE_LIMITS.ask) || 0, period },
  });
  const hosts = list(env.MCP_ALLOWED_HOSTS);
  const app = createApp({
    source,
    baseUrl: env.PUBLIC_BASE_URL ?? 'http://localhost:8787',
    limits,
    log: (msg, fields) => console.error(msg, fields?.err ?? ''),
    mcp: new StatelessMcpEndpoint({ clientKey: edgeClientKey, ...(hosts.length ? { allowedHosts: hosts } : {}) }),
  });
  return { app, source };
}

let instance: Instance | undefined;

export default {
  async fetch(request: Request, env: Env, ctx: unknown): Promise<Response> {
    instance ??= createEdgeApp(env);
    const { app, source } = instance;
    const path = new URL(request.url).pathname;
    try {
      await (SEARCHING.test(path) ? source.readySearch() : source.ready());
    } catch (err) {
      // The app answers 503 (no build) while current() is null.
      console.error(`could not load the build from the assets: ${err instanceof Error ? err.message : String(err)}`);
    }
    // Cloudflare rewrites Accept-Encoding before the worker sees it and compresses what the
    // worker sends (br or gzip, as the client asked, with Vary: Accept-Encoding): the app answers
    // identity, and the build's compressed copies stay in the build (api/negotiate.ts is Node's).
    const headers = new Headers(request.headers);
    headers.delete('accept-encoding');
    return app.fetch(new Request(request, { headers }), env, ctx as never);
  },
};
