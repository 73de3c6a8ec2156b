import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import type { SiteContext } from '../contract/site.ts';
import type { BuildWriter } from './publish.ts';
import { robotsTxt, sitemapXml } from './sitemap.ts';

/** How the website stage runs (CHOKEPOINT_SITE, SITE_LOG in lib/config.ts). */
export interface SiteSwitches {
  /** Make no pages (tests that rebuild many times and never look at them). */
  skip?: boolean;
  /** Astro's log level; default 'warn'. */
  logLevel?: 'debug' | 'info' | 'warn' | 'error' | 'silent';
}

export interface SiteOptions extends SiteContext, SiteSwitches {
  /** Site root (astro project); default site/ in the repository. */
  root?: string;
}

export const SITE_ROOT = join(import.meta.dirname, '..', 'site');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.ico': 'image/x-icon',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
};

export const siteContentType = (path: string) => TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';

/**
 * The readout website, generated into the build so that pages and data switch together: runs
 * Astro's static build over site/ (the pages read the JSON of the build being written), then
 * writes every output file as `site/<path>` through the writer, so it is hashed in the manifest.
 */
export async function publishSite(writer: BuildWriter, opts: SiteOptions): Promise<{ pages: number; files: number; bytes: number }> {
  // Tests that rebuild many times and never look at the pages switch the site off.
  if (opts.skip) return { pages: 0, files: 0, bytes: 0 };
  const logLevel = opts.logLevel ?? 'warn';
  const root = opts.root ?? SITE_ROOT;
  // Inside the project: Astro puts its server chunks in outDir only when outDir is under the
  // working directory (otherwise in <cwd>/.astro, shared between concurrent builds).
  await mkdir(join(root, 'dist'), { recursive: true });
  await clearDeadTemps(join(root, 'dist'));
  const tmp = await mkdtemp(join(root, 'dist', `.tmp-${process.pid}-`));
  const outDir = join(tmp, 'out');
  const context: SiteContext = {
    buildDir: opts.buildDir,
    today: opts.today,
    baseUrl: opts.baseUrl,
    rebuildEveryMs: opts.rebuildEveryMs,
    sources: opts.sources,
    omitted: opts.omitted,
  };
  process.env.ASTRO_TELEMETRY_DISABLED = '1';
  try {
    const { build } = await import('astro');
    await build({
      root,
      configFile: false,
      outDir,
      cacheDir: join(tmp, 'cache'),
      site: opts.baseUrl,
      output: 'static',
      trailingSlash: 'ignore',
      logLevel,
      devToolbar: { enabled: false },
      build: { format: 'directory', inlineStylesheets: 'never', concurrency: 4 },
      // The pages read the build being written; `define` keeps this per call (no process-wide env).
      vite: {
        define: { __CHOKEPOINT_SITE__: JSON.stringify(context) },
        cacheDir: join(tmp, 'vite'),
        logLevel: logLevel === 'debug' ? 'info' : logLevel,
        // Every script in a file of its own, never inlined however small: the pages' CSP allows
        // scripts from our origin only (api/headers.ts pageHeaders).
        build: { reportCompressedSize: false, assetsInlineLimit: (file: string) => (/\.[cm]?js$/.test(file) ? false : undefined) },
        // Loaded by Node at generation time rather than bundled (the unified/remark graph is large).
        ssr: { external: ['@astrojs/markdown-remark'] },
        optimizeDeps: { noDiscovery: true, include: [] },
      },
    });
    let pages = 0;
    let bytes = 0;
    const files = await listFiles(outDir);
    const html: string[] = [];
    for (const file of files) {
      const rel = outputPath(relative(outDir, file).split(sep).join('/'));
      const body = await readFile(file);
      if (rel.endsWith('.html')) {
        pages++;
        html.push(rel);
        const inline = inlineCode(body.toString('utf8'));
        if (inline) throw new Error(`site/${rel} has an inline ${inline}: the pages' Content-Security-Policy would block it (api/headers.ts)`);
      }
      bytes += body.length;
      await writer.raw(`site/${rel}`, body, siteContentType(rel));
    }
    const sitemap = Buffer.from(sitemapXml(opts.baseUrl, html));
    await writer.raw('site/sitemap.xml', sitemap, siteContentType('sitemap.xml'));
    const robots = Buffer.from(robotsTxt(opts.baseUrl));
    await writer.raw('site/robots.txt', robots, siteContentType('robots.txt'));
    return { pages, files: files.length + 2, bytes: bytes + sitemap.length + robots.length };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/**
 * The first script or <style> element of a page that holds code rather than naming a file
 * (`<script>…</script>`, `<style>…</style>`), or null: the CSP the pages are served with allows
 * neither. Data blocks (`<script type="application/json">`) are not code and stay.
 */
export function inlineCode(html: string): string | null {
  for (const m of html.matchAll(/<(script|style)\b([^>]*)>([\s\S]*?)<\/\1\s*>/gi)) {
    const [, tag, attrs = '', content = ''] = m;
    if (tag!.toLowerCase() === 'style') return `<style> (${content.trim().slice(0, 60)})`;
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attrs)?.[1]?.toLowerCase();
    const code = !type || type === 'module' || type === 'text/javascript' || type === 'application/javascript';
    if (code && (content.trim() || !/\bsrc\s*=/i.test(attrs))) return `script (${content.trim().slice(0, 60)})`;
  }
  return null;
}

/**
 * Where a generated file goes in the build: as Astro wrote it, except the 404 pages of the
 * languages (pages/[lang]/404.astro, written as `fr/404/index.html`), which the server sends for
 * a missing page under their prefix as `site/<lang>/404.html` (api/app.ts): a page that is not
 * found does not get an address of its own that answers 200.
 */
export function outputPath(rel: string): string {
  return rel.replace(/^([a-z]{2})\/404\/index\.html$/, '$1/404.html');
}

/**
 * Work folders of site builds killed half-way. site/dist is shared by builds into every
 * DIST_DIR (no build lock covers it), so only folders whose owner process is gone are removed.
 */
async function clearDeadTemps(dir: string): Promise<void> {
  for (const n of await readdir(dir)) {
    const pid = Number(/^\.tmp-(\d+)-/.exec(n)?.[1]);
    if (!pid || pid === process.pid || alive(pid)) continue;
    await rm(join(dir, n), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await listFiles(p)));
    else if (e.isFile()) out.push(p);
  }
  return out.sort();
}
