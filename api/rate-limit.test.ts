import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile, rm } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { serve, type ServerType } from '@hono/node-server';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTrustProxy } from './client-ip.ts';
import { createApp } from './app.ts';
import { loadBuild, type LoadedBuild } from './build.ts';
import { StaticBuildSource } from './build-store.ts';
import { inject } from 'vitest';
import { freePort } from '../test/http.ts';
import { createRateLimits, type RateLimitOptions, type RateLimits } from './rate-limit.ts';

// --- helpers -------------------------------------------------------------------------------

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Running {
  port: number;
  limits: RateLimits;
  logs: string[];
  close(): Promise<void>;
}

const open: Running[] = [];
let build: LoadedBuild | undefined;

/** The real app over the shared test build, with the limits mounted, on a real loopback socket. */
async function startApp(opts: Partial<RateLimitOptions> & { trustProxy?: string; trustedProxies?: string } = {}): Promise<Running> {
  const logs: string[] = [];
  const limits = await createRateLimits({ data: 60, ask: 10, trust: parseTrustProxy(opts.trustProxy, opts.trustedProxies), log: (m) => logs.push(m), ...opts });
  build ??= await loadBuild((p) => readFile(join(inject('distDir'), 'current', p)));
  const app = createApp({ source: new StaticBuildSource(build), baseUrl: 'https://chokepoint.test', limits });
  // What an MCP tool call does: count against the data budget, answer with the headers.
  app.post('/test/consume', async (c) => {
    const r = await limits.consume(c, 'data');
    return c.json({ allowed: r.allowed }, r.allowed ? 200 : 429, limits.headers('data', r));
  });
  const server = await new Promise<ServerType>((r) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => r(s));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const running: Running = {
    port,
    limits,
    logs,
    close: async () => {
      await new Promise<void>((r) => server.close(() => r()));
      await limits.close();
    },
  };
  open.push(running);
  return running;
}

afterAll(async () => {
  await Promise.all(open.map((r) => r.close().catch(() => undefined)));
});

function send(port: number, opts: { path?: string; method?: string; from?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
  const ask = opts.path === '/v1/ask';
  const headers = ask ? { 'content-type': 'application/json', ...opts.headers } : opts.headers;
  return new Promise((resolvePromise, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: opts.path ?? '/v1/commodities',
        method: opts.method ?? 'GET',
        localAddress: opts.from ?? '127.0.0.1',
        agent: false,
        headers,
        timeout: 10_000,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(ask ? JSON.stringify({ q: 'What is the price of oil?' }) : undefined);
  });
}

const many = (n: number, f: (i: number) => Promise<Reply>) => Promise.all(Array.from({ length: n }, (_, i) => f(i)));
const statuses = (rs: Reply[]) => ({ ok: rs.filter((r) => r.status === 200).length, limited: rs.filter((r) => r.status === 429).length });
const randomIp = () => Array.from({ length: 4 }, () => Math.floor(Math.random() * 256)).join('.');
const remainingOf = (r: Reply) => Number(/;r=(\d+);/.exec(String(r.headers['ratelimit']))?.[1]);

/**
 * Quota 5 per 2 s. Requests at 0 s (1) and 1.2 s (4) use the quota; at 2.1 s a fixed window that
 * opened at 0 s would start afresh and admit 5 more (10 within 0.9 s); the sliding window frees
 * only the slot of the request at 0 s. Its 429 says when the next slot frees (the requests at
 * 1.2 s leave at 3.2 s), and a retry then is admitted.
 */
async function slidingWindowHolds(app: Running, from: string): Promise<void> {
  const t0 = Date.now();
  expect((await send(app.port, { from })).status).toBe(200);
  await sleep(1200 - (Date.now() - t0));
  const second = await many(4, () => send(app.port, { from }));
  expect(statuses(second)).toEqual({ ok: 4, limited: 0 });
  await sleep(2100 - (Date.now() - t0));
  const boundary = await many(5, () => send(app.port, { from }));
  expect(statuses(boundary)).toEqual({ ok: 1, limited: 4 });
  const refused = boundary.find((r) => r.status === 429)!;
  expect(refused.headers['ratelimit']).toMatch(/^"data";r=0;t=[12]$/);
  const retry = Number(refused.headers['retry-after']);
  expect(String(retry)).toBe(/t=(\d+)$/.exec(String(refused.headers['ratelimit']))![1]);
  await sleep(retry * 1000 + 50);
  const after = await send(app.port, { from });
  expect(after.status).toBe(200);
}

// --- in memory -----------------------------------------------------------------------------

describe('rate limits in memory', () => {
  let app: Running;
  beforeAll(async () => {
    app = await startApp();
  });

  it('sends RateLimit-Policy and RateLimit exactly as SPEC §7 on a 200', async () => {
    const r = await send(app.port, { from: '127.0.0.10' });
    expect(r.status).toBe(200);
    expect(r.headers['ratelimit-policy']).toBe('"data";q=60;w=60');
    expect(r.headers['ratelimit']).toMatch(/^"data";r=59;t=(60|59)$/);
    const a = await send(app.port, { path: '/v1/ask', method: 'POST', from: '127.0.0.10' });
    expect(a.status).toBe(200);
    expect(a.headers['ratelimit-policy']).toBe('"ask";q=10;w=60');
    expect(a.headers['ratelimit']).toMatch(/^"ask";r=9;t=(60|59)$/);
    expect(a.headers['retry-after']).toBeUndefined();
  });

  it('sends the headers on error responses and computed responses too', async () => {
    const nf = await send(app.port, { path: '/v1/commodities/metals.nope', from: '127.0.0.11' });
    expect(nf.status).toBe(404);
    expect(nf.headers['ratelimit']).toMatch(/^"data";r=59;t=\d+$/);
    const raw = await send(app.port, { path: '/v1/events?since=2020-01-01', from: '127.0.0.11' });
    expect(raw.status).toBe(200);
    expect(raw.headers['ratelimit']).toMatch(/^"data";r=58;t=\d+$/);
    expect(raw.headers['ratelimit-policy']).toBe('"data";q=60;w=60');
  });

  it('answers the 11th ask with a quota-exceeded problem, Retry-After and the headers', async () => {
    const from = '127.0.0.12';
    const ok = await many(10, () => send(app.port, { path: '/v1/ask', method: 'POST', from }));
    expect(statuses(ok)).toEqual({ ok: 10, limited: 0 });
    const r = await send(app.port, { path: '/v1/ask', method: 'POST', from });
    expect(r.status).toBe(429);
    expect(r.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(r.headers['ratelimit-policy']).toBe('"ask";q=10;w=60');
    const m = /^"ask";r=0;t=(\d+)$/.exec(String(r.headers['ratelimit']));
    expect(m).not.toBeNull();
    const retry = String(r.headers['retry-after']);
    expect(retry).toMatch(/^[1-9]\d*$/);
    expect(Number(retry)).toBeLessThanOrEqual(60);
    expect(retry).toBe(m![1]);
    const body = JSON.parse(r.body) as Record<string, unknown>;
    expect(body).toMatchObject({ type: 'https://iana.org/assignments/http-problem-types#quota-exceeded', status: 429, instance: '/v1/ask', policy: 'ask' });
    expect(typeof body.detail).toBe('string');
    expect(String(body.detail)).toMatch(/ask/);
    // the data budget of the same client is untouched
    const d = await send(app.port, { from });
    expect(d.status).toBe(200);
    expect(remainingOf(d)).toBe(59);
  });

  it('admits exactly 60 of 200 concurrent requests from one IP', async () => {
    const rs = await many(200, () => send(app.port, { from: '127.0.0.20' }));
    expect(statuses(rs)).toEqual({ ok: 60, limited: 140 });
    const remainings = rs
      .filter((r) => r.status === 200)
      .map(remainingOf)
      .sort((a, b) => a - b);
    expect(remainings).toEqual(Array.from({ length: 60 }, (_, i) => i));
    for (const r of rs.filter((x) => x.status === 429)) {
      expect(r.headers['ratelimit']).toMatch(/^"data";r=0;t=\d+$/);
      expect(r.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    }
  });

  it('keeps separate buckets per IP', async () => {
    const a = await many(61, () => send(app.port, { from: '127.0.0.2' }));
    expect(statuses(a)).toEqual({ ok: 60, limited: 1 });
    const b = await send(app.port, { from: '127.0.0.3' });
    expect(b.status).toBe(200);
    expect(remainingOf(b)).toBe(59);
  });

  it('ignores a forged X-Forwarded-For when TRUST_PROXY is unset', async () => {
    const rs = await many(100, () =>
      send(app.port, { from: '127.0.0.4', headers: { 'x-forwarded-for': randomIp(), 'x-real-ip': randomIp(), 'cf-connecting-ip': randomIp() } }),
    );
    expect(statuses(rs)).toEqual({ ok: 60, limited: 40 });
  });

  it('counts MCP tool calls (consume) against the data budget', async () => {
    const from = '127.0.0.13';
    for (let i = 0; i < 5; i++) {
      const r = await send(app.port, { path: '/test/consume', method: 'POST', from });
      expect(r.status).toBe(200);
      expect(r.headers['ratelimit']).toMatch(new RegExp(`^"data";r=${59 - i};t=\\d+$`));
    }
    const d = await send(app.port, { from });
    expect(remainingOf(d)).toBe(54);
    const rest = await many(60, () => send(app.port, { path: '/test/consume', method: 'POST', from }));
    expect(statuses(rest)).toEqual({ ok: 54, limited: 6 });
    const refused = rest.find((r) => r.status === 429)!;
    expect(refused.headers['retry-after']).toMatch(/^[1-9]\d*$/);
  });

  it('a 429 costs no more than a 200', async () => {
    const from = '127.0.0.14';
    await many(10, () => send(app.port, { path: '/v1/ask', method: 'POST', from }));
    const time = async (n: number, path: string, method: string, who: string) => {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < n; i++) await send(app.port, { path, method, from: who });
      return Number(process.hrtime.bigint() - t0) / n;
    };
    // warm both paths, then compare sequential averages (generous margin: this is a smoke check)
    await time(20, '/v1/ask', 'POST', from);
    const limited = await time(50, '/v1/ask', 'POST', from);
    const ok = await time(50, '/v1/events?since=2020-01-01', 'GET', '127.0.0.15');
    expect(limited).toBeLessThan(ok * 3);
  });
});

describe('rate-limit options', () => {
  it('refuses a hop count without the list of proxies it applies to', () => {
    expect(() => parseTrustProxy('1')).toThrow(/TRUSTED_PROXIES/);
  });

  it('ignores a forged X-Forwarded-For from a peer that is not a trusted proxy (TRUST_PROXY=1, TRUSTED_PROXIES=10.0.0.0/8)', async () => {
    const app = await startApp({ trustProxy: '1', trustedProxies: '10.0.0.0/8', data: 5 });
    // one socket address rotating X-Forwarded-For: one bucket
    const rotating = await many(20, () => send(app.port, { from: '127.0.0.36', headers: { 'x-forwarded-for': randomIp() } }));
    expect(statuses(rotating)).toEqual({ ok: 5, limited: 15 });
    // forged requests naming a victim do not lock the victim out
    const forged = await many(10, () => send(app.port, { from: '127.0.0.37', headers: { 'x-forwarded-for': '127.0.0.38' } }));
    expect(statuses(forged)).toEqual({ ok: 5, limited: 5 });
    const victim = await send(app.port, { from: '127.0.0.38' });
    expect(victim.status).toBe(200);
    expect(remainingOf(victim)).toBe(4);
  });

  it('trusts the X-Forwarded-For client with TRUST_PROXY=1 from a trusted proxy', async () => {
    const app = await startApp({ trustProxy: '1', trustedProxies: '127.0.0.0/8', data: 5 });
    const rs = await many(8, () => send(app.port, { from: '127.0.0.30', headers: { 'x-forwarded-for': `${randomIp()}, 203.0.113.7` } }));
    expect(statuses(rs)).toEqual({ ok: 5, limited: 3 });
    const other = await send(app.port, { from: '127.0.0.30', headers: { 'x-forwarded-for': '203.0.113.8' } });
    expect(other.status).toBe(200);
    // an invalid entry never names a bucket: it falls back to the proxy's own address
    const junk = await many(6, () => send(app.port, { from: '127.0.0.31', headers: { 'x-forwarded-for': `junk-${Math.random()}` } }));
    expect(statuses(junk)).toEqual({ ok: 5, limited: 1 });
  });

  it('uses the named header with TRUST_PROXY=header:CF-Connecting-IP', async () => {
    const app = await startApp({ trustProxy: 'header:CF-Connecting-IP', data: 3 });
    const a = await many(4, () => send(app.port, { from: '127.0.0.32', headers: { 'cf-connecting-ip': '198.51.100.1' } }));
    expect(statuses(a)).toEqual({ ok: 3, limited: 1 });
    const b = await send(app.port, { from: '127.0.0.32', headers: { 'cf-connecting-ip': '198.51.100.2' } });
    expect(b.status).toBe(200);
    const forged = await many(4, () => send(app.port, { from: '127.0.0.33', headers: { 'cf-connecting-ip': 'not-an-ip', 'x-forwarded-for': randomIp() } }));
    expect(statuses(forged)).toEqual({ ok: 3, limited: 1 });
  });

  it('turns a policy off with 0: no counting, no headers, never 429', async () => {
    const app = await startApp({ data: 0, ask: 2 });
    const rs = await many(100, () => send(app.port, { from: '127.0.0.34' }));
    expect(statuses(rs)).toEqual({ ok: 100, limited: 0 });
    for (const r of rs) {
      expect(r.headers['ratelimit']).toBeUndefined();
      expect(r.headers['ratelimit-policy']).toBeUndefined();
    }
    const mcp = await send(app.port, { path: '/test/consume', method: 'POST', from: '127.0.0.34' });
    expect(mcp.status).toBe(200);
    expect(mcp.headers['ratelimit']).toBeUndefined();
    const ask = await many(3, () => send(app.port, { path: '/v1/ask', method: 'POST', from: '127.0.0.34' }));
    expect(statuses(ask)).toEqual({ ok: 2, limited: 1 });
  });

  it('frees a slot when the oldest request leaves the window, and says when', async () => {
    const app = await startApp({ data: 2, windowMs: 1000 });
    const first = await many(3, () => send(app.port, { from: '127.0.0.35' }));
    expect(statuses(first)).toEqual({ ok: 2, limited: 1 });
    expect(first.find((r) => r.status === 429)!.headers['retry-after']).toBe('1');
    await sleep(1100);
    const again = await send(app.port, { from: '127.0.0.35' });
    expect(again.status).toBe(200);
    expect(again.headers['ratelimit']).toBe('"data";r=1;t=1');
    expect(again.headers['ratelimit-policy']).toBe('"data";q=2;w=1');
  });

  it('sliding window: no boundary lets a client through twice its quota', async () => {
    await slidingWindowHolds(await startApp({ data: 5, windowMs: 2000 }), '127.0.0.39');
  });

  it('refuses a bad configuration', async () => {
    await expect(createRateLimits({ data: 60, ask: 10, instances: 0, trust: { kind: 'none' } })).rejects.toThrow(/instances/);
  });

  it('refuses a bad configuration', async () => {
    await expect(createRateLimits({ data: -1, ask: 10, trust: { kind: 'none' } })).rejects.toThrow(/whole number/);
    await expect(createRateLimits({ data: 1.5, ask: 10, trust: { kind: 'none' } })).rejects.toThrow(/whole number/);
  });
});

// --- Redis ---------------------------------------------------------------------------------

function pingOnce(port: number): Promise<boolean> {
  return new Promise((r) => {
    const sock = connect({ host: '127.0.0.1', port });
    let buf = '';
    const done = (ok: boolean) => {
      sock.destroy();
      r(ok);
    };
    sock.setTimeout(500, () => done(false));
    sock.on('error', () => done(false));
    sock.on('connect', () => sock.write('PING\r\n'));
    sock.on('data', (d) => {
      buf += d.toString();
      if (buf.includes('\r\n')) done(buf.startsWith('+PONG'));
    });
  });
}

async function waitFor(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await sleep(50);
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}`);
}

class RedisServer {
  proc: ChildProcess | null = null;
  readonly port: number;
  constructor(port: number) {
    this.port = port;
  }

  async start(): Promise<void> {
    const proc = spawn('/usr/bin/redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    this.proc = proc;
    await waitFor(() => pingOnce(this.port), 10_000, `redis-server on port ${this.port}`);
  }

  async stop(): Promise<void> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((r) => proc.once('exit', () => r()));
    proc.kill('SIGKILL');
    await exited;
    this.proc = null;
  }
}

const redisAvailable = await import('node:fs').then((fs) => fs.existsSync('/usr/bin/redis-server'));

describe.skipIf(!redisAvailable)('rate limits in Redis', () => {
  let redis: RedisServer;
  let url = '';
  let a: Running;
  let b: Running;
  let probe: ReturnType<typeof createClient>;

  beforeAll(async () => {
    redis = new RedisServer(await freePort());
    await redis.start();
    url = `redis://127.0.0.1:${redis.port}`;
    // a generous command timeout: exactness under load must not depend on the machine's speed
    a = await startApp({ redisUrl: url, redisTimeoutMs: 2000 });
    b = await startApp({ redisUrl: url, redisTimeoutMs: 2000 });
    probe = createClient({ url, socket: { reconnectStrategy: 100 } });
    probe.on('error', () => undefined);
    await probe.connect();
  });
  afterAll(async () => {
    probe?.destroy();
    await a?.close();
    await b?.close();
    await redis?.stop();
  });

  it('logs admissions in Redis under chokepoint:rl:<policy>: with the window as TTL', async () => {
    const r = await send(a.port, { from: '127.0.0.40' });
    expect(r.status).toBe(200);
    expect(r.headers['ratelimit']).toMatch(/^"data";r=59;t=(60|59)$/);
    expect(await probe.zCard('chokepoint:rl:data:127.0.0.40')).toBe(1);
    const ttl = await probe.pTTL('chokepoint:rl:data:127.0.0.40');
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    await send(a.port, { path: '/v1/ask', method: 'POST', from: '127.0.0.40' });
    expect(await probe.zCard('chokepoint:rl:ask:127.0.0.40')).toBe(1);
    expect(a.logs.some((l) => l.includes('counting in Redis'))).toBe(true);
  });

  it('admits exactly 60 of 200 concurrent requests from one IP', async () => {
    const rs = await many(200, () => send(a.port, { from: '127.0.0.41' }));
    expect(statuses(rs)).toEqual({ ok: 60, limited: 140 });
    // refused requests are not logged: the window holds exactly the 60 admitted
    expect(await probe.zCard('chokepoint:rl:data:127.0.0.41')).toBe(60);
  });

  it('shares one budget between two instances', async () => {
    const from = '127.0.0.42';
    const rs = await many(60, (i) => send(i % 2 === 0 ? a.port : b.port, { from }));
    expect(statuses(rs)).toEqual({ ok: 60, limited: 0 });
    const [ra, rb] = await Promise.all([send(a.port, { from }), send(b.port, { from })]);
    expect(ra.status).toBe(429);
    expect(rb.status).toBe(429);
    expect(JSON.parse(rb.body)).toMatchObject({ policy: 'data', status: 429 });
    // the same 200 concurrent split over both instances: still exactly 60
    const split = await many(200, (i) => send(i % 2 === 0 ? a.port : b.port, { from: '127.0.0.43' }));
    expect(statuses(split)).toEqual({ ok: 60, limited: 140 });
  });

  it('sliding window in Redis: no boundary lets a client through twice its quota', async () => {
    await slidingWindowHolds(await startApp({ redisUrl: url, redisTimeoutMs: 2000, data: 5, windowMs: 2000 }), '127.0.0.49');
  });

  it('keeps answering from memory when Redis goes away, and goes back to Redis when it returns', async () => {
    const warningsBefore = a.logs.filter((l) => l.startsWith('warning')).length;
    expect(warningsBefore).toBe(0);
    await redis.stop();

    const during = await many(20, () => send(a.port, { from: '127.0.0.44' }));
    expect(statuses(during)).toEqual({ ok: 20, limited: 0 });
    for (const r of during) expect(r.headers['ratelimit-policy']).toBe('"data";q=60;w=60');
    // still limited while in memory
    const more = await many(50, () => send(a.port, { from: '127.0.0.44' }));
    expect(statuses(more)).toEqual({ ok: 40, limited: 10 });
    const bDuring = await send(b.port, { from: '127.0.0.44' });
    expect(bDuring.status).toBe(200);
    await waitFor(() => a.logs.some((l) => l.startsWith('warning')), 5000, 'the outage warning');
    expect(a.logs.filter((l) => l.startsWith('warning'))).toHaveLength(1);
    expect(a.logs.find((l) => l.startsWith('warning'))).toMatch(/Redis .* unavailable .* counting in memory/);

    await redis.start();
    await waitFor(() => a.logs.some((l) => l.includes('is back')) && b.logs.some((l) => l.includes('is back')), 10_000, 'both instances to reconnect');
    await waitFor(async () => probe.isReady, 5000, 'the probe client to reconnect');
    const after = await send(a.port, { from: '127.0.0.45' });
    expect(after.status).toBe(200);
    expect(await probe.zCard('chokepoint:rl:data:127.0.0.45')).toBe(1);
    const afterB = await send(b.port, { from: '127.0.0.45' });
    expect(remainingOf(afterB)).toBe(58);
    expect(await probe.zCard('chokepoint:rl:data:127.0.0.45')).toBe(2);
    // one warning for the whole outage
    expect(a.logs.filter((l) => l.startsWith('warning'))).toHaveLength(1);
  }, 40_000);

  it('Redis killed: each instance admits at most limit / RATE_LIMIT_INSTANCES; restarted empty, it still knows them', async () => {
    const c = await startApp({ redisUrl: url, redisTimeoutMs: 2000, instances: 3 });
    const known = '127.0.0.51';
    const fresh = '127.0.0.52';
    expect(statuses(await many(10, () => send(c.port, { from: known })))).toEqual({ ok: 10, limited: 0 });
    await redis.stop();
    try {
      // 60 / 3 = 20 for a client new to this instance, the 10 it already admitted included for the other
      const newcomer = await many(100, () => send(c.port, { from: fresh }));
      expect(statuses(newcomer)).toEqual({ ok: 20, limited: 80 });
      expect(newcomer.find((r) => r.status === 200)!.headers['ratelimit-policy']).toBe('"data";q=20;w=60');
      expect(newcomer.find((r) => r.status === 429)!.headers['ratelimit']).toMatch(/^"data";r=0;t=\d+$/);
      expect(statuses(await many(100, () => send(c.port, { from: known })))).toEqual({ ok: 10, limited: 90 });
      expect(c.limits.mode()).toBe('fallback');
    } finally {
      await redis.start();
    }
    await waitFor(() => c.logs.some((l) => l.includes('is back')), 10_000, 'the instance to copy its admissions and count in Redis again');
    expect(c.limits.mode()).toBe('redis');
    // Redis restarted without data, yet the 20 admitted in this window are there: 40 more, not 60
    expect(await probe.zCard(`chokepoint:rl:data:${known}`)).toBe(20);
    expect(statuses(await many(100, () => send(c.port, { from: fresh })))).toEqual({ ok: 40, limited: 60 });
    expect(statuses(await many(100, () => send(c.port, { from: known })))).toEqual({ ok: 40, limited: 60 });
  }, 40_000);

  it('does not wait on a Redis that hangs: the command timeout sends the request to memory', async () => {
    const c = await startApp({ redisUrl: url, redisTimeoutMs: 200 });
    expect((await send(c.port, { from: '127.0.0.47' })).status).toBe(200);
    expect(await probe.zCard('chokepoint:rl:data:127.0.0.47')).toBe(1);
    const d = await startApp({ redisUrl: url });
    redis.proc!.kill('SIGSTOP');
    try {
      const t0 = Date.now();
      const rs = await many(10, () => send(c.port, { from: '127.0.0.47' }));
      expect(statuses(rs)).toEqual({ ok: 10, limited: 0 });
      expect(Date.now() - t0).toBeLessThan(2000);
      expect(c.logs.filter((l) => l.startsWith('warning'))).toHaveLength(1);
      expect(c.logs.find((l) => l.startsWith('warning'))).toMatch(/timeout/i);
      // close() does not wait on it either
      const t1 = Date.now();
      await d.limits.close();
      expect(Date.now() - t1).toBeLessThan(2000);
    } finally {
      redis.proc!.kill('SIGCONT');
    }
    // after the one-second back-off, the next request probes Redis again and counting is back there
    await sleep(1100);
    await waitFor(
      async () => (await send(c.port, { from: '127.0.0.48' })).status === 200 && c.logs.some((l) => l.includes('is back')),
      5000,
      'Redis to be used again',
    );
    expect(await probe.zCard('chokepoint:rl:data:127.0.0.48')).toBeGreaterThanOrEqual(1);
  }, 20_000);

  it('starts (in memory, with a warning) when Redis is not there, and close() lets it go', async () => {
    const dead = `redis://127.0.0.1:${await freePort()}`;
    const t0 = Date.now();
    const app = await startApp({ redisUrl: dead, data: 2 });
    expect(Date.now() - t0).toBeLessThan(5000);
    const rs = await many(3, () => send(app.port, { from: '127.0.0.46' }));
    expect(statuses(rs)).toEqual({ ok: 2, limited: 1 });
    expect(app.logs.filter((l) => l.startsWith('warning'))).toHaveLength(1);
    const t1 = Date.now();
    await app.close();
    expect(Date.now() - t1).toBeLessThan(2000);
  }, 20_000);

  it.each([
    ['reachable', true],
    ['unreachable', false],
  ])(
    'does not keep the process alive after close() (Redis %s)',
    async (_label, up) => {
      const target = up ? url : `redis://127.0.0.1:${await freePort()}`;
      const file = join(tmpdir(), `chokepoint-rl-exit-${process.pid}-${Date.now()}.mts`);
      const mod = resolve(import.meta.dirname, 'rate-limit.ts');
      await writeFile(
        file,
        `import { createRateLimits } from ${JSON.stringify(mod)};\n` +
          `const l = await createRateLimits({ data: 60, ask: 10, trust: { kind: 'none' }, redisUrl: ${JSON.stringify(target)} });\n` +
          `await l.close();\nconsole.log('closed');\n`,
      );
      try {
        const child = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'pipe'], cwd: resolve(import.meta.dirname, '..') });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        const code = await Promise.race([
          new Promise<number | null>((r) => child.once('exit', (c) => r(c))),
          sleep(15_000).then(() => {
            child.kill('SIGKILL');
            return 'hung' as const;
          }),
        ]);
        expect(code).toBe(0);
        expect(out).toContain('closed');
      } finally {
        await rm(file, { force: true });
      }
    },
    30_000,
  );
});
