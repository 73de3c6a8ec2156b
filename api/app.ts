import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ASK_MAX_BODY_BYTES, ROUTES, type RouteSpec } from '../contract/api.ts';
import { fileAt, hasFile, type LoadedBuild } from './build.ts';
import type { BuildSource } from './build-store.ts';
import { DATA_CACHE_CONTROL, HTML_CACHE_CONTROL, JSON_TYPE } from '../contract/http.ts';
import { BUILD_PATHS, fileForUrl, isServedAsIs } from '../contract/layout.ts';
import type { AppContext, AppEnv, AppHono } from './env.ts';
import { commonHeaders, pageHeaders } from './headers.ts';
import { queryObject, sendFile, sendMemoised, urlEncodingProblem } from './http.ts';
import { negotiateFormat, negotiatedFormat, varyOf } from './negotiate.ts';
import { parseParams } from './params.ts';
import { healthOf } from './health.ts';
import { McpEndpoint } from './mcp/http.ts';
import { ApiError, problemResponse } from './problem.ts';
import type { AskOptions } from './ask/index.ts';
import { askRoute } from './routes/ask.ts';
import { getCommodity, listCommodities } from './routes/commodities.ts';
import { listBriefings, listEvents, listScenarios } from './routes/content.ts';
import { getCountry } from './routes/countries.ts';
import { getReserve, getTimeseries } from './routes/reserves.ts';
import { search } from './routes/search.ts';
import type { RateLimits } from './rate-limit.ts';
import { requestIdOf, requestIds } from './request-id.ts';
import { workGate } from './work-gate.ts';
import { notFoundPage, siteRedirect } from './site-redirect.ts';

export interface AppOptions {
  source: BuildSource;
  /** Used for the Link header until a build (which carries its own base URL) is loaded. */
  baseUrl: string;
  limits?: ({ data: MiddlewareHandler; ask: MiddlewareHandler } & Partial<Pick<RateLimits, 'consume' | 'headers'>>) | null;
  /** Notices of the app and the MCP endpoint; an unexpected error comes with `fields` (`err`, `method`, `path`, `request_id`). */
  log?: (msg: string, fields?: Record<string, unknown>) => void;
  /**
   * Who sets X-Request-Id. 'app' (default): a middleware here, for runtimes that call the app
   * directly (edge, app.request()). 'host': the Node listener sets it on the outgoing message
   * before the app runs and leaves the id on the incoming one (api/observe.ts); the app only
   * reads it for problem bodies, and no response is rebuilt to carry one more header.
   */
  requestIds?: 'app' | 'host';
  /**
   * GET /metrics: the body and its media type (the Node server passes its Prometheus registry;
   * prom-client is Node-only). Absent: /metrics is not served.
   */
  metrics?: () => Promise<{ body: string; contentType: string }>;
  /** Run before /metrics renders: throws the ApiError that refuses this client (api/metrics-access.ts). */
  metricsAccess?: (c: Context) => void;
  /** The MCP endpoint at /mcp (a default one when absent; the server passes its own to close its sessions). */
  mcp?: McpEndpoint;
  /** How POST /v1/ask answers: the model (OPENAI_*) and who hears its fallbacks; absent: the grounded answerer only. */
  ask?: AskOptions;
  /**
   * Routes of the host (the Node server's past vintages, api/vintages.ts), mounted before the
   * site's pages: the site's catch-all answers a browser's `Accept: text/html` with its 404 page,
   * so a route registered after it would never see a browser.
   */
  mount?: (app: AppHono) => void;
  /** The work gate's sizes (default SEARCH_WORK; tests set a full one). */
  work?: { concurrent: number; queued: number; retryAfterSeconds: number };
}

type Handler = (c: AppContext, b: LoadedBuild) => Response | Promise<Response>;

/** Parameters as JSON with their names in a fixed order: the same request, however written, gives the same text. */
export function canonicalJson(params: Record<string, unknown>): string {
  return JSON.stringify(
    Object.keys(params)
      .sort()
      .map((k) => [k, params[k]])
      .filter(([, v]) => v !== undefined),
  );
}

/** Methods every page and file outside /v1/ answers (HEAD is GET without the body). */
const READ_ONLY_ALLOW = 'GET, HEAD, OPTIONS';

/** Site assets under /_astro/ carry a content hash in their name. */
export const ASSET_CACHE = 'public, max-age=31536000, immutable';

/**
 * The Chokepoint API as one Hono app: runs on @hono/node-server and on any runtime with fetch
 * (the build source decides where the bytes come from).
 */
export function createApp(opts: AppOptions): AppHono {
  const app = new Hono<AppEnv>();
  const log = opts.log ?? (() => {});
  const pass: MiddlewareHandler = async (_c, next) => next();
  const limits = { data: opts.limits?.data ?? pass, ask: opts.limits?.ask ?? pass };
  const fallbackHeaders = commonHeaders(opts.baseUrl);
  const common = () => opts.source.current()?.headers ?? fallbackHeaders;

  if (opts.requestIds !== 'host') app.use('*', requestIds());

  // A path or query string that is not percent-encoded UTF-8 is refused before any route reads
  // it (REST, files, MCP alike): decoded leniently it would become other characters.
  app.use('*', (c, next) => {
    const problem = urlEncodingProblem(c.req.url);
    if (problem) throw problem;
    return next();
  });

  // A problem from a negotiated route varies on what the answer would have (Accept).
  const problemHeaders = (c: Context) => {
    const vary = varyOf(c);
    return vary ? { ...common(), vary } : common();
  };
  app.onError((err, c) => {
    if (err instanceof ApiError) return problemResponse(c, err, problemHeaders(c));
    log(`error on ${c.req.method} ${c.req.path}: ${err instanceof Error ? err.message : String(err)}`, {
      err,
      method: c.req.method,
      path: c.req.path,
      request_id: requestIdOf(c),
    });
    return problemResponse(c, new ApiError(500, 'an unexpected error occurred; it has been logged'), problemHeaders(c));
  });
  app.notFound((c) => {
    throw new ApiError(404, `no resource at ${c.req.path}; the routes are listed at /openapi.json`, {
      suggestions: ROUTES.map((r) => `${r.method.toUpperCase()} ${r.path}`),
    });
  });

  // Search and ask compute their answers on the one thread: a few at a time (api/work-gate.ts),
  // MCP's search_briefings included.
  const gate = workGate(opts.work);
  (opts.mcp ?? new McpEndpoint()).mount(app, { source: opts.source, baseUrl: opts.baseUrl, limits: opts.limits ?? null, common, log, work: gate.run });

  // Every header is set where a response is built: one added afterwards would make the Node
  // adapter copy the body through a stream (measured: a third of the throughput).
  app.options(
    '*',
    () =>
      new Response(null, {
        status: 204,
        headers: {
          ...common(),
          'access-control-allow-methods': 'GET, HEAD, POST, OPTIONS',
          'access-control-allow-headers': 'content-type, if-none-match, accept',
          'access-control-max-age': '86400',
        },
      }),
  );

  const notAllowed = (method: string, path: string): never => {
    throw new ApiError(405, `${method} is not allowed on ${path}; use GET`, { allowed: READ_ONLY_ALLOW.split(', ') }, { allow: READ_ONLY_ALLOW });
  };

  // The format of a /v1 answer is decided here, once (api/negotiate.ts): `format=`, else Accept
  // with its weights, else 406; the route (wantsCsv), the memo key and Vary all read it.
  const withBuild =
    (h: Handler, csv = false) =>
    (c: Context) => {
      negotiateFormat(c, csv ? ['json', 'csv'] : ['json']);
      const b = opts.source.current();
      if (!b) throw new ApiError(503, 'no build has been published yet; try again shortly', {}, { 'retry-after': '30' });
      return h(c, b);
    };
  /**
   * GET answers depend only on the build, the route, the parsed parameters, the day (time series
   * default `to` to today) and the negotiated format; the bytes of a successful one are kept
   * per build. The key is the canonical parsed request (route, path parameters as sent, and query parameters after the contract
   * trimmed, lower-cased and defaulted them, in a fixed order), never the raw URL: padded or
   * re-cased variants of one request share one entry, and a key is at most a few hundred bytes.
   */
  const memoised =
    (r: RouteSpec, h: Handler): Handler =>
    (c, b) => {
      if (!r.query || c.req.url.indexOf('?') < 0) return h(c, b);
      const params = parseParams(r.query, queryObject(c)) as Record<string, unknown>;
      const path = canonicalJson(c.req.param() as Record<string, unknown>);
      const key = `${r.operationId}|${path}|${canonicalJson(params)}|${negotiatedFormat(c) ?? 'json'}|${new Date().toISOString().slice(0, 10)}`;
      const hit = b.memo.get(key);
      if (hit) return sendMemoised(c, b, key, hit);
      c.set('memoKey', key);
      return h(c, b);
    };

  const gated =
    (h: Handler): Handler =>
    (c, b) =>
      gate.run(() => h(c, b));
  const handlers: Record<string, Handler> = {
    listCommodities,
    getReserve,
    getReserveTimeseries: getTimeseries,
    getCountry,
    getCommodity,
    listScenarios,
    listEvents,
    listBriefings,
    search: gated(search),
    // With a model, an answer mostly waits on it (bounded by its timeout and the ask rate limit):
    // only the grounded answerer's work, all on this thread, is gated.
    ask: askRoute(opts.ask, opts.ask?.llm ? undefined : gate.run),
  };
  for (const r of ROUTES) {
    const path = r.path.replace(/\{(\w+)\}/g, ':$1');
    const handler = withBuild(r.method === 'get' ? memoised(r, handlers[r.operationId]!) : handlers[r.operationId]!, r.csv);
    if (r.method === 'get') app.get(path, limits.data, handler);
    else {
      app.post(
        path,
        bodyLimit({
          maxSize: ASK_MAX_BODY_BYTES,
          onError: () => {
            throw new ApiError(413, `the body may be at most ${ASK_MAX_BODY_BYTES} bytes`);
          },
        }),
        limits.ask,
        handler,
      );
    }
    const allow = r.method === 'get' ? 'GET, HEAD, OPTIONS' : 'POST, OPTIONS';
    app.all(path, (c) => {
      throw new ApiError(405, `${c.req.method} is not allowed on ${r.path}; use ${allow.split(',')[0]}`, { allowed: allow.split(', ') }, { allow });
    });
  }

  const health = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { ...common(), 'content-type': JSON_TYPE, 'cache-control': 'no-store' } });
  app.get('/healthz', async () => {
    const b = opts.source.current();
    if (!b) return health(503, { status: 'unavailable', detail: 'no build published yet' });
    const failed = (await opts.source.failedBuilds?.()) ?? null;
    return health(200, healthOf(b.manifest, new Date(), b.generatedAt, opts.source.disk?.() ?? null, failed));
  });
  app.all('/healthz', (c) => notAllowed(c.req.method, '/healthz'));

  // Counters in the Prometheus text format: not a data route (no rate limit: who may ask is
  // decided by METRICS), never cached.
  const metrics = opts.metrics;
  if (metrics) {
    app.get('/metrics', async (c) => {
      opts.metricsAccess?.(c);
      const m = await metrics();
      return new Response(m.body, { status: 200, headers: { ...common(), 'content-type': m.contentType, 'cache-control': 'no-store' } });
    });
    app.all('/metrics', (c) => notAllowed(c.req.method, '/metrics'));
  }

  opts.mount?.(app);

  app.get('/*', async (c, next) => {
    const path = c.req.path.slice(1);
    if (!isServedAsIs(path)) return next();
    const b = opts.source.current();
    const file = b && (await fileAt(b, path));
    if (!b || !file) return next();
    const catalog: Record<string, string> =
      path === '.well-known/api-catalog' ? { link: `${b.headers.link}, </.well-known/api-catalog>; rel="api-catalog"` } : {};
    return sendFile(c, b, file, { 'cache-control': DATA_CACHE_CONTROL, ...catalog });
  });

  // The readout site, generated into the build as site/<path>, every page under its language:
  // /fr/commodities/metals.cobalt/ → site/fr/commodities/metals.cobalt/index.html; the data
  // downloads without one (/commodities/metals.cobalt/price.csv). The guides' Markdown stays at
  // /docs/<page>.md (the site renders /<lang>/docs/<page>/ as HTML).
  app.get('/*', async (c, next) => {
    const b = opts.source.current();
    if (!b) return next();
    const path = c.req.path;
    const exact = fileForUrl(path);
    const file = exact === null ? undefined : await fileAt(b, exact);
    if (exact?.startsWith(BUILD_PATHS.docs)) return file ? sendFile(c, b, file, { 'cache-control': DATA_CACHE_CONTROL }) : next();
    if (file && exact) {
      if (exact.endsWith('.html')) return sendFile(c, b, file, { 'cache-control': HTML_CACHE_CONTROL, ...pageHeaders(path) });
      return sendFile(c, b, file, { 'cache-control': path.startsWith('/_astro/') ? ASSET_CACHE : DATA_CACHE_CONTROL });
    }
    const q = c.req.url.indexOf('?');
    const query = q >= 0 ? c.req.url.slice(q) : '';
    // A page asked without its trailing slash: redirect to the canonical address.
    if (!path.endsWith('/') && hasFile(b, `site${path}/index.html`)) {
      return new Response(null, {
        status: 308,
        headers: { ...b.headers, location: `${path}/${query}`, 'cache-control': HTML_CACHE_CONTROL },
      });
    }
    // A page address from before the language prefixes (api/site-redirect.ts).
    const moved = siteRedirect(path, query, c.req.header('accept-language'), (f) => hasFile(b, f));
    if (moved) {
      return new Response(null, {
        status: moved.status,
        headers: {
          ...b.headers,
          location: moved.location,
          // The language chosen for `/` follows Accept-Language: a shared cache that ignores Vary
          // (most CDNs do, bar Accept-Encoding) must not keep it; a browser may, by Vary.
          ...(moved.negotiated ? { vary: 'Accept-Language', 'cache-control': 'private, max-age=300' } : { 'cache-control': HTML_CACHE_CONTROL }),
        },
      });
    }
    // A browser asking for a page that does not exist gets the site's 404 page, in the language
    // of the address's prefix, not problem JSON.
    let notFound;
    for (const f of notFoundPage(path)) if ((notFound = await fileAt(b, f))) break;
    if (notFound && !path.startsWith('/v1/') && /\btext\/html\b/.test(c.req.header('accept') ?? '')) {
      return new Response(notFound.body as ConstructorParameters<typeof Response>[0], {
        status: 404,
        // Whether this is the page or a problem depends on Accept: a shared cache must know.
        headers: { ...b.headers, 'content-type': notFound.contentType, 'cache-control': HTML_CACHE_CONTROL, vary: 'Accept', ...pageHeaders(path) },
      });
    }
    return next();
  });

  // A method other than GET/HEAD/OPTIONS on a file or page that GET serves: 405 with Allow, not 404.
  app.all('/*', (c, next) => {
    const b = opts.source.current();
    if (!b || c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'OPTIONS') return next();
    const path = c.req.path;
    const file = fileForUrl(path);
    const served =
      (file !== null && hasFile(b, file)) ||
      (!path.endsWith('/') && hasFile(b, `site${path}/index.html`)) ||
      siteRedirect(path, '', null, (f) => hasFile(b, f)) !== null;
    return served ? notAllowed(c.req.method, path) : next();
  });

  return app;
}
