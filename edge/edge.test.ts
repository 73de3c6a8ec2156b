import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestServer } from '../test/http.ts';
import { MAX_HEADER_RULES, packageAssets, parseHeaders } from './assets.ts';
import { bundleWorker } from './bundle.ts';
import { startLocalEdge, type LocalEdge } from './local.ts';

/**
 * The same behaviour everywhere: one table of requests, sent to the Node server (startTestServer)
 * and to the Cloudflare Worker running in workerd through miniflare (the bundle `npm run
 * edge:build` makes, the assets laid out with their `_headers`, the router and bindings of
 * edge/wrangler.jsonc), over the shared test build. Status, the headers clients rely on and the
 * bodies must agree; where the asset layer differs by design (its own ETags, its 307 for a
 * missing trailing slash), the test says so.
 */

interface Case {
  name: string;
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Served by the asset layer at the edge: its ETag is its own (a hash of the file), and Cloudflare compresses, so no Vary. */
  asset?: boolean;
  /** Compare the bodies (default true; JSON compared parsed, without the per-request id). */
  body_?: 'same' | 'status-field' | 'none';
}

const CASES: Case[] = [
  // Path-addressed and parameterised routes.
  { name: 'commodity list', path: '/v1/commodities' },
  { name: 'commodity list by group, CSV by format=', path: '/v1/commodities?group=metals&format=csv' },
  { name: 'commodity sheet by slug', path: '/v1/commodities/metals.cobalt' },
  { name: 'commodity sheet by code, case-insensitive', path: '/v1/commodities/COBALT' },
  { name: 'reserve', path: '/v1/reserves?commodity=gas&country=de' },
  {
    name: 'reserve time series, CSV by Accept',
    path: '/v1/reserves/timeseries?commodity=gas&country=eu&from=2025-01-01&frequency=weekly',
    headers: { accept: 'text/csv' },
  },
  { name: 'largest time series', path: '/v1/reserves/timeseries?commodity=gas&country=eu&from=2011-01-01&to=2026-11-01' },
  { name: 'country profile', path: '/v1/countries/deu' },
  { name: 'events, filtered', path: '/v1/events?category=policy&limit=5' },
  { name: 'scenarios', path: '/v1/scenarios?status=active' },
  { name: 'briefings', path: '/v1/briefings?lang=fr&limit=2' },
  { name: 'search', path: '/v1/search?q=gas%20storage&limit=3' },
  { name: 'ask (grounded)', path: '/v1/ask', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"q":"What is the price of cobalt?"}' },
  { name: 'HEAD', path: '/v1/reserves?commodity=gas&country=de', method: 'HEAD' },
  { name: 'CORS preflight', path: '/v1/commodities', method: 'OPTIONS', headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' } },
  { name: 'health', path: '/healthz', body_: 'status-field' },
  // Problems (RFC 9457).
  { name: '400 unknown parameter', path: '/v1/reserves?commodity=gas&country=de&colour=red' },
  { name: '400 bad value', path: '/v1/events?limit=abc' },
  { name: '400 parameter given twice', path: '/v1/reserves?commodity=gas&commodity=oil&country=de' },
  { name: '400 not UTF-8', path: '/v1/search?q=%FF' },
  { name: '400 names of Object.prototype are unknown parameters', path: '/v1/commodities?constructor=1&toString=2&__proto__=3' },
  { name: '400 ask with q of the wrong type', path: '/v1/ask', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"q":["oil"]}' },
  { name: '404 unknown commodity, with suggestions', path: '/v1/commodities/kobalt' },
  { name: '404 no route', path: '/v1/nothing-here' },
  { name: '405 POST on a GET route', path: '/v1/commodities', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' },
  { name: '406 Accept nothing offered', path: '/v1/commodities/metals.cobalt', headers: { accept: 'application/xml' } },
  { name: '406 CSV on a JSON-only route', path: '/v1/countries/deu?format=csv' },
  { name: '415 ask without JSON', path: '/v1/ask', method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'cobalt?' },
  { name: '404 page for a browser', path: '/no-such-page', headers: { accept: 'text/html' } },
  // Files served as they are (the asset layer at the edge).
  { name: 'OpenAPI document', path: '/openapi.json', asset: true },
  { name: 'llms.txt', path: '/llms.txt', asset: true },
  { name: 'api-catalog (its own Link)', path: '/.well-known/api-catalog', asset: true },
  { name: 'MCP server card', path: '/.well-known/mcp/server-card', asset: true },
  { name: 'a feed', path: '/feeds/events.atom', asset: true },
  { name: 'a bulk CSV', path: '/bulk/reserves.csv', asset: true },
  { name: 'a guide as Markdown', path: '/docs/api.md', asset: true },
  { name: 'the site', path: '/en/', asset: true },
  { name: 'a page', path: '/fr/commodities/metals.cobalt/', asset: true },
  // Its CSP lets any origin frame it, without X-Frame-Options (the page rules' are detached).
  { name: 'an embed page', path: '/de/embed/reserves/gas/de/fill/', asset: true },
  // Page addresses from before the language prefixes: the app answers, the same way on both.
  { name: 'the old home page: the preferred language', path: '/', headers: { 'accept-language': 'de-CH, de;q=0.9, en;q=0.5' } },
  { name: 'the old home page: English by default, with the query', path: '/?from=bookmark' },
  { name: 'an old page: its English page for good', path: '/commodities/metals.cobalt/?x=1' },
  { name: 'an old page without its slash', path: '/countries/DEU' },
  { name: 'an old briefing list: its language', path: '/briefings/fr/' },
  { name: '404 page of a language', path: '/es/no-such-page/', headers: { accept: 'text/html' } },
];

const HEADERS = [
  'content-type',
  'cache-control',
  'vary',
  'etag',
  'last-modified',
  'content-encoding',
  'link',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'x-content-type-options',
  'x-build',
  'allow',
  'retry-after',
  'location',
  'content-security-policy',
  'x-frame-options',
];
/** Headers the asset layer sets its own way (documented in docs/deploy.md). */
const ASSET_OWN = new Set(['etag', 'vary', 'content-encoding']);

/**
 * Vary without Accept-Encoding: at the edge the content coding is Cloudflare's (it compresses
 * what the worker and the asset layer send, and adds Vary: Accept-Encoding itself), so the worker
 * answers identity and does not name it.
 */
const withoutCoding = (v: string | null) =>
  v
    ?.split(',')
    .map((s) => s.trim())
    .filter((s) => s.toLowerCase() !== 'accept-encoding')
    .join(', ') || null;

interface Reply {
  status: number;
  headers: Headers;
  text: string;
}

async function send(base: string, c: Case): Promise<Reply> {
  const res = await fetch(base + c.path, {
    method: c.method ?? 'GET',
    headers: { 'accept-encoding': 'identity', ...c.headers },
    ...(c.body !== undefined ? { body: c.body } : {}),
    redirect: 'manual',
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** A body to compare: JSON parsed without the per-request id, anything else as text. */
function comparable(text: string, type: string | null): unknown {
  if (!type?.includes('json') || !text) return text;
  const v = JSON.parse(text) as Record<string, unknown>;
  if (v && typeof v === 'object') delete v.request_id;
  return v;
}

const distDir = inject('distDir');
let work: string;
let edge: LocalEdge;
let node: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'chokepoint-edge-'));
  await packageAssets(join(distDir, 'current'), join(work, 'assets'));
  await bundleWorker(join(work, 'worker.js'));
  [edge, node] = await Promise.all([
    startLocalEdge({ script: join(work, 'worker.js'), assets: join(work, 'assets'), vars: { RATE_LIMIT_DATA: '0', RATE_LIMIT_ASK: '0' } }),
    startTestServer(),
  ]);
}, 120_000);

afterAll(async () => {
  await edge?.dispose();
  await node?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the Worker in workerd answers as the Node server does', () => {
  it.each(CASES)('$name: $path', async (c) => {
    const [n, e] = [await send(node.url, c), await send(edge.url, c)];
    expect(e.status, `${c.path}: ${e.text.slice(0, 300)}`).toBe(n.status);
    for (const h of HEADERS) {
      if (c.asset && ASSET_OWN.has(h)) continue;
      if (h === 'vary') expect(withoutCoding(e.headers.get(h)), h).toBe(withoutCoding(n.headers.get(h)));
      else expect(e.headers.get(h), h).toBe(n.headers.get(h));
    }
    if (c.asset) expect(e.headers.get('etag')).toMatch(/^"[0-9a-f]+"$/);
    if (c.body_ === 'status-field') expect(JSON.parse(e.text).status).toBe(JSON.parse(n.text).status);
    else if (c.body_ !== 'none') expect(comparable(e.text, e.headers.get('content-type'))).toEqual(comparable(n.text, n.headers.get('content-type')));
  });

  it.each(CASES.filter((c) => (c.method ?? 'GET') === 'GET' && !c.body_))('304 on If-None-Match: $path', async (c) => {
    for (const base of [node.url, edge.url]) {
      const first = await send(base, c);
      if (first.status !== 200) continue;
      const etag = first.headers.get('etag')!;
      const again = await send(base, { ...c, headers: { ...c.headers, 'if-none-match': etag } });
      expect(again.status, base).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      expect(again.headers.get('cache-control')).toBe(first.headers.get('cache-control'));
    }
  });

  it('old page addresses answer a redirect to their page under a language: / by Accept-Language, the others for good', async () => {
    const cases: [string, Record<string, string>, number, string][] = [
      ['/', { 'accept-language': 'de-CH, de;q=0.9, en;q=0.5' }, 302, '/de/'],
      ['/', { 'accept-language': 'es-ES,es;q=0.9' }, 302, '/es/'],
      ['/?from=bookmark', {}, 302, '/en/?from=bookmark'],
      ['/commodities/metals.cobalt/?x=1', { 'accept-language': 'fr' }, 301, '/en/commodities/metals.cobalt/?x=1'],
      ['/countries/DEU', {}, 301, '/en/countries/DEU/'],
      ['/docs/methodology/', {}, 301, '/en/docs/methodology/'],
      ['/briefings/fr/', {}, 301, '/fr/briefings/'],
    ];
    for (const base of [node.url, edge.url]) {
      for (const [path, headers, status, location] of cases) {
        const r = await send(base, { name: path, path, headers });
        expect(r.status, `${base}${path}`).toBe(status);
        expect(r.headers.get('location'), `${base}${path}`).toBe(location);
        if (status === 302) expect(withoutCoding(r.headers.get('vary'))).toBe('Accept-Language');
      }
      const es = await send(base, { name: '404', path: '/es/no-such-page/', headers: { accept: 'text/html' } });
      expect(es.status).toBe(404);
      expect(es.text).toContain('<html lang="es"');
    }
  });

  it('a page asked without its slash is redirected to the same address (Node 308, the asset layer 307)', async () => {
    const c = { name: 'redirect', path: '/en/commodities/metals.cobalt' };
    const [n, e] = [await send(node.url, c), await send(edge.url, c)];
    expect(n.status).toBe(308);
    expect(e.status).toBe(307);
    expect(e.headers.get('location')).toBe(n.headers.get('location'));
  });

  it('the app answers identity and the runtime compresses (as Cloudflare does), with the ETag of the identity bytes', async () => {
    const c = { name: 'br', path: '/v1/commodities/metals.cobalt', headers: { 'accept-encoding': 'br' } };
    const e = await send(edge.url, c);
    const n = await send(node.url, { ...c, headers: {} });
    expect(e.status).toBe(200);
    // The runtime compressed the identity answer for this client (as Cloudflare does); fetch decoded it.
    expect(e.headers.get('content-encoding')).toBe('br');
    expect(e.headers.get('etag')?.replace(/^W\//, '')).toBe(n.headers.get('etag'));
    expect(JSON.parse(e.text)).toEqual(JSON.parse(n.text));
  });

  it('a method other than GET on a file is 405 on both (at the edge, from the asset layer)', async () => {
    const c = { name: 'post', path: '/openapi.json', method: 'POST', body: '' };
    const [n, e] = [await send(node.url, c), await send(edge.url, c)];
    expect(n.status).toBe(405);
    expect(e.status).toBe(405);
  });

  it('the raw build under /_build/ is the worker’s, not the public’s', async () => {
    expect((await fetch(`${edge.url}/_build/manifest.json`)).status).toBe(404);
  });

  it('the _headers file stays within Cloudflare’s rule limit', async () => {
    const rules = parseHeaders(await readFile(join(work, 'assets', '_headers'), 'utf8'));
    expect(Object.keys(rules).length).toBeLessThanOrEqual(MAX_HEADER_RULES);
    expect(rules['/*']?.['x-content-type-options']).toBe('nosniff');
  });
});

describe('MCP at the edge: stateless Streamable HTTP', () => {
  const connect = async (base: string) => {
    const client = new Client({ name: 'chokepoint-edge-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`));
    await client.connect(transport);
    return { client, transport };
  };

  it('an MCP SDK client lists the tools and calls them, with the answers of the Node server', async () => {
    const [e, n] = [await connect(edge.url), await connect(node.url)];
    try {
      expect(e.transport.sessionId).toBeUndefined();
      expect(n.transport.sessionId).toBeDefined();
      const [et, nt] = [await e.client.listTools(), await n.client.listTools()];
      expect(et.tools.map((t) => t.name)).toEqual(nt.tools.map((t) => t.name));
      expect(et.tools).toHaveLength(10);
      for (const [name, args] of [
        ['get_reserve', { commodity: 'gas', country: 'de' }],
        ['search_briefings', { q: 'gas storage' }],
        ['list_commodities', {}],
      ] as const) {
        const [er, nr] = [await e.client.callTool({ name, arguments: args }), await n.client.callTool({ name, arguments: args })];
        expect(er.isError, JSON.stringify(er.content)).toBeFalsy();
        expect(er.structuredContent).toEqual(nr.structuredContent);
        expect(er.content).toEqual(nr.content);
      }
      const [ep, np] = [await e.client.listPrompts(), await n.client.listPrompts()];
      expect(ep.prompts.map((p) => p.name)).toEqual(np.prompts.map((p) => p.name));
    } finally {
      await e.client.close();
      await n.transport.terminateSession().catch(() => undefined);
      await n.client.close();
    }
  });

  it('GET and DELETE /mcp are 405 (no stream, no session to end); a foreign Host is refused', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${edge.url}/mcp`, { method, headers: { accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    }
    const res = await fetch(`${edge.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', origin: 'https://evil.example' },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect(res.status).toBe(403);
  });
});

describe('rate limits at the edge: the Workers rate-limiting binding, per CF-Connecting-IP', () => {
  let limited: LocalEdge;
  beforeAll(async () => {
    limited = await startLocalEdge({ script: join(work, 'worker.js'), assets: join(work, 'assets'), vars: { RATE_LIMIT_DATA: '2' }, limits: { data: 2 } });
  }, 60_000);
  afterAll(() => limited?.dispose());

  it('admits the quota with RateLimit-Policy, then answers 429 with RateLimit and Retry-After; another client is not affected', async () => {
    const get = (ip: string) => fetch(`${limited.url}/v1/reserves?commodity=gas&country=de`, { headers: { 'cf-connecting-ip': ip } });
    const ok = [await get('192.0.2.1'), await get('192.0.2.1')];
    for (const r of ok) {
      expect(r.status).toBe(200);
      expect(r.headers.get('ratelimit-policy')).toBe('"data";q=2;w=60');
    }
    const refused = await get('192.0.2.1');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.headers.get('ratelimit')).toBe('"data";r=0;t=60');
    expect(((await refused.json()) as { policy: string }).policy).toBe('data');
    expect((await get('192.0.2.2')).status).toBe(200);
  });
});
