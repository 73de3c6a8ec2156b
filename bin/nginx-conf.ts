/**
 * Print the nginx `server` block that serves the current build's files itself and hands the
 * rest to the Node server (edge/nginx.ts, docs/deploy.md#behind-nginx):
 *
 *   node bin/nginx-conf.ts [--listen 80] [--upstream 127.0.0.1:8787] [--server-name api.example.org] > /etc/nginx/conf.d/chokepoint.conf
 *
 * The build is `$DIST_DIR/current` (default dist/current); the files are named through that link.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { BuildManifest } from '../contract/manifest.ts';
import { nginxServer } from '../edge/nginx.ts';

const REPO = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    listen: { type: 'string', default: '80' },
    upstream: { type: 'string', default: `127.0.0.1:${process.env.PORT || 8787}` },
    'server-name': { type: 'string' },
  },
});
const root = join(resolve(process.env.DIST_DIR || join(REPO, 'dist')), 'current');
if (!existsSync(join(root, 'manifest.json'))) {
  console.error(`no build at ${root}: run npm run build first`);
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8')) as BuildManifest;
process.stdout.write(
  nginxServer(manifest, { root, upstream: values.upstream, listen: values.listen, ...(values['server-name'] ? { serverName: values['server-name'] } : {}) }),
);
