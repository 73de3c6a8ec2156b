import { BUILD_PATHS } from '../contract/layout.ts';

/**
 * How a build is laid out as the assets of the Cloudflare Worker (edge/assets.ts writes it, the
 * worker reads it): the files the Node server sends as they are get the address they have there
 * (the site at the root, `docs/<page>` at `/docs/<page>.md`, the contract and discovery files,
 * feeds and bulk at their own path), and the whole build is also kept under BUILD_PREFIX, where
 * the worker reads the files it answers from (run_worker_first covers that prefix, so a client
 * asking for it gets the app's 404, never the raw files).
 */
export const BUILD_PREFIX = '/_build/';

/** Routes the worker answers before the asset layer (wrangler.jsonc `assets.run_worker_first`). */
export const WORKER_FIRST = ['/v1/*', '/mcp', '/healthz', `${BUILD_PREFIX}*`] as const;

/**
 * The files of the build the worker loads into memory (the rest is the asset layer's): the
 * bodies of the path-addressed /v1 routes, the full data the
 * parameterised routes query, the discovery files MCP reads, and the site's 404 pages (one per
 * language, site/<lang>/404.html, and site/404.html). The search
 * index, lexicon and vectors are loaded on the first request that needs them (LAZY_FILES).
 */
export function workerLoads(path: string): boolean {
  return path.startsWith('v1/') || path.startsWith('data/') || path.startsWith('.well-known/') || /^site\/(?:[a-z]{2}\/)?404\.html$/.test(path);
}
export const LAZY_FILES = [BUILD_PATHS.searchIndex, BUILD_PATHS.searchLexicon, BUILD_PATHS.searchVectors] as const;
