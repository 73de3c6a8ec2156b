import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SERVER_NODE_FLAGS } from '../api/supervise.ts';

const repo = resolve(import.meta.dirname, '..');

/** p95 is there when the wrk script prints `P95_US <µs>` in its done() (wrk has no flag for it). */
export interface WrkResult {
  rps: number;
  p50: number;
  p95?: number;
  p99: number;
  non2xx: number;
  status: string;
}

/** wrk with a latency distribution; `lua` is an optional wrk script (e.g. to vary the query). */
export function wrk(url: string, connections: number, seconds: number, lua?: string): WrkResult {
  const args = ['-t2', `-c${connections}`, `-d${seconds}s`, '--latency'];
  if (lua) {
    const file = join(mkdtempSync(join(tmpdir(), 'wrk-')), 'script.lua');
    writeFileSync(file, lua);
    args.push('-s', file);
  }
  const out = execFileSync('wrk', [...args, url], { encoding: 'utf8' });
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
  };
}

/** A different `since` (one of ~2,000 days) and limit on each request. */
const VARIED_EVENTS = `
counter = 0
request = function()
  counter = counter + 1
  local day = os.time({ year = 2020, month = 1, day = 1 }) + (counter % 2000) * 86400
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
 * Start a process with node directly (no npm wrapper), so its pid is the server's,
 * with the V8 flags the supervised server runs with (SERVER_NODE_FLAGS in api/supervise.ts).
 */
export function startNode(script: string, env: Record<string, string>): ChildProcess {
  // SUPERVISE=off: the pid measured is the server's own, not a supervisor's.
  return spawn(process.execPath, [...SERVER_NODE_FLAGS, script], {
    cwd: repo,
    env: { ...process.env, SUPERVISE: 'off', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

export async function benchApi(distDir: string) {
  const current = join(distDir, 'current');
  const port = 18787;
  const rawPort = 18788;
  const paths = {
    static: '/v1/commodities/metals.cobalt',
    param: '/v1/events?since=2025-01-01&category=policy',
    series: '/v1/reserves/timeseries?commodity=gas&country=de&from=2026-01-01&frequency=weekly',
  };
  // The raw server answers the same bytes: the static file, and what our API answers for the query.
  const api = startNode('bin/serve.ts', { PORT: String(port), HOST: '127.0.0.1', DIST_DIR: distDir, RATE_LIMIT_DATA: '0', RATE_LIMIT_ASK: '0' });
  const startMs = await waitFor(`http://127.0.0.1:${port}/healthz`);
  const tmp = mkdtempSync(join(tmpdir(), 'raw-'));
  const rawFiles: Record<string, string> = { [paths.static]: join(current, 'v1/commodities/metals.cobalt.json') };
  for (const key of ['param', 'series'] as const) {
    const f = join(tmp, `${key}.json`);
    writeFileSync(f, Buffer.from(await (await fetch(`http://127.0.0.1:${port}${paths[key]}`)).arrayBuffer()));
    rawFiles[paths[key]] = f;
  }
  const raw = startNode('bench/raw-server.ts', { PORT: String(rawPort), RAW_FILES: JSON.stringify(rawFiles) });
  await waitFor(`http://127.0.0.1:${rawPort}${paths.static}`);
  try {
    const rows: { case: string; ours: WrkResult; raw: WrkResult }[] = [];
    for (const [name, path] of Object.entries(paths)) {
      wrk(`http://127.0.0.1:${port}${path}`, 50, 3); // warm-up
      const ours = wrk(`http://127.0.0.1:${port}${path}`, 50, 10);
      const base = wrk(`http://127.0.0.1:${rawPort}${path}`, 50, 10);
      rows.push({ case: name, ours, raw: base });
    }
    // Every request a different query: no memo hit, the full parse–filter–serialise–hash path.
    const varied = wrk(`http://127.0.0.1:${port}/v1/events`, 50, 10, VARIED_EVENTS);
    return { rows, varied, startMs: Math.round(startMs), rssMb: rssMb(api) };
  } finally {
    api.kill();
    raw.kill();
  }
}

/** A 429 must cost no more than a 200: the same route with a limit of 1 (all but one request refused). */
export async function benchRateLimited(distDir: string) {
  const port = 18789;
  const run = async (limit: string) => {
    const api = startNode('bin/serve.ts', { PORT: String(port), HOST: '127.0.0.1', DIST_DIR: distDir, RATE_LIMIT_DATA: limit });
    await waitFor(`http://127.0.0.1:${port}/healthz`);
    try {
      wrk(`http://127.0.0.1:${port}/v1/commodities/metals.cobalt`, 50, 2);
      return wrk(`http://127.0.0.1:${port}/v1/commodities/metals.cobalt`, 50, 10);
    } finally {
      api.kill();
      await new Promise((r) => setTimeout(r, 300));
    }
  };
  return { ok: await run('100000000'), limited: await run('1') };
}
