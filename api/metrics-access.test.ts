import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../lib/config.ts';
import { type RawReply, sendFrom, startTestServer } from '../test/http.ts';

/** Who may read /metrics (METRICS, METRICS_TOKEN), over real HTTP against the real server. */

type Server = Awaited<ReturnType<typeof startTestServer>>;
let loopback: Server;
let token: Server;
let off: Server;
const TOKEN = 'metrics-token-0123456789';

beforeAll(async () => {
  // Behind a proxy on this machine, the client is the address the proxy names.
  [loopback, token, off] = await Promise.all([
    startTestServer({ TRUST_PROXY: 'loopback' }),
    startTestServer({ METRICS: 'token', METRICS_TOKEN: TOKEN }),
    startTestServer({ METRICS: 'off' }),
  ]);
});
afterAll(() => Promise.all([loopback?.close(), token?.close(), off?.close()]));

function expectProblem(r: RawReply, status: number): Record<string, unknown> {
  expect(r.status, r.body).toBe(status);
  expect(r.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  expect(r.headers['access-control-allow-origin']).toBe('*');
  return JSON.parse(r.body) as Record<string, unknown>;
}

describe('METRICS=loopback (the default)', () => {
  it('this machine reads the counters', async () => {
    const r = await sendFrom(loopback.port, 'GET', '/metrics');
    expect(r.status).toBe(200);
    expect(r.body).toContain('chokepoint_http_requests_total');
  });

  it('a client the proxy names from elsewhere is refused with 403, before anything is rendered', async () => {
    const r = await sendFrom(loopback.port, 'GET', '/metrics', { headers: { 'x-forwarded-for': '203.0.113.7' } });
    const body = expectProblem(r, 403);
    expect(body).toMatchObject({ type: '/problems/forbidden', detail: '/metrics is served to this machine only (METRICS=loopback)' });
    expect(r.body).not.toContain('chokepoint_');
  });

  it('the default of the setting is loopback', () => {
    expect(readConfig({}).METRICS).toBe('loopback');
  });
});

describe('METRICS=token', () => {
  it.each([
    ['no Authorization', {}],
    ['a wrong token', { authorization: 'Bearer metrics-token-0123456780' }],
    ['the token without Bearer', { authorization: TOKEN }],
  ])('%s: 401 with WWW-Authenticate', async (_name, headers) => {
    const r = await sendFrom(token.port, 'GET', '/metrics', { headers });
    expectProblem(r, 401);
    expect(r.headers['www-authenticate']).toBe('Bearer realm="metrics"');
  });

  it('the bearer token reads the counters', async () => {
    const r = await sendFrom(token.port, 'GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(r.status).toBe(200);
    expect(r.body).toContain('chokepoint_http_requests_total');
  });

  it('is refused at start-up without a token, or with a short one', () => {
    expect(() => readConfig({ METRICS: 'token' })).toThrow(/METRICS_TOKEN/);
    expect(() => readConfig({ METRICS: 'token', METRICS_TOKEN: 'short' })).toThrow(/at least 16 characters/);
    expect(() => readConfig({ METRICS: 'open' })).toThrow(/METRICS must be off, loopback or token/);
  });
});

describe('METRICS=off', () => {
  it('/metrics is not served', async () => {
    const r = await sendFrom(off.port, 'GET', '/metrics');
    expectProblem(r, 404);
  });
});
