import { describe, expect, it } from 'vitest';
import { SEARCH_WORK } from '../contract/limits.ts';
import { ApiError } from './problem.ts';
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
