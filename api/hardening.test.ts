import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INPUT_LIMITS } from '../contract/limits.ts';
import { expectProblem, type RawReply as Reply, sendFrom, startTestServer } from '../test/http.ts';

/**
 * Issue 20 over real HTTP against the real server (startServer: the connection guard, the app,
 * the memo of the real build): length limits before suggestions, connection caps, problem
 * bodies for what Node used to answer bare, 405 instead of 404, a memo within its budget.
 */

let api: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  api = await startTestServer({ MAX_CONNECTIONS: '10', MAX_CONNECTIONS_PER_IP: '4' });
});
afterAll(() => api.close());

const send = (method: string, path: string, opts: { from?: string; headers?: Record<string, string> } = {}) => sendFrom(api.port, method, path, opts);

/** Bytes written as they are on a fresh socket; resolves with everything read until the server closes. */
function rawExchange(bytes: string, from = '127.0.0.1'): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port: api.port, localAddress: from });
    let out = '';
    s.setEncoding('utf8');
    s.on('data', (d: string) => (out += d));
    s.on('close', () => resolve(out));
    s.on('error', reject);
    s.on('connect', () => s.write(bytes));
    s.setTimeout(10_000, () => s.destroy());
  });
}

/** Parse a raw HTTP/1.1 response: status, lower-cased headers, body. */
function parseRaw(text: string): Reply {
  const head = text.slice(0, text.indexOf('\r\n\r\n'));
  const [statusLine, ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
  return { status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(head.length + 4) };
}

describe('length limits on identifiers and free text, before any suggestion', () => {
  const long = 'x'.repeat(15_000);

  it('a 15,000-character slug is 400 naming the limit', async () => {
    const r = await send('GET', `/v1/commodities/energy.${long}`);
    const body = expectProblem(r, 400);
    expect(body.detail).toContain(`must be at most ${INPUT_LIMITS.commodity} characters`);
    expect(body.errors).toEqual([{ param: 'slug', message: expect.stringContaining(`at most ${INPUT_LIMITS.commodity} characters`) }]);
    expect(body.suggestions).toBeUndefined();
  });

  it.each([
    ['/v1/reserves?commodity=x.%s&country=de', 'commodity', INPUT_LIMITS.commodity],
    ['/v1/reserves?commodity=gas&country=%s', 'country', INPUT_LIMITS.country],
    ['/v1/countries/%s', 'iso', INPUT_LIMITS.country],
    ['/v1/events?commodity=%s', 'commodity', INPUT_LIMITS.commodity],
    ['/v1/events?since=%s', 'since', INPUT_LIMITS.date],
    ['/v1/events?limit=%s', 'limit', INPUT_LIMITS.integer],
    ['/v1/scenarios?status=%s', 'status', INPUT_LIMITS.enumValue],
    ['/v1/search?q=%s', 'q', INPUT_LIMITS.searchQuery],
  ])('%s is 400 naming the limit of %s', async (template, param, max) => {
    const r = await send('GET', template.replace('%s', long.slice(0, 12_000)));
    const body = expectProblem(r, 400);
    expect(body.errors).toContainEqual({ param, message: expect.stringContaining(`must be at most ${max} characters`) });
  });

  it('an unknown identifier of the maximum length still gets its suggestions', async () => {
    const slug = `metals.cobal${'t'.repeat(INPUT_LIMITS.commodity - 'metals.cobal'.length)}`;
    expect(slug).toHaveLength(INPUT_LIMITS.commodity);
    const r = await send('GET', `/v1/commodities/${slug}`);
    const body = expectProblem(r, 404);
    expect(Array.isArray(body.suggestions)).toBe(true);
    const near = await send('GET', '/v1/commodities/metals.cobatl');
    expect(JSON.parse(near.body).suggestions).toContain('metals.cobalt');
  });
});

describe('connection caps', () => {
  const hold = (from: string): Promise<Socket> =>
    new Promise((resolve, reject) => {
      const s = connect({ host: '127.0.0.1', port: api.port, localAddress: from });
      s.on('connect', () => resolve(s));
      s.on('error', reject);
    });

  it('refuses a connection past the per-IP cap with a 429 problem; another client still gets 200', async () => {
    const held = await Promise.all(Array.from({ length: 4 }, () => hold('127.0.0.60')));
    try {
      await sleep(100);
      const extra = parseRaw(await rawExchange('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n', '127.0.0.60'));
      const body = expectProblem(extra, 429);
      expect(body).toMatchObject({ type: '/problems/too-many-connections' });
      expect(String(body.detail)).toContain('at most 4 connections');
      expect(extra.headers['connection']).toBe('close');
      const other = await send('GET', '/healthz', { from: '127.0.0.61' });
      expect(other.status).toBe(200);
      expect(api.connections().refusedPerIp).toBeGreaterThanOrEqual(1);
    } finally {
      for (const s of held) s.destroy();
    }
  });

  it('refuses a connection past the total cap with a 503 problem, and serves again once they close', async () => {
    await sleep(100);
    const held = (await Promise.all(['127.0.0.62', '127.0.0.63', '127.0.0.64'].map((ip) => Promise.all(Array.from({ length: 4 }, () => hold(ip)))))).flat();
    try {
      await sleep(100);
      expect(api.connections().open).toBe(10);
      const extra = parseRaw(await rawExchange('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n', '127.0.0.65'));
      expectProblem(extra, 503);
      expect(extra.headers['retry-after']).toBe('5');
    } finally {
      for (const s of held) s.destroy();
    }
    await sleep(100);
    expect((await send('GET', '/healthz', { from: '127.0.0.65' })).status).toBe(200);
  });
});

describe('what Node answered bare is a problem with CORS', () => {
  it.each([
    ['an invalid header line', 'GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 400],
    ['an invalid method token', 'G@T / HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    ['two Content-Length values', 'POST /v1/ask HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n', 400],
    ['an invalid chunk size', 'POST /v1/ask HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', 400],
    ['headers over 16 KiB', `GET / HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ['an Expect other than 100-continue', 'GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\n\r\n', 417],
  ])('%s', async (_what, bytes, status) => {
    const r = parseRaw(await rawExchange(bytes));
    expectProblem(r, status);
  });

  it('CONNECT is 405 with Allow', async () => {
    const r = parseRaw(await rawExchange('CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n'));
    const body = expectProblem(r, 405);
    expect(r.headers['allow']).toBe('GET, HEAD, POST, OPTIONS');
    expect(body.type).toBe('/problems/method-not-allowed');
  });

  it('TRACE and PUT on /healthz and on served files are 405 with Allow, not 404', async () => {
    for (const path of ['/healthz', '/openapi.json', '/llms.txt', '/']) {
      for (const method of ['TRACE', 'PUT', 'DELETE']) {
        const r = await send(method, path);
        const body = expectProblem(r, 405);
        expect(r.headers['allow'], `${method} ${path}`).toBe('GET, HEAD, OPTIONS');
        expect(body.allowed).toEqual(['GET', 'HEAD', 'OPTIONS']);
      }
    }
    expect((await send('TRACE', '/no-such-page')).status).toBe(404);
  });
});

describe('the memo', () => {
  it('keys on the canonical request: padded variants share one entry, and its size counts the key', async () => {
    const memo = () => api.store.current()!.memo.size;
    const before = memo();
    const variants = Array.from({ length: 150 }, (_, i) => {
      const pad = '+'.repeat(i % 50) + '%20'.repeat(Math.floor(i / 50));
      return `/v1/search?q=${pad}cobalt${pad}&limit=${i % 2 ? '10' : '010'}`;
    });
    const first = await send('GET', variants[0]!);
    expect(first.status).toBe(200);
    for (const v of variants) {
      const r = await send('GET', v);
      expect(r.status).toBe(200);
      expect(r.headers['etag']).toBe(first.headers['etag']);
    }
    const after = memo();
    expect(after.entries - before.entries).toBe(1);
    // the one entry's bytes: its body and a key of a few dozen characters, not the padded URL
    expect(after.bytes - before.bytes).toBeLessThan(Buffer.byteLength(first.body) + 600);
    expect(after.bytes).toBeLessThanOrEqual(after.maxBytes);
  });

  it('case and padding variants of one commodity on /v1/events share one entry', async () => {
    const memo = () => api.store.current()!.memo.size;
    const before = memo().entries;
    for (const c of ['gas', 'GAS', 'Gas', '+gas+', '%20GAS']) expect((await send('GET', `/v1/events?commodity=${c}&since=2020-01-01`)).status).toBe(200);
    expect(memo().entries - before).toBe(1);
  });
});

describe('/healthz', () => {
  it('publishes no absolute path and no SQL', async () => {
    const r = await send('GET', '/healthz');
    expect(r.status).toBe(200);
    expect(r.body).not.toMatch(/\/(?:home|work|srv|tmp|var|usr|etc)\//);
    expect(r.body).not.toMatch(/\bSELECT\b|\bFROM\s+read_/);
  });
});
