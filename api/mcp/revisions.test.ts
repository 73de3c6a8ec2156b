import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TOOLS } from '../../contract/tools.ts';
import { packageAssets } from '../../edge/assets.ts';
import { bundleWorker } from '../../edge/bundle.ts';
import { startLocalEdge, type LocalEdge } from '../../edge/local.ts';
import { MODERN_REVISION } from './modern.ts';
import { startMcpTestServer, type McpTestServer } from './test-server.ts';

/**
 * One server definition, two revisions, two runtimes: a client of the official SDK v2 pinned to
 * 2026-07-28 (server/discover, no session) and a client of the v1 SDK on 2025-11-25 (initialize,
 * a session on Node) list and call all ten tools, read resources and get prompts, against the
 * Node server and against the Worker in workerd, and get the same answers.
 */

/** One valid call of each tool. */
const CALLS: Record<string, Record<string, unknown>> = {
  get_reserve: { commodity: 'gas', country: 'de' },
  get_price: { commodity: 'cobalt' },
  compare_countries: { countries: ['DEU', 'FRA'] },
  list_scenarios: { status: 'active' },
  search_briefings: { q: 'gas storage', limit: 3 },
  get_country_profile: { iso: 'DEU' },
  list_commodities: { group: 'metals' },
  get_commodity: { slug: 'metals.cobalt' },
  get_reserve_timeseries: { commodity: 'gas', country: 'de', from: '2026-01-01', to: '2026-03-31' },
  list_events: { since: '2025-01-01', limit: 5 },
};

interface Session {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<{ isError?: boolean; structuredContent?: unknown; content: unknown }>;
  readResource(p: { uri: string }): Promise<{ contents: { uri: string; text?: string }[] }>;
  listPrompts(): Promise<{ prompts: { name: string }[] }>;
  getPrompt(p: { name: string; arguments: Record<string, string> }): Promise<{ messages: unknown[] }>;
  close(): Promise<void>;
}

async function modern(base: string): Promise<Session & { era: string | undefined }> {
  const client = new ModernClient({ name: 'chokepoint-test-2026', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN_REVISION } } });
  await client.connect(new ModernTransport(new URL(`${base}/mcp`)));
  return Object.assign(client as unknown as Session, { era: client.getProtocolEra() });
}

async function legacy(base: string): Promise<Session & { version: string | undefined }> {
  const client = new V1Client({ name: 'chokepoint-test-2025', version: '1.0.0' });
  const transport = new V1Transport(new URL(`${base}/mcp`));
  await client.connect(transport);
  const closeClient = client.close.bind(client);
  const close = async () => {
    await transport.terminateSession().catch(() => undefined);
    await closeClient();
  };
  return Object.assign(client as unknown as Session, { close, version: transport.protocolVersion });
}

const distDir = inject('distDir');
let work: string;
let edge: LocalEdge;
let node: McpTestServer;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'chokepoint-mcp-rev-'));
  await packageAssets(join(distDir, 'current'), join(work, 'assets'));
  await bundleWorker(join(work, 'worker.js'));
  [edge, node] = await Promise.all([
    startLocalEdge({ script: join(work, 'worker.js'), assets: join(work, 'assets'), vars: { RATE_LIMIT_DATA: '0', RATE_LIMIT_ASK: '0' } }),
    startMcpTestServer(),
  ]);
}, 180_000);

afterAll(async () => {
  await edge?.dispose();
  await node?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const targets = () => [
  ['Node', node.url],
  ['Worker', edge.url],
];

describe.each(['Node', 'Worker'])('%s: both revisions from one definition', (where) => {
  const base = () => targets().find(([n]) => n === where)![1]!;

  it('a v2 client on 2026-07-28 and a v1 client on 2025-11-25 list the same ten tools, in the registry order', async () => {
    const [m, l] = [await modern(base()), await legacy(base())];
    try {
      expect(m.era).toBe('modern');
      expect(l.version).toBe('2025-11-25');
      const [mt, lt] = [await m.listTools(), await l.listTools()];
      expect(mt.tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
      expect(lt.tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    } finally {
      await m.close();
      await l.close();
    }
  });

  it('both call every tool and get the same structured result', async () => {
    const [m, l] = [await modern(base()), await legacy(base())];
    try {
      for (const t of TOOLS) {
        const args = CALLS[t.name]!;
        const [mr, lr] = [await m.callTool({ name: t.name, arguments: args }), await l.callTool({ name: t.name, arguments: args })];
        expect(mr.isError, `${t.name}: ${JSON.stringify(mr.content).slice(0, 300)}`).toBeFalsy();
        expect(lr.isError, `${t.name}: ${JSON.stringify(lr.content).slice(0, 300)}`).toBeFalsy();
        expect(mr.structuredContent, t.name).toEqual(lr.structuredContent);
        expect(mr.content, t.name).toEqual(lr.content);
      }
    } finally {
      await m.close();
      await l.close();
    }
  });

  it('both read resources and get prompts', async () => {
    const [m, l] = [await modern(base()), await legacy(base())];
    try {
      for (const uri of ['chokepoint://country/DEU', 'chokepoint://reserve/gas/de', 'ui://chokepoint/reserve-series.html']) {
        const [mr, lr] = [await m.readResource({ uri }), await l.readResource({ uri })];
        expect(mr.contents[0]!.uri).toBe(uri);
        expect(mr.contents).toEqual(lr.contents);
      }
      const [mp, lp] = [await m.listPrompts(), await l.listPrompts()];
      expect(mp.prompts.map((p) => p.name)).toEqual(lp.prompts.map((p) => p.name));
      const args = { country: 'DEU' };
      const [mg, lg] = [
        await m.getPrompt({ name: 'country_supply_risk_briefing', arguments: args }),
        await l.getPrompt({ name: 'country_supply_risk_briefing', arguments: args }),
      ];
      expect(mg.messages.length).toBeGreaterThan(0);
      expect(mg.messages).toEqual(lg.messages);
    } finally {
      await m.close();
      await l.close();
    }
  });

  it('on the wire, 2026-07-28: server/discover without a session, resultType, and cache hints no longer than the 15-minute rebuild', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const post = async (method: string, params: Record<string, unknown> = {}, name?: string) => {
      const res = await fetch(`${base()}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': MODERN_REVISION,
          'mcp-method': method,
          ...(name ? { 'mcp-name': name } : {}),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } }),
      });
      expect(res.headers.get('mcp-session-id')).toBeNull();
      return { status: res.status, body: (await res.json()) as { result?: Record<string, unknown>; error?: { code: number } } };
    };
    const discover = await post('server/discover');
    expect(discover.status).toBe(200);
    expect(discover.body.result?.supportedVersions).toContain(MODERN_REVISION);
    for (const [method, params, name] of [
      ['tools/list', {}],
      ['resources/list', {}],
      ['prompts/list', {}],
      ['resources/read', { uri: 'chokepoint://country/DEU' }, 'chokepoint://country/DEU'],
    ] as const) {
      const r = await post(method, params, name);
      expect(r.status, method).toBe(200);
      expect(r.body.result?.resultType, method).toBe('complete');
      expect(r.body.result?.ttlMs, method).toBeGreaterThan(0);
      expect(r.body.result?.ttlMs, method).toBeLessThanOrEqual(15 * 60 * 1000);
      expect(r.body.result?.cacheScope, method).toBe('public');
    }
  });
});

describe('misuses answered as the specification says', () => {
  const rpc = (base: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });
  /** A 2025-11-25 session opened from `ip` (the test server reads the client address from X-Test-Ip). */
  const open = async (base: string, ip: string) => {
    const res = await rpc(
      base,
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
      { 'x-test-ip': ip },
    );
    expect(res.status).toBe(200);
    const sid = res.headers.get('mcp-session-id')!;
    const h = { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25', 'x-test-ip': ip };
    expect((await rpc(base, { jsonrpc: '2.0', method: 'notifications/initialized' }, h)).status).toBe(202);
    return h;
  };
  let bound: McpTestServer;
  beforeAll(async () => {
    bound = await startMcpTestServer({ TRUST_PROXY: 'header:X-Test-Ip' });
  });
  afterAll(() => bound?.close());

  it('resources/read with an object as uri is -32602 (invalid params), not an internal error', async () => {
    const h = await open(bound.url, '192.0.2.10');
    const legacyAnswer = (await (await rpc(bound.url, { jsonrpc: '2.0', id: 7, method: 'resources/read', params: { uri: { x: 1 } } }, h)).json()) as {
      error: { code: number; message: string };
    };
    expect(legacyAnswer.error.code).toBe(-32602);
    expect(legacyAnswer.error.message.length).toBeLessThan(300);
    for (const base of [node.url, edge.url]) {
      const res = await rpc(
        base,
        {
          jsonrpc: '2.0',
          id: 8,
          method: 'resources/read',
          params: {
            uri: { x: 1 },
            _meta: {
              'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
              'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        },
        { 'mcp-protocol-version': MODERN_REVISION, 'mcp-method': 'resources/read' },
      );
      const body = (await res.json()) as { error?: { code: number } };
      expect(body.error?.code, base).toBe(-32602);
    }
  });

  it('a batch of ten pings sharing one id is refused whole with -32600 (MCP: a request id is never reused), on Node and the Worker', async () => {
    const batch = Array.from({ length: 10 }, () => ({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    const h = await open(bound.url, '192.0.2.11');
    const res = await rpc(bound.url, batch, h);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number; message: string } }).error).toMatchObject({
      code: -32600,
      message: expect.stringContaining('the id 1 is used by more than one request'),
    });
    const edgeRes = await rpc(edge.url, batch, { 'mcp-protocol-version': '2025-11-25' });
    expect(edgeRes.status).toBe(400);
    // Distinct ids: an array of ten answers.
    const ok = await rpc(
      bound.url,
      batch.map((m, i) => ({ ...m, id: i + 1 })),
      h,
    );
    expect(ok.status).toBe(200);
    const answers = (await ok.json()) as { id: number }[];
    expect(Array.isArray(answers)).toBe(true);
    expect(answers.map((a) => a.id).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('a session is bound to the address that opened it: from another one it is unknown (404) and cannot be ended', async () => {
    const h = await open(bound.url, '192.0.2.12');
    const ping = { jsonrpc: '2.0', id: 2, method: 'ping' };
    const stranger = { ...h, 'x-test-ip': '198.51.100.7' };
    expect((await rpc(bound.url, ping, stranger)).status).toBe(404);
    const del = await fetch(`${bound.url}/mcp`, { method: 'DELETE', headers: stranger });
    expect(del.status).toBe(404);
    // Still open for its own client.
    expect((await rpc(bound.url, ping, h)).status).toBe(200);
  });
});
