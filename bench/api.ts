import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { compiledServer, SERVER_ENV, SERVER_NODE_FLAGS } from '../api/server-process.ts';
import { nginxAvailable, startNginx, type NginxServer } from './nginx.ts';

const repo = resolve(import.meta.dirname, '..');

/** p95 is there when the wrk script prints `P95_US <µs>` in its done() (wrk has no flag for it). */
export interface WrkResult {
  rps: number;
  p50: number;
  p95?: number;
  p99: number;
  non2xx: number;
  status: string;
  /** Requests completed in the run. */
  requests: number;
  /** CPU time of the server process per request (user + system, from /proc), when its pid was given. */
  cpuUs?: number;
}

/** wrk with a latency distribution; `lua` is an optional wrk script (e.g. to vary the query). */
/** User + system CPU time of a process so far, in microseconds (/proc/<pid>/stat, clock ticks of 10 ms). */
function cpuUsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

export function wrk(url: string, connections: number, seconds: number, lua?: string, threads = 2, pid?: number): WrkResult {
  const args = [`-t${threads}`, `-c${connections}`, `-d${seconds}s`, '--latency'];
  if (lua) {
    const file = join(mkdtempSync(join(tmpdir(), 'wrk-')), 'script.lua');
    writeFileSync(file, lua);
    args.push('-s', file);
  }
  const cpuBefore = pid ? cpuUsOf(pid) : 0;
  const out = execFileSync('wrk', [...args, url], { encoding: 'utf8' });
  const cpu = pid ? cpuUsOf(pid) - cpuBefore : 0;
  const requests = Number(out.match(/(\d+) requests in/)?.[1] ?? 0);
  const num = (re: RegExp) => Number(out.match(re)?.[1] ?? NaN);
  const ms = (re: RegExp) => {
    const m = out.match(re);
    if (!m) return NaN;
    const v = Number(m[1]);
    return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v;
  };
  return {
    rps: num(/Requests\/sec:\s+([\d.]+)/),
    p50: ms(/50%\s+([\d.]+)(us|ms|s)/),
    p99: ms(/99%\s+([\d.]+)(us|ms|s)/),
    ...(/P95_US (\d+)/.test(out) ? { p95: Number(out.match(/P95_US (\d+)/)![1]) / 1000 } : {}),
    non2xx: num(/Non-2xx or 3xx responses:\s+(\d+)/) || 0,
    status: out.includes('Socket errors') ? (out.match(/Socket errors:.*/)?.[0] ?? '') : '',
    requests,
    ...(pid && requests ? { cpuUs: cpu / requests } : {}),
  };
}

/**
 * A different query on each request: `since` one of 2,000 days, `limit` 1–50, 100,000 pairs in
 * all, none asked twice before the 100,001st request (a run here sends under 30,000).
 */
const VARIED_EVENTS = `
counter = 0
request = function()
  counter = counter + 1
  local day = os.time({ year = 2020, month = 1, day = 1 }) + (math.floor(counter / 50) % 2000) * 86400
  return wrk.format("GET", "/v1/events?since=" .. os.date("!%Y-%m-%d", day) .. "&limit=" .. (counter % 50 + 1))
end
`;

export async function waitFor(url: string, timeoutMs = 15_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    try {
      const res = await fetch(url);
      if (res.ok) return performance.now() - started;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

export function rssMb(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Math.round(Number(status.match(/VmRSS:\s+(\d+)/)?.[1]) / 1024);
}

/**
 * Start a process with node directly (no npm wrapper), so its pid is the server's, with the V8
 * flags and environment the supervised server runs with (api/server-process.ts).
 */
export function startNode(script: string, env: Record<string, string>): ChildProcess {
  // SUPERVISE=off: the pid measured is the server's own, not a supervisor's.
  return spawn(process.execPath, [...SERVER_NODE_FLAGS, script], {
    cwd: repo,
    env: { ...process.env, ...SERVER_ENV, SUPERVISE: 'off', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** The compiled server, as `npm run serve` runs it (compiled once per benchmark process). */
let serverScript: Promise<string> | undefined;
export async function startServer(env: Record<string, string>): Promise<ChildProcess> {
  return startNode(await (serverScript ??= compiledServer(join(repo, 'bin/serve.ts'))), env);
}

/** A loopback port free at the time of asking (other servers may be running on this machine). */
export function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolvePromise(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

/** The median of some numbers (the lower middle of an even count). */
export const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

/** One request's status, headers (as sent: names and values) and bytes, on a fresh connection. */
function capture(port: number, path: string): Promise<{ status: number; headers: [string, string][]; body: Buffer }> {
  return new Promise((resolvePromise, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        const headers: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) headers.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
        resolvePromise({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * A new time-series window on every request (issue 32): `from` one of 1,500 days from
 * 2020-01-01, the window 480–539 days long (about 20 KB of JSON), 90,000 windows in all, none
 * asked twice before the 90,001st request.
 */
const VARIED_WINDOWS = `
counter = 0
request = function()
  counter = counter + 1
  local from = os.time({ year = 2020, month = 1, day = 1 }) + (counter % 1500) * 86400
  local to = from + (480 + math.floor(counter / 1500) % 60) * 86400
  return wrk.format("GET", "/v1/reserves/timeseries?commodity=gas&country=de&from=" .. os.date("!%Y-%m-%d", from) .. "&to=" .. os.date("!%Y-%m-%d", to))
end
`;

/**
 * The routes of the API benchmark: what issue 21 measures, a path-addressed file and a memoised
 * answer, and what issue 32 measures, a new time-series window each request (\`lua\`: wrk's
 * script varying the window; the raw server answers every window with the bytes and headers of
 * \`path\`, a window of the middle length, 510 days). \`target\`: the least ratio to raw node:http
 * (issue 32: the path-addressed and memoised answers' ratios of issue 21 held, 0.9 and 0.8);
 * \`nginx\`: the least ratio to nginx serving the same file (bench/nginx.ts), where measured.
 */
export const API_ROUTES: Record<'path' | 'memo' | 'window', { path: string; label: string; target: number; nginx?: number; lua?: string }> = {
  path: { path: '/v1/commodities/agri.maize', label: 'path-addressed', target: 0.9, nginx: 0.7 },
  memo: { path: '/v1/reserves?commodity=gas&country=de', label: 'parameterised, memo hit', target: 0.8 },
  window: {
    path: '/v1/reserves/timeseries?commodity=gas&country=de&from=2022-01-01&to=2023-05-26',
    label: 'parameterised, a new time-series window each request (`from`, `to` varied)',
    target: 0.5,
    lua: VARIED_WINDOWS,
  },
};

/** BENCH_API_ROUTES=window (keys of API_ROUTES, comma-separated): only those routes, without the varied /v1/events run. */
export function apiRoutesWanted(env = process.env.BENCH_API_ROUTES): (keyof typeof API_ROUTES)[] {
  const all = Object.keys(API_ROUTES) as (keyof typeof API_ROUTES)[];
  if (!env) return all;
  const wanted = env.split(',').map((k) => k.trim());
  const unknown = wanted.filter((k) => !all.includes(k as keyof typeof API_ROUTES));
  if (unknown.length) throw new Error(`BENCH_API_ROUTES: unknown ${unknown.join(', ')}; known: ${all.join(', ')}`);
  return wanted as (keyof typeof API_ROUTES)[];
}

/** A limit the benchmark never reaches (every request is counted, none refused). */
export const UNREACHED_LIMIT = '1000000000';

export interface RouteRounds {
  /** Bytes of the answer's body. */
  bytes: number;
  ours: WrkResult[];
  raw: WrkResult[];
  /** The same server with FAST_PATH=off: every request through the Hono app. */
  app: WrkResult[];
  /** nginx serving the same bytes and headers from a file (routes with an \`nginx\` target, when nginx is installed). */
  nginx?: WrkResult[];
}

export interface ApiBench {
  rounds: number;
  seconds: number;
  routes: Partial<Record<keyof typeof API_ROUTES, RouteRounds>>;
  /** A different query on every request: the app's parse, filter, serialise and hash (memo misses); absent when BENCH_API_ROUTES chose routes. */
  varied?: WrkResult;
  startMs: number;
  /** RSS of the server, highest after any round of the two routes. */
  rssMb: number;
  /** RSS after the varied queries, which fill the response memo (`RESPONSE_MEMO_MB`) and the fast path's records. */
  rssAfterVariedMb: number;
}

/**
 * The API against the floor, the fair way (issue 21): wrk with one thread and 50 connections
 * (one core for the load, one for the server on a 2-core machine); the floor is raw node:http
 * (bench/raw-server.ts) sending, for each path, the very bytes and headers our API sent for it;
 * both in the same run, alternated round by round, with the rate limit on at a limit the run
 * never reaches, so that every request is counted as in production, and the request log on
 * (LOG_LEVEL's default, stdout to /dev/null). The same server with FAST_PATH=off is measured in
 * the same rounds, for comparison; the order of the three turns from round to round, with a
 * second's pause between runs. Start-up is the time from spawn to the first answer of
 * /healthz; RSS is taken after every round, and after the varied queries.
 */
export async function benchApi(distDir: string, opts: { rounds?: number; seconds?: number; routes?: (keyof typeof API_ROUTES)[] } = {}): Promise<ApiBench> {
  const keys = opts.routes ?? (Object.keys(API_ROUTES) as (keyof typeof API_ROUTES)[]);
  const rounds = opts.rounds ?? 5;
  const seconds = opts.seconds ?? 6;
  const ports = { ours: await freePort(), raw: await freePort(), app: await freePort() };
  const common = { HOST: '127.0.0.1', DIST_DIR: distDir, RATE_LIMIT_DATA: UNREACHED_LIMIT, RATE_LIMIT_ASK: UNREACHED_LIMIT };
  const api = await startServer({ ...common, PORT: String(ports.ours) });
  const children = [api];
  try {
    const startMs = await waitFor(`http://127.0.0.1:${ports.ours}/healthz`);
    // The comparison server starts once ours answers: start-up is measured alone.
    const app = await startServer({ ...common, PORT: String(ports.app), FAST_PATH: 'off' });
    children.push(app);
    await waitFor(`http://127.0.0.1:${ports.app}/healthz`);
    // What our API sends for each path (its second answer: the memo and the fast path hold it),
    // written for the raw server, headers and all.
    const tmp = mkdtempSync(join(tmpdir(), 'raw-'));
    const spec: Record<string, { headers: Record<string, string>; body: string }> = {};
    const bytes: Record<string, number> = {};
    const nginx: Partial<Record<keyof typeof API_ROUTES, { server: NginxServer; port: number }>> = {};
    for (const key of keys) {
      const r = API_ROUTES[key];
      await capture(ports.ours, r.path);
      const sent = await capture(ports.ours, r.path);
      if (sent.status !== 200) throw new Error(`${r.path} answered ${sent.status}`);
      const headers = replayed(sent);
      const body = join(tmp, `${key}.body`);
      writeFileSync(body, sent.body);
      spec[r.path] = { headers, body };
      // The varied windows: every one answered with this window's bytes and headers.
      if (r.lua) spec['*'] = { headers, body };
      bytes[key] = sent.body.length;
      if (r.nginx && nginxAvailable()) {
        const port = await freePort();
        const server = startNginx(port, r.path, headers, sent.body);
        children.push(server.child);
        await waitFor(`http://127.0.0.1:${port}/ready`);
        nginx[key] = { server, port };
      }
    }
    writeFileSync(join(tmp, 'responses.json'), JSON.stringify(spec));
    const raw = startNode('bench/raw-server.ts', { PORT: String(ports.raw), RAW_RESPONSES: join(tmp, 'responses.json') });
    children.push(raw);
    await waitFor(`http://127.0.0.1:${ports.raw}${API_ROUTES[keys[0]!].path}`);

    const routes: ApiBench['routes'] = {};
    let rss = 0;
    for (const key of keys) {
      const r = API_ROUTES[key];
      const n = nginx[key];
      const at = { ...ports, nginx: n?.port ?? 0 };
      const pids = { ours: api.pid, raw: raw.pid, app: app.pid, nginx: n?.server.workerPid() };
      const run = (which: keyof typeof at, path: string, s = seconds) => wrk(`http://127.0.0.1:${at[which]}${path}`, 50, s, r.lua, 1, pids[which]);
      const servers = n ? (['ours', 'raw', 'app', 'nginx'] as const) : (['ours', 'raw', 'app'] as const);
      for (const which of servers) run(which, r.path, 2); // warm-up
      const result: RouteRounds = { bytes: bytes[key]!, ours: [], raw: [], app: [], ...(n ? { nginx: [] } : {}) };
      for (let i = 0; i < rounds; i++) {
        // The order turns each round, with a pause between runs: a server's collector still at
        // work after its run (the app's most of all) must not weigh on the next one, always the same.
        const order = servers.map((_, j, all) => all[(i + j) % all.length]!);
        for (const which of order) {
          result[which]!.push(run(which, r.path));
          await new Promise((settle) => setTimeout(settle, 1000));
        }
        rss = Math.max(rss, rssMb(api));
      }
      routes[key] = result;
    }
    if (opts.routes) return { rounds, seconds, routes, startMs: Math.round(startMs), rssMb: rss, rssAfterVariedMb: rssMb(api) };
    // Every request a different query: no memo hit, the full parse–filter–serialise–hash path.
    wrk(`http://127.0.0.1:${ports.ours}/v1/events`, 50, 2, undefined, 1);
    const varied = wrk(`http://127.0.0.1:${ports.ours}/v1/events`, 50, seconds, VARIED_EVENTS, 1);
    return { rounds, seconds, routes, varied, startMs: Math.round(startMs), rssMb: rss, rssAfterVariedMb: rssMb(api) };
  } finally {
    for (const c of children) c.kill();
  }
}

/**
 * A 14 KB `Accept` header (issue 32): 410 media types the route does not offer, then one it
 * does (13,846 bytes; Node refuses heads over 16 KB). Negotiating it cost a 429 eleven times a
 * plain one when the format was chosen before the request was counted; counted first, a
 * refusal must only read its bytes, as raw node:http does.
 */
export const LONG_ACCEPT = `${Array.from({ length: 410 }, (_, i) => `application/vnd.x-${i}+json;q=0.5`).join(', ')}, application/json`;
const WITH_LONG_ACCEPT = `wrk.headers["Accept"] = "${LONG_ACCEPT}"\n`;

/** The headers of an answer as raw-server.ts replays them (its own Date, connection and length). */
function replayed(sent: { headers: [string, string][] }): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of sent.headers) if (!/^(date|connection|keep-alive|content-length)$/i.test(name)) headers[name] = value;
  return headers;
}

/**
 * A 429 must cost no more than a 200: the same route on two servers, one whose limit the run never
 * reaches and one with a limit of 1 (all but one request refused). The two are run back to back
 * in each round (the order turning), and the check is on the median of the rounds' ratios: the
 * machine's own speed moves by a quarter from one run to the next here (the same server, the same
 * route), more than the difference tested, and a pair of runs a few seconds apart shares it.
 *
 * And a 429 with a 14 KB Accept header must cost no more than a plain one, beyond the reading of
 * its bytes: in the same rounds the refusing server is asked with LONG_ACCEPT, and raw node:http
 * (bench/raw-server.ts) answers the very same 429 (bytes and headers) with and without it. Raw's
 * ratio (long ÷ plain) is what Node's parser costs for the 14 KB; ours is checked against it.
 */
export async function benchRateLimited(distDir: string, opts: { rounds?: number; seconds?: number } = {}) {
  const rounds = opts.rounds ?? 7;
  const seconds = opts.seconds ?? 4;
  const path = API_ROUTES.path.path;
  const servers = { ok: { port: await freePort(), limit: UNREACHED_LIMIT }, limited: { port: await freePort(), limit: '1' } };
  const children: ChildProcess[] = [];
  try {
    const pids: Record<'ok' | 'limited' | 'raw', number | undefined> = { ok: undefined, limited: undefined, raw: undefined };
    for (const [name, s] of Object.entries(servers) as ['ok' | 'limited', (typeof servers)['ok']][]) {
      const child = await startServer({ PORT: String(s.port), HOST: '127.0.0.1', DIST_DIR: distDir, RATE_LIMIT_DATA: s.limit });
      children.push(child);
      pids[name] = child.pid;
      await waitFor(`http://127.0.0.1:${s.port}/healthz`);
      wrk(`http://127.0.0.1:${s.port}${path}`, 50, 2, undefined, 1);
    }
    // The refusal as the limited server sends it, replayed by raw node:http.
    const refusal = await capture(servers.limited.port, path);
    if (refusal.status !== 429) throw new Error(`${path} on the server limited to 1 a minute answered ${refusal.status}, not 429`);
    const tmp = mkdtempSync(join(tmpdir(), 'raw-429-'));
    writeFileSync(join(tmp, '429.body'), refusal.body);
    writeFileSync(join(tmp, 'ready.body'), '');
    writeFileSync(
      join(tmp, 'responses.json'),
      JSON.stringify({
        [path]: { status: 429, headers: replayed(refusal), body: join(tmp, '429.body') },
        '/ready': { headers: {}, body: join(tmp, 'ready.body') },
      }),
    );
    const rawPort = await freePort();
    const raw = startNode('bench/raw-server.ts', { PORT: String(rawPort), RAW_RESPONSES: join(tmp, 'responses.json') });
    children.push(raw);
    pids.raw = raw.pid;
    await waitFor(`http://127.0.0.1:${rawPort}/ready`);
    const ports = { ok: servers.ok.port, limited: servers.limited.port, raw: rawPort };
    const cases = {
      ok: ['ok', undefined],
      limited: ['limited', undefined],
      limitedLong: ['limited', WITH_LONG_ACCEPT],
      raw: ['raw', undefined],
      rawLong: ['raw', WITH_LONG_ACCEPT],
    } as const;
    type Case = keyof typeof cases;
    const run = (c: Case, s = seconds) => wrk(`http://127.0.0.1:${ports[cases[c][0]]}${path}`, 50, s, cases[c][1], 1, pids[cases[c][0]]);
    run('rawLong', 2); // warm-up
    const runs = Object.fromEntries(Object.keys(cases).map((c) => [c, [] as WrkResult[]])) as Record<Case, WrkResult[]>;
    const ratios: number[] = [];
    const acceptRatios: number[] = [];
    const all = Object.keys(cases) as Case[];
    for (let i = 0; i < rounds; i++) {
      for (let j = 0; j < all.length; j++) {
        const c = all[(i + j) % all.length]!;
        runs[c].push(run(c));
        await new Promise((settle) => setTimeout(settle, 1000));
      }
      ratios.push(runs.limited[i]!.rps / runs.ok[i]!.rps);
      acceptRatios.push(runs.limitedLong[i]!.rps / runs.limited[i]!.rps / (runs.rawLong[i]!.rps / runs.raw[i]!.rps));
    }
    const mid = (rs: WrkResult[]) => [...rs].sort((a, b) => a.rps - b.rps)[Math.floor((rs.length - 1) / 2)]!;
    const cpu = (rs: WrkResult[]) => median(rs.map((r) => r.cpuUs ?? NaN));
    return {
      rounds,
      seconds,
      ok: mid(runs.ok),
      limited: mid(runs.limited),
      ratios,
      ratio: median(ratios),
      accept: {
        limitedLong: mid(runs.limitedLong),
        raw: mid(runs.raw),
        rawLong: mid(runs.rawLong),
        ratios: acceptRatios,
        ratio: median(acceptRatios),
        cpuUs: { limited: cpu(runs.limited), limitedLong: cpu(runs.limitedLong), raw: cpu(runs.raw), rawLong: cpu(runs.rawLong) },
      },
    };
  } finally {
    for (const c of children) c.kill();
  }
}
