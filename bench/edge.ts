/**
 * The Cloudflare Workers target against the Node server, in the same run (docs/deploy.md):
 * requests per second and p99 of issue 32's three cases (a path-addressed file, a memo hit, a
 * new time-series window each request) and a filtered list (wrk -t2 -c50 -d10s, rate limits off), the worker's bundle size, and the isolate's JS heap (Chrome DevTools
 * protocol of workerd) when loaded, with the search index, and after the largest
 * parameterised query; plus workerd's RSS. Usage: `node bench/edge.ts` (needs wrk; serves
 * `$DIST_DIR/current`, default dist/current: `npm run build` first).
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { packageAssets } from '../edge/assets.ts';
import { bundleWorker } from '../edge/bundle.ts';
import { startLocalEdge } from '../edge/local.ts';
import { freePort } from '../test/http.ts';
import { API_ROUTES, startServer } from './api.ts';

const run = promisify(execFile);
const REPO = resolve(import.meta.dirname, '..');
const DIST = resolve(process.env.DIST_DIR || join(REPO, 'dist'));
const DURATION = process.env.BENCH_SECONDS ?? '10';

/** The cases of issue 32 (bench/api.ts API_ROUTES): a path-addressed file, a memo hit, a new time-series window each request (wrk's script). */
const ROUTES: [string, string, string?][] = [
  ['path-addressed', API_ROUTES.path.path],
  ['parameterised, memo hit', API_ROUTES.memo.path],
  [
    'parameterised, a new time-series window each request (~20 KB)',
    '/v1/reserves/timeseries?commodity=gas&country=de&from=<varied>&to=<varied>',
    API_ROUTES.window.lua,
  ],
  ['parameterised', '/v1/events?since=2025-01-01&category=policy'],
];
const LARGEST = [
  '/v1/reserves/timeseries?commodity=gas&country=eu&from=2011-01-01',
  '/v1/reserves/timeseries?commodity=gas&country=eu&from=2011-01-01&format=csv',
];

async function wrk(url: string, lua?: string, pids: number[] = []): Promise<{ rps: number; p99: string; non2xx: number; cpuUs: number }> {
  const script = lua ? join(await mkdtemp(join(tmpdir(), 'wrk-')), 'script.lua') : undefined;
  if (script) await writeFile(script, lua!);
  const cpuBefore = cpuUs(pids);
  const { stdout } = await run('wrk', ['-t2', '-c50', `-d${DURATION}s`, '--latency', ...(script ? ['-s', script] : []), url], { maxBuffer: 1 << 20 });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0);
  const p99 = /^\s+99%\s+(\S+)/m.exec(stdout)?.[1] ?? '?';
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
  const requests = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0);
  return { rps, p99, non2xx, cpuUs: requests ? (cpuUs(pids) - cpuBefore) / requests : NaN };
}

async function waitFor(url: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if ((await fetch(url).catch(() => null))?.ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer`);
}

/** The used JS heap of the worker's isolate (garbage not yet collected included), over the DevTools protocol workerd serves. */
async function isolateHeap(inspectorPort: number): Promise<number> {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json()) as { id: string; webSocketDebuggerUrl: string }[];
  // The user worker (miniflare names it core:user:<name>); the others are the asset layer, router, bindings.
  const target = targets.find((t) => t.id.startsWith('core:user:'));
  if (!target) throw new Error(`no user worker among the inspector's targets: ${targets.map((t) => t.id).join(', ')}`);
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((r, j) => ((ws.onopen = r), (ws.onerror = j)));
  let id = 0;
  const call = (method: string) =>
    new Promise<Record<string, number>>((r, j) => {
      const mine = ++id;
      setTimeout(() => j(new Error(`${method}: no answer from the inspector`)), 30_000).unref();
      ws.addEventListener('message', function on(ev) {
        const m = JSON.parse(String(ev.data)) as { id?: number; result?: Record<string, number> };
        if (m.id === mine) {
          ws.removeEventListener('message', on);
          r(m.result ?? {});
        }
      });
      ws.send(JSON.stringify({ id: mine, method }));
    });
  // workerd does not answer HeapProfiler.collectGarbage: the used heap includes garbage not yet collected (an upper bound).
  const usage = await call('Runtime.getHeapUsage');
  ws.close();
  return usage.usedSize ?? 0;
}

/** The parent of a process (0 when gone). */
function parentOf(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
  } catch {
    return 0;
  }
}

/** The pids of the workerd processes this one started (other sessions on the machine may run their own). */
function workerdPids(): number[] {
  const out: number[] = [];
  const mine = (pid: number) => {
    for (let p = parentOf(pid), depth = 0; p > 1 && depth < 4; p = parentOf(p), depth++) if (p === process.pid) return true;
    return false;
  };
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('workerd') && mine(Number(pid))) out.push(Number(pid));
    } catch {
      // gone
    }
  }
  return out;
}

/** User + system CPU time of some processes so far, in microseconds (/proc/<pid>/stat, clock ticks of 10 ms). */
function cpuUs(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      total += (Number(fields[11]) + Number(fields[12])) * 10_000;
    } catch {
      // gone
    }
  }
  return total;
}

/** RSS of the workerd processes under this one. */
function workerdRss(): number {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('workerd')) continue;
      total += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
    } catch {
      // gone
    }
  }
  return total;
}

const mb = (n: number) => `${(n / 2 ** 20).toFixed(1)} MB`;

export async function benchEdge(): Promise<string> {
  const build = join(DIST, 'current');
  if (!existsSync(join(build, 'manifest.json'))) throw new Error(`no build at ${build}: npm run build first`);
  const work = await mkdtemp(join(tmpdir(), 'chokepoint-bench-edge-'));
  const out: string[] = [];
  const nodePort = await freePort();
  const server = await startServer({ DIST_DIR: DIST, PORT: String(nodePort), HOST: '127.0.0.1', RATE_LIMIT_DATA: '0', RATE_LIMIT_ASK: '0' });
  try {
    const assets = await packageAssets(build, join(work, 'assets'));
    const bundle = await bundleWorker(join(work, 'worker', 'index.js'));
    const inspectorPort = await freePort();
    const edge = await startLocalEdge({
      script: bundle.path,
      assets: join(work, 'assets'),
      vars: { RATE_LIMIT_DATA: '0', RATE_LIMIT_ASK: '0' },
      inspectorPort,
    });
    const nodeUrl = `http://127.0.0.1:${nodePort}`;
    await waitFor(`${nodeUrl}/healthz`);
    try {
      out.push(`## Cloudflare Worker in workerd (miniflare) against the Node server (wrk -t2 -c50 -d${DURATION}s, limits off)`, '');
      out.push(
        `Bundle: ${mb(bundle.bytes)}, ${mb(bundle.gzipBytes)} gzipped (Cloudflare's limit: 3 MB gzipped free, 10 MB paid); assets: ${assets.files} files, ${mb(assets.bytes)}, ${assets.rules} \`_headers\` rules.`,
        '',
      );
      const t0 = Date.now();
      await fetch(`${edge.url}/v1/commodities`).then((r) => r.arrayBuffer());
      const cold = Date.now() - t0;
      const loaded = await isolateHeap(inspectorPort);
      const t1 = Date.now();
      await fetch(`${edge.url}/v1/search?q=gas`).then((r) => r.arrayBuffer());
      const searchCold = Date.now() - t1;
      const withSearch = await isolateHeap(inspectorPort);
      let largestBytes = 0;
      for (const p of LARGEST) largestBytes = Math.max(largestBytes, (await (await fetch(edge.url + p)).arrayBuffer()).byteLength);
      const afterLargest = await isolateHeap(inspectorPort);
      out.push(
        '| route | worker req/s | Node req/s | worker / Node | worker p99 | Node p99 | non-2xx (worker, Node) | CPU per request: workerd (all its processes) / Node |',
        '|---|---|---|---|---|---|---|---|',
      );
      const workerd = workerdPids();
      for (const [kind, path, lua] of ROUTES) {
        // The memo hit: asked once of each before the run.
        if (!lua) await Promise.all([fetch(edge.url + path), fetch(nodeUrl + path)].map((r) => r.then((x) => x.arrayBuffer())));
        const e = await wrk(edge.url + (lua ? '/' : path), lua, workerd);
        const n = await wrk(nodeUrl + (lua ? '/' : path), lua, server.pid ? [server.pid] : []);
        out.push(
          `| ${kind} \`${path}\` | ${e.rps.toFixed(0)} | ${n.rps.toFixed(0)} | ${(e.rps / n.rps).toFixed(2)} | ${e.p99} | ${n.p99} | ${e.non2xx}, ${n.non2xx} | ${e.cpuUs.toFixed(0)} / ${n.cpuUs.toFixed(0)} µs |`,
        );
      }
      const afterRun = await isolateHeap(inspectorPort);
      out.push(
        '',
        `Isolate JS heap in use, garbage not yet collected included (limit 128 MB): ${mb(loaded)} with the build loaded (first request ${cold} ms), ${mb(withSearch)} with the search index (first search ${searchCold} ms), ${mb(afterLargest)} after the largest parameterised query (${LARGEST[0]}, JSON and CSV, ${mb(largestBytes)} the larger answer), ${mb(afterRun)} after the runs; workerd RSS (runtime, asset and router workers included): ${mb(workerdRss())}.`,
      );
    } finally {
      await edge.dispose();
    }
  } finally {
    server.kill('SIGTERM');
    await rm(work, { recursive: true, force: true });
  }
  return out.join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) console.log(await benchEdge());
