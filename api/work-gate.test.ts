import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SEARCH_WORK } from '../contract/limits.ts';
import { readConfig } from '../lib/config.ts';
import { expectProblem, sendFrom, testLogger } from '../test/http.ts';
import { MCP_MAX_BATCH } from './mcp/limits.ts';
import { ApiError } from './problem.ts';
import { startServer, type RunningServer } from './server.ts';
import { workGate } from './work-gate.ts';

/** A few searches and questions at a time, a short queue, 503 with Retry-After past both (contract/limits.ts SEARCH_WORK). */

describe('the gate', () => {
  it(`runs ${SEARCH_WORK.concurrent} at once, queues ${SEARCH_WORK.queued}, refuses the next with 503 and Retry-After`, async () => {
    const gate = workGate();
    const order: number[] = [];
    const total = SEARCH_WORK.concurrent + SEARCH_WORK.queued + 1;
    const runs = Array.from({ length: total }, (_, i) =>
      gate
        .run(() => order.push(i))
        .then(
          () => 'ok' as const,
          (e: unknown) => e,
        ),
    );
    expect(gate.stats()).toEqual({ active: SEARCH_WORK.concurrent, queued: SEARCH_WORK.queued, refused: 1 });
    const results = await Promise.all(runs);
    const refused = results[total - 1] as ApiError;
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe(String(SEARCH_WORK.retryAfterSeconds));
    expect(refused.kind?.type).toBe('/problems/search-busy');
    // The others ran, in the order they came.
    expect(order).toEqual(Array.from({ length: total - 1 }, (_, i) => i));
    expect(gate.stats()).toEqual({ active: 0, queued: 0, refused: 1 });
  });

  it('a failing piece of work frees its slot', async () => {
    const gate = workGate({ concurrent: 1, queued: 0, retryAfterSeconds: 1 });
    await expect(gate.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(gate.run(() => 42)).resolves.toBe(42);
  });
});

/**
 * Over real HTTP against the real server, with a gate that has no free slot and no room in its
 * queue (as when 2 are at work and 8 wait): search and ask are refused at once with the
 * documented problem, the other routes answer, and an MCP batch of searches is refused call by
 * call, each call charged against the data limit.
 */
describe('a full gate over HTTP', () => {
  let api: RunningServer & { url: string };
  const FULL = { concurrent: 0, queued: 0, retryAfterSeconds: SEARCH_WORK.retryAfterSeconds };
  const DATA_LIMIT = MCP_MAX_BATCH;

  beforeAll(async () => {
    const running = await startServer(
      readConfig({
        DIST_DIR: inject('distDir'),
        PORT: '0',
        HOST: '127.0.0.1',
        RATE_LIMIT_DATA: String(DATA_LIMIT),
        RATE_LIMIT_ASK: '0',
        RATE_LIMIT_BULK_MB: '0',
      }),
      true,
      {},
      testLogger(),
      { work: FULL },
    );
    api = { ...running, url: `http://127.0.0.1:${running.port}` };
  });
  afterAll(() => api?.close());

  // From addresses of their own: each route's answer is checked with a fresh data budget.
  it('refuses /v1/search and /v1/ask with 503 search-busy and Retry-After, not a wait and not a 500', async () => {
    const search = await sendFrom(api.port, 'GET', '/v1/search?q=gas+storage+gate', { from: '127.0.0.2' });
    const ask = await sendFrom(api.port, 'POST', '/v1/ask', {
      from: '127.0.0.3',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ q: 'How full is German gas storage?' }),
    });
    for (const r of [search, ask]) {
      const body = expectProblem(r, 503);
      expect(body.type).toMatch(/\/problems\/search-busy$/);
      expect(body.detail).toMatch(/busy with \d+ searches and questions; retry in 1 s/);
      expect(r.headers['retry-after']).toBe(String(SEARCH_WORK.retryAfterSeconds));
    }
    // Only search and ask wait on the gate.
    expect((await sendFrom(api.port, 'GET', '/v1/commodities', { from: '127.0.0.4' })).status).toBe(200);
    expect((await sendFrom(api.port, 'GET', '/healthz', { from: '127.0.0.4' })).status).toBe(200);
  });

  it('refuses each search_briefings of an MCP batch as a tool error that says when to retry, and charges each call', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
    const init = await fetch(`${api.url}/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'gate', version: '1' } },
      }),
    });
    expect(init.status).toBe(200);
    const session = { ...headers, 'mcp-session-id': init.headers.get('mcp-session-id')! };
    const post = (body: unknown) => fetch(`${api.url}/mcp`, { method: 'POST', headers: session, body: JSON.stringify(body) });
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    const search = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_briefings', arguments: { q: `gas storage ${id}` } } });

    const batch = await post(Array.from({ length: MCP_MAX_BATCH }, (_, i) => search(i + 1)));
    expect(batch.status).toBe(200);
    // Ten calls, ten units of the data limit: none left.
    expect(batch.headers.get('ratelimit')).toMatch(/^"data";r=0;/);
    const replies = (await batch.json()) as { id: number; result: { isError?: boolean; content: { text: string }[]; _meta?: Record<string, unknown> } }[];
    expect(replies.map((r) => r.id).sort((a, b) => a - b)).toEqual(Array.from({ length: MCP_MAX_BATCH }, (_, i) => i + 1));
    for (const r of replies) {
      expect(r.result.isError).toBe(true);
      expect(r.result.content[0]!.text).toMatch(/busy with \d+ searches and questions; retry in 1 s/);
      expect(r.result._meta).toEqual({ retryAfterSeconds: SEARCH_WORK.retryAfterSeconds });
    }
    // The next call is over the data limit, in a batch or not.
    const over = (await (await post(search(99))).json()) as { result: { isError?: boolean; content: { text: string }[] } };
    expect(over.result.isError).toBe(true);
    expect(over.result.content[0]!.text).toMatch(/^rate limit exceeded: the "data" policy allows 10 requests/);
  });
});
