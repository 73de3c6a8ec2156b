import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, type RawReply as Reply, sendFrom, startTestServer } from '../test/http.ts';
import { MAX_HEADER_FIELDS } from './connections.ts';

/**
 * Issue 34's statuses over real HTTP against the real server: what @hono/node-server and Node
 * answered with a bare 400 (no body, no CORS) or with the wrong status or message.
 */

let api: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  api = await startTestServer();
});
afterAll(() => api.close());

/** Bytes written as they are on a fresh socket; the response parsed once the server closes. */
function rawExchange(bytes: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port: api.port });
    let out = '';
    s.setEncoding('utf8');
    s.on('data', (d: string) => (out += d));
    s.on('close', () => {
      const head = out.slice(0, out.indexOf('\r\n\r\n'));
      const [statusLine, ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
      resolve({ status: Number(statusLine?.split(' ')[1]), headers, body: out.slice(head.length + 4) });
    });
    s.on('error', reject);
    s.on('connect', () => s.write(bytes));
    s.setTimeout(10_000, () => s.destroy());
  });
}

describe('requests the HTTP layer refuses get a problem with CORS, not a bare 400', () => {
  it.each([
    ['two Host headers (RFC 9112 §3.2)', 'GET /healthz HTTP/1.1\r\nHost: a.test\r\nHost: b.test\r\n\r\n', '2 Host headers'],
    ['an HTTP/1.1 request without Host', 'GET /healthz HTTP/1.1\r\n\r\n', 'no Host header'],
    ['OPTIONS * (the asterisk form)', 'OPTIONS * HTTP/1.1\r\nHost: a.test\r\n\r\n', 'OPTIONS * (the asterisk form) is not answered'],
    ['a backslash in the path', 'GET /en\\commodities/ HTTP/1.1\r\nHost: a.test\r\n\r\n', 'backslash'],
    ['a Host with an empty port', 'GET /healthz HTTP/1.1\r\nHost: a.test:\r\n\r\n', 'the Host header'],
  ])('%s: 400 malformed-request', async (_name, request, said) => {
    const r = await rawExchange(request);
    const body = expectProblem(r, 400);
    expect(body.type).toBe('/problems/malformed-request');
    expect(String(body.detail)).toContain(said);
    expect(r.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('an HTTP/1.0 request may come without Host', async () => {
    const r = await rawExchange('GET /healthz HTTP/1.0\r\n\r\n');
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toHaveProperty('status');
  });

  it('one Host, as usual: 200', async () => {
    expect((await rawExchange('GET /healthz HTTP/1.1\r\nHost: a.test\r\nConnection: close\r\n\r\n')).status).toBe(200);
  });
});

describe('a 431 says which limit the headers exceeded', () => {
  it(`${MAX_HEADER_FIELDS + 1} small header fields: the count`, async () => {
    const fields = 'X:y\r\n'.repeat(MAX_HEADER_FIELDS);
    const body = expectProblem(await rawExchange(`GET /healthz HTTP/1.1\r\nHost: a.test\r\n${fields}\r\n`), 431);
    expect(body.detail).toBe(`a request may carry at most ${MAX_HEADER_FIELDS} header fields; this one has more`);
  });

  it(`${MAX_HEADER_FIELDS} fields pass`, async () => {
    const fields = 'X:y\r\n'.repeat(MAX_HEADER_FIELDS - 2);
    expect((await rawExchange(`GET /healthz HTTP/1.1\r\nHost: a.test\r\n${fields}Connection: close\r\n\r\n`)).status).toBe(200);
  });

  it('5,000 small header fields (25 KB): the count and the bytes', async () => {
    const body = expectProblem(await rawExchange(`GET /healthz HTTP/1.1\r\nHost: a.test\r\n${'X:y\r\n'.repeat(5000)}\r\n`), 431);
    expect(String(body.detail)).toContain(`at most ${MAX_HEADER_FIELDS} header fields`);
  });

  it('one header of 17,000 bytes: the bytes', async () => {
    const body = expectProblem(await rawExchange(`GET /healthz HTTP/1.1\r\nHost: a.test\r\nX: ${'y'.repeat(17_000)}\r\n\r\n`), 431);
    expect(String(body.detail)).toContain('at most 16384 bytes together');
  });
});

describe('parameter names that are also property names of every object', () => {
  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])('?%s=1 is an unknown parameter, not one given twice', async (name) => {
    const r = await sendFrom(api.port, 'GET', `/v1/commodities?${name}=1`);
    const body = expectProblem(r, 400);
    expect(body.errors).toEqual([{ param: name, message: 'unknown parameter; accepted: group, format' }]);
  });

  it('a parameter really given twice is still told so', async () => {
    const body = expectProblem(await sendFrom(api.port, 'GET', '/v1/commodities?group=metals&group=energy'), 400);
    expect(body.errors).toEqual([{ param: 'group', message: 'given more than once' }]);
  });
});

describe('POST /v1/ask names the type a value should have', () => {
  const ask = (body: string) => sendFrom(api.port, 'POST', '/v1/ask', { headers: { 'content-type': 'application/json' }, body });

  it('{"q": ["oil"]}: q expects a string, and got an array', async () => {
    const body = expectProblem(await ask('{"q":["oil"]}'), 400);
    const [e] = body.errors as { param: string; message: string }[];
    expect(e?.param).toBe('q');
    expect(e?.message).toMatch(/^Invalid input: expected string, received array/);
  });

  it('{} : q is required', async () => {
    const body = expectProblem(await ask('{}'), 400);
    expect((body.errors as { message: string }[])[0]?.message).toMatch(/^required/);
  });
});

describe('/vintages/index.json answers a browser too', () => {
  it('with Accept: text/html it is the JSON index, not the site’s 404 page', async () => {
    const r = await sendFrom(api.port, 'GET', '/vintages/index.json', { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(r.body)).toHaveProperty('vintages');
  });
});
