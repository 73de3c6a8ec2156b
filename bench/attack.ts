/**
 * The hostile-client report for RELIABILITY.md: the real server as a child process (production
 * rate limits), attacked from loopback addresses while a normal client keeps asking for data.
 * Per attack: the server's peak RSS (VmRSS, sampled every 100 ms), and the normal client's
 * latency (p50, p99) and failures during it. First, the slowest answer to any input up to and far
 * beyond the size limits. Every attack is bounded in count and in time.
 *
 *   node bench/attack.ts            # over ../dist (or DIST_DIR); about 3 minutes
 *   ATTACK_ONLY=pipelin node bench/attack.ts   # only the attacks whose name matches
 */
import type { ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { rssMb, startServer, waitFor } from './api.ts';

const PORT = Number(process.env.ATTACK_PORT ?? 18795);
const DIST_DIR = resolve(process.env.DIST_DIR ?? resolve(import.meta.dirname, '..', 'dist'));
const SECONDS = Number(process.env.ATTACK_SECONDS ?? 10);
const BASE = `http://127.0.0.1:${PORT}`;
const ONLY = process.env.ATTACK_ONLY ? new RegExp(process.env.ATTACK_ONLY, 'i') : null;

interface Reply {
  status: number;
  ms: number;
  bytes: number;
}

function send(
  method: string,
  path: string,
  o: { from?: string; headers?: Record<string, string>; body?: string; agent?: Agent | false; timeoutMs?: number } = {},
): Promise<Reply> {
  const started = performance.now();
  return new Promise((done) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: PORT,
        method,
        path,
        localAddress: o.from ?? '127.0.0.1',
        headers: o.headers,
        agent: o.agent ?? false,
        timeout: o.timeoutMs ?? 30_000,
      },
      (res) => {
        let bytes = 0;
        res.on('data', (d: Buffer) => (bytes += d.length));
        res.on('end', () => done({ status: res.statusCode ?? 0, ms: performance.now() - started, bytes }));
        res.on('error', () => done({ status: -1, ms: performance.now() - started, bytes }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => done({ status: -1, ms: performance.now() - started, bytes: 0 }));
    req.end(o.body);
  });
}

const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '—');

/** A normal client: sequential requests for real data, each from one of 50 addresses so that its own budget never runs out. */
function normalClient(until: () => boolean) {
  const paths = ['/v1/commodities/energy.oil', '/v1/reserves?commodity=gas&country=de', '/v1/countries/DEU', '/v1/commodities?group=metals'];
  const lat: number[] = [];
  let failed = 0;
  let i = 0;
  const agent = new Agent({ keepAlive: false });
  const done = (async () => {
    while (!until()) {
      const r = await send('GET', paths[i % paths.length]!, { from: `127.0.9.${(i % 50) + 1}`, agent });
      if (r.status === 200) lat.push(r.ms);
      else failed++;
      i++;
      await sleep(20);
    }
  })();
  return { done, lat, failed: () => failed };
}

async function during(child: ChildProcess, name: string, attack: (stop: () => boolean) => Promise<string>) {
  if (ONLY && !ONLY.test(name)) return;
  await sleep(500);
  const before = rssMb(child);
  let peak = before;
  let stopped = false;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, rssMb(child));
    } catch {
      /* child gone */
    }
  }, 100);
  const end = Date.now() + SECONDS * 1000;
  const stop = () => stopped || Date.now() > end;
  const normal = normalClient(stop);
  const detail = await attack(stop);
  stopped = true;
  await normal.done;
  clearInterval(sampler);
  await sleep(1000);
  let alive = true;
  try {
    process.kill(child.pid!, 0);
  } catch {
    alive = false;
  }
  const health = alive ? (await send('GET', '/healthz', { from: '127.0.8.1' })).status : 0;
  console.log(
    `| ${name} | ${detail} | ${before} → ${peak} MB | ${fmt(pct(normal.lat, 50))} / ${fmt(pct(normal.lat, 99))} ms | ${normal.lat.length} ok, ${normal.failed()} failed | ${alive ? `alive, /healthz ${health}` : 'DEAD'} |`,
  );
}

async function slowestInputs() {
  const lengths = [64, 256, 2_000, 15_000];
  const templates = [
    '/v1/commodities/energy.{x}',
    '/v1/commodities/{x}',
    '/v1/countries/{x}',
    '/v1/reserves?commodity={x}&country=de',
    '/v1/reserves?commodity=gas&country={x}',
    '/v1/reserves/timeseries?commodity=gas&country=de&from={x}',
    '/v1/commodities?group={x}',
    '/v1/events?commodity={x}',
    '/v1/events?country={x}',
    '/v1/briefings?q={x}',
    '/v1/search?q={x}',
    '/v1/scenarios?status={x}',
    '/docs/{x}.md',
    '/{x}',
  ];
  let slowest = { ms: 0, what: '' };
  let n = 0;
  for (const t of templates) {
    for (const len of lengths) {
      for (const x of ['x'.repeat(len), 'cobalt'.repeat(Math.ceil(len / 6)).slice(0, len)]) {
        const path = t.replace('{x}', x);
        if (path.length > 16_000) continue;
        const r = await send('GET', path, { from: `127.0.7.${(n % 200) + 1}` });
        n++;
        if (r.ms > slowest.ms) slowest = { ms: r.ms, what: `${t.replace('{x}', `<${len} chars>`)} → ${r.status}` };
      }
    }
  }
  for (const len of [256, 2_000, 8_000]) {
    const body = JSON.stringify({ question: 'y'.repeat(len) });
    const r = await send('POST', '/v1/ask', { from: `127.0.7.${(n++ % 200) + 1}`, headers: { 'content-type': 'application/json' }, body });
    if (r.ms > slowest.ms) slowest = { ms: r.ms, what: `POST /v1/ask <${len} chars> → ${r.status}` };
  }
  const mcp = await mcpSession('127.0.7.250');
  for (const len of [256, 60_000]) {
    for (const msg of [
      { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: `chokepoint://commodities/${'x'.repeat(len)}` } },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_commodity', arguments: { slug: `metals.${'x'.repeat(len)}` } } },
    ]) {
      const r = await send('POST', '/mcp', { from: '127.0.7.250', headers: { ...MCP_HEADERS, 'mcp-session-id': mcp }, body: JSON.stringify(msg) });
      if (r.ms > slowest.ms) slowest = { ms: r.ms, what: `MCP ${msg.method} <${len} chars> → ${r.status}` };
    }
  }
  console.log(`Slowest answer over ${n + 4} inputs up to 15,000 characters (and MCP up to 60,000): **${fmt(slowest.ms)} ms** (${slowest.what}).\n`);
}

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
async function mcpSession(from: string): Promise<string> {
  return new Promise((done, fail) => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'attack', version: '1' } },
    });
    const req = request({ host: '127.0.0.1', port: PORT, method: 'POST', path: '/mcp', localAddress: from, headers: MCP_HEADERS, agent: false }, (res) => {
      res.resume();
      const id = res.headers['mcp-session-id'];
      res.on('end', () => (typeof id === 'string' ? done(id) : fail(new Error(`no session (${res.statusCode})`))));
    });
    req.on('error', fail);
    req.end(body);
  });
}

async function main() {
  const child = await startServer({
    DIST_DIR,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    // The attacks come from loopback addresses: `/metrics from another machine` names its
    // clients in X-Forwarded-For (no other attack sends it, so the others are their socket address).
    TRUST_PROXY: 'loopback',
    ...(process.env.ATTACK_NODE_OPTIONS ? { NODE_OPTIONS: process.env.ATTACK_NODE_OPTIONS } : {}),
  });
  try {
    await waitFor(`${BASE}/healthz`, 30_000);
    console.log(`Machine: ${cpus().length} × ${cpus()[0]?.model}; server \`api/server.ts\` with production rate limits; ${SECONDS} s per attack.\n`);
    if (!ONLY) await slowestInputs();
    console.log('| attack | what it sent | server RSS (before → peak) | normal client p50 / p99 | normal client | server after |');
    console.log('|---|---|---|---|---|---|');

    // The normal client alone, for comparison on a machine other work may share.
    await during(child, 'baseline: no attack', async (stop) => {
      while (!stop()) await sleep(100);
      return 'nothing';
    });

    await during(child, 'suggestion flood', async (stop) => {
      let sent = 0;
      // Three addresses, each spending its whole 60/min budget at once on 15,000-character slugs.
      await Promise.all(
        [2, 3, 4].map(async (ip) => {
          const agent = new Agent({ keepAlive: true, maxSockets: 10 });
          while (!stop()) {
            await Promise.all(
              Array.from({ length: 10 }, () =>
                send('GET', `/v1/commodities/energy.${'q'.repeat(15_000)}`, { from: `127.0.0.${ip}`, agent }).then(() => sent++),
              ),
            );
          }
        }),
      );
      return `${sent} requests with 15,000-char slugs from 3 IPs`;
    });

    await during(child, 'MCP long URIs', async (stop) => {
      let sent = 0;
      await Promise.all(
        ['127.0.0.5', '127.0.0.6'].map(async (from) => {
          const id = await mcpSession(from);
          const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: `chokepoint://commodities/${'x'.repeat(60_000)}` } });
          const agent = new Agent({ keepAlive: true, maxSockets: 4 });
          while (!stop())
            await Promise.all(
              Array.from({ length: 4 }, () =>
                send('POST', '/mcp', { from, agent, headers: { ...MCP_HEADERS, 'mcp-session-id': id }, body }).then(() => sent++),
              ),
            );
        }),
      );
      return `${sent} resources/read of 60,000-char URIs from 2 IPs`;
    });

    await during(child, 'SSE never read', async (stop) => {
      // Open a stream, never read it, and keep posting batches of large reads to it.
      const sock = connect({ host: '127.0.0.1', port: PORT, localAddress: '127.0.0.7' });
      sock.write(`GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${PORT}\r\nAccept: text/event-stream\r\n\r\n`);
      let head = '';
      const endpoint = await new Promise<string | undefined>((done) => {
        const onData = (d: Buffer) => {
          head += d.toString();
          const m = /data: (\/mcp\?sessionId=[\w-]+)/.exec(head);
          if (m || head.length > 8192) {
            sock.off('data', onData);
            sock.pause();
            done(m?.[1]);
          }
        };
        sock.on('data', onData);
      });
      let statuses: Record<number, number> = {};
      if (endpoint) {
        const batch = JSON.stringify(
          Array.from({ length: 10 }, (_, i) => ({
            jsonrpc: '2.0',
            id: i,
            method: 'tools/call',
            params: { name: 'get_reserve_timeseries', arguments: { commodity: 'gas', country: 'eu', from: '2011-01-01' } },
          })),
        );
        while (!stop()) {
          const r = await send('POST', endpoint, { from: '127.0.0.7', headers: { 'content-type': 'application/json' }, body: batch });
          statuses = { ...statuses, [r.status]: (statuses[r.status] ?? 0) + 1 };
          if (r.status === 404) break;
        }
      }
      sock.destroy();
      return `unread stream, batch POSTs: ${
        Object.entries(statuses)
          .map(([s, n]) => `${n}×${s}`)
          .join(', ') || 'no endpoint'
      }`;
    });

    await during(child, 'silent connections', async (stop) => {
      const socks: Socket[] = [];
      let refused = 0;
      let closed = 0;
      for (let ip = 1; ip <= 50 && !stop(); ip++) {
        for (let k = 0; k < 100; k++) {
          const s = connect({ host: '127.0.0.1', port: PORT, localAddress: `127.0.6.${ip}` });
          s.on('error', () => refused++);
          s.on('close', () => closed++);
          s.resume(); // read, so that the server's refusal or timeout is seen
          socks.push(s);
        }
        await sleep(10);
      }
      while (!stop()) await sleep(100);
      const open = socks.length - closed;
      for (const s of socks) s.destroy();
      return `${socks.length} silent sockets from 50 IPs (100 each); ${closed} closed by the server (per-IP and total caps, header timeout), ${open} open at the end, ${refused} socket errors`;
    });

    await during(child, 'padded memo keys', async (stop) => {
      let sent = 0;
      let n = 0;
      const agent = new Agent({ keepAlive: true, maxSockets: 20 });
      while (!stop()) {
        await Promise.all(
          Array.from({ length: 20 }, () => {
            // Values padded with blanks trim to the same answer; each URL differs in its padding.
            const pad = '%20'.repeat(500 + (n % 2_000));
            const from = `127.0.5.${(n++ % 250) + 1}`;
            return send('GET', `/v1/reserves?commodity=gas${pad}&country=de`, { from, agent }).then(() => sent++);
          }),
        );
      }
      return `${sent} padded query strings (1.5–7.5 KB) from 250 IPs`;
    });

    for (const [path, what] of [
      ['/en/', '/en/'],
      ['/healthz', '/healthz'],
      ['/bulk/prices.csv', '/bulk/prices.csv (2.6 MB, uncompressed)'],
    ] as const) {
      await during(child, `pipelines never read: ${what}`, async (stop) => {
        // 20 connections from one address, each writing 2,000 pipelined GETs and never reading;
        // again with 20 new connections every 6 s (the server closes a refused connection after 5 s).
        const request = `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${PORT}\r\n\r\n`.repeat(2_000);
        let opened = 0;
        while (!stop()) {
          const round = Array.from({ length: 20 }, () => {
            const s = connect({ host: '127.0.0.1', port: PORT, localAddress: '127.0.0.8' });
            s.pause();
            s.on('error', () => {});
            s.on('connect', () => s.write(request));
            opened++;
            return s;
          });
          for (let t = 0; t < 60 && !stop(); t++) await sleep(100);
          for (const s of round) s.destroy();
        }
        return `${opened} connections from 1 IP, 2,000 requests each, never read`;
      });
    }

    await during(child, 'random long words within the quota', async (stop) => {
      // Five addresses, each spending its whole budget (60 searches, 10 asks a minute) at once on
      // queries of random 9–10-letter words: what spelling correction costs most.
      let seed = 1;
      const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      const word = () => Array.from({ length: 9 + Math.floor(rnd() * 2) }, () => String.fromCharCode(97 + Math.floor(rnd() * 26))).join('');
      const q = (chars: number) => Array.from({ length: 50 }, word).join(' ').slice(0, chars).trim();
      let searches = 0;
      let asks = 0;
      await Promise.all(
        [10, 11, 12, 13, 14].map(async (ip) => {
          const from = `127.0.0.${ip}`;
          await Promise.all([
            ...Array.from({ length: 60 }, () =>
              send('GET', `/v1/search?q=${encodeURIComponent(q(200))}`, { from }).then((r) => r.status === 200 && searches++),
            ),
            ...Array.from({ length: 10 }, () =>
              send('POST', '/v1/ask', { from, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ q: q(500) }) }).then(
                (r) => r.status === 200 && asks++,
              ),
            ),
          ]);
          while (!stop()) await sleep(100);
        }),
      );
      return `${searches} searches (200 chars) and ${asks} asks (500 chars) of random 9–10-letter words from 5 IPs, each its whole quota at once`;
    });

    // Each of 16 keep-alive connections from one address asking again as soon as it has its answer.
    const flood = async (stop: () => boolean, path: string, o: { from: string; headers?: Record<string, string> }) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 16 });
      const statuses: Record<number, number> = {};
      let bytes = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (!stop()) {
            const r = await send('GET', path, { ...o, agent });
            statuses[r.status] = (statuses[r.status] ?? 0) + 1;
            bytes += r.bytes;
          }
        }),
      );
      agent.destroy();
      const seconds = (performance.now() - started) / 1000;
      const counts = Object.entries(statuses)
        .map(([st, n]) => `${n}×${st}`)
        .join(', ');
      return { counts, mbPerSecond: bytes / 2 ** 20 / seconds };
    };

    await during(child, '/metrics from another machine', async (stop) => {
      const r = await flood(stop, '/metrics', { from: '127.0.0.20', headers: { 'x-forwarded-for': '203.0.113.20' } });
      return `16 connections from 1 IP (named by a proxy) asking /metrics back to back: ${r.counts}`;
    });

    await during(child, 'bulk downloads from one address', async (stop) => {
      const r = await flood(stop, '/bulk/prices.csv', { from: '127.0.0.21', headers: { 'accept-encoding': 'identity' } });
      return `16 connections from 1 IP downloading /bulk/prices.csv (2.6 MB) back to back: ${r.counts}; ${r.mbPerSecond.toFixed(1)} MB/s served on average`;
    });
  } finally {
    child.kill('SIGTERM');
  }
}

await main();
