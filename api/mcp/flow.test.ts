import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { connect as connectTcp, type Socket } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { openResponseStreams } from './http.ts';
import { MCP_MAX_BATCH, MCP_MAX_STRING_CHARS, MCP_MAX_URI_CHARS, MCP_OVERLOADED, MCP_RATE_LIMITED } from './limits.ts';
import type { McpSession } from './sessions.ts';
import { startMcpTestServer, type McpTestServer } from './test-server.ts';

/**
 * Flow control and costs of the MCP endpoint (issue 20, findings 1–3 and 8 for MCP), over real
 * HTTP: the official SDK client for well-behaved clients, raw requests for misbehaving ones.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Kind = 'streamable' | 'sse';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flow', version: '1' } },
};
setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;
/** RSS after a full collection: what the server holds, not garbage it has not collected yet. */
const rssMb = () => {
  gc();
  return process.memoryUsage().rss / 2 ** 20;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const within = <T>(p: Promise<T>, ms: number) => Promise.race([p, sleep(ms).then(() => Promise.reject(new Error(`not settled within ${ms} ms`)))]);

async function connect(url: string, kind: Kind, headers: Record<string, string> = {}) {
  const client = new Client({ name: 'flow-test', version: '1.0.0' });
  const endpoint = new URL(`${url}/mcp`);
  const transport =
    kind === 'sse'
      ? new SSEClientTransport(endpoint, {
          requestInit: { headers },
          eventSourceInit: { fetch: (u, init) => fetch(u, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), ...headers } }) },
        })
      : new StreamableHTTPClientTransport(endpoint, { requestInit: { headers } });
  await client.connect(transport);
  return {
    client,
    close: async () => {
      if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}

/** A raw Streamable HTTP session: initialize, initialized; returns a poster for it. */
async function rawSession(api: McpTestServer, extra: Record<string, string> = {}) {
  const init = await fetch(`${api.url}/mcp`, { method: 'POST', headers: { ...HEADERS, ...extra }, body: JSON.stringify(INIT) });
  expect(init.status).toBe(200);
  const sid = init.headers.get('mcp-session-id')!;
  const headers = { ...HEADERS, ...extra, 'mcp-session-id': sid };
  const post = (body: unknown, h: Record<string, string> = {}) =>
    fetch(`${api.url}/mcp`, { method: 'POST', headers: { ...headers, ...h }, body: JSON.stringify(body) });
  expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
  return { sid, headers, post };
}

const call = (id: number, name: string, args: Json = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const readUri = (id: number, uri: string) => ({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri } });

describe('MCP messages are capped in length before any work and not charged when refused', () => {
  it('answers a 60,000-character URI or argument with -32602 at once, on both transports, and charges nothing', async () => {
    const api = await startMcpTestServer({ RATE_LIMIT_DATA: '3' });
    try {
      const { post } = await rawSession(api);
      const long = 'x'.repeat(60_000);
      const cases = [
        readUri(2, `chokepoint://commodity/energy.${long}`),
        { jsonrpc: '2.0', id: 3, method: 'prompts/get', params: { name: 'country_supply_risk_briefing', arguments: { country: long } } },
        {
          jsonrpc: '2.0',
          id: 4,
          method: 'completion/complete',
          params: { ref: { type: 'ref/resource', uri: 'chokepoint://country/{iso}' }, argument: { name: 'iso', value: long } },
        },
        call(5, 'get_commodity', { slug: `metals.${long}` }),
      ];
      const timings: number[] = [];
      for (const m of cases) {
        const t0 = performance.now();
        const res = await post(m);
        timings.push(performance.now() - t0);
        expect(res.status).toBe(200);
        const body = (await res.json()) as Json;
        expect(body.error.code, JSON.stringify(m).slice(0, 80)).toBe(-32602);
        expect(body.error.message).toMatch(new RegExp(`has 60,?0\\d\\d characters; at most (${MCP_MAX_URI_CHARS}|${MCP_MAX_STRING_CHARS}) are accepted`));
        expect(res.headers.get('ratelimit')).toBeNull(); // nothing was counted
      }
      console.log(
        `60,000-character inputs over MCP answered in ${timings.map((t) => t.toFixed(1)).join(', ')} ms (resources/read, prompts/get, completion/complete, tools/call)`,
      );
      // None of them was charged: the whole budget of 3 is still there.
      const ok = await post(readUri(6, 'chokepoint://country/DEU'));
      expect(ok.headers.get('ratelimit')).toMatch(/^"data";r=2;t=\d+$/);

      // Over SSE too (the SDK client sees the error).
      const sse = await connect(api.url, 'sse');
      await expect(sse.client.readResource({ uri: `chokepoint://country/${long}` })).rejects.toMatchObject({ code: -32602 });
      await sse.close();
      const after = await post(readUri(7, 'chokepoint://country/FRA'));
      expect(after.headers.get('ratelimit')).toMatch(/^"data";r=1;/);
    } finally {
      await api.close();
    }
  }, 60_000);
});

describe('every data-reading MCP message counts against the per-IP data budget', () => {
  it('resources/read: after 60 reads from one IP the next is refused with the rate-limit error and RateLimit info', async () => {
    const api = await startMcpTestServer({ RATE_LIMIT_DATA: '60' });
    const c = await connect(api.url, 'streamable');
    const sse = await connect(api.url, 'sse');
    try {
      for (let i = 0; i < 60; i++) {
        const { contents } = await (i % 2 ? sse : c).client.readResource({ uri: i % 3 ? 'chokepoint://country/DEU' : 'chokepoint://reserve/gas/de' });
        expect(contents).toHaveLength(1);
      }
      const refused = await c.client.readResource({ uri: 'chokepoint://country/DEU' }).then(
        () => null,
        (e: unknown) => e as Json,
      );
      expect(refused).toMatchObject({
        code: MCP_RATE_LIMITED,
        message: expect.stringMatching(/rate limit exceeded.*"data".*allows 60 requests per 60 seconds.*retry in \d+ s/),
      });
      expect(refused!.data).toMatchObject({
        policy: 'data',
        limit: 60,
        remaining: 0,
        retryAfterSeconds: expect.any(Number),
        RateLimit: expect.stringMatching(/^"data";r=0;t=\d+$/),
        'RateLimit-Policy': '"data";q=60;w=60',
      });
      // prompts/get, completion/complete and tools/call are refused the same way, over SSE as well.
      await expect(sse.client.getPrompt({ name: 'reserve_outlook', arguments: { commodity: 'gas', country: 'de' } })).rejects.toMatchObject({
        code: MCP_RATE_LIMITED,
      });
      await expect(
        sse.client.complete({ ref: { type: 'ref/resource', uri: 'chokepoint://country/{iso}' }, argument: { name: 'iso', value: 'DE' } }),
      ).rejects.toMatchObject({ code: MCP_RATE_LIMITED });
      expect(await c.client.callTool({ name: 'list_commodities', arguments: {} })).toMatchObject({ isError: true, _meta: { policy: 'data' } });
      // The budget is the REST one.
      expect((await fetch(`${api.url}/v1/commodities`)).status).toBe(429);
      // Over raw HTTP the refusal carries the headers.
      const { post } = await rawSession(api);
      const raw = await post(readUri(9, 'chokepoint://country/DEU'));
      expect(raw.status).toBe(200);
      expect(raw.headers.get('ratelimit')).toMatch(/^"data";r=0;t=\d+$/);
      expect(Number(raw.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await raw.json()) as Json).error.code).toBe(MCP_RATE_LIMITED);
      // Listing is free.
      expect((await c.client.listTools()).tools).toHaveLength(10);
    } finally {
      await c.close();
      await sse.close();
      await api.close();
    }
  }, 60_000);

  it('prompts/get, completion/complete and ping each cost one unit', async () => {
    const api = await startMcpTestServer({ RATE_LIMIT_DATA: '4' });
    const c = await connect(api.url, 'streamable');
    try {
      await c.client.getPrompt({ name: 'country_supply_risk_briefing', arguments: { country: 'de' } });
      await c.client.complete({ ref: { type: 'ref/prompt', name: 'country_supply_risk_briefing' }, argument: { name: 'country', value: 'DE' } });
      await c.client.ping();
      await c.client.listResources(); // free
      const { post } = await rawSession(api);
      const ping = await post({ jsonrpc: '2.0', id: 2, method: 'ping' });
      expect(ping.headers.get('ratelimit')).toMatch(/^"data";r=0;/);
      expect(((await ping.json()) as Json).result).toEqual({});
      await expect(c.client.ping()).rejects.toMatchObject({ code: MCP_RATE_LIMITED, data: { policy: 'data' } });
    } finally {
      await c.close();
      await api.close();
    }
  }, 60_000);

  it('a batch over the cap is refused with a JSON-RPC error on both transports and charges nothing; nor does a batch the SDK refuses', async () => {
    const api = await startMcpTestServer({ RATE_LIMIT_DATA: '3' });
    try {
      const { post } = await rawSession(api);
      const batch = Array.from({ length: MCP_MAX_BATCH + 1 }, (_, i) => call(10 + i, 'list_commodities'));
      const big = await post(batch);
      expect(big.status).toBe(400);
      expect(await big.json()).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: expect.stringMatching(new RegExp(`at most|1 to ${MCP_MAX_BATCH} messages`)) },
      });
      expect((await post([])).status).toBe(400);
      // Refused by the SDK as a whole: an Accept without text/event-stream (406), an invalid message in the batch (400).
      const notAcceptable = await post([call(30, 'list_commodities'), call(31, 'list_commodities')], { accept: 'application/json' });
      expect(notAcceptable.status).toBe(406);
      const invalid = await post([call(32, 'list_commodities'), { jsonrpc: '2.0', id: 33 }]);
      expect(invalid.status).toBe(400);

      // SSE: the same cap on its POST path, and an invalid message refuses the whole POST.
      const ctrl = new AbortController();
      const stream = await fetch(`${api.url}/mcp`, { headers: { accept: 'text/event-stream' }, signal: ctrl.signal });
      const first = new TextDecoder().decode((await stream.body!.getReader().read()).value);
      const sessionId = /sessionId=([0-9a-f-]+)/.exec(first)![1]!;
      const ssePost = (b: unknown) =>
        fetch(`${api.url}/mcp?sessionId=${sessionId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
      const sseBig = await ssePost(batch);
      expect(sseBig.status).toBe(400);
      expect(((await sseBig.json()) as Json).error.code).toBe(-32600);
      expect((await ssePost([call(40, 'list_commodities'), { nope: true }])).status).toBe(400);
      ctrl.abort();

      // Nothing was charged: a valid batch of three uses exactly the budget.
      const ok = await post([call(50, 'list_commodities'), call(51, 'list_commodities'), call(52, 'list_commodities')]);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('ratelimit')).toMatch(/^"data";r=0;/);
      const results = (await ok.json()) as Json[];
      expect(results.map((r) => r.result.isError ?? false)).toEqual([false, false, false]);
    } finally {
      await api.close();
    }
  }, 60_000);
});

/**
 * POST on a raw socket that stops reading as soon as a 200 status line arrives (nothing is
 * buffered on the client side: the kernel's buffers fill, then the server's). A refusal is read
 * whole (Connection: close).
 */
function pausedPost(api: McpTestServer, headers: Record<string, string>, body: unknown, held: Socket[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const socket = connectTcp({ host: '127.0.0.1', port: api.port });
    held.push(socket);
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      text += d;
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (m?.[1] === '200') {
        socket.pause(); // never read the answer
        resolve({ status: 200, body: '' });
      }
    });
    socket.on('end', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4) });
    });
    socket.on('error', (e) => (/ECONNRESET|EPIPE/.test(e.message) ? undefined : reject(e)));
    const head = Object.entries({ ...headers, host: `127.0.0.1:${api.port}`, connection: 'close', 'content-length': String(Buffer.byteLength(payload)) })
      .map(([k, v]) => `${k}: ${v}`)
      .join('\r\n');
    socket.write(`POST /mcp HTTP/1.1\r\n${head}\r\n\r\n${payload}`);
  });
}

/** GET /mcp as an SSE client that reads the endpoint event and then never reads again (or goes on reading with pause=false). */
function neverReadingSse(api: McpTestServer, pause = true): Promise<{ sessionId: string; res: IncomingMessage; req: ClientRequest; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: api.port, path: '/mcp', headers: { accept: 'text/event-stream' }, agent: false }, (res) => {
      const ended = new Promise<void>((r) => res.socket.once('close', () => r()));
      res.once('data', (d: Buffer) => {
        if (pause) res.pause(); // never read again
        const sessionId = /sessionId=([0-9a-f-]+)/.exec(d.toString())![1]!;
        resolve({ sessionId, res, req, ended });
      });
      res.on('error', () => undefined);
    });
    req.on('error', (e) => (/hang up|aborted|ECONNRESET/.test(e.message) ? undefined : reject(e)));
    req.end();
  });
}

describe('flow control: a client that does not read cannot make the server hold its memory', () => {
  const BIG_BATCH = Array.from({ length: 40 }, (_, i) =>
    call(300 + i, 'get_reserve_timeseries', { commodity: 'gas', country: 'eu', from: '2000-01-01', to: '2026-12-31', frequency: 'daily' }),
  );
  const SERIES_BATCH = Array.from({ length: 10 }, (_, i) =>
    call(200 + i, 'get_reserve_timeseries', { commodity: 'gas', country: 'eu', from: '2000-01-01', to: '2026-12-31', frequency: 'daily' }),
  );
  const LIST_BATCH = Array.from({ length: 10 }, (_, i) => ({ jsonrpc: '2.0', id: 100 + i, method: 'tools/list' })); // ~870 KB of answers, free of charge

  it('SSE: a stream its client never reads refuses work once backed up, and is closed once its queue passes the cap', async () => {
    const api = await startMcpTestServer({}, { flow: { sseHighWaterBytes: 64 * 1024, maxQueuedBytes: 1024 * 1024 } });
    try {
      const warm = await neverReadingSse(api);
      warm.req.destroy();
      await warm.ended;
      const rssBefore = rssMb();
      const postTo = (id: string, batch: unknown) =>
        fetch(`${api.url}/mcp?sessionId=${id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(batch) });

      // 1. Backpressure: batches of ~870 KB (under the 1 MiB cap) until the stream is backed up; then new work is refused.
      const a = await neverReadingSse(api);
      const statuses: number[] = [];
      let refusal: Json | undefined;
      for (let i = 0; i < 60 && !refusal; i++) {
        const r = await postTo(a.sessionId, LIST_BATCH);
        statuses.push(r.status);
        if (r.status === 429) refusal = (await r.json()) as Json;
        else expect(r.status).toBe(202);
        // let every answer of the batch reach the stream before the next POST
        for (let k = 0; k < 100 && (api.mcp.sessions.get(a.sessionId, 'sse')?.inFlight ?? 0) > 0; k++) await sleep(10);
      }
      expect(refusal?.error).toMatchObject({ code: MCP_OVERLOADED, message: expect.stringMatching(/holds \d+ bytes its client has not read/) });
      expect(api.mcp.sessions.size).toBe(1); // still open, holding less than the cap
      const rssBackedUp = rssMb();

      // 2. The cap: one batch of ~2 MB of answers on a fresh stream passes 1 MiB; the session is closed and its queue dropped.
      const b = await neverReadingSse(api);
      expect((await postTo(b.sessionId, SERIES_BATCH)).status).toBe(202);
      await within(b.ended, 10_000); // the server ended the stream (its socket destroyed)
      expect((await postTo(b.sessionId, LIST_BATCH)).status).toBe(404);
      a.req.destroy();
      await within(a.ended, 10_000);
      for (let i = 0; i < 20 && api.mcp.sessions.size > 0; i++) await sleep(50);
      expect(api.mcp.sessions.size).toBe(0);
      const rssAfter = rssMb();
      console.log(
        `SSE never-reading client: ${statuses.length} POSTs of 10 × tools/list (${statuses.join(',')}) until refused as backed up; a 2 MB batch on a fresh stream closed it; RSS (after GC) ${rssBefore.toFixed(0)} → ${rssBackedUp.toFixed(0)} MB backed up → ${rssAfter.toFixed(0)} MB after`,
      );
      expect(rssBackedUp - rssBefore).toBeLessThan(64);
      expect(rssAfter - rssBefore).toBeLessThan(64);
      expect((await fetch(`${api.url}/healthz`)).status).toBe(200);
    } finally {
      await api.close();
    }
  }, 60_000);

  it('Streamable HTTP: unread responses hold their in-flight places and count as queued bytes; past the cap the session is closed', async () => {
    // Batches of 40 daily series (~8 MB of answers, more than the kernel takes for a socket), so that unread bytes stay in the server.
    const api = await startMcpTestServer({}, { flow: { maxBatch: 40, maxInFlightPerSession: 80, maxInFlightPerIp: 80, maxQueuedBytes: 4 * 1024 * 1024 } });
    const held: Socket[] = [];
    try {
      const [s1, s2, s3] = [await rawSession(api), await rawSession(api), await rawSession(api)];
      const rssBefore = rssMb();
      // 1. A second unread answer in one session passes the queued-bytes cap: the session is closed and the first answer's socket destroyed.
      expect((await pausedPost(api, s1.headers, BIG_BATCH, held)).status).toBe(200);
      const over = await pausedPost(api, s1.headers, BIG_BATCH, held);
      expect(over.status).toBe(429);
      expect(JSON.parse(over.body)).toMatchObject({
        error: { code: MCP_OVERLOADED, message: expect.stringMatching(/has not taken \d+ bytes of earlier responses .* the session is closed/) },
      });
      expect((await s1.post({ jsonrpc: '2.0', id: 9, method: 'tools/list' })).status).toBe(404);
      for (let i = 0; i < 20 && !held[0]!.destroyed && held[0]!.readyState !== 'closed'; i++) await sleep(50);

      // 2. Unread answers hold their places in flight: past 80 requests for the IP, new POSTs are refused before they run.
      expect((await pausedPost(api, s2.headers, BIG_BATCH, held)).status).toBe(200);
      expect((await pausedPost(api, s3.headers, BIG_BATCH, held)).status).toBe(200);
      const refused = await Promise.all(Array.from({ length: 20 }, (_, i) => pausedPost(api, (i % 2 ? s2 : s3).headers, BIG_BATCH, held)));
      for (const r of refused) {
        expect(r.status).toBe(429);
        expect(JSON.parse(r.body)).toMatchObject({ error: { code: MCP_OVERLOADED, message: expect.stringMatching(/in flight per (MCP session|client IP)/) } });
      }
      const rssHeld = rssMb();
      // 3. The client goes away: its places come back.
      for (const sock of held) sock.destroy();
      await sleep(300);
      const again = await s2.post(LIST_BATCH);
      expect(again.status).toBe(200);
      expect((await again.json()) as Json[]).toHaveLength(10);
      const rssAfter = rssMb();
      console.log(
        `Streamable never-reading client: 2nd unread 8 MB answer closed its session; 2 answers held then 20 POSTs refused 429; RSS (after GC) ${rssBefore.toFixed(0)} → ${rssHeld.toFixed(0)} MB held → ${rssAfter.toFixed(0)} MB after`,
      );
      expect(rssHeld - rssBefore).toBeLessThan(200);
    } finally {
      for (const sock of held) sock.destroy();
      await api.close();
    }
  }, 60_000);

  it('a response over the size cap is replaced by an error', async () => {
    // Between a country profile read (about 21 KB as a JSON-RPC answer) and tools/list (about 35 KB).
    const api = await startMcpTestServer({}, { flow: { maxResponseBytes: 30_000 } });
    try {
      const { post } = await rawSession(api);
      const res = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      const body = (await res.json()) as Json;
      expect(body.error).toMatchObject({ code: -32027, message: expect.stringMatching(/the result is \d+ bytes; at most 30000/) });
      expect(((await (await post(readUri(3, 'chokepoint://country/DEU'))).json()) as Json).result.contents).toHaveLength(1);
    } finally {
      await api.close();
    }
  }, 60_000);
});

describe('a session holds nothing of the requests it has answered', () => {
  /** Heap in use after a full collection (the server runs in this process). */
  const heapMb = () => {
    gc();
    gc();
    return process.memoryUsage().heapUsed / 2 ** 20;
  };
  /** Send `count` messages (made by `make(id)`) on one Streamable HTTP session, 4 at a time, and tally the answers as `status:code`. */
  const flood = async (post: (body: unknown) => Promise<Response>, count: number, first: number, make: (id: number) => unknown) => {
    const tally = new Map<string, number>();
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < count) {
          const id = first + next++;
          const res = await post(make(id));
          const body = (await res.json()) as Json;
          const key = `${res.status}:${body.error?.code ?? (body.result?.isError ? 'tool-error' : body.result ? 'ok' : '?')}`;
          tally.set(key, (tally.get(key) ?? 0) + 1);
        }
      }),
    );
    return Object.fromEntries(tally);
  };
  /** What the session and its transport still hold for requests. */
  const held = (api: McpTestServer, sid: string) => {
    const s = api.mcp.sessions.get(sid, 'streamable') as
      (McpSession & { transport: WebStandardStreamableHTTPServerTransport; waiting: Set<unknown>; outgoing: Set<unknown> }) | undefined;
    expect(s).toBeDefined();
    return {
      streams: openResponseStreams(s!.transport),
      waiting: s!.waiting.size,
      outgoing: s!.outgoing.size,
      inFlight: s!.inFlight,
      queuedBytes: s!.queuedBytes,
    };
  };
  const NOTHING = { streams: 0, waiting: 0, outgoing: 0, inFlight: 0, queuedBytes: 0 };

  it('thousands of 60,000-character URIs and arguments refused with -32602, and reads refused by the rate limit, leave the heap where it was', async () => {
    const api = await startMcpTestServer({ RATE_LIMIT_DATA: '60' });
    try {
      const { sid, post } = await rawSession(api);
      const long = 'x'.repeat(60_000);
      const longRead = (id: number) => readUri(id, `chokepoint://commodities/${long}`);
      await flood(post, 100, 10, longRead); // warm-up: code compiled, pools filled
      const before = heapMb();

      expect(await flood(post, 2_000, 1_000, longRead)).toEqual({ '200:-32602': 2_000 });
      expect(await flood(post, 500, 5_000, (id) => call(id, 'get_commodity', { slug: `metals.${long}` }))).toEqual({ '200:-32602': 500 });
      // Then the data budget: 60 reads pass, the rest are refused by the rate limit (-32029).
      expect(await flood(post, 300, 10_000, (id) => readUri(id, 'chokepoint://country/DEU'))).toEqual({ '200:ok': 60, [`200:${MCP_RATE_LIMITED}`]: 240 });
      await sleep(100); // the last responses' sockets settle
      const after = heapMb();
      console.log(
        `2,000 long-URI reads + 500 long-argument calls + 300 reads (240 over the rate limit) in one session: heap (after GC) ${before.toFixed(1)} → ${after.toFixed(1)} MB`,
      );
      // Retaining each request (~140 KB with its 60,000-character string) would be some 350 MB.
      expect(after - before).toBeLessThan(30);
      expect(held(api, sid)).toEqual(NOTHING);
      expect((await post(readUri(20_000, `chokepoint://commodities/${long}`))).status).toBe(200); // the session is still open
    } finally {
      await api.close();
    }
  }, 120_000);

  it('thousands of valid reads and tool calls in one session leave the heap where it was', async () => {
    const api = await startMcpTestServer();
    try {
      const { sid, post } = await rawSession(api);
      const read = (id: number) => readUri(id, id % 2 ? 'chokepoint://country/DEU' : 'chokepoint://reserve/gas/de');
      await flood(post, 100, 10, read);
      const before = heapMb();
      expect(await flood(post, 2_000, 1_000, read)).toEqual({ '200:ok': 2_000 });
      expect(await flood(post, 500, 5_000, (id) => call(id, 'get_commodity', { slug: 'energy.oil' }))).toEqual({ '200:ok': 500 });
      await sleep(100);
      const after = heapMb();
      console.log(`2,000 resources/read + 500 tools/call in one session: heap (after GC) ${before.toFixed(1)} → ${after.toFixed(1)} MB`);
      expect(after - before).toBeLessThan(30);
      expect(held(api, sid)).toEqual(NOTHING);
    } finally {
      await api.close();
    }
  }, 120_000);
});

describe('sessions cost something to hold', () => {
  it('a session ends at the end of its lifetime however often it pings', async () => {
    const api = await startMcpTestServer({ MCP_SESSION_IDLE_SECONDS: '300' }, { sessionLifetimeSeconds: 2 });
    const c = await connect(api.url, 'streamable');
    const sse = await neverReadingSse(api, false);
    try {
      let pings = 0;
      let ended: unknown = null;
      for (let i = 0; i < 100 && ended === null; i++) {
        await c.client.ping().then(
          () => pings++,
          (e: unknown) => (ended = e),
        );
        await sleep(100);
      }
      expect(pings).toBeGreaterThan(0);
      expect(String(ended)).toMatch(/404|not found/i);
      await sse.ended; // the server ended the SSE stream too
      expect(api.mcp.sessions.size).toBe(0);
    } finally {
      await c.close();
      sse.req.destroy();
      await api.close();
    }
  }, 60_000);

  it('when full, a newcomer evicts the oldest idle session of the biggest holder; equal holders do not evict each other', async () => {
    const api = await startMcpTestServer({ MCP_MAX_SESSIONS: '4', MCP_MAX_SESSIONS_PER_IP: '3', TRUST_PROXY: 'header:X-Test-Client' });
    const as = (ip: string) => ({ 'x-test-client': ip });
    try {
      const a = [];
      for (let i = 0; i < 3; i++) {
        a.push(await rawSession(api, as('192.0.2.1')));
        await sleep(20);
      }
      await a[0]!.post({ jsonrpc: '2.0', id: 5, method: 'ping' }); // a counted message: a[0] is now the most recently active
      await rawSession(api, as('198.51.100.7')); // full: 4 of 4
      const newcomer = await rawSession(api, as('203.0.113.9')); // A holds 3 > 0 + 1: its oldest idle session (a[1]) goes
      const alive = async (s: { post: (b: unknown) => Promise<Response> }) => (await s.post({ jsonrpc: '2.0', id: 9, method: 'tools/list' })).status;
      expect(await Promise.all(a.map(alive))).toEqual([200, 404, 200]);
      expect(await alive(newcomer)).toBe(200);
      expect(api.mcp.sessions.evictions).toBe(1);
      // Now A holds 2, B 1, C 1: B's second session would leave A no bigger than B, so it is refused.
      const b2 = await fetch(`${api.url}/mcp`, { method: 'POST', headers: { ...HEADERS, ...as('198.51.100.7') }, body: JSON.stringify(INIT) });
      expect(b2.status).toBe(503);
      expect(((await b2.json()) as Json).type).toBe('/problems/mcp-sessions-exhausted');
      // A fourth client (0 sessions) still gets in at A's expense (2 > 0 + 1) ...
      await rawSession(api, as('203.0.113.10'));
      expect(await Promise.all(a.map(alive))).toEqual([200, 404, 404]); // a[2] was idle longer than a[0], which pinged
      // ... and then everyone holds 1: the next newcomer is refused.
      const e = await fetch(`${api.url}/mcp`, { method: 'POST', headers: { ...HEADERS, ...as('203.0.113.11') }, body: JSON.stringify(INIT) });
      expect(e.status).toBe(503);
      expect(api.mcp.sessions.size).toBe(4);
    } finally {
      await api.close();
    }
  }, 60_000);

  it('IPv6 clients count by /64 for the per-IP caps', async () => {
    const api = await startMcpTestServer({ MCP_MAX_SESSIONS_PER_IP: '2', TRUST_PROXY: 'header:X-Test-Client' });
    try {
      const open = (ip: string) => fetch(`${api.url}/mcp`, { method: 'POST', headers: { ...HEADERS, 'x-test-client': ip }, body: JSON.stringify(INIT) });
      expect((await open('2001:db8:1:2::1')).status).toBe(200);
      expect((await open('2001:db8:1:2:ffff:ffff:ffff:fffe')).status).toBe(200);
      const third = await open('2001:db8:1:2:abcd::9');
      expect(third.status).toBe(429);
      expect(((await third.json()) as Json).policy).toBe('mcp-sessions-per-ip');
      expect((await open('2001:db8:1:3::1')).status).toBe(200);
    } finally {
      await api.close();
    }
  }, 60_000);
});
