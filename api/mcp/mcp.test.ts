import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../contract/tools.ts';
import { resample } from '../queries/reserves.ts';
import { startTestServer } from '../../test/http.ts';

type Api = Awaited<ReturnType<typeof startTestServer>>;
type Kind = 'streamable' | 'sse';
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const KINDS: Kind[] = ['streamable', 'sse'];
const META_KEYS = ['as_of', 'license', 'attribution', 'notes', 'sources'];

interface Connected {
  client: Client;
  close(): Promise<void>;
}

/** The official SDK client over one transport, against the running app. */
async function connect(url: string, kind: Kind, headers: Record<string, string> = {}): Promise<Connected> {
  const client = new Client({ name: 'chokepoint-test', version: '1.0.0' });
  const endpoint = new URL(`${url}/mcp`);
  const transport =
    kind === 'sse'
      ? new SSEClientTransport(endpoint, {
          requestInit: { headers },
          eventSourceInit: {
            fetch: (u, init) => {
              const h = new Headers(init?.headers);
              for (const [k, v] of Object.entries(headers)) h.set(k, v);
              return fetch(u, { ...init, headers: h });
            },
          },
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

const call = async (c: Connected, name: string, args: Json) =>
  (await c.client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent?: Json };
const rest = async (api: Api, path: string): Promise<Json> => {
  const res = await fetch(`${api.url}${path}`);
  expect(res.status, path).toBe(200);
  return (await res.json()) as Json;
};
const withoutMeta = (x: Json, keep: string[] = []) => Object.fromEntries(Object.entries(x).filter(([k]) => !META_KEYS.includes(k) || keep.includes(k)));
const text = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/** An initialize request as a Streamable HTTP client sends it. */
const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const postInit = (api: Api, headers: Record<string, string> = {}, body: unknown = INIT) =>
  fetch(`${api.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });

/** A raw HTTP request with a Host header of our choosing (fetch does not let one set it). */
function rawRequest(
  api: Api,
  opts: { method: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { port } = new URL(api.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: Number(port), path: '/mcp', method: opts.method, headers: opts.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('MCP at /mcp over the running app', () => {
  let api: Api;
  const clients = {} as Record<Kind, Connected>;

  beforeAll(async () => {
    api = await startTestServer();
    for (const kind of KINDS) clients[kind] = await connect(api.url, kind);
  });
  afterAll(async () => {
    for (const kind of KINDS) await clients[kind]?.close();
    await api?.close();
  });

  describe.each(KINDS)('over %s', (kind) => {
    it('lists exactly the ten tools, as the server card does', async () => {
      const { tools } = await clients[kind].client.listTools();
      expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
      for (const t of tools) {
        expect(t.inputSchema.type, t.name).toBe('object');
        expect(t.outputSchema?.type, t.name).toBe('object');
        expect(t.annotations?.readOnlyHint, t.name).toBe(true);
        expect(t.annotations?.openWorldHint, t.name).toBe(false);
        for (const k of ['as_of', 'license', 'attribution', 'sources']) expect(Object.keys(t.outputSchema?.properties ?? {}), `${t.name}.${k}`).toContain(k);
      }
      const card = await rest(api, '/.well-known/mcp/server-card');
      const pick = (t: Json) => ({
        name: t.name,
        title: t.title,
        description: t.description,
        inputSchema: t.inputSchema,
        outputSchema: t.outputSchema,
        annotations: t.annotations,
      });
      expect(tools.map(pick)).toEqual((card.tools as Json[]).map(pick));
      expect(clients[kind].client.getServerCapabilities()).toMatchObject(card.capabilities);
      expect(clients[kind].client.getServerVersion()).toMatchObject({ name: card.name, version: card.version });
    });

    describe('every tool agrees with the REST API', () => {
      const agrees = async (name: string, args: Json, path: string, expectData: (body: Json) => unknown = (b) => b.data) => {
        const r = await call(clients[kind], name, args);
        expect(r.isError, text(r)).toBeFalsy();
        const body = await rest(api, path);
        const sc = r.structuredContent!;
        expect(withoutMeta(sc, 'as_of' in (expectData(body) as Json) ? ['as_of'] : [])).toEqual(expectData(body));
        expect(sc.license).toBe('CC-BY-4.0');
        expect(sc.license).toBe(body.meta.license);
        expect(sc.attribution).toBe(body.meta.attribution);
        // The same sources as the HTTP meta, each saying how old its data is.
        if (name !== 'get_price') expect(sc.sources).toEqual(body.meta.sources);
        expect(r.content[0]?.type).toBe('text');
        expect(text(r).length).toBeLessThan(1200);
        return { sc, body };
      };

      it('get_reserve', async () => {
        const { sc, body } = await agrees('get_reserve', { commodity: 'gas', country: 'de' }, '/v1/reserves?commodity=gas&country=de');
        expect(sc.as_of).toBe(body.meta.as_of);
        const oil = await agrees('get_reserve', { commodity: 'OIL', country: 'US' }, '/v1/reserves?commodity=oil&country=us');
        expect(oil.sc.sources).toEqual([
          expect.objectContaining({ id: 'eia-weekly-petroleum', data_as_of: '2026-02-27', freshness: 'stale', expected_next: '2026-03-11' }),
        ]);
        expect((oil.sc.notes as string[]).join(' ')).toMatch(/eia-weekly-petroleum is stale: its data end 2026-02-27/);
      });

      it('get_price', async () => {
        const { sc, body } = await agrees('get_price', { commodity: 'energy.oil' }, '/v1/commodities', (b) => {
          const e = (b.data as Json[]).find((x) => x.code === 'oil')!;
          return { ...e.price, slug: e.slug, code: e.code, name: e.name };
        });
        expect(sc.as_of).toBe((body.data as Json[]).find((x) => x.code === 'oil')!.price.as_of);
        // Only the price's own source, dated as the price series is.
        expect(sc.sources).toEqual([expect.objectContaining({ id: 'eia-oil-prices', data_as_of: sc.as_of, freshness: 'stale' })]);
      });

      it('compare_countries', async () => {
        const r = await call(clients[kind], 'compare_countries', { countries: ['DEU', 'fr', 'ITA'] });
        expect(r.isError, text(r)).toBeFalsy();
        const rows = r.structuredContent!.countries as Json[];
        expect(rows.map((x) => x.iso3)).toEqual(['DEU', 'FRA', 'ITA']);
        const asOf: string[] = [];
        for (const row of rows) {
          const body = await rest(api, `/v1/countries/${row.iso3}`);
          expect(row).toEqual(Object.fromEntries(Object.keys(row).map((k) => [k, body.data[k]])));
          for (const k of ['stress_index', 'autonomy', 'supplier_concentration', 'reserves', 'exposures']) expect(row, k).toHaveProperty(k);
          asOf.push(body.meta.as_of);
          expect(r.structuredContent!.attribution).toBe(body.meta.attribution);
        }
        expect(r.structuredContent!.as_of).toBe(asOf.sort().at(-1));
        // AGSI+ ends on different days for DE and FR: one entry per date, each with its own freshness.
        const agsi = (r.structuredContent!.sources as Json[]).filter((x) => x.id === 'gie-agsi-gas-storage');
        expect(agsi.map((x) => x.data_as_of).sort()).toEqual(['2026-05-06', '2026-08-20']);
        expect(r.structuredContent!.license).toBe('CC-BY-4.0');
      });

      it('list_scenarios', async () => {
        await agrees('list_scenarios', {}, '/v1/scenarios', (b) => ({ scenarios: b.data, count: b.data.length }));
        const { sc } = await agrees('list_scenarios', { status: 'elevated' }, '/v1/scenarios?status=elevated', (b) => ({
          scenarios: b.data,
          count: b.meta.count,
        }));
        expect(sc.as_of).toBeDefined();
      });

      it('search_briefings', async () => {
        const { sc } = await agrees('search_briefings', { q: 'gas storage', limit: 5 }, '/v1/search?q=gas%20storage&type=briefing&limit=5', (b) => ({
          results: b.data,
          count: b.meta.count,
        }));
        expect(sc.count).toBeGreaterThan(0);
        expect((sc.results as Json[]).every((h) => h.type === 'briefing')).toBe(true);
        await agrees('search_briefings', { q: 'cobalt', lang: 'fr', limit: 3 }, '/v1/search?q=cobalt&type=briefing&lang=fr&limit=3', (b) => ({
          results: b.data,
          count: b.meta.count,
        }));
      });

      it('get_country_profile', async () => {
        const { sc, body } = await agrees('get_country_profile', { iso: 'de' }, '/v1/countries/DEU');
        expect(sc.as_of).toBe(body.meta.as_of);
      });

      it('list_commodities', async () => {
        const { sc, body } = await agrees('list_commodities', {}, '/v1/commodities', (b) => ({ commodities: b.data, count: b.data.length }));
        expect(sc.as_of).toBe(body.meta.as_of);
        await agrees('list_commodities', { group: 'metals' }, '/v1/commodities?group=metals', (b) => ({ commodities: b.data, count: b.meta.count }));
      });

      it('get_commodity (a daily price history is shortened to monthly)', async () => {
        await agrees('get_commodity', { slug: 'metals.cobalt' }, '/v1/commodities/metals.cobalt');
        const r = await call(clients[kind], 'get_commodity', { slug: 'ENERGY.OIL' });
        const body = await rest(api, '/v1/commodities/energy.oil');
        const sc = r.structuredContent!;
        expect(body.data.price_history.frequency).toBe('daily');
        expect(sc.price_history).toEqual({ ...body.data.price_history, frequency: 'monthly', points: resample(body.data.price_history.points, 'monthly') });
        expect(withoutMeta({ ...sc, price_history: null })).toEqual({ ...body.data, price_history: null });
        expect((sc.notes as string[]).join(' ')).toMatch(/shortened from \d+ daily points/);
      });

      it('get_reserve_timeseries (a long series without a frequency is resampled)', async () => {
        const q = 'commodity=gas&country=de&from=2026-01-01&to=2026-06-30&frequency=weekly';
        const { sc, body } = await agrees(
          'get_reserve_timeseries',
          { commodity: 'gas', country: 'de', from: '2026-01-01', to: '2026-06-30', frequency: 'weekly' },
          `/v1/reserves/timeseries?${q}`,
        );
        expect(sc.as_of).toBe(body.meta.as_of);
        const long = await call(clients[kind], 'get_reserve_timeseries', { commodity: 'gas', country: 'de', from: '2020-01-01', to: '2026-08-31' });
        const weekly = await rest(api, '/v1/reserves/timeseries?commodity=gas&country=de&from=2020-01-01&to=2026-08-31&frequency=weekly');
        expect(withoutMeta(long.structuredContent!)).toEqual(weekly.data);
        expect((long.structuredContent!.notes as string[]).join(' ')).toMatch(/resampled to weekly/);
      });

      it('list_events', async () => {
        await agrees('list_events', { since: '2020-01-01', limit: 5 }, '/v1/events?since=2020-01-01&limit=5', (b) => ({ events: b.data, count: b.meta.count }));
        await agrees('list_events', { category: 'policy', since: '2020-01-01' }, '/v1/events?category=policy&since=2020-01-01', (b) => ({
          events: b.data,
          count: b.meta.count,
        }));
      });
    });

    it('answers an unknown identifier with a tool error that lists the valid options', async () => {
      const c = clients[kind];
      const cases: [string, Json, RegExp][] = [
        // The problem, the accepted form, then at most five suggestions (meaning first, then spelling).
        ['get_reserve', { commodity: 'gass', country: 'de' }, /^unknown commodity 'gass'\. Accepted: a commodity code .*Did you mean: energy\.gas \(/s],
        [
          'get_reserve',
          { commodity: 'gas', country: 'us' },
          /no reserve is published for gas in us.*Valid options: commodity=oil&country=us, commodity=gas&country=eu/s,
        ],
        ['get_country_profile', { iso: 'XXX' }, /^unknown or uncovered country 'XXX'\. Accepted: an ISO 3166-1 code .*Spanish/s],
        ['get_country_profile', { iso: 'Germny' }, /^unknown or uncovered country 'Germny'\. Accepted: .*Did you mean: DEU \(Germany\)/s],
        ['compare_countries', { countries: ['DEU', 'QQQ'] }, /^unknown or uncovered country 'QQQ'\. Accepted: /s],
        ['get_commodity', { slug: 'metals.cobalth' }, /^unknown commodity 'metals\.cobalth'\. Accepted: .*Did you mean: metals\.cobalt \(Cobalt\)/s],
        ['get_price', { commodity: 'tungsten' }, /no public price series.*Valid options: (\w+, ){0,4}\w+\.$/s],
        ['list_events', { commodity: 'unobtainium' }, /^unknown commodity 'unobtainium'\. Accepted: /s],
        ['get_reserve_timeseries', { commodity: 'oil', country: 'us', from: '2025-01-01', metric: 'fill_pct' }, /not published.*Valid options: .*volume/s],
      ];
      for (const [name, args, pattern] of cases) {
        const r = await call(c, name, args);
        expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
        expect(text(r)).toMatch(pattern);
      }
      // Invalid arguments are tool errors too, naming the argument.
      const bad = await call(c, 'list_events', { limit: 9999 });
      expect(bad.isError).toBe(true);
      expect(text(bad)).toMatch(/limit/);
    });

    it('offers resource templates for commodity sheets, country profiles and reserve series', async () => {
      const { client } = clients[kind];
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([
        'chokepoint://commodity/{slug}',
        'chokepoint://country/{iso}',
        'chokepoint://reserve/{commodity}/{country}',
      ]);
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toEqual(
        expect.arrayContaining(['chokepoint://commodity/energy.gas', 'chokepoint://country/DEU', 'chokepoint://reserve/gas/de', 'chokepoint://reserve/oil/us']),
      );

      const read = async (uri: string) => {
        const { contents } = await client.readResource({ uri });
        expect(contents).toHaveLength(1);
        expect(contents[0]!.mimeType).toBe('application/json');
        return JSON.parse((contents[0] as { text: string }).text) as Json;
      };
      expect(await read('chokepoint://commodity/energy.gas')).toEqual(await rest(api, '/v1/commodities/energy.gas'));
      expect(await read('chokepoint://country/DEU')).toEqual(await rest(api, '/v1/countries/DEU'));
      const series = await read('chokepoint://reserve/gas/de');
      expect(series.data.points.length).toBeGreaterThan(200);
      expect(series).toEqual(await rest(api, `/v1/reserves/timeseries?commodity=gas&country=de&from=${series.data.from}&to=${series.data.to}`));
      expect(series.meta.license).toBe('CC-BY-4.0');

      await expect(client.readResource({ uri: 'chokepoint://country/XXX' })).rejects.toMatchObject({
        code: -32002,
        message: expect.stringMatching(/^MCP error -32002: chokepoint:\/\/country\/XXX: unknown or uncovered country 'XXX'\. Accepted: /),
      });
      // A name resolves as over HTTP; the problem is said once, without a doubled "MCP error" prefix.
      expect(await read('chokepoint://country/Allemagne')).toEqual(await rest(api, '/v1/countries/DEU'));
      await expect(client.readResource({ uri: 'chokepoint://country/Germny' })).rejects.toMatchObject({
        message: expect.stringMatching(/^MCP error -32002: [^]*Did you mean: DEU \(Germany\)\?$/),
      });
      const done = await client.complete({ ref: { type: 'ref/resource', uri: 'chokepoint://country/{iso}' }, argument: { name: 'iso', value: 'DE' } });
      expect(done.completion.values).toContain('DEU');
    });

    it('offers prompts, with the data they start from embedded', async () => {
      const { client } = clients[kind];
      const { prompts } = await client.listPrompts();
      expect(prompts.map((p) => p.name).sort()).toEqual(['commodity_stress_explainer', 'country_supply_risk_briefing', 'reserve_outlook']);
      const briefing = await client.getPrompt({ name: 'country_supply_risk_briefing', arguments: { country: 'de', lang: 'fr' } });
      expect(briefing.messages[0]!.content).toMatchObject({ type: 'text', text: expect.stringContaining('Germany (DEU) in French') });
      expect(briefing.messages[1]!.content).toMatchObject({ type: 'resource', resource: { uri: 'chokepoint://country/DEU' } });
      const explainer = await client.getPrompt({ name: 'commodity_stress_explainer', arguments: { commodity: 'cobalt' } });
      expect(JSON.stringify(explainer.messages)).toContain('metals.cobalt');
      const outlook = await client.getPrompt({ name: 'reserve_outlook', arguments: { commodity: 'gas', country: 'DE' } });
      expect(outlook.messages.at(-1)!.content).toMatchObject({ type: 'resource', resource: { uri: 'chokepoint://reserve/gas/de' } });
      await expect(client.getPrompt({ name: 'country_supply_risk_briefing', arguments: { country: 'QQ' } })).rejects.toThrow(
        /^MCP error -32602: unknown or uncovered country 'qq'\. Accepted: [^]*Did you mean: [^]*QAT \(Qatar\)/,
      );
      const named = await client.getPrompt({ name: 'country_supply_risk_briefing', arguments: { country: 'Deutschland' } });
      expect(named.messages[1]!.content).toMatchObject({ type: 'resource', resource: { uri: 'chokepoint://country/DEU' } });
    });
  });

  describe('HTTP', () => {
    it('sends Cache-Control: no-store, the licence link and the session id', async () => {
      const res = await postInit(api);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('link')).toContain('rel="license"');
      const sid = res.headers.get('mcp-session-id');
      expect(sid).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers.get('access-control-expose-headers')).toContain('Mcp-Session-Id');
      const body = (await res.json()) as Json;
      expect(body.result.serverInfo.name).toMatch(/chokepoint/);
      // DELETE ends the session; the id is then unknown.
      const del = await fetch(`${api.url}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': sid!, 'mcp-protocol-version': '2025-06-18' } });
      expect(del.status).toBe(200);
      const after = await fetch(`${api.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sid!,
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
      expect(after.status).toBe(404);
    });

    it('opens the SSE transport on GET and announces where to POST', async () => {
      const ctrl = new AbortController();
      const res = await fetch(`${api.url}/mcp`, { headers: { accept: 'text/event-stream' }, signal: ctrl.signal });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const reader = res.body!.getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      expect(first).toMatch(/^event: endpoint\ndata: \/mcp\?sessionId=[0-9a-f-]{36}\n\n/);
      const sessionId = /sessionId=([0-9a-f-]+)/.exec(first)![1]!;
      const ack = await fetch(`${api.url}/mcp?sessionId=${sessionId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(INIT),
      });
      expect(ack.status).toBe(202);
      const del = await fetch(`${api.url}/mcp?sessionId=${sessionId}`, { method: 'DELETE' });
      expect(del.status).toBe(204);
      ctrl.abort();
      const gone = await fetch(`${api.url}/mcp?sessionId=${sessionId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(INIT),
      });
      expect(gone.status).toBe(404);
    });

    it('refuses a foreign Host or Origin (DNS rebinding) with 403', async () => {
      const body = JSON.stringify(INIT);
      const common = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': String(Buffer.byteLength(body)) };
      const evilHost = await rawRequest(api, { method: 'POST', headers: { ...common, host: 'evil.example' }, body });
      expect(evilHost.status).toBe(403);
      expect(JSON.parse(evilHost.body)).toMatchObject({ status: 403, type: '/problems/forbidden-host' });
      const evilGet = await rawRequest(api, { method: 'GET', headers: { host: 'evil.example:80', accept: 'text/event-stream' } });
      expect(evilGet.status).toBe(403);
      const okHost = await rawRequest(api, { method: 'POST', headers: { ...common, host: `localhost:${new URL(api.url).port}` }, body });
      expect(okHost.status).toBe(200);

      const evilOrigin = await postInit(api, { origin: 'https://evil.example' });
      expect(evilOrigin.status).toBe(403);
      expect(evilOrigin.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      expect(((await evilOrigin.json()) as Json).type).toBe('/problems/forbidden-origin');
      expect((await postInit(api, { origin: 'null' })).status).toBe(403);
      expect((await postInit(api, { origin: 'http://localhost:6274' })).status).toBe(200);
      const preflight = await fetch(`${api.url}/mcp`, {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-headers')).toContain('mcp-session-id');
      expect(preflight.headers.get('access-control-allow-methods')).toContain('DELETE');
    });

    it('limits message sizes and answers other misuses with problems', async () => {
      const huge = { ...INIT, params: { ...INIT.params, padding: 'x'.repeat(70 * 1024) } };
      const tooBig = await postInit(api, {}, huge);
      expect(tooBig.status).toBe(413);
      expect(((await tooBig.json()) as Json).status).toBe(413);
      const notJson = await fetch(`${api.url}/mcp`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
      expect(notJson.status).toBe(415);
      const garbage = await fetch(`${api.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{nope',
      });
      expect(garbage.status).toBe(400);
      expect(((await garbage.json()) as Json).error.code).toBe(-32700);
      const noSession = await fetch(`${api.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(noSession.status).toBe(400);
      const unknown = await fetch(`${api.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': '00000000-0000-0000-0000-000000000000',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(unknown.status).toBe(404);
      expect((await fetch(`${api.url}/mcp`)).status).toBe(406);
      const put = await fetch(`${api.url}/mcp`, { method: 'PUT' });
      expect(put.status).toBe(405);
      expect(put.headers.get('allow')).toBe('GET, POST, DELETE, OPTIONS');
    });
  });
});

describe('MCP sessions are capped and expire', () => {
  it('caps sessions per client IP (429) and in total (503)', async () => {
    // TRUST_PROXY=header lets the test speak as several clients.
    const api = await startTestServer({ MCP_MAX_SESSIONS_PER_IP: '2', MCP_MAX_SESSIONS: '3', TRUST_PROXY: 'header:X-Test-Client' });
    const open: Connected[] = [];
    try {
      const a = { 'x-test-client': '192.0.2.1' };
      open.push(await connect(api.url, 'streamable', a));
      open.push(await connect(api.url, 'sse', a));
      const third = await postInit(api, a);
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toBeTruthy();
      expect((await third.json()) as Json).toMatchObject({
        type: 'https://iana.org/assignments/http-problem-types#quota-exceeded',
        policy: 'mcp-sessions-per-ip',
      });
      const thirdSse = await fetch(`${api.url}/mcp`, { headers: { accept: 'text/event-stream', ...a } });
      expect(thirdSse.status).toBe(429);
      await expect(connect(api.url, 'streamable', a)).rejects.toThrow();

      const b = { 'x-test-client': '198.51.100.7' };
      open.push(await connect(api.url, 'streamable', b));
      const full = await postInit(api, b);
      expect(full.status).toBe(503);

      // Ending a session (DELETE) frees its place.
      await open.shift()!.close();
      open.push(await connect(api.url, 'streamable', a));
    } finally {
      for (const c of open) await c.close();
      await api.close();
    }
  }, 30_000);

  it('closes sessions that stay idle', async () => {
    const api = await startTestServer({ MCP_SESSION_IDLE_SECONDS: '1' });
    const streamable = await connect(api.url, 'streamable');
    const sse = await connect(api.url, 'sse');
    try {
      expect((await streamable.client.listTools()).tools).toHaveLength(10);
      expect((await sse.client.listTools()).tools).toHaveLength(10);
      let sseClosed = false;
      sse.client.onclose = () => (sseClosed = true);
      await new Promise((r) => setTimeout(r, 2500));
      await expect(streamable.client.listTools()).rejects.toThrow(/404|not found/i);
      expect(
        sseClosed ||
          (await sse.client.listTools({}, { timeout: 2000 }).then(
            () => false,
            () => true,
          )),
      ).toBe(true);
    } finally {
      await streamable.close();
      await sse.close();
      await api.close();
    }
  }, 30_000);
});

describe('MCP tool calls count against the data rate limit', () => {
  it('shares the budget with the REST routes and refuses the call over it', async () => {
    const api = await startTestServer({ RATE_LIMIT_DATA: '3' });
    const c = await connect(api.url, 'streamable');
    try {
      expect((await c.client.listTools()).tools).toHaveLength(10); // not a tool call: free
      expect((await call(c, 'list_commodities', {})).isError).toBeFalsy();
      expect((await call(c, 'get_reserve', { commodity: 'gas', country: 'de' })).isError).toBeFalsy();
      const res = await fetch(`${api.url}/v1/commodities`);
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit')).toMatch(/"data";r=0;/);
      const refused = await call(c, 'get_reserve', { commodity: 'gas', country: 'de' });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toMatch(/rate limit exceeded.*"data".*allows 3 requests per 60 seconds.*retry in \d+ s/);
      expect((await fetch(`${api.url}/v1/commodities`)).status).toBe(429);

      // Over raw HTTP: the refusal comes with the RateLimit headers and Retry-After.
      const init = await postInit(api);
      const sid = init.headers.get('mcp-session-id')!;
      const headers = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sid,
        'mcp-protocol-version': '2025-06-18',
      };
      await fetch(`${api.url}/mcp`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
      const raw = await fetch(`${api.url}/mcp`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'list_commodities', arguments: {} } }),
      });
      expect(raw.status).toBe(200);
      expect(raw.headers.get('ratelimit-policy')).toBe('"data";q=3;w=60');
      expect(raw.headers.get('ratelimit')).toMatch(/^"data";r=0;t=\d+$/);
      expect(Number(raw.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await raw.json()) as Json).result).toMatchObject({ isError: true, _meta: { policy: 'data' } });
      await fetch(`${api.url}/mcp`, { method: 'DELETE', headers });
    } finally {
      await c.close();
      await api.close();
    }
  }, 30_000);
});
