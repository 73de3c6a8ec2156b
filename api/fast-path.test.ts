import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../contract/api.ts';
import { freePort, startTestServer } from '../test/http.ts';
import type { LoadedBuild } from './build.ts';
import { PrebuiltAnswers, prebuiltKey, type Prebuilt } from './prebuilt.ts';

/**
 * The listener's fast path (api/fast-path.ts, api/prebuilt.ts) against the app: the same
 * requests to a server with FAST_PATH=on and to one with FAST_PATH=off give the same status,
 * headers and bytes, and the metrics show which of them the fast path answered.
 */

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request with exactly these headers; the body as it came on the wire (fetch would decompress it). */
function send(port: number, path: string, headers: Record<string, string> = {}, method = 'GET', from = '127.0.0.1'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, localAddress: from, agent: false, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end();
  });
}

/** What must be equal: every header but Date and the connection's own, with the seconds of RateLimit left out (they count down). */
function comparable(r: Reply) {
  const headers: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r.headers)) {
    if (k === 'date' || k === 'connection' || k === 'keep-alive') continue;
    headers[k] = k === 'ratelimit' ? String(v).replace(/;t=\d+$/, ';t=…') : v;
  }
  return { status: r.status, headers, body: r.body.toString('base64') };
}

/** chokepoint_http_requests_total answered by the fast path, all routes and statuses. */
async function fastAnswers(port: number): Promise<number> {
  const text = (await send(port, '/metrics')).body.toString();
  return text
    .split('\n')
    .filter((l) => l.startsWith('chokepoint_http_requests_total{') && l.includes('answered_by="fast_path"'))
    .reduce((n, l) => n + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
}

/** `fast`: whether the fast path answers the case's second request; undefined: either, as long as the answers are the app's. */
type Case = { name: string; path: string; headers?: Record<string, string>; method?: string; fast?: boolean };

/**
 * Each case is sent twice to each server, in this order; `fast`: whether the fast path answers
 * its second request (its first goes to the app unless an earlier case recorded the target).
 */
const CASES: Case[] = [
  { name: 'a commodity sheet (a build file, negotiated, rate limited)', path: '/v1/commodities/metals.cobalt', fast: true },
  { name: 'the same sheet by its code, any case', path: '/v1/commodities/COBALT', fast: true },
  { name: 'the sheet, brotli', path: '/v1/commodities/metals.cobalt', headers: { 'accept-encoding': 'gzip;q=0.5, br' }, fast: true },
  { name: 'the sheet, gzip', path: '/v1/commodities/metals.cobalt', headers: { 'accept-encoding': 'gzip' }, fast: true },
  { name: 'the sheet, identity refused: br', path: '/v1/commodities/metals.cobalt', headers: { 'accept-encoding': 'identity;q=0, *' }, fast: true },
  { name: 'the sheet, no acceptable coding: 406', path: '/v1/commodities/metals.cobalt', headers: { 'accept-encoding': 'identity;q=0' }, fast: false },
  { name: 'the sheet, HEAD', path: '/v1/commodities/metals.cobalt', method: 'HEAD', fast: true },
  {
    name: 'the sheet, Accept JSON among others',
    path: '/v1/commodities/metals.cobalt',
    headers: { accept: 'text/html, application/json;q=0.9, */*;q=0.8' },
    fast: true,
  },
  {
    name: 'the sheet, Accept CSV: its price history (computed, not memoised)',
    path: '/v1/commodities/metals.cobalt',
    headers: { accept: 'text/csv' },
    fast: false,
  },
  { name: 'the sheet, nothing acceptable: 406', path: '/v1/commodities/metals.cobalt', headers: { accept: 'application/xml' }, fast: false },
  { name: 'a reserve (a memoised answer)', path: '/v1/reserves?commodity=gas&country=de', fast: true },
  { name: 'the reserve, written another way (another target, the same memo entry)', path: '/v1/reserves?country=DE&commodity=energy.gas', fast: true },
  { name: 'the reserve as CSV by format=', path: '/v1/reserves?commodity=gas&country=de&format=csv', fast: true },
  { name: 'the reserve as CSV by Accept', path: '/v1/reserves?commodity=gas&country=de', headers: { accept: 'text/csv' }, fast: true },
  { name: 'format= wins over Accept', path: '/v1/reserves?commodity=gas&country=de&format=json', headers: { accept: 'text/csv' }, fast: true },
  { name: 'the reserve, HEAD', path: '/v1/reserves?commodity=gas&country=de', method: 'HEAD', fast: true },
  { name: 'a time series (memoised for the day)', path: '/v1/reserves/timeseries?commodity=gas&country=eu&from=2025-01-01&frequency=monthly', fast: true },
  { name: 'events, the default query (the published file)', path: '/v1/events', fast: true },
  { name: 'commodities of a group', path: '/v1/commodities?group=metals', fast: true },
  { name: 'a country', path: '/v1/countries/deu', fast: true },
  { name: 'the OpenAPI document (not rate limited)', path: '/openapi.json', fast: true },
  { name: 'the API catalog (a Link of its own)', path: '/.well-known/api-catalog', fast: true },
  { name: 'a guide as Markdown', path: '/docs/api.md', fast: true },
  { name: 'the home page', path: '/en/', headers: { 'accept-encoding': 'br' }, fast: true },
  { name: 'the old home page: a redirect by Accept-Language', path: '/', headers: { 'accept-language': 'fr' }, fast: false },
  { name: 'a page without its slash: 308', path: '/methodology', fast: false },
  { name: 'an unknown sheet: 404', path: '/v1/commodities/metals.unobtainium', fast: false },
  { name: 'an unknown parameter: 400', path: '/v1/reserves?commodity=gas&country=de&bogus=1', fast: false },
  { name: 'a parameter given twice: 400', path: '/v1/reserves?commodity=gas&commodity=gas&country=de', fast: false },
  { name: 'an invalid percent-encoding: 400', path: '/v1/reserves?commodity=gas&country=%ZZ', fast: false },
  { name: 'valid percent-encoding (the app answers)', path: '/v1/commodities/metals%2Ecobalt', fast: false },
  { name: 'a dot segment (the app answers)', path: '/v1/../v1/commodities/metals.cobalt', fast: false },
  { name: 'POST on a file: 405', path: '/openapi.json', method: 'POST', fast: false },
  { name: 'OPTIONS', path: '/v1/commodities/metals.cobalt', method: 'OPTIONS', fast: false },
  { name: 'health', path: '/healthz', fast: false },
];

/** Every GET route of the contract, by its example: as JSON, as CSV by format= where it has one, and HEAD. */
const ROUTE_CASES: Case[] = ROUTES.filter((r) => r.method === 'get').flatMap((r) => [
  { name: `${r.operationId}: its example`, path: r.example },
  ...(r.csv ? [{ name: `${r.operationId}: its example as CSV`, path: `${r.example}${r.example.includes('?') ? '&' : '?'}format=csv` }] : []),
  { name: `${r.operationId}: its example, HEAD`, path: r.example, method: 'HEAD' },
]);

describe('the fast path answers as the app does', () => {
  let on: Awaited<ReturnType<typeof startTestServer>>;
  let off: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    // Rate limits on, at a limit the test does not reach: every answer carries RateLimit, counted alike by both.
    [on, off] = await Promise.all([
      startTestServer({ RATE_LIMIT_DATA: '100000', FAST_PATH: 'on' }),
      startTestServer({ RATE_LIMIT_DATA: '100000', FAST_PATH: 'off' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([on?.close(), off?.close()]);
  });

  it('gives the same status, headers and bytes for every case, twice, and answers from bytes where it should', async () => {
    const withEtag = async (c: Case) => {
      // A conditional request with the ETag the app gives: a 304 from both (asked of both, so that both count it).
      const [first] = [await send(off.port, c.path, c.headers ?? {}), await send(on.port, c.path, c.headers ?? {})];
      return first.headers.etag ? [{ ...c, name: `${c.name}, If-None-Match`, headers: { ...c.headers, 'if-none-match': String(first.headers.etag) } }] : [];
    };
    const cases = [...CASES, ...ROUTE_CASES];
    for (const c of CASES.filter((x) => x.fast && !x.method)) cases.push(...(await withEtag(c)).map((x) => ({ ...x, fast: true })));
    let fastBefore = await fastAnswers(on.port);
    for (const c of cases) {
      for (const round of [1, 2]) {
        const headers = { ...c.headers, 'x-request-id': `case-${round}` };
        const [a, b] = [await send(on.port, c.path, headers, c.method), await send(off.port, c.path, headers, c.method)];
        expect(comparable(a), `${c.name} (request ${round})`).toEqual(comparable(b));
      }
      const fastNow = await fastAnswers(on.port);
      // The second request of a case is the fast path's when it should be; never when it should not.
      if (c.fast === true) expect(fastNow - fastBefore, c.name).toBeGreaterThanOrEqual(1);
      else if (c.fast === false) expect(fastNow - fastBefore, c.name).toBe(0);
      fastBefore = fastNow;
    }
    expect(await fastAnswers(off.port)).toBe(0);
  });

  it('answers 304, HEAD, compressed copies and the rate limit headers itself', async () => {
    const path = '/v1/commodities/energy.gas';
    await send(on.port, path);
    const before = await fastAnswers(on.port);
    const ok = await send(on.port, path, { 'accept-encoding': 'br' });
    expect(ok.status).toBe(200);
    expect(ok.headers['content-encoding']).toBe('br');
    expect(ok.headers.vary).toBe('Accept, Accept-Encoding');
    expect(ok.headers['ratelimit-policy']).toBe('"data";q=100000;w=60');
    expect(ok.headers['content-length']).toBe(String(ok.body.length));
    const notModified = await send(on.port, path, { 'accept-encoding': 'br', 'if-none-match': `W/"x", ${String(ok.headers.etag)}` });
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);
    const head = await send(on.port, path, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(Number(head.headers['content-length'])).toBeGreaterThan(ok.body.length);
    expect(await fastAnswers(on.port)).toBe(before + 3);
  });
});

/**
 * Time-series windows (api/fast-timeseries.ts): a window the fast path answers on its first
 * request (`fast: true`), and what it leaves to the app (problems, CSV, an empty window, unusual
 * spellings), each asked once of each server: a new window every request.
 */
const TS = '/v1/reserves/timeseries?commodity=gas&country=de';
const WINDOW_CASES: Case[] = [
  { name: 'a daily window', path: `${TS}&from=2025-03-01&to=2025-09-30`, fast: true },
  { name: 'a window to today (to defaulted)', path: `${TS}&from=2025-11-03`, fast: true },
  { name: 'a weekly window cut short by to (its last week partial)', path: `${TS}&from=2025-01-01&to=2025-06-18&frequency=weekly`, fast: true },
  { name: 'a monthly window of volume', path: `${TS}&from=2024-12-15&to=2025-12-14&frequency=monthly&metric=volume`, fast: true },
  { name: 'a window inside one week', path: `${TS}&from=2025-06-17&to=2025-06-18&frequency=weekly`, fast: true },
  { name: 'a window of one day', path: `${TS}&from=2025-02-03&to=2025-02-03`, fast: true },
  {
    name: 'the EU aggregate, weekly, format=json',
    path: '/v1/reserves/timeseries?commodity=gas&country=eu&from=2024-02-01&frequency=weekly&format=json',
    fast: true,
  },
  {
    name: 'parameters in another order, names spelt otherwise',
    path: '/v1/reserves/timeseries?to=2025-04-30&country=DEU&from=2025-04-01&commodity=energy.gas',
    fast: true,
  },
  { name: 'a window, HEAD', path: `${TS}&from=2025-03-02&to=2025-09-30`, method: 'HEAD', fast: true },
  {
    name: 'a window, Accept JSON among others',
    path: `${TS}&from=2025-03-03&to=2025-09-30`,
    headers: { accept: 'text/html, application/json;q=0.9' },
    fast: true,
  },
  {
    name: 'a window, an If-None-Match of another answer',
    path: `${TS}&from=2025-03-04&to=2025-09-30`,
    headers: { 'if-none-match': '"0000000000000000-1"' },
    fast: true,
  },
  { name: 'a window, Connection: close', path: `${TS}&from=2025-03-05&to=2025-09-30`, headers: { connection: 'close' }, fast: true },
  { name: 'a window, br asked (identity sent)', path: `${TS}&from=2025-03-06&to=2025-09-30`, headers: { 'accept-encoding': 'br' }, fast: true },
  { name: 'a window as CSV by Accept', path: `${TS}&from=2025-03-07&to=2025-09-30`, headers: { accept: 'text/csv' }, fast: false },
  { name: 'a window as CSV by format=', path: `${TS}&from=2025-03-08&to=2025-09-30&format=csv`, fast: false },
  { name: 'nothing acceptable: 406', path: `${TS}&from=2025-03-09&to=2025-09-30`, headers: { accept: 'application/xml' }, fast: false },
  { name: 'identity refused: 406', path: `${TS}&from=2025-03-10&to=2025-09-30`, headers: { 'accept-encoding': 'identity;q=0' }, fast: false },
  { name: 'an empty window (a note in its meta)', path: `${TS}&from=2031-01-01&to=2031-02-01`, fast: false },
  { name: 'from missing: 400', path: TS, fast: false },
  { name: 'not a calendar date: 400', path: `${TS}&from=2025-02-30`, fast: false },
  { name: 'not a date: 400', path: `${TS}&from=yesterday`, fast: false },
  { name: 'to before from: 400', path: `${TS}&from=2025-05-01&to=2025-04-01`, fast: false },
  { name: 'an unknown metric: 400', path: `${TS}&from=2025-05-01&metric=price`, fast: false },
  { name: 'a metric the reserve does not publish: 400', path: '/v1/reserves/timeseries?commodity=oil&country=us&from=2025-01-01&metric=fill_pct', fast: false },
  { name: 'daily of a weekly series: 400', path: '/v1/reserves/timeseries?commodity=oil&country=us&from=2025-01-01&frequency=daily', fast: false },
  { name: 'an unknown reserve: 404', path: '/v1/reserves/timeseries?commodity=gas&country=zz&from=2025-01-01', fast: false },
  { name: 'an unknown parameter: 400', path: `${TS}&from=2025-05-01&bogus=1`, fast: false },
  { name: 'a parameter given twice: 400', path: `${TS}&from=2025-05-01&from=2025-05-02`, fast: false },
  { name: 'an empty value: 400', path: `${TS}&from=2025-05-01&to=`, fast: false },
  { name: 'a value with a space (+)', path: `${TS}&from=2025-05-01&metric=+volume`, fast: false },
  { name: 'an unknown format: 400', path: `${TS}&from=2025-05-01&format=xml`, fast: false },
];

describe('the fast path answers a new time-series window as the app does', () => {
  it('gives the same status, headers and bytes for each window, valid or not, answering the valid ones itself', async () => {
    const [on, off] = await Promise.all([
      startTestServer({ RATE_LIMIT_DATA: '100000', FAST_PATH: 'on' }),
      startTestServer({ RATE_LIMIT_DATA: '100000', FAST_PATH: 'off' }),
    ]);
    try {
      let fastBefore = await fastAnswers(on.port);
      for (const c of WINDOW_CASES) {
        const headers = { ...c.headers, 'x-request-id': 'window' };
        const [a, b] = [await send(on.port, c.path, headers, c.method), await send(off.port, c.path, headers, c.method)];
        expect(comparable(a), c.name).toEqual(comparable(b));
        const fastNow = await fastAnswers(on.port);
        expect(fastNow - fastBefore, c.name).toBe(c.fast ? 1 : 0);
        fastBefore = fastNow;
        // Its ETag: a 304 from both.
        if (a.status === 200 && a.headers.etag && !c.headers?.['if-none-match']) {
          const again = { ...headers, 'if-none-match': String(a.headers.etag) };
          const [x, y] = [await send(on.port, c.path, again, c.method), await send(off.port, c.path, again, c.method)];
          expect(x.status, `${c.name}, If-None-Match`).toBe(304);
          expect(comparable(x), `${c.name}, If-None-Match`).toEqual(comparable(y));
          fastBefore = await fastAnswers(on.port);
        }
      }
    } finally {
      await Promise.all([on.close(), off.close()]);
    }
  });

  it('counts each window against the rate limit before answering, the refusals its own 429s', async () => {
    const server = await startTestServer({ RATE_LIMIT_DATA: '5', FAST_PATH: 'on' });
    try {
      const from = '127.0.0.32';
      const rs = [];
      for (let day = 1; day <= 8; day++) rs.push(await send(server.port, `${TS}&from=2025-04-0${day}&to=2025-09-30`, {}, 'GET', from));
      expect(rs.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
      expect(rs.slice(0, 5).map((r) => /r=(\d+)/.exec(String(r.headers.ratelimit))![1])).toEqual(['4', '3', '2', '1', '0']);
      const metrics = (await send(server.port, '/metrics')).body.toString();
      expect(metrics).toContain('chokepoint_http_requests_total{route="/v1/reserves/timeseries",status="200",answered_by="fast_path"} 5\n');
      expect(metrics).toContain('chokepoint_http_requests_total{route="/v1/reserves/timeseries",status="429",answered_by="fast_path"} 3\n');
      // A window the app answers (CSV) after the count: counted once, by the fast path.
      const other = '127.0.0.33';
      for (let i = 0; i < 4; i++) expect((await send(server.port, `${TS}&from=2025-05-0${i + 1}`, { accept: 'text/csv' }, 'GET', other)).status).toBe(200);
      expect(String((await send(server.port, `${TS}&from=2025-05-09`, {}, 'GET', other)).headers.ratelimit)).toMatch(/r=0;/);
      expect((await send(server.port, `${TS}&from=2025-05-09`, {}, 'GET', other)).status).toBe(429);
    } finally {
      await server.close();
    }
  });
});

describe('the fast path counts against the rate limit exactly as the app does', () => {
  it('admits exactly the quota of 200 concurrent requests from one client, the refusals the same 429 as the app’s', async () => {
    const [on, off] = await Promise.all([
      startTestServer({ RATE_LIMIT_DATA: '60', FAST_PATH: 'on' }),
      startTestServer({ RATE_LIMIT_DATA: '60', FAST_PATH: 'off' }),
    ]);
    try {
      const path = '/v1/reserves?commodity=oil&country=us';
      const from = '127.0.0.61';
      expect((await send(on.port, path, {}, 'GET', from)).status).toBe(200);
      const rs = await Promise.all(Array.from({ length: 200 }, () => send(on.port, path, {}, 'GET', from)));
      expect(rs.filter((r) => r.status === 200)).toHaveLength(59);
      const remaining = rs.filter((r) => r.status === 200).map((r) => Number(/r=(\d+)/.exec(String(r.headers.ratelimit))![1]));
      expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 59 }, (_, i) => i));
      const metrics = (await send(on.port, '/metrics')).body.toString();
      expect(metrics).toContain('chokepoint_http_requests_total{route="/v1/reserves",status="200",answered_by="app"} 1\n');
      expect(metrics).toContain('chokepoint_http_requests_total{route="/v1/reserves",status="200",answered_by="fast_path"} 59\n');
      expect(metrics).toContain('chokepoint_http_requests_total{route="/v1/reserves",status="429",answered_by="fast_path"} 141\n');
      expect(metrics).toContain('chokepoint_rate_limited_total{policy="data"} 141\n');
      // A refusal of the fast path and one of the app: the same problem, the same headers.
      await Promise.all(Array.from({ length: 60 }, () => send(off.port, path, {}, 'GET', from)));
      const [a, b] = [
        await send(on.port, path, { 'x-request-id': 'refused' }, 'GET', from),
        await send(off.port, path, { 'x-request-id': 'refused' }, 'GET', from),
      ];
      expect(a.status).toBe(429);
      expect(a.headers['access-control-allow-origin']).toBe('*');
      expect(a.headers['retry-after']).toMatch(/^[1-9]\d*$/);
      // The seconds until a slot frees count down between the two: left out.
      const same = (r: Reply) => {
        const { 'retry-after': _retry, 'content-length': _length, ...headers } = comparable(r).headers;
        const body = JSON.parse(r.body.toString()) as { detail: string };
        return {
          status: r.status,
          headers: { ...headers, ratelimit: String(headers.ratelimit).replace(/t=\d+/, 't=…') },
          body: { ...body, detail: body.detail.replace(/retry in \d+ s/, 'retry in … s') },
        };
      };
      expect(same(a)).toEqual(same(b));
      // Each refusal names its own request, its length counted.
      for (const id of ['x', 'another-request.id_42']) {
        const r = await send(on.port, path, { 'x-request-id': id }, 'GET', from);
        expect(JSON.parse(r.body.toString())).toMatchObject({ status: 429, policy: 'data', request_id: id, instance: '/v1/reserves' });
        expect(r.headers['content-length']).toBe(String(r.body.length));
        expect(r.headers['x-request-id']).toBe(id);
      }
    } finally {
      await Promise.all([on.close(), off.close()]);
    }
  });
});

describe('a refusal is never dearer than an answer', () => {
  it('refuses a request with a 14 KB Accept header over the limit in the listener, with the same 429 as a plain one', async () => {
    const server = await startTestServer({ RATE_LIMIT_DATA: '3', FAST_PATH: 'on' });
    try {
      const path = '/v1/commodities/agri.maize';
      const from = '127.0.0.14';
      // 14 KB of media types the route does not offer: negotiating it would be a 406 from the app.
      const accept = Array.from({ length: 1100 }, (_, i) => `text/x-${String(i).padStart(4, '0')}`).join(', ');
      expect(accept.length).toBeGreaterThan(14_000);
      for (let i = 0; i < 3; i++) expect((await send(server.port, path, {}, 'GET', from)).status).toBe(200);
      const before = await fastAnswers(server.port);
      const plain = await send(server.port, path, { 'x-request-id': 'refused' }, 'GET', from);
      const heavy = await send(server.port, path, { 'x-request-id': 'refused', accept }, 'GET', from);
      expect(plain.status).toBe(429);
      // Both refused by the listener before any negotiation (the app would have negotiated nothing: it counts first too).
      expect(await fastAnswers(server.port)).toBe(before + 2);
      const same = (r: Reply) => {
        const { headers, ...rest } = comparable(r);
        const { 'retry-after': retry, ...others } = headers;
        const body = r.body.toString().replace(/retry in \d+ s/, 'retry in … s');
        return { ...rest, body, headers: { ...others, ratelimit: String(others.ratelimit).replace(/t=\d+/, 't=…') }, retry: Number(retry) > 0 };
      };
      expect(same(heavy)).toEqual(same(plain));
    } finally {
      await server.close();
    }
  });
});

// --- with the counts in Redis: the fast path waits for the count -----------------------------

function ping(port: number): Promise<boolean> {
  return new Promise((r) => {
    const sock = connect({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      sock.destroy();
      r(ok);
    };
    sock.setTimeout(500, () => done(false));
    sock.on('error', () => done(false));
    sock.on('connect', () => sock.write('PING\r\n'));
    sock.on('data', (d) => done(d.toString().startsWith('+PONG')));
  });
}

describe.skipIf(!existsSync('/usr/bin/redis-server'))('the fast path with the counts in Redis', () => {
  let redis: ChildProcess;
  let port = 0;
  beforeAll(async () => {
    port = await freePort();
    redis = spawn('/usr/bin/redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    for (let i = 0; i < 200 && !(await ping(port)); i++) await sleep(50);
  });
  afterAll(() => {
    redis?.kill('SIGKILL');
  });

  it('counts every answer in Redis, shared with another instance, exactly', async () => {
    const env = { RATE_LIMIT_DATA: '30', REDIS_URL: `redis://127.0.0.1:${port}`, FAST_PATH: 'on' };
    const [a, b] = await Promise.all([startTestServer(env), startTestServer(env)]);
    try {
      const path = '/v1/commodities/agri.wheat';
      const from = '127.0.0.62';
      expect((await send(a.port, path, {}, 'GET', from)).status).toBe(200);
      expect((await send(b.port, path, {}, 'GET', from)).status).toBe(200);
      const rs = await Promise.all(Array.from({ length: 100 }, (_, i) => send(i % 2 ? a.port : b.port, path, {}, 'GET', from)));
      expect(rs.filter((r) => r.status === 200)).toHaveLength(28);
      expect(rs.filter((r) => r.status === 429)).toHaveLength(72);
      expect((await fastAnswers(a.port)) + (await fastAnswers(b.port))).toBe(100);
      expect(a.limits.mode()).toBe('redis');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('counts new time-series windows in Redis too, on the fast path, exactly', async () => {
    const env = { RATE_LIMIT_DATA: '30', REDIS_URL: `redis://127.0.0.1:${port}`, FAST_PATH: 'on' };
    const [a, b] = await Promise.all([startTestServer(env), startTestServer(env)]);
    try {
      const from = '127.0.0.63';
      const rs = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          send(i % 2 ? a.port : b.port, `${TS}&from=2025-0${1 + (i % 9)}-${String(1 + Math.floor(i / 9)).padStart(2, '0')}`, {}, 'GET', from),
        ),
      );
      expect(rs.filter((r) => r.status === 200)).toHaveLength(30);
      expect(rs.filter((r) => r.status === 429)).toHaveLength(30);
      expect((await fastAnswers(a.port)) + (await fastAnswers(b.port))).toBe(60);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

// --- the rules, without a server -----------------------------------------------------------------

describe('which requests qualify', () => {
  it('takes GET and HEAD on a plain target with a plain Host, nothing else', () => {
    expect(prebuiltKey('GET', '/v1/reserves?commodity=gas&country=de', 'localhost:8787')).toBe('/v1/reserves?commodity=gas&country=de');
    expect(prebuiltKey('HEAD', '/', 'api.example.org')).toBe('/');
    for (const method of ['POST', 'OPTIONS', 'PUT', undefined]) expect(prebuiltKey(method, '/openapi.json', 'localhost')).toBeNull();
    for (const url of [
      '/v1/commodities/metals%2Ecobalt',
      '/v1/../openapi.json',
      '/./openapi.json',
      '/a/..',
      'http://x/openapi.json',
      '/x y',
      '/x"',
      '/é',
      '/x#y',
      `/${'a'.repeat(1100)}`,
    ])
      expect(prebuiltKey('GET', url, 'localhost'), url).toBeNull();
    for (const host of [undefined, '', 'Example.org', '[::1]:8787', 'a b', 'localhost:80', 'x:99999'])
      expect(prebuiltKey('GET', '/', host), String(host)).toBeNull();
  });

  it('forgets every answer at the end of the UTC day, and a slot of the day before records nothing', () => {
    const table = new PrebuiltAnswers();
    const build = {} as LoadedBuild;
    const day = Date.UTC(2026, 10, 24, 23, 59, 59);
    const p = { answer: {}, vary: undefined, codings: [], replies: {} } as unknown as Prebuilt;
    const how = { offers: null, urlFormat: undefined, policy: null };
    expect(table.get('/x', day)).toBeUndefined();
    const late = table.slot(build, '/x');
    table.record(late, how, 'any', p);
    expect(table.get('/x', day)?.answers.any?.deref()).toBe(p);
    expect(table.get('/x', day + 1000)).toBeUndefined();
    table.record(late, how, 'any', p);
    expect(table.get('/x', day + 2000)).toBeUndefined();
  });

  it('holds at most its number of targets, the oldest recorded first out', () => {
    const table = new PrebuiltAnswers(3);
    const p = { answer: {}, vary: undefined, codings: [], replies: {} } as unknown as Prebuilt;
    const how = { offers: null, urlFormat: undefined, policy: null };
    table.get('/0');
    for (const k of ['/a', '/b', '/c', '/d']) table.record(table.slot({} as LoadedBuild, k), how, 'any', p);
    expect(table.size).toBe(3);
    expect(table.get('/a')).toBeUndefined();
    expect(table.get('/d')).toBeDefined();
  });
});
