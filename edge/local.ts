import { Miniflare } from 'miniflare';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseHeaders } from './assets.ts';
import { EDGE_DIR } from './bundle.ts';

interface WranglerConfig {
  compatibility_date: string;
  compatibility_flags?: string[];
  assets: { run_worker_first: string[]; html_handling?: string; not_found_handling?: string };
  ratelimits?: { name: string; namespace_id: string; simple: { limit: number; period: number } }[];
  vars?: Record<string, string>;
}

/** edge/wrangler.jsonc, read as the deployment reads it (comments and trailing commas allowed). */
export async function wranglerConfig(): Promise<WranglerConfig> {
  const text = await readFile(join(EDGE_DIR, 'wrangler.jsonc'), 'utf8');
  const json = text.replace(/("(?:[^"\\]|\\.)*")|\/\/[^\n]*/g, (_m, s: string | undefined) => s ?? '').replace(/,(\s*[}\]])/g, '$1');
  return JSON.parse(json) as WranglerConfig;
}

export interface LocalEdgeOptions {
  /** The worker bundle (edge/bundle.ts). */
  script: string;
  /** The assets directory (edge/assets.ts packageAssets). */
  assets: string;
  port?: number;
  host?: string;
  /** Overrides of wrangler.jsonc `vars` (RATE_LIMIT_DATA, …) and limits of the rate-limit bindings. */
  vars?: Record<string, string>;
  limits?: { data?: number; ask?: number };
  /** Chrome DevTools protocol port of the isolate (memory measurements). */
  inspectorPort?: number;
}

export interface LocalEdge {
  url: string;
  mf: Miniflare;
  dispose(): Promise<void>;
}

/**
 * The worker in workerd, as Cloudflare runs it: the bundle, its assets served by the asset layer
 * with the `_headers` rules, the router sending WORKER_FIRST paths to the worker first, the
 * rate-limiting bindings, the compatibility date and flags, all from edge/wrangler.jsonc.
 */
export async function startLocalEdge(opts: LocalEdgeOptions): Promise<LocalEdge> {
  const config = await wranglerConfig();
  const headers = parseHeaders(await readFile(join(opts.assets, '_headers'), 'utf8'));
  const limitOf = (name: string, limit: number) =>
    name === 'RATE_LIMIT_DATA_LIMITER' ? (opts.limits?.data ?? limit) : name === 'RATE_LIMIT_ASK_LIMITER' ? (opts.limits?.ask ?? limit) : limit;
  const mf = new Miniflare({
    modules: [{ type: 'ESModule', path: opts.script, contents: await readFile(opts.script, 'utf8') }],
    modulesRoot: join(opts.script, '..'),
    compatibilityDate: config.compatibility_date,
    compatibilityFlags: config.compatibility_flags ?? [],
    bindings: { ...config.vars, ...opts.vars },
    ratelimits: Object.fromEntries(
      (config.ratelimits ?? []).map((r) => [
        r.name,
        { namespace_id: r.namespace_id, simple: { limit: limitOf(r.name, r.simple.limit), period: r.simple.period } },
      ]),
    ),
    assets: {
      directory: opts.assets,
      binding: 'ASSETS',
      // Without has_user_worker, the router sends nothing to the worker (every route would answer 404).
      routerConfig: { has_user_worker: true, invoke_user_worker_ahead_of_assets: false, static_routing: { user_worker: config.assets.run_worker_first } },
      assetConfig: {
        html_handling: (config.assets.html_handling ?? 'auto-trailing-slash') as 'auto-trailing-slash',
        not_found_handling: (config.assets.not_found_handling ?? 'none') as 'none',
        headers: {
          version: 2,
          rules: Object.fromEntries(
            Object.entries(headers).map(([p, h]) => {
              const entries = Object.entries(h);
              const unset = entries.filter(([k]) => k.startsWith('!')).map(([k]) => k.slice(1));
              return [p, { set: Object.fromEntries(entries.filter(([k]) => !k.startsWith('!'))), unset }];
            }),
          ),
        },
        has_static_routing: true,
      },
    },
    host: opts.host ?? '127.0.0.1',
    port: opts.port ?? 0,
    ...(opts.inspectorPort ? { inspectorPort: opts.inspectorPort } : {}),
  });
  const url = (await mf.ready).toString().replace(/\/$/, '');
  return { url, mf, dispose: () => mf.dispose() };
}
