import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { REQUEST_ID_PATTERN } from '../contract/http.ts';
import { createLogger } from '../lib/log.ts';
import { sendFrom, startTestServer } from '../test/http.ts';
import { createApp } from './app.ts';
import { loadBuild } from './build.ts';
import { StaticBuildSource } from './build-store.ts';
import { logPrefix } from './ip-text.ts';
import { routeLabel } from './metrics.ts';
import { acceptRequestId } from './request-id.ts';

/** Request ids, the request log and /metrics over real HTTP against the real server (api/observe.ts). */

let api: Awaited<ReturnType<typeof startTestServer>>;
const lines: string[] = [];
const get = (path: string, init?: RequestInit) => fetch(`${api.url}${path}`, init);
const logged = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

/** The `request` line of a request id, once the server has written it (after the response). */
async function lineOf(id: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 50; i++) {
    const line = logged().find((l) => l.msg === 'request' && l.request_id === id);
    if (line) return line;
    await sleep(20);
  }
  throw new Error(`no request line for ${id}`);
}

/** The value of one series in the exposition text, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** The requests counted for a route and status, whoever answered them (the fast path or the app), or undefined when none. */
function requests(text: string, route: string, status: number): number | undefined {
  const values = (['app', 'fast_path'] as const)
    .map((by) => sample(text, `chokepoint_http_requests_total{route="${route}",status="${status}",answered_by="${by}"}`))
    .filter((v) => v !== undefined);
  return values.length ? values.reduce((a, b) => a + b, 0) : undefined;
}

beforeAll(async () => {
  // A data limit of 5 per minute, and every log line captured (a destination stream of our own;
  // the request lines come in batches, several lines to a write).
  api = await startTestServer(
    { RATE_LIMIT_DATA: '5' },
    createLogger({ name: 'api', level: 'info', destination: { write: (l: string) => void lines.push(...l.split('\n').filter(Boolean)) } }),
  );
});
afterAll(() => api.close());

describe('X-Request-Id', () => {
  it('is on every response, a fresh id when the client sent none', async () => {
    const res = await get('/healthz');
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
    const again = await get('/healthz');
    expect(again.headers.get('x-request-id')).not.toBe(id);
  });

  it('echoes an id the client sent when it is short and safe', async () => {
    const res = await get('/healthz', { headers: { 'x-request-id': 'trace-42.a_B' } });
    expect(res.headers.get('x-request-id')).toBe('trace-42.a_B');
  });

  it('replaces an id that is too long or carries other characters', async () => {
    for (const sent of ['x'.repeat(65), 'a b', 'id"<script>', 'ünï', 'a,b']) {
      const res = await get('/healthz', { headers: { 'x-request-id': sent } });
      const id = res.headers.get('x-request-id');
      expect(id).not.toBe(sent);
      expect(id).toMatch(REQUEST_ID_PATTERN);
    }
  });

  it('is in problem bodies as request_id, and in the headers of answers Hono did not build', async () => {
    const res = await get('/v1/nothing-here', { headers: { 'x-request-id': 'problem-1' } });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { request_id?: string }).request_id).toBe('problem-1');
    const invalid = await get('/v1/reserves?commodity=gas&country=de&bogus=1', { headers: { 'x-request-id': 'problem-2' } });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { request_id?: string }).request_id).toBe('problem-2');
    const mcp = await get('/mcp', { method: 'PUT', headers: { 'x-request-id': 'problem-3' } });
    expect(mcp.status).toBe(405);
    expect(mcp.headers.get('x-request-id')).toBe('problem-3');
    expect(((await mcp.json()) as { request_id?: string }).request_id).toBe('problem-3');
  });

  it('is given by the app itself where no Node listener runs (edge runtimes, app.request())', async () => {
    const build = await loadBuild((p) => readFile(join(inject('distDir'), 'current', p)));
    const app = createApp({ source: new StaticBuildSource(build), baseUrl: 'https://edge.test' });
    const ok = await app.request('/v1/commodities', { headers: { 'x-request-id': 'edge-1' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-request-id')).toBe('edge-1');
    const missing = await app.request('/v1/nothing-here');
    const id = missing.headers.get('x-request-id');
    expect(id).toMatch(REQUEST_ID_PATTERN);
    expect(((await missing.json()) as { request_id?: string }).request_id).toBe(id);
  });

  it('accepts exactly ≤ 64 characters of [A-Za-z0-9._-]', () => {
    expect(acceptRequestId('a'.repeat(64))).toBe('a'.repeat(64));
    expect(acceptRequestId('a'.repeat(65))).not.toBe('a'.repeat(65));
    expect(acceptRequestId('')).toMatch(REQUEST_ID_PATTERN);
    expect(acceptRequestId(undefined)).toMatch(REQUEST_ID_PATTERN);
  });
});

describe('the request log', () => {
  it('writes one JSON line per request with the request id, status, bytes, duration and the client network only', async () => {
    const res = await get('/v1/commodities?group=metals', { headers: { 'x-request-id': 'log-1', 'accept-encoding': 'identity' } });
    const body = await res.arrayBuffer();
    expect(res.status).toBe(200);
    const line = await lineOf('log-1');
    expect(line).toMatchObject({
      level: 'info',
      name: 'api',
      msg: 'request',
      request_id: 'log-1',
      method: 'GET',
      path: '/v1/commodities',
      query: 'group=metals',
      status: 200,
      client: '127.0.0.0/24',
    });
    // The body's bytes, as Content-Length says (issue 35: it counted the head too).
    expect(line.bytes).toBe(body.byteLength);
    expect(line.bytes).toBe(Number(res.headers.get('content-length')));
    // A compressed answer (the fast path's prebuilt brotli copy): the bytes sent, as its Content-Length.
    const br = await get('/v1/commodities', { headers: { 'x-request-id': 'log-br', 'accept-encoding': 'br' } });
    await br.arrayBuffer();
    expect(br.headers.get('content-encoding')).toBe('br');
    expect((await lineOf('log-br')).bytes).toBe(Number(br.headers.get('content-length')));
    expect(typeof line.ms).toBe('number');
    expect(typeof line.time).toBe('string');
    expect(JSON.stringify(line)).not.toContain('127.0.0.1');
    expect(lines.filter((l) => l.includes('"request_id":"log-1"'))).toHaveLength(1);
  });

  it('logs at most 1,024 characters of a path, and 512 of a query, however long the request line', async () => {
    const res = await get(`/v1/commodities/energy.${'q'.repeat(14_000)}?x=${'y'.repeat(1_000)}`, { headers: { 'x-request-id': 'log-long' } });
    await res.arrayBuffer();
    expect(res.status).toBe(400);
    const line = await lineOf('log-long');
    expect(line.path).toBe(`/v1/commodities/energy.${'q'.repeat(1024 - '/v1/commodities/energy.'.length)}…`);
    expect(line.query).toBe(`x=${'y'.repeat(510)}`);
    expect(lines.find((l) => l.includes('"request_id":"log-long"'))!.length).toBeLessThan(2_000);
  });

  it('logs start-up as a structured line too', () => {
    expect(logged().some((l) => l.level === 'info' && typeof l.msg === 'string' && l.msg.startsWith('listening on') && l.port === api.port)).toBe(true);
  });

  it('logs a client address by its /24 or /48 only', () => {
    expect(logPrefix('203.0.113.77')).toBe('203.0.113.0/24');
    expect(logPrefix('2001:db8:abcd:12:34::1')).toBe('2001:db8:abcd::/48');
    expect(logPrefix('unknown')).toBe('unknown');
  });

  it('writes nothing when the level is silent, and builds nothing for it', async () => {
    const quiet: string[] = [];
    const server = await startTestServer({}, createLogger({ name: 'api', level: 'silent', destination: { write: (l: string) => void quiet.push(l) } }));
    try {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      await sleep(50);
      expect(quiet).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('GET /metrics', () => {
  it('counts requests by route pattern and status, 429s by policy, and gives the build age', async () => {
    const from = '127.0.0.23';
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await sendFrom(api.port, 'GET', '/v1/commodities/metals.cobalt', { from })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    await sendFrom(api.port, 'GET', '/no/such/page', { from: '127.0.0.24' });
    await sendFrom(api.port, 'GET', '/v1/commodities/metals.unobtainium', { from: '127.0.0.24' });
    await sleep(50);

    // Not a data route: the client past its data limit still reads it; never cached.
    const res = await sendFrom(api.port, 'GET', '/metrics', { from });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-request-id']).toMatch(REQUEST_ID_PATTERN);
    const text = res.body;

    expect(requests(text, '/v1/commodities/:slug', 200)).toBe(5);
    expect(requests(text, '/v1/commodities/:slug', 429)).toBe(2);
    expect(requests(text, '/v1/commodities/:slug', 404)).toBe(1);
    expect(requests(text, 'other', 404)).toBeGreaterThanOrEqual(1);
    expect(requests(text, '/healthz', 200)).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('unobtainium');
    expect(text).not.toContain('/no/such/page');
    expect(sample(text, 'chokepoint_rate_limited_total{policy="data"}')).toBe(2);
    expect(sample(text, 'chokepoint_rate_limited_total{policy="ask"}')).toBe(0);

    const build = api.store.current()!;
    const age = sample(text, 'chokepoint_build_age_seconds')!;
    expect(age).toBeGreaterThan(0);
    expect(Math.abs(age - (Date.now() - build.generatedAt.getTime()) / 1000)).toBeLessThan(60);
    expect(sample(text, `chokepoint_build_info{build="${build.id}"}`)).toBe(1);
    expect(text).toContain('# TYPE chokepoint_http_requests_total counter');
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(sample(text, 'chokepoint_connections_open')).toBeGreaterThanOrEqual(1);
  });

  it('answers HEAD, refuses other methods with 405', async () => {
    expect((await get('/metrics', { method: 'HEAD' })).status).toBe(200);
    const post = await get('/metrics', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('labels routes from a small fixed set, never the raw path', () => {
    expect(routeLabel('/v1/commodities', 200)).toBe('/v1/commodities');
    expect(routeLabel('/v1/commodities/metals.cobalt', 404)).toBe('/v1/commodities/:slug');
    expect(routeLabel('/v1/countries/DEU', 200)).toBe('/v1/countries/:iso');
    expect(routeLabel('/v1/reserves/timeseries', 200)).toBe('/v1/reserves/timeseries');
    expect(routeLabel('/v1/commodities/a/b', 404)).toBe('other');
    expect(routeLabel('/feeds/events.atom', 200)).toBe('/feeds/*');
    expect(routeLabel('/commodities/metals.cobalt/', 200)).toBe('site');
    expect(routeLabel('/wp-login.php', 404)).toBe('other');
  });
});
