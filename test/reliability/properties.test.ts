import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../contract/api.ts';
import { INPUT_LIMITS } from '../../contract/limits.ts';
import { TOOLS } from '../../contract/tools.ts';
import { startTestServer } from '../http.ts';

/**
 * Property-based bad input against the real server (real socket, real build): for every route,
 * generated query strings, path segments, headers and bodies never get a 5xx, every error is an
 * RFC 9457 problem, and the server is healthy afterwards. The same for every MCP tool with
 * generated arguments. Runs are bounded in count and time (FC_RUNS, default 200 per route, 100 per tool; at most 4 s each).
 */

const RUNS = Number(process.env.FC_RUNS ?? 200);
const TIME_LIMIT_MS = 4000;
const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined;
/** Longer request lines get node:http's own 431 before the app (its own test below). */
const MAX_URL = 12_000;
const params = (numRuns = RUNS) => ({ numRuns, interruptAfterTimeLimit: TIME_LIMIT_MS, ...(SEED !== undefined ? { seed: SEED } : {}) });

let api: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  api = await startTestServer();
});
afterAll(() => api?.close());

interface Reply {
  status: number;
  type: string;
  body: string;
}

/** Raw HTTP: the path goes out byte for byte as generated (fetch would normalise it). */
function raw(method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<Reply> {
  return new Promise((resolve, reject) => {
    // A connection per request (agent: false): no keep-alive socket reused across a close by the server.
    const req = request({ host: '127.0.0.1', port: api.port, method, path, headers, agent: false, timeout: 10_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body: text }));
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path.slice(0, 200)} timed out`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** The properties every answer has: no 5xx; an error is a complete problem document (or the site's 404 page for a browser). */
function checkReply(res: Reply, what: string, opts: { method?: string; accept?: string } = {}): void {
  expect(res.status, what).toBeGreaterThanOrEqual(200);
  expect(res.status, what).toBeLessThan(500);
  if (res.status < 400 || opts.method === 'HEAD') return;
  if (res.type.startsWith('text/html')) {
    // Documented: a browser (Accept: text/html) asking outside /v1/ for a missing page gets the site's 404 page.
    expect(opts.accept ?? '', what).toMatch(/text\/html/);
    expect(res.status, what).toBe(404);
    return;
  }
  expect(res.type, what).toBe('application/problem+json; charset=utf-8');
  const p = JSON.parse(res.body) as Record<string, unknown>;
  expect(p.status, what).toBe(res.status);
  for (const k of ['type', 'title', 'detail', 'instance']) expect(typeof p[k], `${what}: ${k}`).toBe('string');
  expect(String(p.detail), what).not.toMatch(/at .*\.ts:\d+|node_modules/);
}

async function healthy(): Promise<void> {
  const h = await raw('GET', '/healthz');
  expect(h.status).toBe(200);
  expect((JSON.parse(h.body) as { build: string }).build).toBeTruthy();
}

// --- generators ------------------------------------------------------------------------------

/** Percent-encode every byte of the UTF-8 form (lone surrogates become U+FFFD, as a client would send them). */
const pct = (s: string) => [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
/** Bytes that are not valid UTF-8, percent-encoded: lone continuation bytes, truncated and overlong sequences, %00. */
const badBytes = fc.constantFrom(
  '%FF',
  '%FE%FF',
  '%C0%AF',
  '%C0%80',
  '%E0%80%AF',
  '%ED%A0%80',
  '%F8%88%80%80%80',
  '%80',
  '%E2%82',
  '%F0%9F%92',
  '%00',
  'a%00b',
  '%',
  '%G1',
  '%%',
  '%2',
  '%25%32%65',
);
const randomBytes = fc.uint8Array({ minLength: 1, maxLength: 24 }).map((a) => [...a].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''));
const adversarial = fc.constantFrom(
  '..',
  '../../package.json',
  '..%2F..%2Fpackage.json',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  "'; DROP TABLE x;--",
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'prototype',
  '-1',
  '0',
  '1e309',
  'NaN',
  'Infinity',
  '9'.repeat(40),
  '[]',
  '{}',
  'null',
  'true',
  ' ',
  '\t',
  '2026-02-30',
  '2026-13-01',
  '0000-00-00',
  '99999-01-01',
  'gas',
  'energy.gas',
  'DEU',
  'de',
  'eu',
);
/** Known-good values, so that generated queries also reach the deep paths of each route. */
const good = fc.constantFrom(
  'gas',
  'oil',
  'de',
  'DEU',
  'fr',
  'eu',
  'us',
  'metals',
  'energy',
  'en',
  'fr',
  'policy',
  'elevated',
  'weekly',
  'monthly',
  'fill_pct',
  'volume',
  'json',
  'csv',
  'briefing',
  '2025-01-01',
  '2026-06-30',
  '5',
  '50',
  'cobalt',
);
const text = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 20 }));
const overlong = fc.integer({ min: 201, max: 6000 }).map((n) => 'x'.repeat(n));
/** A query value as it appears on the wire. */
const value = fc.oneof(
  { weight: 4, arbitrary: good.map(encodeURIComponent) },
  { weight: 3, arbitrary: adversarial.map(pct) },
  { weight: 3, arbitrary: text.map(pct) },
  { weight: 2, arbitrary: badBytes },
  { weight: 1, arbitrary: randomBytes },
  { weight: 1, arbitrary: overlong },
  { weight: 1, arbitrary: fc.constant('') },
);
const KNOWN = [
  'commodity',
  'country',
  'from',
  'to',
  'since',
  'until',
  'limit',
  'q',
  'lang',
  'group',
  'status',
  'category',
  'metric',
  'frequency',
  'format',
  'type',
];
const name = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...KNOWN) },
  { weight: 1, arbitrary: text.map(pct) },
  { weight: 1, arbitrary: fc.constantFrom('bogus', '__proto__', 'constructor', 'q[]', 'limit[0]', '') },
  { weight: 1, arbitrary: badBytes },
);
/** A query string: known and unknown names, repeats, names without a value, stray separators. */
const query = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: fc.tuple(name, value).map(([n, v]) => `${n}=${v}`) },
      { weight: 1, arbitrary: name },
      { weight: 1, arbitrary: fc.constantFrom('&', '=', '==', '&&', '?') },
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join('&'));
/** A path segment for {iso} / {slug}: valid, adversarial, garbage, invalid UTF-8, overlong. */
const segment = fc.oneof(
  good.map(encodeURIComponent),
  fc.constantFrom(
    'DEU',
    'de',
    'XXX',
    'energy.gas',
    'METALS.COBALT',
    'metals.cobalth',
    'a.b.c',
    '.',
    '..',
    '...',
    '%2e%2e',
    '%2F',
    'a%2Fb',
    '%5C',
    '%00',
    'x;y',
    'x?y=1',
  ),
  adversarial.map(pct),
  text.map(pct),
  badBytes,
  randomBytes,
  overlong,
);
/** Any byte node:http lets a client put in a header value (tab, printable ASCII, 0x80–0xFF). */
const headerText = fc
  .array(fc.oneof(fc.constant(0x09), fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff })), { maxLength: 60 })
  .map((cs) => String.fromCharCode(...cs));
const accept = fc.option(
  fc.oneof(
    fc.constantFrom(
      '*/*',
      'application/json',
      'text/csv',
      'text/html',
      'application/xml',
      'application/json;q=0',
      'text/*',
      'application/*;q=0.0',
      'image/png',
      '',
      ',,,',
      ';;;q=',
      'application/problem+json',
    ),
    headerText,
  ),
  { nil: undefined, freq: 2 },
);
const ifNoneMatch = fc.option(fc.oneof(fc.constantFrom('*', '""', '"x"', 'W/"x"', 'W/', '"', ', , ,'), headerText), { nil: undefined });
const contentType = fc.option(
  fc.oneof(
    fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=latin1',
      '',
    ),
    headerText,
  ),
  { nil: undefined },
);
const headers = fc
  .record({ accept, 'if-none-match': ifNoneMatch, 'content-type': contentType })
  .map((h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>);
/** Mostly GET, so that most runs reach the parameter checks; the other methods often enough to be covered. */
const method = fc.oneof(
  { weight: 12, arbitrary: fc.constant('GET') },
  { weight: 1, arbitrary: fc.constantFrom('HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS') },
);

// --- the routes -------------------------------------------------------------------------------

describe('generated bad input on every route: never a 5xx, always a problem, healthy afterwards', () => {
  for (const r of ROUTES.filter((x) => x.method === 'get')) {
    it(`GET ${r.path}`, async () => {
      const seen = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(segment, query, headers, method, async (seg, q, h, m) => {
          const path = r.path.replace(/\{\w+\}/, seg);
          const url = q ? `${path}?${q}` : path;
          fc.pre(url.length < MAX_URL);
          const res = await raw(m, url, h);
          seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
          checkReply(res, `${m} ${url.slice(0, 300)} ${JSON.stringify(h)}`, { method: m, accept: h.accept });
        }),
        params(),
      );
      // The generators reach the refusals and the answers alike (the figures go to RELIABILITY.md).
      console.log(
        `GET ${r.path}: ${[...seen]
          .sort((a, b) => a[0] - b[0])
          .map(([k, v]) => `${k}×${v}`)
          .join(' ')}`,
      );
      expect([...seen.keys()].some((k) => k >= 400)).toBe(true);
      await healthy();
    });
  }

  const jsonBody = fc.oneof(
    fc
      .record(
        { q: fc.oneof(fc.string({ maxLength: 600 }), fc.string({ unit: 'grapheme', maxLength: 100 }), fc.jsonValue({ maxDepth: 2 }), good) },
        { requiredKeys: [] },
      )
      .map((o) => JSON.stringify(o)),
    fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }).map((o) => JSON.stringify(o)),
    fc.json({ maxDepth: 3 }),
    fc.string({ maxLength: 200 }),
    fc.constantFrom(
      '',
      '{',
      '{"q":',
      '{"q":"\\uD800"}',
      '{"q":"a\\u0000b"}',
      '{"__proto__":{"q":"x"}}',
      '[]',
      'null',
      '{"q":"x","q":"y"}',
      '{'.repeat(3000),
      '"' + 'a'.repeat(5000) + '"',
    ),
  );
  const body = fc.oneof(
    { weight: 6, arbitrary: jsonBody },
    // huge bodies: just under and far over the 4 KiB limit
    { weight: 1, arbitrary: fc.integer({ min: 3000, max: 200_000 }).map((n) => JSON.stringify({ q: 'x'.repeat(n) })) },
    // bytes that are not UTF-8
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.concat([Buffer.from('{"q":"'), Buffer.from(a), Buffer.from('"}')])) },
  );

  it('POST /v1/ask', async () => {
    await fc.assert(
      fc.asyncProperty(body, query, headers, fc.boolean(), async (b, q, h, forceJson) => {
        const hh = forceJson ? { ...h, 'content-type': 'application/json' } : h;
        const url = q ? `/v1/ask?${q}` : '/v1/ask';
        const res = await raw('POST', url, hh, b);
        checkReply(res, `POST ${url.slice(0, 200)} ${JSON.stringify(hh)} ${String(b).slice(0, 200)}`, { method: 'POST', accept: hh.accept });
      }),
      params(),
    );
    await healthy();
  });

  it('arbitrary paths anywhere (not only the routes)', async () => {
    const anyPath = fc
      .array(
        fc.oneof(segment, fc.constantFrom('v1', 'mcp', '.well-known', 'feeds', 'docs', 'site', 'builds', 'current', 'manifest.json', 'openapi.json', '_astro')),
        { minLength: 1, maxLength: 6 },
      )
      .map((s) => `/${s.join('/')}`);
    await fc.assert(
      fc.asyncProperty(anyPath, query, headers, async (p, q, h) => {
        const url = q ? `${p}?${q}` : p;
        fc.pre(url.length < MAX_URL);
        const res = await raw('GET', url, h);
        checkReply(res, `GET ${url.slice(0, 300)} ${JSON.stringify(h)}`, { accept: h.accept });
        // never a file from outside the build
        expect(res.body).not.toMatch(/"dependencies"|root:x:0:|"devDependencies"/);
      }),
      params(),
    );
    await healthy();
  });

  it('known classes: a URL beyond the header limit gets a 431 problem from the connection guard, and the server carries on', async () => {
    // Node's parser refuses a request line + headers over 16 KiB before the app; the clientError
    // handler answers it with a problem (the client may see the 431 or, still writing, the connection closed under it).
    const res = await raw('GET', `/v1/search?q=${'x'.repeat(20_000)}`).then(
      (r) => r,
      (e: Error) => e.message,
    );
    if (typeof res === 'string') expect(['socket hang up', 'read ECONNRESET', 'write EPIPE']).toContain(res);
    else {
      checkReply(res, '20,000-character URL');
      expect(res.status).toBe(431);
    }
    // Below the limit the app answers, with a problem naming the parameter and its length limit.
    const long = await raw('GET', `/v1/search?q=${'x'.repeat(10_000)}`);
    expect(long.status).toBe(400);
    expect(JSON.parse(long.body)).toMatchObject({
      status: 400,
      errors: [{ param: 'q', message: expect.stringContaining(`at most ${INPUT_LIMITS.searchQuery} characters`) }],
    });
    await healthy();
  });

  it('every identifier and free-text parameter over its length limit: 400 naming the parameter and the limit', async () => {
    const cases: { path: string; param: string; max: number }[] = [
      { path: '/v1/commodities/{v}', param: 'slug', max: INPUT_LIMITS.commodity },
      { path: '/v1/countries/{v}', param: 'iso', max: INPUT_LIMITS.country },
      { path: '/v1/reserves?commodity={v}&country=de', param: 'commodity', max: INPUT_LIMITS.commodity },
      { path: '/v1/reserves?commodity=gas&country={v}', param: 'country', max: INPUT_LIMITS.country },
      { path: '/v1/reserves/timeseries?commodity=gas&country=de&from={v}', param: 'from', max: INPUT_LIMITS.date },
      { path: '/v1/reserves/timeseries?commodity=gas&country=de&from=2026-01-01&metric={v}', param: 'metric', max: INPUT_LIMITS.enumValue },
      { path: '/v1/events?category={v}', param: 'category', max: INPUT_LIMITS.enumValue },
      { path: '/v1/events?limit={v}', param: 'limit', max: INPUT_LIMITS.integer },
      { path: '/v1/briefings?lang={v}', param: 'lang', max: INPUT_LIMITS.enumValue },
      { path: '/v1/search?q={v}', param: 'q', max: INPUT_LIMITS.searchQuery },
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...cases), fc.integer({ min: 1, max: 11_000 }), fc.constantFrom('a', '9', 'é', '.', 'Z'), async (c, extra, ch) => {
        // at most 11,000 bytes once percent-encoded: below node:http's 16 KiB header limit
        const value = ch.repeat(c.max + Math.min(extra, Math.floor(11_000 / encodeURIComponent(ch).length) - c.max));
        const res = await raw('GET', c.path.replace('{v}', encodeURIComponent(value)));
        checkReply(res, `${c.param} × ${value.length}`);
        expect(res.status, `${c.param} × ${value.length}`).toBe(400);
        const p = JSON.parse(res.body) as { errors: { param: string; message: string }[] };
        expect(p.errors, `${c.param} × ${value.length}`).toContainEqual({
          param: c.param,
          message: expect.stringContaining(`must be at most ${c.max} characters`),
        });
      }),
      params(Math.max(30, Math.floor(RUNS / 4))),
    );
    await healthy();
  });
});

// --- MCP ----------------------------------------------------------------------------------------

describe('generated arguments on every MCP tool: a result or a JSON-RPC error, never a crash', () => {
  let client: Client;
  let transport: StreamableHTTPClientTransport;
  beforeAll(async () => {
    client = new Client({ name: 'reliability-properties', version: '1.0.0' });
    transport = new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`));
    await client.connect(transport);
  });
  afterAll(async () => {
    await transport?.terminateSession().catch(() => undefined);
    await client?.close();
  });

  const json = fc.jsonValue({ maxDepth: 2 });
  const wrongTypes = fc.oneof(json, fc.constantFrom(null, true, 0, -1, 1e308, '', [], {}, ['DEU'], { q: 'x' }, 'x'.repeat(5000)));

  for (const tool of TOOLS) {
    const keys = Object.keys(tool.inputSchema.shape);
    /** The tool's own argument names with arbitrary values, plus unknown keys. */
    const args = fc.oneof(
      fc.record(Object.fromEntries(keys.map((k) => [k, fc.oneof(good, text, wrongTypes)])), { requiredKeys: [] }),
      fc
        .tuple(
          fc.record(Object.fromEntries(keys.map((k) => [k, good])), { requiredKeys: [] }),
          fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), json, { maxKeys: 3 }),
        )
        .map(([a, b]) => ({ ...b, ...a })),
      fc.dictionary(fc.string({ maxLength: 12 }), json, { maxKeys: 5 }),
    );
    it(tool.name, async () => {
      await fc.assert(
        fc.asyncProperty(args, async (a) => {
          try {
            const r = await client.callTool({ name: tool.name, arguments: a as Record<string, unknown> });
            expect(Array.isArray(r.content), JSON.stringify(a)).toBe(true);
            if (!r.isError) expect(r.structuredContent, JSON.stringify(a)).toMatchObject({ license: 'CC-BY-4.0' });
          } catch (err) {
            // A JSON-RPC error from the server (or the client's check of the result) is an answer, not a crash.
            expect(err, JSON.stringify(a).slice(0, 300)).toBeInstanceOf(McpError);
            expect(typeof (err as McpError).code).toBe('number');
          }
        }),
        params(Math.max(20, Math.floor(RUNS / 2))),
      );
      expect((await client.listTools()).tools).toHaveLength(TOOLS.length);
      await healthy();
    });
  }

  it('raw JSON-RPC with generated methods and params: always a JSON-RPC answer, the session keeps working', async () => {
    const h = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': transport.sessionId!,
      'mcp-protocol-version': '2025-06-18',
    };
    const methodName = fc.oneof(
      fc.constantFrom('tools/call', 'tools/list', 'resources/read', 'prompts/get', 'completion/complete', 'initialize', 'ping', 'logging/setLevel'),
      fc.string({ maxLength: 20 }),
    );
    const message = fc.record(
      {
        jsonrpc: fc.oneof(fc.constant('2.0'), json),
        id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null)),
        method: methodName,
        params: fc.oneof(json, fc.record({ name: fc.constantFrom(...TOOLS.map((t) => t.name), 'nope'), arguments: json })),
      },
      { requiredKeys: ['method'] },
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(message, fc.array(message, { maxLength: 3 })), async (m) => {
        const res = await raw('POST', '/mcp', h, JSON.stringify(m));
        expect(res.status, JSON.stringify(m).slice(0, 300)).toBeLessThan(500);
        if (res.body && res.type.startsWith('application/json')) {
          const parsed = JSON.parse(res.body) as unknown;
          for (const x of Array.isArray(parsed) ? parsed : [parsed]) expect(x, JSON.stringify(m).slice(0, 300)).toMatchObject({ jsonrpc: '2.0' });
        } else if (res.status >= 400) {
          expect(res.type, JSON.stringify(m).slice(0, 300)).toMatch(/^application\/(problem\+)?json/);
        }
      }),
      params(),
    );
    expect((await client.listTools()).tools).toHaveLength(TOOLS.length);
    await healthy();
  });
});
