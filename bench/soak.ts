/**
 * A bounded soak: the real server as a child process over the current build, mixed traffic from
 * loopback at a fixed concurrency for SOAK_SECONDS (default 300), the child's RSS and open file
 * descriptors sampled every 5 s. Prints a Markdown report; exits non-zero when RSS grew by 10 % or
 * more after the warm-up, when the open descriptors grew, or when any request failed (a 5xx, a
 * socket error or a timeout).
 *
 *   node bench/soak.ts                       # 300 s over ../dist (or DIST_DIR)
 *   SOAK_SECONDS=60 SOAK_CONCURRENCY=20 node bench/soak.ts
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServer, waitFor } from './api.ts';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 300);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 20);
const WARMUP_SECONDS = Math.min(30, Math.floor(SECONDS / 5));
const SAMPLE_MS = 5000;
const PORT = Number(process.env.SOAK_PORT ?? 18790);
const DIST_DIR = resolve(process.env.DIST_DIR ?? resolve(import.meta.dirname, '..', 'dist'));
const REQUEST_TIMEOUT_MS = 10_000;

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function send(method: string, path: string, opts: { headers?: Record<string, string>; body?: string; from?: string } = {}): Promise<Reply> {
  return new Promise((resolvePromise, reject) => {
    const req = request(
      { host: '127.0.0.1', port: PORT, method, path, agent, headers: opts.headers, localAddress: opts.from ?? '127.0.0.1', timeout: REQUEST_TIMEOUT_MS },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timeout after ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** Open an SSE stream (its own socket), read the endpoint event, then hang up. */
function sse(): Promise<Reply> {
  return new Promise((resolvePromise, reject) => {
    const req = request(
      { host: '127.0.0.1', port: PORT, method: 'GET', path: '/mcp', agent: false, headers: { accept: 'text/event-stream' }, timeout: REQUEST_TIMEOUT_MS },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          body += d;
          if (body.includes('\n\n') || res.statusCode !== 200) {
            resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, body });
            req.destroy();
          }
        });
        res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on('error', () => undefined);
      },
    );
    req.on('timeout', () => req.destroy(new Error('SSE timeout')));
    req.on('error', (e) => (e.message === 'socket hang up' ? undefined : reject(e)));
    req.end();
  });
}

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const TOOL_CALLS: [string, Record<string, unknown>][] = [
  ['get_reserve', { commodity: 'gas', country: 'de' }],
  ['list_commodities', { group: 'metals' }],
  ['get_country_profile', { iso: 'FRA' }],
  ['search_briefings', { q: 'gas storage', limit: 3 }],
  ['list_events', { since: '2024-01-01', limit: 5 }],
  ['get_reserve', { commodity: 'gaz', country: 'de' }], // a tool error
];

/** A whole Streamable HTTP session: initialize, initialized, one tool call, DELETE. */
async function mcpSession(i: number): Promise<number[]> {
  const init = await send('POST', '/mcp', {
    headers: MCP_HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'soak', version: '1' } },
    }),
  });
  const sid = init.headers['mcp-session-id'];
  if (init.status !== 200 || typeof sid !== 'string') return [init.status];
  const h = { ...MCP_HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' };
  const note = await send('POST', '/mcp', { headers: h, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  const [name, args] = TOOL_CALLS[i % TOOL_CALLS.length]!;
  const callRes = await send('POST', '/mcp', {
    headers: h,
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: args } }),
  });
  if (callRes.status === 200 && !/"result"/.test(callRes.body)) throw new Error(`tools/call ${name} answered without a result: ${callRes.body.slice(0, 200)}`);
  const del = await send('DELETE', '/mcp', { headers: h });
  return [init.status, note.status, callRes.status, del.status];
}

const day = (n: number) => new Date(Date.UTC(2020, 0, 1) + (n % 2200) * 86_400_000).toISOString().slice(0, 10);
const COUNTRIES = ['de', 'fr', 'it', 'es', 'nl', 'at', 'eu', 'DEU', 'FRA', 'pl'];
const ISO3 = ['DEU', 'FRA', 'ITA', 'ESP', 'nld', 'de', 'POL', 'USA', 'JPN', 'CHN'];
const SLUGS = ['energy.gas', 'energy.oil', 'metals.cobalt', 'metals.lithium', 'METALS.COPPER', 'agri.wheat'];
const QUERIES = [
  'cobalt export ban',
  'gas storage',
  'stockage de gaz',
  'Gasspeicher',
  'litio',
  'oil reserve',
  'uranium',
  'copper smelter',
  'wheat',
  'strait of hormuz',
];
const QUESTIONS = [
  'What is the price of cobalt?',
  "How full is Germany's gas storage?",
  'Quel est le prix du pétrole ?',
  'Wie voll ist der Gasspeicher in Frankreich?',
  'How large is the US oil reserve?',
];

let etags: Record<string, string> = {};

/** One unit of mixed traffic; the kind cycles through a fixed mix (a bounded space of distinct queries). */
async function one(n: number): Promise<{ kind: string; statuses: number[] }> {
  const k = n % 20;
  const v = Math.floor(n / 20);
  const get = async (kind: string, path: string, headers: Record<string, string> = {}) => ({ kind, statuses: [(await send('GET', path, { headers })).status] });
  switch (k) {
    case 0:
      return get('static', '/v1/commodities');
    case 1:
      return get('static', `/v1/commodities/${SLUGS[v % SLUGS.length]}`);
    case 2:
      return get('static', `/v1/countries/${ISO3[v % ISO3.length]}`);
    case 3:
      return get('param', `/v1/events?since=${day(v)}&limit=${(v % 50) + 1}`);
    case 4:
      return get(
        'param',
        `/v1/reserves/timeseries?commodity=gas&country=${COUNTRIES[v % 7]}&from=${day(v * 7)}&frequency=${['daily', 'weekly', 'monthly'][v % 3]}`,
      );
    case 5:
      return get('param', `/v1/reserves?commodity=gas&country=${COUNTRIES[v % 7]}`);
    case 6:
      return get('param', `/v1/briefings?lang=${['en', 'fr', 'de', 'es'][v % 4]}&limit=${(v % 10) + 1}`);
    case 7:
      return get('param', `/v1/scenarios?status=${['monitoring', 'elevated', 'active', 'resolved', 'dismissed'][v % 5]}`);
    case 8:
      return get('csv', `/v1/events?since=${day(v)}&format=csv`);
    case 9:
    case 10:
      return get('search', `/v1/search?q=${encodeURIComponent(QUERIES[v % QUERIES.length]!)}&limit=${(v % 10) + 1}`);
    case 11: {
      const r = await send('POST', '/v1/ask', {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ q: QUESTIONS[v % QUESTIONS.length] }),
      });
      return { kind: 'ask', statuses: [r.status] };
    }
    case 12: {
      const path = ['/v1/commodities/metals.cobalt', '/v1/events?since=2024-01-01', '/v1/reserves?commodity=gas&country=de'][v % 3]!;
      const etag = etags[path];
      if (!etag) {
        const r = await send('GET', path);
        const e = r.headers['etag'];
        if (typeof e === 'string') etags = { ...etags, [path]: e };
        return { kind: '304', statuses: [r.status] };
      }
      return get('304', path, { 'if-none-match': etag });
    }
    case 13:
      return get('400', `/v1/events?since=2026-02-30&bogus=${v % 100}`);
    case 14:
      return get('404', `/v1/countries/Q${String.fromCharCode(65 + (v % 26))}Z`);
    case 15:
      return get('404', `/v1/nowhere/${v % 100}`);
    case 16: {
      const r = await send('POST', '/v1/ask', { headers: { 'content-type': 'application/json' }, body: '{"q": 42}' });
      return { kind: '400', statuses: [r.status] };
    }
    case 17:
      return { kind: 'mcp', statuses: await mcpSession(v) };
    case 18:
      return v % 4 === 0 ? { kind: 'sse', statuses: [(await sse()).status] } : get('static', '/healthz');
    default:
      return get('static', '/openapi.json');
  }
}

function rssKb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
}
const fds = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;
const mb = (kb: number) => (kb / 1024).toFixed(1);

async function main() {
  const child = await startServer({
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DIST_DIR,
    RATE_LIMIT_DATA: '0',
    RATE_LIMIT_ASK: '0',
    // Every concurrent worker may hold one MCP session at a time (the default per-IP cap is 10).
    MCP_MAX_SESSIONS_PER_IP: String(Math.max(10, CONCURRENCY)),
  });
  const pid = child.pid!;
  let exited = false;
  child.once('exit', () => (exited = true));
  try {
    await waitFor(`http://127.0.0.1:${PORT}/healthz`, 30_000);
    // Every kind of request once, then let the keep-alive connections of that lapse: the idle baseline.
    for (let n = 0; n < 20; n++) await one(n);
    agent.destroy();
    await sleep(6000);
    const fdIdleBefore = fds(pid);
    const rssStart = rssKb(pid);

    const counts = new Map<number, number>();
    const kinds = new Map<string, number>();
    const failures: string[] = [];
    let requests = 0;
    let next = 20;
    const samples: { t: number; rss: number; fds: number; requests: number }[] = [];
    const started = performance.now();
    const deadline = started + SECONDS * 1000;
    const sampler = setInterval(() => {
      if (!exited) samples.push({ t: Math.round((performance.now() - started) / 1000), rss: rssKb(pid), fds: fds(pid), requests });
    }, SAMPLE_MS);

    const worker = async () => {
      while (performance.now() < deadline && !exited) {
        const n = next++;
        try {
          const r = await one(n);
          kinds.set(r.kind, (kinds.get(r.kind) ?? 0) + 1);
          for (const s of r.statuses) {
            requests++;
            counts.set(s, (counts.get(s) ?? 0) + 1);
            if (s >= 500) failures.push(`${r.kind} #${n}: ${s}`);
          }
        } catch (err) {
          requests++;
          failures.push(`#${n}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    clearInterval(sampler);
    const elapsed = (performance.now() - started) / 1000;
    if (exited) failures.push('the server exited during the soak');

    // Traffic over: close our connections, let the server's side lapse, count again.
    agent.destroy();
    await sleep(6000);
    const fdIdleAfter = exited ? NaN : fds(pid);
    const rssIdleAfter = exited ? NaN : rssKb(pid);

    const afterWarmup = samples.filter((s) => s.t >= WARMUP_SECONDS);
    const first = afterWarmup[0] ?? samples[0]!;
    const last = samples.at(-1)!;
    const peak = samples.reduce((m, s) => Math.max(m, s.rss), 0);
    const growth = ((last.rss - first.rss) / first.rss) * 100;
    const fdsLoadFirst = first.fds;
    const fdsLoadLast = last.fds;
    const fdsGrew = !(fdIdleAfter <= fdIdleBefore);
    const rssOk = growth < 10;
    const ok = rssOk && !fdsGrew && failures.length === 0;

    const out: string[] = [];
    out.push(`# Soak — ${new Date().toISOString()}`, '');
    out.push(`Command: \`SOAK_SECONDS=${SECONDS} SOAK_CONCURRENCY=${CONCURRENCY} node bench/soak.ts\` over \`${DIST_DIR}\`.`);
    out.push(
      `Machine: ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}. Server: \`bin/serve.ts\` as a child process (pid ${pid}), limits off, loopback only.`,
      '',
    );
    out.push('| figure | value |', '|---|---|');
    out.push(`| duration | ${elapsed.toFixed(1)} s (warm-up ${WARMUP_SECONDS} s), ${CONCURRENCY} concurrent workers |`);
    out.push(`| requests | ${requests} (${(requests / elapsed).toFixed(0)} req/s) |`);
    out.push(
      `| by kind | ${[...kinds]
        .sort()
        .map(([k, c]) => `${k} ${c}`)
        .join(', ')} |`,
    );
    out.push(
      `| status counts | ${[...counts]
        .sort((a, b) => a[0] - b[0])
        .map(([s, c]) => `${s}: ${c}`)
        .join(', ')} |`,
    );
    out.push(`| errors (5xx, socket errors, timeouts) | ${failures.length} |`);
    out.push(`| RSS before traffic | ${mb(rssStart)} MB |`);
    out.push(`| RSS after warm-up (t=${first.t} s) / peak / last (t=${last.t} s) | ${mb(first.rss)} / ${mb(peak)} / ${mb(last.rss)} MB |`);
    out.push(`| RSS growth after warm-up | ${growth.toFixed(1)} % (limit < 10 %): ${rssOk ? 'held' : 'FAILED'} |`);
    out.push(`| RSS idle after the soak | ${mb(rssIdleAfter)} MB |`);
    out.push(`| open fds under load: after warm-up / last | ${fdsLoadFirst} / ${fdsLoadLast} |`);
    out.push(`| open fds idle: before / after the soak | ${fdIdleBefore} / ${fdIdleAfter}: ${fdsGrew ? 'GREW' : 'no growth'} |`);
    out.push('');
    out.push('Samples (every 5 s):', '');
    out.push('| t (s) | requests | RSS (MB) | open fds |', '|---|---|---|---|');
    for (const s of samples) out.push(`| ${s.t} | ${s.requests} | ${mb(s.rss)} | ${s.fds} |`);
    if (failures.length) out.push('', 'Failures (first 20):', '', ...failures.slice(0, 20).map((f) => `- ${f}`));
    out.push('', `Result: ${ok ? 'PASS' : 'FAIL'}`);
    console.log(out.join('\n'));
    process.exitCode = ok ? 0 : 1;
  } finally {
    child.kill();
  }
}

await main();
