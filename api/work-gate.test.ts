import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_WORK } from '../contract/limits.ts';
import { sendFrom, startTestServer } from '../test/http.ts';
import { ApiError } from './problem.ts';
import { workGate } from './work-gate.ts';

/** A few searches and questions at a time, a short queue, 503 with Retry-After past both (contract/limits.ts SEARCH_WORK). */

let api: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  api = await startTestServer();
});
afterAll(() => api.close());

/** A word of random letters: the costliest kind of query for spelling correction, never memoised. */
const word = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');

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

describe('over HTTP: a burst of costly searches from five addresses', () => {
  it('is answered 200 up to what the server holds and 503 search-busy past it, never another error; other routes are served meanwhile', async () => {
    // 200 characters of random words, as bench/attack.ts sends: the most a search may cost.
    const q = () =>
      Array.from({ length: 20 }, (_, k) => word(9 + (k % 2)))
        .join('%20')
        .slice(0, 200);
    const burst = Array.from({ length: 150 }, (_, i) => sendFrom(api.port, 'GET', `/v1/search?q=${q()}`, { from: `127.0.0.${101 + (i % 5)}` }));
    const other = sendFrom(api.port, 'GET', '/v1/commodities/metals.cobalt', { from: '127.0.0.110' });
    const replies = await Promise.all(burst);
    const statuses = replies.map((r) => r.status);
    expect(
      statuses.every((s) => s === 200 || s === 503),
      statuses.join(','),
    ).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(SEARCH_WORK.concurrent + SEARCH_WORK.queued);
    const busy = replies.find((r) => r.status === 503);
    expect(busy, 'no search was refused').toBeDefined();
    expect(busy!.headers['retry-after']).toBe(String(SEARCH_WORK.retryAfterSeconds));
    expect(busy!.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(busy!.headers['access-control-allow-origin']).toBe('*');
    expect(JSON.parse(busy!.body)).toMatchObject({ type: '/problems/search-busy', status: 503, instance: '/v1/search' });
    expect((await other).status).toBe(200);
  });
});
