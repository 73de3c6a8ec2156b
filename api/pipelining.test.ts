import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { getHeapStatistics } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PIPELINED_PER_CONNECTION, MAX_PIPELINED_PER_IP } from './pipelining.ts';
import { sendFrom, startTestServer } from '../test/http.ts';

/**
 * Issue 34, finding 1, over real sockets against the real server: pipelined requests that are
 * never read cannot make the server build answers without bound (it used to run out of heap in
 * 5.5 s); a client that pipelines and reads gets its answers in order.
 */

let api: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  api = await startTestServer();
});
afterAll(() => api.close());

const heapMb = () => getHeapStatistics().used_heap_size / 2 ** 20;

/** `n` connections from `from`, each writing `count` pipelined GETs of `path`, none of them read. */
function neverRead(from: string, path: string, n = 20, count = 2_000): Socket[] {
  const bytes = `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`.repeat(count);
  return Array.from({ length: n }, () => {
    const s = connect({ host: '127.0.0.1', port: api.port, localAddress: from });
    s.pause();
    s.on('error', () => {});
    s.on('connect', () => s.write(bytes));
    return s;
  });
}

/** Pipelined GETs on one connection that reads: the status lines of every answer, until the server closes or `ms` pass. */
function pipelineAndRead(from: string, paths: string[], ms = 10_000): Promise<number[]> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port: api.port, localAddress: from });
    let text = '';
    s.setEncoding('latin1');
    s.on('data', (d: string) => (text += d));
    const done = () => resolve([...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1])));
    s.on('close', done);
    s.on('error', () => {});
    s.on('connect', () =>
      s.write(paths.map((p, i) => `GET ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\n${i === paths.length - 1 ? 'Connection: close\r\n' : ''}\r\n`).join('')),
    );
    setTimeout(() => s.destroy(), ms).unref();
  });
}

describe('pipelined requests that are never read', () => {
  it.each([
    ['/en/', '127.0.0.80'],
    ['/healthz', '127.0.0.81'],
    ['/bulk/prices.csv', '127.0.0.82'],
  ])('20 connections × 2,000 pipelined GET %s from one address: the heap stays bounded and others are served', async (path, from) => {
    const before = heapMb();
    const refusedBefore = api.pipelining().refused;
    const socks = neverRead(from, path);
    // Long enough for the server to read and parse what it will of 40,000 requests.
    for (let i = 0; i < 50 && api.pipelining().refused === refusedBefore; i++) await sleep(100);
    await sleep(1_000);
    const { queued, refused: refusedNow } = api.pipelining();
    expect(refusedNow).toBeGreaterThan(refusedBefore);
    expect(queued).toBeLessThanOrEqual(MAX_PIPELINED_PER_IP);
    // Another client is answered meanwhile.
    const other = await sendFrom(api.port, 'GET', '/healthz', { from: '127.0.0.90' });
    expect(other.status).toBe(200);
    // The address itself is told why, on a new connection.
    const refused = await sendFrom(api.port, 'GET', '/healthz', { from });
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(refused.headers['access-control-allow-origin']).toBe('*');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.parse(refused.body)).toMatchObject({ type: '/problems/too-many-pipelined-requests', status: 429 });
    // 40,000 answers of /en/ (66 KB each) held at once are gigabytes; what is held here is a few dozen.
    expect(heapMb() - before).toBeLessThan(150);
    for (const s of socks) s.destroy();
  });

  it('the connections of a refused client are closed by the server', async () => {
    // Answers too large for the kernel to take them all, so that the server must close them itself.
    const socks = neverRead('127.0.0.83', '/bulk/prices.csv', 4);
    await sleep(7_000);
    // A paused socket does not see the end the server sent; the server's own count does.
    expect(api.connections().open).toBeLessThanOrEqual(1);
    for (const s of socks) s.destroy();
  });
});

describe('pipelined requests that are read', () => {
  it('are answered in order', async () => {
    const paths = ['/healthz', '/v1/commodities', '/nope', '/healthz'];
    expect(await pipelineAndRead('127.0.0.84', paths)).toEqual([200, 200, 404, 200]);
  });

  it(`past ${MAX_PIPELINED_PER_CONNECTION} sent ahead on one connection: the answers, then a 429 problem, then the connection closes`, async () => {
    const statuses = await pipelineAndRead(
      '127.0.0.85',
      Array.from({ length: 2 * MAX_PIPELINED_PER_CONNECTION }, () => '/healthz'),
    );
    expect(statuses).toEqual([...Array.from({ length: MAX_PIPELINED_PER_CONNECTION }, () => 200), 429]);
  });
});
