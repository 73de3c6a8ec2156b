import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { ROUTES } from '../contract/api.ts';
import type { ConnectionStats } from './connections.ts';
import type { Policy } from './rate-limit.ts';

/**
 * The server's counters at GET /metrics in the Prometheus text format (0.0.4), with prom-client
 * (Node-only: this module is imported by api/server.ts, never by the app). Label values come
 * from small fixed sets (route patterns, statuses, policies), never from what a client wrote.
 */

/** Route labels of the /v1 routes: the pattern as Hono writes it, and a test for a path. */
const API_ROUTES = ROUTES.map((r) => ({
  label: r.path.replace(/\{(\w+)\}/g, ':$1'),
  re: new RegExp(`^${r.path.replace(/\{\w+\}/g, '[^/]+')}$`),
}));
const EXACT = new Set(['/', '/healthz', '/metrics', '/mcp', '/openapi.json', '/llms.txt', '/vintages/index.json']);
const PREFIXES = ['/.well-known/', '/feeds/', '/bulk/', '/vintages/', '/docs/', '/_astro/'];

/**
 * The `route` label of a request: a /v1 route pattern (`/v1/commodities/:slug`), a fixed path
 * (`/healthz`), a file area (`/feeds/*`), `site` for a page that was served, `other` for the rest
 * (unknown paths), so the number of series stays bounded whatever clients ask.
 */
export function routeLabel(path: string, status: number): string {
  if (path.startsWith('/v1/')) {
    for (const r of API_ROUTES) if (r.re.test(path)) return r.label;
    return 'other';
  }
  if (EXACT.has(path)) return path;
  for (const p of PREFIXES) if (path.startsWith(p)) return `${p}*`;
  return status < 400 ? 'site' : 'other';
}

/** Process metrics (CPU, memory, event-loop lag, GC): one collector per process, however many servers it runs. */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export interface MetricsOptions {
  /** The build being served, if any (its id and generation time). */
  build: () => { id: string; generatedAt: Date } | undefined;
  /** The connection guard's counts. */
  connections?: () => ConnectionStats;
  /** Include Node's process metrics (default true). */
  process?: boolean;
}

/** One series of chokepoint_http_requests_total. */
interface Count {
  labels: { route: string; status: string; answered_by: 'app' | 'fast_path' };
  n: number;
}

export class ServerMetrics {
  readonly registry = new Registry();
  /** Refusals by policy, handed to the counter at each scrape like the request counts. */
  private readonly limited = { data: 0, ask: 0 };
  /**
   * The request counts by route, status and what answered, kept here and handed to the counter
   * at each scrape: counting a request is a Map lookup and an addition (prom-client's inc()
   * hashes the labels on every call, a cost the fast path's answers notice).
   */
  private readonly counts = { app: new Map<string, Map<number, Count>>(), fast_path: new Map<string, Map<number, Count>>() };
  private readonly withProcess: boolean;

  constructor(opts: MetricsOptions) {
    const registers = [this.registry];
    this.withProcess = opts.process ?? true;
    const counts = this.counts;
    new Counter({
      name: 'chokepoint_http_requests_total',
      help: 'HTTP requests answered, by route pattern, status, and what answered: the listener from prebuilt bytes (fast_path) or the app',
      labelNames: ['route', 'status', 'answered_by'],
      registers,
      collect() {
        this.reset();
        for (const byRoute of Object.values(counts)) for (const byStatus of byRoute.values()) for (const c of byStatus.values()) this.inc(c.labels, c.n);
      },
    });
    const limited = this.limited;
    new Counter({
      name: 'chokepoint_rate_limited_total',
      help: 'Requests refused by a rate limit (429), by policy',
      labelNames: ['policy'],
      registers,
      collect() {
        this.reset();
        for (const policy of ['data', 'ask'] as const) this.inc({ policy }, limited[policy]);
      },
    });
    new Gauge({
      name: 'chokepoint_build_age_seconds',
      help: 'Seconds since the served build was generated (NaN before the first build)',
      registers,
      collect() {
        const b = opts.build();
        this.set(b ? (Date.now() - b.generatedAt.getTime()) / 1000 : Number.NaN);
      },
    });
    new Gauge({
      name: 'chokepoint_build_info',
      help: 'The build being served (always 1; no series before the first build)',
      labelNames: ['build'],
      registers,
      collect() {
        this.reset();
        const b = opts.build();
        if (b) this.set({ build: b.id }, 1);
      },
    });
    const connections = opts.connections;
    if (connections) {
      new Gauge({
        name: 'chokepoint_connections_open',
        help: 'Connections open now',
        registers,
        collect() {
          this.set(connections().open);
        },
      });
      new Counter({
        name: 'chokepoint_connections_refused_total',
        help: 'Connections refused by a cap (total: the server was full; per_ip: one client held too many; pipelining: its address had sent too many requests ahead of their answers)',
        labelNames: ['cap'],
        registers,
        collect() {
          // The guard keeps the counts; the counter takes them over at each scrape.
          const s = connections();
          this.reset();
          this.inc({ cap: 'total' }, s.refusedTotal);
          this.inc({ cap: 'per_ip' }, s.refusedPerIp);
          this.inc({ cap: 'pipelining' }, s.refusedPipelining);
        },
      });
    }
  }

  /**
   * Count one answered request. `fastPath`: the route label of a request the listener answered
   * from prebuilt bytes (api/fast-path.ts), computed once per target; otherwise the app answered.
   */
  request(path: string, status: number, fastPath?: string): void {
    const answeredBy = fastPath === undefined ? 'app' : 'fast_path';
    const route = fastPath ?? routeLabel(path, status);
    const byRoute = this.counts[answeredBy];
    let byStatus = byRoute.get(route);
    if (!byStatus) byRoute.set(route, (byStatus = new Map()));
    const count = byStatus.get(status);
    if (count) count.n++;
    else byStatus.set(status, { labels: { route, status: String(status), answered_by: answeredBy }, n: 1 });
  }

  /** Count one request refused by the rate limiter. */
  rateLimited(policy: Policy): void {
    this.limited[policy]++;
  }

  /** The exposition text and its media type (`text/plain; version=0.0.4; charset=utf-8`). */
  async render(): Promise<{ body: string; contentType: string }> {
    const own = await this.registry.metrics();
    const proc = this.withProcess ? await processMetrics().metrics() : '';
    return { body: proc ? `${own}\n${proc}` : own, contentType: this.registry.contentType };
  }
}
