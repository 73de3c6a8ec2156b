import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RawReply, sendFrom, startTestServer } from '../test/http.ts';

/**
 * The bytes-per-minute budget of the bulk downloads per client address (RATE_LIMIT_BULK_MB),
 * over real HTTP against the real server: bulk/prices.csv is about 2.5 MB, the budget here 5 MB.
 */

let api: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  api = await startTestServer({ RATE_LIMIT_BULK_MB: '5' });
});
afterAll(() => api.close());

const get = (path: string, from: string) => sendFrom(api.port, 'GET', path, { from, headers: { 'accept-encoding': 'identity' } });

function expect429(r: RawReply): Record<string, unknown> {
  expect(r.status, r.body.slice(0, 300)).toBe(429);
  expect(r.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  expect(r.headers['access-control-allow-origin']).toBe('*');
  expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(Number(r.headers['retry-after'])).toBeLessThanOrEqual(60);
  return JSON.parse(r.body) as Record<string, unknown>;
}

describe('bulk downloads: a budget of bytes per minute per address', () => {
  it('admits downloads until the address has had its budget, then 429 with Retry-After; another address is served', async () => {
    const from = '127.0.0.91';
    const budget = 5 * 2 ** 20;
    const sizes: number[] = [];
    let refused: RawReply | undefined;
    for (let i = 0; i < 6 && !refused; i++) {
      const r = await get('/bulk/prices.csv', from);
      if (r.status === 429) refused = r;
      else {
        expect(r.status).toBe(200);
        sizes.push(Buffer.byteLength(r.body));
      }
    }
    // Served while the address had had less than its budget; refused once it had had it all.
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    expect(sizes[0]).toBeGreaterThan(2 * 2 ** 20);
    expect(sum(sizes.slice(0, -1))).toBeLessThan(budget);
    expect(sum(sizes)).toBeGreaterThanOrEqual(budget);
    const body = expect429(refused!);
    expect(body).toMatchObject({ type: 'https://iana.org/assignments/http-problem-types#quota-exceeded', instance: '/bulk/prices.csv' });
    expect(String(body.detail)).toContain('5 MB per 60 seconds');
    // Every bulk file counts, and the vintages too; a page or a data route does not.
    expect((await get('/bulk/commodities.csv', from)).status).toBe(429);
    expect((await get('/vintages/index.json', from)).status).toBe(429);
    expect((await get('/en/', from)).status).toBe(200);
    expect((await get('/v1/commodities', from)).status).toBe(200);
    expect((await get('/bulk/prices.csv', '127.0.0.92')).status).toBe(200);
  });
});
