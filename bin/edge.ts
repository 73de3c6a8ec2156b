/**
 * The Cloudflare Workers target (docs/deploy.md).
 *
 *   node bin/edge.ts build   bundle the worker and lay out the current build as its assets, in dist/edge/
 *   node bin/edge.ts serve   the same, then serve them in workerd (miniflare) on PORT (default 8788)
 *
 * The build served is `$DIST_DIR/current` (default dist/current); edge/wrangler.jsonc points at
 * dist/edge/, so `wrangler deploy --config edge/wrangler.jsonc` publishes what this wrote.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { packageAssets } from '../edge/assets.ts';
import { bundleWorker } from '../edge/bundle.ts';
import { startLocalEdge } from '../edge/local.ts';

const REPO = resolve(import.meta.dirname, '..');
const OUT = join(REPO, 'dist', 'edge');
const command = process.argv[2] ?? 'serve';
if (command !== 'build' && command !== 'serve') {
  console.error('usage: node bin/edge.ts build|serve');
  process.exit(64);
}
const build = join(resolve(process.env.DIST_DIR || join(REPO, 'dist')), 'current');
if (!existsSync(join(build, 'manifest.json'))) {
  console.error(`no build at ${build}: run npm run build first`);
  process.exit(1);
}
const mb = (n: number) => `${(n / 2 ** 20).toFixed(2)} MB`;
const assets = await packageAssets(build, join(OUT, 'assets'));
console.log(`[edge] assets: ${assets.files} files, ${mb(assets.bytes)}, ${assets.rules} _headers rules → ${join(OUT, 'assets')}`);
const bundle = await bundleWorker(join(OUT, 'worker', 'index.js'));
console.log(`[edge] worker: ${mb(bundle.bytes)} (${mb(bundle.gzipBytes)} gzipped) → ${bundle.path}`);
if (command === 'serve') {
  const port = Number(process.env.PORT || 8788);
  const edge = await startLocalEdge({ script: bundle.path, assets: join(OUT, 'assets'), port, host: process.env.HOST || '127.0.0.1' });
  console.log(`[edge] the worker runs in workerd at ${edge.url} (Ctrl-C to stop)`);
  const stop = () => void edge.dispose().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
