import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { BuildManifest } from '../contract/manifest.ts';
import { freePort, startTestServer } from '../test/http.ts';
import { nginxServer, publicFiles } from './nginx.ts';

/**
 * Self-hosting behind nginx (docs/deploy.md#behind-nginx): Debian's nginx (installed by .ci/run),
 * run unprivileged on a free port with a temporary prefix and the configuration
 * bin/nginx-conf.ts prints, serves the build's files with the status, headers and bytes of the
 * Node server, and hands everything else to that server.
 */

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function send(port: number, path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: opts.method ?? 'GET', headers: opts.headers ?? {}, agent: false, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** The headers a reuser or a browser acts on; ETag and Last-Modified are compared by what they do. */
const MATTER = [
  'content-type',
  'cache-control',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'link',
  'x-content-type-options',
  'content-security-policy',
  'x-frame-options',
  'x-build',
  'content-language',
];
const mattering = (r: Reply) => ({ status: r.status, ...Object.fromEntries(MATTER.map((k) => [k, r.headers[k]])) });

describe.skipIf(!NGINX)('nginx in front of the Node server, configured from the one header definition', () => {
  const distDir = inject('distDir');
  let node: Awaited<ReturnType<typeof startTestServer>>;
  let nginx: ChildProcess;
  let prefix: string;
  let port: number;
  let manifest: BuildManifest;

  beforeAll(async () => {
    node = await startTestServer();
    manifest = JSON.parse(await readFile(join(distDir, 'current', 'manifest.json'), 'utf8')) as BuildManifest;
    prefix = await mkdtemp(join(tmpdir(), 'chokepoint-nginx-'));
    port = await freePort();
    const server = nginxServer(manifest, { root: join(distDir, 'current'), upstream: `127.0.0.1:${node.port}`, listen: `127.0.0.1:${port}` });
    const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${join(prefix, t)};`).join('\n');
    const conf = `worker_processes 1;\npid ${join(prefix, 'nginx.pid')};\nerror_log ${join(prefix, 'error.log')};\nevents { worker_connections 256; }\nhttp {\n  access_log off;\n${temp}\n${server}\n}\n`;
    await writeFile(join(prefix, 'nginx.conf'), conf);
    // Unprivileged: as root (CI), nginx runs as nobody, which must read the build and write its prefix.
    const root = process.getuid?.() === 0;
    if (root) {
      await chmod(distDir, 0o755);
      await chown(prefix, 65534, 65534);
      for (const t of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
        await mkdir(join(prefix, t));
        await chown(join(prefix, t), 65534, 65534);
      }
    }
    nginx = spawn(NGINX!, ['-p', prefix, '-e', join(prefix, 'error.log'), '-c', join(prefix, 'nginx.conf'), '-g', 'daemon off;'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      ...(root ? { uid: 65534, gid: 65534 } : {}),
    });
    let stderr = '';
    nginx.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    for (let i = 0; ; i++) {
      const up = await send(port, '/llms.txt').then(
        () => true,
        () => false,
      );
      if (up) break;
      if (i >= 100 || nginx.exitCode !== null)
        throw new Error(`nginx did not start: ${stderr}${await readFile(join(prefix, 'error.log'), 'utf8').catch(() => '')}`);
      await sleep(50);
    }
  }, 60_000);

  afterAll(async () => {
    nginx?.kill('SIGQUIT');
    await node?.close();
    if (prefix) await rm(prefix, { recursive: true, force: true });
  });

  /** One file of each kind the Node server sends as it is. */
  function samples(): string[] {
    const urls = publicFiles(manifest).map((f) => f.url);
    const first = (test: (u: string) => boolean) => {
      const u = urls.find(test);
      expect(u, `a file for ${test.toString()}`).toBeDefined();
      return u!;
    };
    return [
      first((u) => /^\/fr\/.+\/$/.test(u)),
      first((u) => u.endsWith('.html') && !u.includes('/embed/')),
      first((u) => /^\/[a-z]{2}\/embed\/.+\/$/.test(u)),
      first((u) => u.startsWith('/_astro/')),
      first((u) => /^\/[^/]+\/.+\.csv$/.test(u) && !u.startsWith('/bulk/')),
      '/openapi.json',
      '/llms.txt',
      '/.well-known/api-catalog',
      first((u) => u.startsWith('/feeds/')),
      first((u) => u.startsWith('/bulk/')),
      first((u) => /^\/docs\/[a-z-]+\.md$/.test(u)),
    ];
  }

  it('serves the build’s files with the status, headers and bytes of the Node server', async () => {
    for (const path of samples()) {
      const [a, b] = await Promise.all([send(port, path), send(node.port, path)]);
      expect(mattering(a), path).toEqual(mattering(b));
      expect(a.status, path).toBe(200);
      expect(a.body.equals(b.body), `the bytes of ${path}`).toBe(true);
      // Validators on both, and nginx's own answered with a 304.
      for (const r of [a, b]) expect([typeof r.headers.etag, typeof r.headers['last-modified']], path).toEqual(['string', 'string']);
      const again = await send(port, path, { headers: { 'if-none-match': String(a.headers.etag) } });
      expect(again.status, path).toBe(304);
      // nginx sent it: every answer of the Node server names its request.
      expect(a.headers['x-request-id'], path).toBeUndefined();
      expect(b.headers['x-request-id'], path).toBeDefined();
    }
  });

  it('hands the rest to the Node server: the /v1 routes, parameterised queries, /v1/ask, /mcp, a 404 page', async () => {
    const cases: Array<{ path: string; method?: string; headers?: Record<string, string>; body?: string }> = [
      { path: '/v1/commodities/agri.maize' },
      { path: '/v1/reserves?commodity=gas&country=de' },
      { path: '/v1/commodities?format=csv' },
      { path: '/no-such-page' },
      { path: '/fr' },
      // The home page: a redirect to the reader's language.
      { path: '/' },
      { path: '/v1/ask', method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ question: 'gas storage in Germany' }) },
      {
        path: '/mcp',
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      },
    ];
    for (const c of cases) {
      const [a, b] = await Promise.all([send(port, c.path, c), send(node.port, c.path, c)]);
      const name = `${c.method ?? 'GET'} ${c.path}`;
      expect(a.status, name).toBe(b.status);
      expect(a.headers['content-type'], name).toBe(b.headers['content-type']);
      expect(a.headers['x-request-id'], `${name} answered by the Node server`).toBeDefined();
      if (!c.method) expect(a.body.toString().replace(/"request_id":"[^"]*"/, ''), name).toBe(b.body.toString().replace(/"request_id":"[^"]*"/, ''));
    }
  });
});
