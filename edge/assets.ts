import { copyFile, link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ASSET_CACHE } from '../api/app.ts';
import { commonHeaders, pageHeaders } from '../api/headers.ts';
import { DATA_CACHE_CONTROL, HTML_CACHE_CONTROL } from '../contract/http.ts';
import { BUILD_FILES, BUILD_PATHS } from '../contract/layout.ts';
import type { BuildManifest } from '../contract/manifest.ts';
import { urlForFile } from '../contract/layout.ts';
import { BUILD_PREFIX, LAZY_FILES, workerLoads } from './layout.ts';

/**
 * `_headers` rules: URL pattern → headers. Where several rules match, Cloudflare sends each header
 * of each, joined; a name written `!name` (value unused) detaches that header set by an earlier rule.
 */
export type HeaderRules = Record<string, Record<string, string>>;

/** The `!name` entries that detach these headers. */
const detached = (h: Record<string, string>) => Object.fromEntries(Object.keys(h).map((k) => [`!${k}`, '']));

/** Cloudflare's limits on Workers static assets. */
export const MAX_ASSET_BYTES = 25 * 2 ** 20;
export const MAX_ASSET_FILES = 20_000;
export const MAX_HEADER_RULES = 100;

/**
 * The headers the Node server sends with the build's files (api/app.ts sendFile, api/prebuilt.ts
 * replyOf), as `_headers` rules for the asset layer: the build's common headers (licence Link,
 * CORS, nosniff, X-Build) and Last-Modified on everything; the manifest's media type and the data
 * Cache-Control on each contract, discovery, feed, bulk and guide file; HTML Cache-Control on
 * pages, the immutable one on /_astro/, the data one on the site's other files. ETags are the
 * asset layer's own (strong, with 304 on If-None-Match); compression is Cloudflare's.
 */
export function headerRules(manifest: BuildManifest): HeaderRules {
  const rules: HeaderRules = {
    '/*': { ...commonHeaders(manifest.base_url, manifest.build), 'last-modified': new Date(manifest.generated_at).toUTCString() },
    '/': { 'cache-control': HTML_CACHE_CONTROL, ...pageHeaders('/') },
    '/*/': { 'cache-control': HTML_CACHE_CONTROL, ...pageHeaders('/') },
    '/*.html': { 'cache-control': HTML_CACHE_CONTROL, ...pageHeaders('/') },
    // After the page rules, which match embed pages too: their framing headers are detached
    // (`! name`; Cloudflare joins the values of every matching rule), then the embed page's set.
    '/:lang/embed/*': { ...detached(pageHeaders('/')), ...pageHeaders('/en/embed/') },
    '/_astro/*': { 'cache-control': ASSET_CACHE },
  };
  for (const [path, f] of Object.entries(manifest.files)) {
    const at = urlForFile(path);
    if (!at) continue;
    if (path.startsWith(BUILD_PATHS.site)) {
      if (path.endsWith('.html') || at.startsWith('/_astro/')) continue;
      // The site's downloads (a CSV per commodity and country page) by folder and extension:
      // Cloudflare takes at most 100 rules.
      const m = /^\/([^/]+)\/.+\.(\w+)$/.exec(at);
      rules[m ? `/${m[1]}/*.${m[2]}` : at] = { 'content-type': f.content_type, 'cache-control': DATA_CACHE_CONTROL };
      continue;
    }
    rules[at] = {
      'content-type': f.content_type,
      'cache-control': DATA_CACHE_CONTROL,
      // Added to the common Link (headers of several rules are joined): the same value as on Node.
      ...(path === '.well-known/api-catalog' ? { link: '</.well-known/api-catalog>; rel="api-catalog"' } : {}),
    };
  }
  return rules;
}

/** The `_headers` file of rules: a pattern, then its headers indented. */
export function renderHeaders(rules: HeaderRules): string {
  return Object.entries(rules)
    .map(([pattern, h]) => [pattern, ...Object.entries(h).map(([k, v]) => (k.startsWith('!') ? `  ! ${k.slice(1)}` : `  ${k}: ${v}`))].join('\n'))
    .join('\n\n')
    .concat('\n');
}

/** A `_headers` file as rules (what wrangler hands the asset layer; miniflare takes them parsed). */
export function parseHeaders(text: string): HeaderRules {
  const rules: HeaderRules = {};
  let current: Record<string, string> | null = null;
  for (const line of text.split('\n')) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      current = rules[line.trim()] ??= {};
      continue;
    }
    const detach = /^\s*!\s*(\S+)\s*$/.exec(line);
    if (current && detach) {
      current[`!${(detach[1] as string).toLowerCase()}`] = '';
      continue;
    }
    const i = line.indexOf(':');
    if (current && i > 0) current[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return rules;
}

export interface PackagedAssets {
  files: number;
  bytes: number;
  rules: number;
}

/**
 * Write the Worker's assets directory for the build in `buildDir`: its public files at the
 * addresses the Node server serves them at, the files the worker reads under BUILD_PREFIX (with
 * the compressed copies of the /v1 bodies), and `_headers`. Files are hard-linked where the
 * file system allows. Refuses a build Cloudflare would refuse (a file over 25 MiB, more than
 * 20,000 files, more than 100 header rules).
 */
export async function packageAssets(buildDir: string, outDir: string): Promise<PackagedAssets> {
  const manifestPath = BUILD_FILES.manifest().path;
  const manifest = JSON.parse(await readFile(join(buildDir, manifestPath), 'utf8')) as BuildManifest;
  await rm(outDir, { recursive: true, force: true });
  const copies: [string, string, number][] = [[manifestPath, BUILD_PREFIX.slice(1) + manifestPath, 0]];
  for (const [path, f] of Object.entries(manifest.files)) {
    const at = urlForFile(path);
    if (at) copies.push([path, at.slice(1), f.bytes]);
    if (workerLoads(path) || (LAZY_FILES as readonly string[]).includes(path)) copies.push([path, BUILD_PREFIX.slice(1) + path, f.bytes]);
  }
  const tooBig = copies.filter(([, , bytes]) => bytes > MAX_ASSET_BYTES);
  if (tooBig.length) throw new Error(`assets over ${MAX_ASSET_BYTES} bytes (Cloudflare's limit): ${tooBig.map(([p]) => p).join(', ')}`);
  if (copies.length + 1 > MAX_ASSET_FILES) throw new Error(`${copies.length + 1} assets; Cloudflare takes at most ${MAX_ASSET_FILES}`);
  const rules = headerRules(manifest);
  const count = Object.keys(rules).length;
  if (count > MAX_HEADER_RULES) throw new Error(`${count} _headers rules; Cloudflare takes at most ${MAX_HEADER_RULES}`);

  const dirs = new Set(copies.map(([, to]) => dirname(join(outDir, to))));
  for (const d of dirs) await mkdir(d, { recursive: true });
  let bytes = 0;
  await Promise.all(
    copies.map(async ([from, to, n]) => {
      bytes += n;
      const src = join(buildDir, from);
      const dst = join(outDir, to);
      await link(src, dst).catch(() => copyFile(src, dst));
    }),
  );
  await writeFile(join(outDir, '_headers'), renderHeaders(rules));
  return { files: copies.length, bytes, rules: count };
}
