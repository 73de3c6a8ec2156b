import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headLines, setHead } from './head-text.ts';

/**
 * setHead() against Node's writeHead(): the same bytes on the wire for the case it takes, and the
 * cases it leaves to writeHead() left to it. Real node:http servers, raw sockets.
 */

const headers = {
  'content-type': 'application/json; charset=utf-8',
  etag: '"abc"',
  'cache-control': 'public, max-age=60',
  vary: 'Accept, Accept-Encoding',
  'content-length': '11',
};
const body = Buffer.from('{"ok":true}');
const lines = headLines(headers);
/** What setHead() returned for each request, in order. */
const took: boolean[] = [];

function server(keepAliveMs: number, maxRequestsPerSocket = 0): Server {
  const s = createServer((req, res) => {
    if (req.url === '/node') {
      res.writeHead(200, ['x-request-id', 'id-1', ...Object.entries(headers).flat()]);
    } else {
      const ok = setHead(res, 'x-request-id: id-1\r\n', lines);
      took.push(ok);
      if (!ok) res.writeHead(200, ['x-request-id', 'id-1', ...Object.entries(headers).flat()]);
    }
    res.end(body);
  });
  s.keepAliveTimeout = keepAliveMs;
  s.maxRequestsPerSocket = maxRequestsPerSocket;
  return s;
}

/** Send `raw` on one connection; everything the server wrote until it closed or `ms` passed. */
function exchange(port: number, raw: string, ms = 300): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let closed = false;
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('end', () => (closed = true));
    socket.on('error', reject);
    socket.write(raw);
    setTimeout(() => {
      socket.destroy();
      resolve({ text, closed });
    }, ms);
  });
}
const sameDate = (t: string) => t.replace(/^Date: .*$/gm, 'Date: X');

const servers: Server[] = [];
async function listen(s: Server): Promise<number> {
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as { port: number }).port;
}
let keepAlive: number;
let capped: number;
beforeAll(async () => {
  keepAlive = await listen(server(7000));
  capped = await listen(server(7000, 5));
});
afterAll(() => servers.forEach((s) => s.close()));

describe('setHead (the fast path head as text)', () => {
  it('writes the bytes writeHead() writes, on keep-alive connections, request after request', async () => {
    const twice = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\nGET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;
    took.length = 0;
    const ours = await exchange(keepAlive, twice('/text'));
    const node = await exchange(keepAlive, twice('/node'));
    expect(took).toEqual([true, true]);
    expect(sameDate(ours.text)).toBe(sameDate(node.text));
    expect(ours.text).toContain('Connection: keep-alive\r\nKeep-Alive: timeout=7\r\n\r\n{"ok":true}HTTP/1.1 200 OK');
    expect(ours.text).toMatch(/^Date: \w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT\r$/m);
    expect(ours.closed).toBe(false);
  });

  it('leaves to writeHead() a client that asks to close, an HTTP/1.0 client and a server that caps requests per connection', async () => {
    for (const [port, raw] of [
      [keepAlive, 'GET /text HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
      [keepAlive, 'GET /text HTTP/1.0\r\nHost: x\r\n\r\n'],
      [capped, 'GET /text HTTP/1.1\r\nHost: x\r\n\r\n'],
    ] as const) {
      took.length = 0;
      const ours = await exchange(port, raw);
      const node = await exchange(port, raw.replace('/text', '/node'));
      expect(took).toEqual([false]);
      expect(sameDate(ours.text)).toBe(sameDate(node.text));
      expect(ours.text).toMatch(/\r\n\r\n\{"ok":true\}$/);
    }
    const closing = await exchange(keepAlive, 'GET /text HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(closing.text).toContain('Connection: close\r\n');
    expect(closing.closed).toBe(true);
  });

  it('checks the fixed lines as writeHead() checks headers', () => {
    expect(() => headLines({ 'x-bad': 'a\r\nx-injected: 1' })).toThrow(/Invalid character/);
    expect(() => headLines({ 'bad name': 'a' })).toThrow(/Header name must be a valid HTTP token/);
  });
});
