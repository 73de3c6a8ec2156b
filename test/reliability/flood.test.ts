import { readdirSync, readlinkSync } from 'node:fs';
import { cp, mkdir, readlink, symlink } from 'node:fs/promises';
import { request, type ClientRequest } from 'node:http';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runBuild } from '../../pipeline/build.ts';
import { DATA_DIR, NO_SITE, SOURCES_DIR, tempDir, testEffects } from '../support.ts';
import { type RawReply as Reply, sendFrom, startTestServer } from '../http.ts';
import { startMcpTestServer } from '../../api/mcp/test-server.ts';

/**
 * Floods against the real server in this process: MCP sessions (Streamable HTTP and SSE) opened
 * concurrently from several loopback addresses beyond both caps, and a build switched in under
 * concurrent mixed traffic. Every loop is bounded in count; every request has a timeout.
 */

type Api = { port: number };
const send = (api: Api, method: string, path: string, opts: { from?: string; headers?: Record<string, string>; body?: string } = {}) =>
  sendFrom(api.port, method, path, opts);

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '1' } },
});
const MCP = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

interface Opened {
  kind: 'streamable' | 'sse';
  from: string;
  status: number;
  body: string;
  headers: Reply['headers'];
  close(): Promise<void>;
}

async function openStreamable(api: Api, from: string): Promise<Opened> {
  const r = await send(api, 'POST', '/mcp', { from, headers: MCP, body: INIT });
  const sid = r.headers['mcp-session-id'];
  return {
    kind: 'streamable',
    from,
    status: r.status,
    body: r.body,
    headers: r.headers,
    close: async () => {
      // From the address that opened it: a session is bound to its client's address. 404: evicted meanwhile to make room for another client.
      if (typeof sid === 'string')
        expect([200, 404]).toContain(
          (await send(api, 'DELETE', '/mcp', { from, headers: { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' } })).status,
        );
    },
  };
}

/** GET /mcp as an SSE client: resolves on the endpoint event (stream kept open) or on a refusal (read whole). */
function openSse(api: Api, from: string): Promise<Opened> {
  return new Promise((resolve, reject) => {
    let req: ClientRequest | undefined = undefined;
    req = request(
      {
        host: '127.0.0.1',
        port: api.port,
        method: 'GET',
        path: '/mcp',
        localAddress: from,
        agent: false,
        headers: { accept: 'text/event-stream' },
        timeout: 10_000,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        const closed = new Promise<void>((r) => res.once('close', () => r()));
        const opened = (): Opened => ({
          kind: 'sse',
          from,
          status: res.statusCode ?? 0,
          body,
          headers: res.headers,
          close: async () => {
            req!.destroy();
            await closed;
          },
        });
        res.on('data', (d: string) => {
          body += d;
          if (res.statusCode === 200 && body.includes('\n\n')) {
            req!.setTimeout(0);
            resolve(opened());
          }
        });
        res.on('end', () => resolve(opened()));
        res.on('error', () => undefined);
      },
    );
    req.on('timeout', () => req!.destroy(new Error('SSE open timed out')));
    req.on('error', (e) => (e.message === 'socket hang up' || e.message === 'aborted' ? undefined : reject(e)));
    req.end();
  });
}

const fds = () => readdirSync('/proc/self/fd').length;
setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;
/**
 * RSS after a full collection: what the flood leaves behind, not garbage V8 has not collected
 * yet (Node 24's V8 collects later than Node 20's: without it, RSS climbs 80 MB over the waves
 * and falls back once collected).
 */
const rssMb = () => {
  gc();
  return process.memoryUsage().rss / 2 ** 20;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a flood of MCP sessions and SSE streams is capped, with clear problems and bounded memory', () => {
  const MAX = 12;
  const PER_IP = 3;
  const ADDRESSES = Array.from({ length: 6 }, (_, i) => `127.0.0.${i + 2}`);
  let api: Awaited<ReturnType<typeof startMcpTestServer>>;
  beforeAll(async () => {
    api = await startMcpTestServer({ MCP_MAX_SESSIONS: String(MAX), MCP_MAX_SESSIONS_PER_IP: String(PER_IP) });
  });

  /** The caps hold at every moment: never more than MAX sessions, never more than PER_IP for one address. */
  function checkCaps(): void {
    expect(api.mcp.sessions.size).toBeLessThanOrEqual(MAX);
    for (const [client, n] of api.mcp.sessions.countsByClient()) expect(n, client).toBeLessThanOrEqual(PER_IP);
  }
  afterAll(() => api?.close());

  /** One wave: every address opens 3 Streamable HTTP sessions and 3 SSE streams at once (36 attempts, 12 places). */
  async function wave(): Promise<Opened[]> {
    const attempts = ADDRESSES.flatMap((from) => [0, 1, 2].flatMap(() => [openStreamable(api, from), openSse(api, from)]));
    return Promise.all(attempts);
  }

  function checkWave(all: Opened[]): void {
    const admitted = all.filter((o) => o.status === 200);
    // At least the capacity; more when a newcomer evicted an idle session of an address holding two more than it.
    expect(admitted.length).toBeGreaterThanOrEqual(MAX);
    expect(api.mcp.sessions.size).toBe(MAX);
    checkCaps();
    for (const o of all.filter((x) => x.status !== 200)) {
      expect([429, 503], `${o.kind} from ${o.from}: ${o.body}`).toContain(o.status);
      expect(o.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(Number(o.headers['retry-after'])).toBeGreaterThan(0);
      const p = JSON.parse(o.body) as Record<string, unknown>;
      expect(p).toMatchObject({ status: o.status, instance: '/mcp' });
      if (o.status === 429)
        expect(p).toMatchObject({ policy: 'mcp-sessions-per-ip', detail: expect.stringMatching(/at most 3 MCP sessions may be open per client IP/) });
      else expect(p).toMatchObject({ type: '/problems/mcp-sessions-exhausted', detail: expect.stringMatching(/maximum of 12 MCP sessions/) });
    }
    for (const o of admitted) {
      if (o.kind === 'sse') expect(o.body).toMatch(/^event: endpoint\ndata: \/mcp\?sessionId=[0-9a-f-]{36}\n\n/);
      else expect(JSON.parse(o.body)).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: expect.stringMatching(/chokepoint/) } } });
    }
  }

  it('admits up to the caps (evicting idle sessions of the biggest holder for newcomers), refuses the rest with 429/503 problems, and frees every place on close', async () => {
    // warm: the first session loads the MCP server code; measure from there
    const warm = await openStreamable(api, '127.0.0.1');
    await warm.close();
    await sleep(200);
    const fdsBefore = fds();
    const rssBefore = rssMb();
    const rssAfterWave: number[] = [];
    for (let round = 0; round < 8; round++) {
      const all = await wave();
      checkWave(all);
      // A flood of attempts while full: refused with problems, or admitted by evicting an idle session of an address holding two more; the caps hold.
      const refused = await Promise.all(
        Array.from({ length: 100 }, (_, i) => (i % 2 ? openSse(api, ADDRESSES[i % ADDRESSES.length]!) : openStreamable(api, '127.0.0.50'))),
      );
      for (const o of refused.filter((x) => x.status !== 200)) expect([429, 503]).toContain(o.status);
      checkCaps();
      expect(api.mcp.sessions.countsByClient().get('127.0.0.50') ?? 0).toBeGreaterThanOrEqual(1);
      await Promise.all([...all, ...refused].filter((o) => o.status === 200).map((o) => o.close()));
      rssAfterWave.push(rssMb());
    }
    // Everything closed: the full capacity is there again.
    await sleep(300);
    const again = await Promise.all(ADDRESSES.slice(0, 4).flatMap((from) => [openStreamable(api, from), openSse(api, from), openStreamable(api, from)]));
    expect(again.map((o) => o.status)).toEqual(Array(12).fill(200));
    await Promise.all(again.map((o) => o.close()));
    await sleep(300);
    const health = await send(api, 'GET', '/healthz');
    expect(health.status).toBe(200);
    await sleep(200);
    const fdsAfter = fds();
    const rssAfter = rssMb();
    console.log(
      `flood: 8 waves of 36 session attempts + 100 more while full; RSS ${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)} MB (after each wave: ${rssAfterWave.map((x) => x.toFixed(0)).join(', ')}); fds ${fdsBefore} → ${fdsAfter}`,
    );
    // Bounded memory: the whole flood (1,088 attempts, 109 sessions opened and closed) costs less than 64 MB of RSS,
    // and the last waves do not keep growing over the first ones (a leak per session would).
    expect(rssAfter - rssBefore).toBeLessThan(64);
    expect(rssAfterWave.at(-1)! - rssAfterWave[1]!).toBeLessThan(32);
    // Every socket of the flood is closed (client and server ends are both in this process).
    expect(fdsAfter).toBeLessThanOrEqual(fdsBefore + 2);
  }, 60_000);
});

describe('a build switched in under concurrent traffic', () => {
  let api: Awaited<ReturnType<typeof startTestServer>>;
  let dist: string;
  let build: string;
  beforeAll(async () => {
    const shared = inject('distDir');
    dist = await tempDir('dist-flood-reload');
    build = (await readlink(join(shared, 'current'))).split('/').pop()!;
    await mkdir(join(dist, 'builds'), { recursive: true });
    await cp(join(shared, 'builds', build), join(dist, 'builds', build), { recursive: true });
    await symlink(join('builds', build), join(dist, 'current'));
    api = await startTestServer({ DIST_DIR: dist });
  });
  afterAll(() => api?.close());

  const PATHS = [
    '/v1/commodities',
    '/v1/commodities/metals.cobalt',
    '/v1/events?since=2020-01-01',
    '/v1/reserves?commodity=gas&country=de',
    '/v1/search?q=gas%20storage',
    '/v1/countries/DEU',
    '/v1/briefings?lang=fr',
  ];

  it('every response during the switch is byte-for-byte one of the two builds, with zero errors', async () => {
    const bodies = async () => Object.fromEntries(await Promise.all(PATHS.map(async (p) => [p, (await send(api, 'GET', p)).body] as const)));
    const before = await bodies();
    let stop = false;
    const errors: string[] = [];
    const seen: { path: string; body: string; build: string }[] = [];
    const worker = async (w: number) => {
      // bounded: stops at the switch + 300 ms, and at most 5,000 requests per worker
      for (let i = 0; !stop && i < 5000; i++) {
        const path = PATHS[(w + i) % PATHS.length]!;
        try {
          const r = await send(api, 'GET', path);
          if (r.status !== 200) errors.push(`${path}: ${r.status}`);
          seen.push({ path, body: r.body, build: String(r.headers['x-build']) });
        } catch (err) {
          errors.push(`${path}: ${(err as Error).message}`);
        }
      }
    };
    const load = Promise.all(Array.from({ length: 16 }, (_, w) => worker(w)));
    const next = await runBuild(
      { sourcesDir: SOURCES_DIR, dataDir: DATA_DIR, outDir: dist, baseUrl: 'https://chokepoint.test', site: NO_SITE },
      testEffects(new Date('2026-11-22T00:30:00Z')),
    );
    await api.store.refresh();
    await sleep(300);
    stop = true;
    await load;
    expect(readlinkSync(join(dist, 'current'))).toContain(next.build);
    const after = await bodies();
    expect(errors).toEqual([]);
    const builds = new Set<string>();
    let mixed = 0;
    for (const s of seen) {
      if (s.body !== before[s.path] && s.body !== after[s.path]) mixed++;
      builds.add(s.build);
    }
    console.log(`reload under load: ${seen.length} responses from 16 workers, builds seen ${[...builds].join(', ')}, mixed ${mixed}`);
    expect(mixed).toBe(0);
    expect([...builds].sort()).toEqual([build, next.build].sort());
    expect(seen.length).toBeGreaterThan(100);
  }, 60_000);
});
