import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numUpTo, pct } from '../../lib/format.ts';
import { StressBand } from '../../contract/stress.ts';
import { MCP_PROTOCOL_VERSIONS, MCP_REFERENCE, MCP_STATELESS_VERSION, TOOLS } from '../../contract/tools.ts';
import { resample } from '../queries/reserves.ts';
import { VIEW_SCRIPT } from './apps/view-script.generated.ts';
import { MCP_MAX_RESPONSE_BYTES } from './limits.ts';
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
const links = (r: CallToolResult) => r.content.flatMap((c) => (c.type === 'resource_link' ? [c] : []));
/** A REST scenario as list_scenarios gives it in one language, with the date of its current status instead of its history. */
const localized =
  (lang: string) =>
  ({ translations, status_history, ...s }: Json): Json => ({
    ...s,
    lang,
    title: lang === 'en' ? s.title : translations[lang].title,
    summary: lang === 'en' ? s.summary : translations[lang].summary,
    status_since: (status_history as Json[]).at(-1)!.date,
  });
/** Every page of resources/list. */
async function allResources(client: Client): Promise<Json[]> {
  const out: Json[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listResources(cursor ? { cursor } : {});
    out.push(...page.resources);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

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
        // The text block is the result for a host that passes only text: never a pointer to structuredContent.
        expect(r.content[0]?.type).toBe('text');
        expect(text(r)).not.toMatch(/structuredContent/);
        expect(text(r)).toContain(`Source: Chokepoint (${body.meta.attribution.match(/\((https?:[^)]+)\)/)[1]})`);
        expect(text(r).length).toBeLessThan(16_000);
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

      it('list_scenarios (one language, at most limit)', async () => {
        await agrees('list_scenarios', {}, '/v1/scenarios', (b) => ({
          scenarios: b.data.map(localized('en')),
          count: b.data.length,
          total: b.data.length,
          next_cursor: null,
        }));
        const { sc } = await agrees('list_scenarios', { status: 'elevated' }, '/v1/scenarios?status=elevated', (b) => ({
          scenarios: b.data.map(localized('en')),
          count: b.meta.count,
          total: b.meta.count,
          next_cursor: null,
        }));
        expect(sc.as_of).toBeDefined();
        const fr = await agrees('list_scenarios', { status: 'active', lang: 'fr', limit: 3 }, '/v1/scenarios?status=active', (b) => ({
          scenarios: b.data.slice(0, 3).map(localized('fr')),
          count: 3,
          total: b.meta.count,
          next_cursor: expect.any(String),
        }));
        expect(JSON.stringify(fr.sc)).not.toContain('translations');
        expect((fr.sc.notes as string[]).join(' ')).toMatch(/scenarios 1–3 of \d+; the others: cursor=next_cursor/);
        // 18 KB with every translation before; one language and no status history now: the whole answer at most 8 KB.
        const active = await call(clients[kind], 'list_scenarios', { status: 'active' });
        const bytes = Buffer.byteLength(JSON.stringify(active));
        console.log(`list_scenarios {status: active}: ${bytes} bytes (content and structuredContent)`);
        expect(bytes).toBeLessThanOrEqual(8_000);
      });

      it('search_briefings (English by default; each hit names its resource)', async () => {
        const hits = (b: Json) => ({
          results: (b.data as Json[]).map((h) => ({ ...h, resource: `chokepoint://briefing/${h.lang}/${h.id}` })),
          count: b.meta.count,
        });
        const { sc } = await agrees('search_briefings', { q: 'gas storage', limit: 5 }, '/v1/search?q=gas%20storage&type=briefing&lang=en&limit=5', hits);
        expect(sc.count).toBeGreaterThan(0);
        expect((sc.results as Json[]).every((h) => h.type === 'briefing' && h.lang === 'en')).toBe(true);
        await agrees('search_briefings', { q: 'cobalt', lang: 'fr', limit: 3 }, '/v1/search?q=cobalt&type=briefing&lang=fr&limit=3', hits);
      });

      it('get_country_profile', async () => {
        const { sc, body } = await agrees('get_country_profile', { iso: 'de' }, '/v1/countries/DEU');
        expect(sc.as_of).toBe(body.meta.as_of);
      });

      it('list_commodities', async () => {
        const { sc, body } = await agrees('list_commodities', {}, '/v1/commodities', (b) => ({
          commodities: b.data,
          count: b.data.length,
          total: b.data.length,
          next_cursor: null,
        }));
        expect(sc.as_of).toBe(body.meta.as_of);
        await agrees('list_commodities', { group: 'metals' }, '/v1/commodities?group=metals', (b) => ({
          commodities: b.data,
          count: b.meta.count,
          total: b.meta.count,
          next_cursor: null,
        }));
        const four = await agrees('list_commodities', { limit: 4 }, '/v1/commodities', (b) => ({
          commodities: b.data.slice(0, 4),
          count: 4,
          total: b.data.length,
          next_cursor: expect.any(String),
        }));
        expect((four.sc.notes as string[]).join(' ')).toMatch(/commodities 1–4 of \d+; the others: cursor=next_cursor/);
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
          /^no gas reserve is published for United States \(us\)\. Accepted: one of the 18 countries with a published gas reserve \(eu for the EU aggregate\)\. Did you mean: commodity=oil&country=us \(United States\), commodity=gas&country=eu \(European Union\), commodity=gas&country=de \(Germany\)/,
        ],
        ['get_country_profile', { iso: 'XXX' }, /^unknown or uncovered country 'XXX'\. Accepted: an ISO 3166-1 code .*Spanish/s],
        ['get_country_profile', { iso: 'Germny' }, /^unknown or uncovered country 'Germny'\. Accepted: .*Did you mean: DEU \(Germany\)/s],
        ['compare_countries', { countries: ['DEU', 'QQQ'] }, /^unknown or uncovered country 'QQQ'\. Accepted: /s],
        ['get_commodity', { slug: 'metals.cobalth' }, /^unknown commodity 'metals\.cobalth'\. Accepted: .*Did you mean: metals\.cobalt \(Cobalt\)/s],
        [
          'get_price',
          { commodity: 'tungsten' },
          /^Tungsten \(tungsten\) has no public price series in our sources\. Accepted: a commodity with a price series \(\d+ of the \d+\)\. Did you mean: (\w+ \([^)]+\), ){4}\w+ \([^)]+\)\?$/,
        ],
        ['list_events', { commodity: 'unobtainium' }, /^unknown commodity 'unobtainium'\. Accepted: /s],
        [
          'get_reserve_timeseries',
          { commodity: 'oil', country: 'us', from: '2025-01-01', metric: 'fill_pct' },
          /not published.*Did you mean: volume, days_of_cover\?$/s,
        ],
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

    it('holds the longer reference as resources the tool descriptions point to: the method with its bands, the fields of every result', async () => {
      const { client } = clients[kind];
      const listed = await allResources(client);
      const read = async (uri: string) => (await client.readResource({ uri })).contents[0] as { uri: string; mimeType: string; text: string };
      const method = await read(MCP_REFERENCE.methodology);
      expect(method).toMatchObject({ uri: MCP_REFERENCE.methodology, mimeType: 'text/markdown' });
      // The band thresholds and the weights, as the contract states them.
      expect(method.text).toContain(StressBand.description!);
      expect(method.text).toMatch(/weight: .*price 0\.5, reserves 0\.2, disruption 0\.3/);
      const fields = await read(MCP_REFERENCE.fields);
      for (const t of TOOLS) expect(fields.text, t.name).toContain(`## ${t.name}`);
      expect(fields.text).toContain('- `next_cursor`: Pass as cursor for the next page');
      expect(fields.text).toContain('- `as_of`: ');
      for (const uri of Object.values(MCP_REFERENCE)) expect(listed.map((r) => r.uri)).toContain(uri);
      // The descriptions of the tools that give a stress index send the reader there.
      const { tools } = await client.listTools();
      for (const name of ['get_commodity', 'get_country_profile', 'list_commodities'])
        expect(tools.find((t) => t.name === name)!.description, name).toContain(MCP_REFERENCE.methodology);
    });

    it('offers resource templates for commodity sheets, country profiles, reserve series and briefings', async () => {
      const { client } = clients[kind];
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([
        'chokepoint://briefing/{lang}/{id}',
        'chokepoint://commodity/{slug}',
        'chokepoint://country/{iso}',
        'chokepoint://reserve/{commodity}/{country}',
      ]);
      const resources = await allResources(client);
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
        code: -32602,
        message: expect.stringMatching(/^MCP error -32602: chokepoint:\/\/country\/XXX: unknown or uncovered country 'XXX'\. Accepted: /),
      });
      // A name resolves as over HTTP; the problem is said once, without a doubled "MCP error" prefix.
      expect(await read('chokepoint://country/Allemagne')).toEqual(await rest(api, '/v1/countries/DEU'));
      await expect(client.readResource({ uri: 'chokepoint://country/Germny' })).rejects.toMatchObject({
        message: expect.stringMatching(/^MCP error -32602: [^]*Did you mean: DEU \(Germany\)\?$/),
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
      // A two-letter code one letter off is no closer to Qatar than to dozens of others: no suggestion.
      const unknown = await client.getPrompt({ name: 'country_supply_risk_briefing', arguments: { country: 'QQ' } }).catch((e: Error) => e);
      expect(String(unknown)).toMatch(/MCP error -32602: unknown or uncovered country 'qq'\. Accepted: /);
      expect(String(unknown)).not.toContain('Did you mean');
      // A misspelt name still gets its country.
      await expect(client.getPrompt({ name: 'country_supply_risk_briefing', arguments: { country: 'Qatr' } })).rejects.toThrow(
        /Did you mean: [^]*QAT \(Qatar\)/,
      );
      const named = await client.getPrompt({ name: 'country_supply_risk_briefing', arguments: { country: 'Deutschland' } });
      expect(named.messages[1]!.content).toMatchObject({ type: 'resource', resource: { uri: 'chokepoint://country/DEU' } });
    });

    it('gives a short summary in the text block (figures, dates, units, sources), not a copy of structuredContent', async () => {
      const c = clients[kind];
      const short = (r: CallToolResult, ...xs: unknown[]) => {
        expect(r.isError, text(r)).toBeFalsy();
        const t = text(r);
        // No JSON object and no table: the data is in structuredContent, a few lines say what it is.
        expect(t).not.toMatch(/\{"|\|---/);
        expect(t.length, t).toBeLessThan(JSON.stringify(r.structuredContent).length);
        // The publishers behind the figures, named.
        expect(t).toMatch(/\n\nSources: /);
        expect(
          (r.structuredContent!.sources as Json[]).some((s) => t.includes(s.publisher)),
          t,
        ).toBe(true);
        for (const x of xs) expect(t, String(x)).toContain(String(x));
      };
      const de = await call(c, 'get_reserve', { commodity: 'gas', country: 'de' });
      const reserve = de.structuredContent!;
      short(
        de,
        `${pct(reserve.fill_pct, 2)} full`,
        `${numUpTo(reserve.volume.value)} TWh`,
        `on ${reserve.as_of}`,
        `Data as of ${reserve.as_of}`,
        'Gas Infrastructure Europe',
      );
      const price = await call(c, 'get_price', { commodity: 'copper' });
      short(price, `${numUpTo(price.structuredContent!.value)} USD per t`, `on ${price.structuredContent!.as_of}`, 'World Bank');
      // A list: one line per item.
      const gas = await call(c, 'get_reserve', { commodity: 'gas' });
      for (const r of gas.structuredContent!.reserves as Json[]) short(gas, `- ${r.country} ${r.name}: `, `on ${r.as_of}`);
      const list = await call(c, 'list_commodities', {});
      for (const x of list.structuredContent!.commodities as Json[]) short(list, `- ${x.code} (${x.slug}): ${x.name}; `, `stress ${x.stress_index ?? 'n/a'}`);
      const scenarios = await call(c, 'list_scenarios', { lang: 'de' });
      for (const x of scenarios.structuredContent!.scenarios as Json[])
        short(scenarios, `${x.id}: ${x.title}`, `probability ${x.probability}`, `since ${x.status_since}`);
      const events = await call(c, 'list_events', { since: '2024-01-01', limit: 20 });
      for (const x of events.structuredContent!.events as Json[]) short(events, `${x.id}: ${x.title}`, `source ${x.source_name}`);
      const compared = await call(c, 'compare_countries', { countries: ['DEU', 'ITA'] });
      for (const x of compared.structuredContent!.countries as Json[]) short(compared, `- ${x.name} (${x.iso3}): stress ${x.stress_index}`);
      const profile = await call(c, 'get_country_profile', { iso: 'USA' });
      short(profile, `United States (USA): supply stress ${profile.structuredContent!.stress_index}`, 'Energy imports: ');
      const sheet = await call(c, 'get_commodity', { slug: 'cobalt' });
      const cobalt = sheet.structuredContent!;
      short(
        sheet,
        `stress index ${cobalt.stress_index}`,
        `Price ${numUpTo(cobalt.price.value)} USD/t on ${cobalt.price.as_of}`,
        'Top producers: DR Congo',
        'U.S. Geological Survey',
      );
      const series = await call(c, 'get_reserve_timeseries', { commodity: 'gas', country: 'de', from: '2026-06-01', to: '2026-08-31', frequency: 'weekly' });
      const points = series.structuredContent!.points as Json[];
      short(series, `${points.length} points`, `on ${points[0]!.date}`, `on ${points.at(-1)!.date}`);
      const found = await call(c, 'search_briefings', { q: 'cobalt export ban', limit: 3 });
      for (const h of found.structuredContent!.results as Json[]) short(found, h.title, `score ${h.score}`, h.resource);
    });

    it('pages the list tools with an opaque cursor: the pages together are the unpaged list, in order', async () => {
      const c = clients[kind];
      for (const [name, args, key, id] of [
        ['list_scenarios', { lang: 'fr' }, 'scenarios', 'id'],
        ['list_commodities', { group: 'metals' }, 'commodities', 'slug'],
      ] as const) {
        const whole = await call(c, name, { ...args, limit: 100 });
        const all = (whole.structuredContent![key] as Json[]).map((x) => x[id]);
        expect(whole.structuredContent!.next_cursor, name).toBeNull();
        expect(all.length, name).toBeGreaterThan(5);
        const paged: unknown[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          const r = await call(c, name, { ...args, limit: 3, ...(cursor ? { cursor } : {}) });
          expect(r.isError, text(r)).toBeFalsy();
          expect(r.structuredContent!.total, name).toBe(all.length);
          paged.push(...(r.structuredContent![key] as Json[]).map((x) => x[id]));
          cursor = r.structuredContent!.next_cursor ?? undefined;
          pages++;
        } while (cursor);
        expect(paged, name).toEqual(all);
        expect(pages, name).toBe(Math.ceil(all.length / 3));
        // A cursor goes with the filters that made it; a made-up one is refused, and so is a page over the bound.
        const first = await call(c, name, { ...args, limit: 3 });
        const other = await call(c, name, { limit: 3, cursor: first.structuredContent!.next_cursor });
        expect(other.isError, name).toBe(true);
        expect(text(other)).toMatch(/^cursor: not a next_cursor of this query/);
        expect((await call(c, name, { ...args, cursor: 'bm90LWEtY3Vyc29y' })).isError, name).toBe(true);
        expect(text(await call(c, name, { ...args, limit: 101 }))).toMatch(/limit.*at most 100/);
      }
    });

    it('gives a long series as a summary with links to its JSON and CSV, not thousands of points', async () => {
      const c = clients[kind];
      const r = await call(c, 'get_reserve_timeseries', { commodity: 'gas', country: 'de', from: '2015-01-01', to: '2026-08-31', frequency: 'daily' });
      const sc = r.structuredContent!;
      expect(sc.points.length).toBeGreaterThan(2000);
      const t = text(r);
      expect(t.length).toBeLessThan(3000);
      const last = (sc.points as Json[]).at(-1)!;
      expect(t).toContain(`${sc.points.length} points, ${sc.points[0].value} on ${sc.points[0].date} → ${last.value} on ${last.date}`);
      // The same addresses as resource_link blocks (the SDK client negotiates the newest revision) and in the text.
      const [json, csv, resource] = links(r);
      expect(json).toMatchObject({ mimeType: 'application/json', uri: expect.stringMatching(/^https:\/\/chokepoint\.test\/v1\/reserves\/timeseries\?/) });
      expect(csv).toMatchObject({ mimeType: 'text/csv', uri: `${json!.uri}&format=csv` });
      expect(resource).toMatchObject({ uri: 'chokepoint://reserve/gas/de' });
      for (const l of [json!, csv!]) expect(t).toContain(l.uri);
      // They answer the whole series over HTTP.
      const local = (u: string) => u.replace('https://chokepoint.test', '');
      expect((await rest(api, local(json!.uri))).data.points).toEqual(sc.points);
      const rows = (await (await fetch(`${api.url}${local(csv!.uri)}`)).text()).trim().split(/\r?\n/);
      expect(rows.length - 1).toBe(sc.points.length);
      // The commodity sheet: the daily price history behind its links.
      const oil = await call(c, 'get_commodity', { slug: 'oil' });
      const priceCsv = links(oil).find((l) => l.mimeType === 'text/csv')!;
      expect(priceCsv.uri).toBe('https://chokepoint.test/v1/commodities/energy.oil?format=csv');
      const daily = (await rest(api, '/v1/commodities/energy.oil')).data.price_history.points.length;
      expect((await (await fetch(`${api.url}${local(priceCsv.uri)}`)).text()).trim().split(/\r?\n/).length - 1).toBe(daily);
      expect(text(oil)).toMatch(new RegExp(`shortened from ${daily} daily points`));
    });

    it('reads bare codes, aliases, ISO codes and names in four languages on every tool and resource', async () => {
      const c = clients[kind];
      const ok = async (name: string, args: Json) => {
        const r = await call(c, name, args);
        expect(r.isError, `${name} ${JSON.stringify(args)}: ${text(r)}`).toBeFalsy();
        return r.structuredContent!;
      };
      expect((await ok('get_commodity', { slug: 'cobalt' })).slug).toBe('metals.cobalt');
      expect((await ok('get_commodity', { slug: 'Kobalt' })).slug).toBe('metals.cobalt');
      expect((await ok('get_price', { commodity: 'pétrole' })).slug).toBe('energy.oil');
      expect(withoutMeta(await ok('get_reserve', { commodity: 'Erdgas', country: 'Allemagne' }), ['as_of'])).toEqual(
        (await rest(api, '/v1/reserves?commodity=gas&country=de')).data,
      );
      expect((await ok('get_reserve', { commodity: 'gas', country: 'Unión Europea' })).country).toBe('eu');
      expect((await ok('get_reserve_timeseries', { commodity: 'natural gas', country: 'Deutschland', from: '2026-08-01' })).country).toBe('de');
      expect((await ok('get_country_profile', { iso: 'UK' })).iso3).toBe('GBR');
      expect((await ok('get_country_profile', { iso: 'gb' })).iso3).toBe('GBR');
      expect(((await ok('compare_countries', { countries: ['Italia', 'FRA', 'de'] })).countries as Json[]).map((x) => x.iso3)).toEqual(['ITA', 'FRA', 'DEU']);
      const scenarios = await ok('list_scenarios', { commodity: 'Kobalt' });
      expect(scenarios.scenarios).toEqual((await rest(api, '/v1/scenarios?commodity=metals.cobalt')).data.map(localized('en')));
      expect((await ok('list_events', { commodity: 'cobalt', country: 'DRC', since: '2020-01-01' })).events).toEqual(
        (await rest(api, '/v1/events?commodity=metals.cobalt&country=COD&since=2020-01-01')).data,
      );
      const read = async (uri: string) => JSON.parse(((await c.client.readResource({ uri })).contents[0] as { text: string }).text) as Json;
      expect((await read('chokepoint://commodity/cobalt')).data.slug).toBe('metals.cobalt');
      expect((await read('chokepoint://country/UK')).data.iso3).toBe('GBR');
      expect((await read(`chokepoint://reserve/Erdgas/${encodeURIComponent('Union européenne')}`)).data.country).toBe('eu');
    });

    it('says an error once and short: the problem, the accepted form, at most five suggestions by meaning', async () => {
      const c = clients[kind];
      const bad: [string, Json][] = [
        ['get_reserve', { commodity: 'gas', country: 'UK' }],
        ['get_reserve', { commodity: 'gas', country: 'Japan' }],
        ['get_reserve', { commodity: 'copper' }],
        ['get_country_profile', { iso: 'Narnia' }],
        ['get_commodity', { slug: 'natural' }],
        ['get_price', { commodity: 'tungsten' }],
        ['list_scenarios', { status: 'actve' }],
        ['list_scenarios', { lang: 'french' }],
        ['list_commodities', { group: 'metal' }],
        ['list_events', { limit: 9999 }],
        ['get_price', { commodity: 'oil', benchmark: 'brent' }],
        ['get_commodity', { slug: 'cobalt!' }],
        ['compare_countries', { countries: ['DEU'] }],
        ['search_briefings', { q: '' }],
        ['get_reserve_timeseries', { commodity: 'gas', country: 'de', from: '2026-13-01' }],
      ];
      for (const [name, args] of bad) {
        const r = await call(c, name, args);
        const t = text(r);
        const what = `${name} ${JSON.stringify(args)}: ${t}`;
        expect(r.isError, what).toBe(true);
        expect(t, what).not.toMatch(/MCP error|Input validation error|structuredContent/);
        expect(t.length, what).toBeLessThan(500);
        expect(t, what).toMatch(/Accepted: /);
        expect(t.match(/Accepted: /g)!.length, what).toBe(1);
        const suggestions = /Did you mean: (.*)\?$/.exec(t)?.[1]?.split(', ') ?? [];
        expect(suggestions.length, what).toBeLessThanOrEqual(5);
        expect(new Set(suggestions).size, what).toBe(suggestions.length);
      }
      // Meaning first: the EU aggregate and the largest reserves for a country without one; the argument's values for a typo.
      expect(text(await call(c, 'get_reserve', { commodity: 'gas', country: 'UK' }))).toMatch(
        /^no gas reserve is published for United Kingdom \(gb\)\. Accepted: [^.]*\. Did you mean: commodity=gas&country=eu \(European Union\), commodity=gas&country=de \(Germany\), /,
      );
      expect(text(await call(c, 'list_scenarios', { status: 'actve' }))).toBe(
        "Invalid arguments for list_scenarios: status: 'actve' is not accepted. Accepted: one of monitoring, elevated, active, resolved, dismissed. Did you mean: active?",
      );
      expect(text(await call(c, 'list_scenarios', { lang: 'french' }))).toMatch(/Did you mean: fr\?$/);
      expect(text(await call(c, 'get_price', { commodity: 'oil', benchmark: 'brent' }))).toBe(
        "Invalid arguments for get_price: get_price has no argument 'benchmark'. Accepted: the arguments commodity.",
      );
      // Prompts and resources: one JSON-RPC error, its message said once.
      await expect(c.client.getPrompt({ name: 'reserve_outlook', arguments: { commodity: 'gas', country: 'UK' } })).rejects.toThrow(
        /^MCP error -32602: no gas reserve is published for United Kingdom \(gb\)\. Accepted: [^]*Did you mean: ([^,]+, ){4}[^,]+\?$/,
      );
      await expect(c.client.readResource({ uri: 'chokepoint://reserve/gas/jp' })).rejects.toThrow(
        /^MCP error -32602: chokepoint:\/\/reserve\/gas\/jp: no gas reserve/,
      );
      // The SDK's own refusals too: one prefix, in the same form.
      await expect(c.client.getPrompt({ name: 'reserve_outlok', arguments: {} })).rejects.toThrow(
        /^MCP error -32602: unknown prompt 'reserve_outlok'\. Accepted: [^]*Did you mean: reserve_outlook\?$/,
      );
      await expect(c.client.getPrompt({ name: 'reserve_outlook', arguments: { commodity: 'gas' } })).rejects.toThrow(
        /^MCP error -32602: Invalid arguments for prompt reserve_outlook: country: [^\n]+$/,
      );
      await expect(c.client.readResource({ uri: 'chokepoint://nothing/x' })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringMatching(
          /^MCP error -32602: unknown resource 'chokepoint:\/\/nothing\/x'\. Accepted: a URI of chokepoint:\/\/commodity\/\{slug\}/,
        ),
      });
      // An unknown tool is a protocol error (-32602, as the specification's example has it), in the same form.
      await expect(c.client.callTool({ name: 'get_reserves', arguments: {} })).rejects.toMatchObject({
        code: -32602,
        message: "MCP error -32602: unknown tool 'get_reserves'. Accepted: one of the 10 tools of tools/list. Did you mean: get_reserve?",
      });
    });

    it('completes reserve_outlook with the countries that have a reserve, not every country', async () => {
      const { client } = clients[kind];
      const complete = async (name: string, value: string, commodity?: string) =>
        (
          await client.complete({
            ref: { type: 'ref/prompt', name: 'reserve_outlook' },
            argument: { name, value },
            ...(commodity ? { context: { arguments: { commodity } } } : {}),
          })
        ).completion.values;
      const gas = (await rest(api, '/v1/reserves?commodity=gas')).data.map((r: Json) => r.country);
      expect((await complete('country', '', 'gas')).sort()).toEqual([...gas].sort());
      expect(await complete('country', '', 'oil')).toEqual(['us']);
      expect((await complete('country', '')).length).toBe(gas.length + 1);
      expect(await complete('country', 'Germ', 'gas')).toEqual(['de']);
      expect((await complete('commodity', '')).sort()).toEqual(['gas', 'oil']);
    });

    it('serves each briefing as a resource, which search hits link to', async () => {
      const { client } = clients[kind];
      const found = await call(clients[kind], 'search_briefings', { q: 'gas storage', limit: 3 });
      const hit = (found.structuredContent!.results as Json[])[0]!;
      expect(hit.resource).toBe(`chokepoint://briefing/en/${hit.id}`);
      expect(links(found).map((l) => l.uri)).toEqual((found.structuredContent!.results as Json[]).map((h) => h.resource));
      const briefing = ((await rest(api, '/v1/briefings?lang=en&limit=50')).data as Json[]).find((x) => x.id === hit.id)!;
      const { contents } = await client.readResource({ uri: hit.resource });
      expect(contents).toHaveLength(1);
      expect(contents[0]).toMatchObject({ uri: hit.resource, mimeType: 'text/markdown' });
      const md = (contents[0] as { text: string }).text;
      expect(md.startsWith(`# ${briefing.title}\n`)).toBe(true);
      expect(md).toContain(briefing.body);
      expect(md).toContain(`Published ${briefing.published_at}`);
      expect(md).toContain('CC-BY-4.0');
      // Its other languages, by URI; the translation key reads the same briefing in another language.
      const fr = ((await rest(api, '/v1/briefings?lang=fr&limit=50')).data as Json[]).find((x) => x.translation_key === briefing.translation_key)!;
      expect(md).toContain(`fr: chokepoint://briefing/fr/${fr.id}`);
      const byKey = await client.readResource({ uri: `chokepoint://briefing/fr/${briefing.translation_key}` });
      expect(byKey.contents[0]!.uri).toBe(`chokepoint://briefing/fr/${briefing.translation_key}`);
      expect((byKey.contents[0] as { text: string }).text).toContain(fr.body);
      // An English id asked in French: the French version is the first suggestion.
      await expect(client.readResource({ uri: `chokepoint://briefing/fr/${briefing.id}x` })).rejects.toThrow(
        /^MCP error -32602: [^]*Accepted: a briefing's id/,
      );
      await expect(client.readResource({ uri: `chokepoint://briefing/fr/${briefing.id}` })).rejects.toThrow(new RegExp(`Did you mean: ${fr.id} \\(`));
      await expect(client.readResource({ uri: `chokepoint://briefing/it/${briefing.id}` })).rejects.toThrow(/^MCP error -32602: lang: 'it' is not a language/);
      // Listed (resources/list pages through everything, apps and briefings included) and completed.
      const resources = await allResources(client);
      const briefings = resources.filter((r) => r.uri.startsWith('chokepoint://briefing/'));
      let total = 0;
      for (const lang of ['en', 'fr', 'de', 'es']) total += (await rest(api, `/v1/briefings?lang=${lang}&limit=50`)).data.length;
      expect(briefings).toHaveLength(total);
      expect(briefings.every((r) => r.mimeType === 'text/markdown')).toBe(true);
      const ids = await client.complete({
        ref: { type: 'ref/resource', uri: 'chokepoint://briefing/{lang}/{id}' },
        argument: { name: 'id', value: '2026-08-20' },
        context: { arguments: { lang: 'de' } },
      });
      expect(ids.completion.values.length).toBeGreaterThan(0);
      expect(ids.completion.values.every((v) => v.startsWith('2026-08-20') && v.endsWith('-de'))).toBe(true);
    });

    it('pages resources/list with a cursor', async () => {
      const { client } = clients[kind];
      const first = await client.listResources();
      expect(first.resources).toHaveLength(100);
      expect(first.nextCursor).toEqual(expect.any(String));
      const all = await allResources(client);
      expect(all.length).toBeGreaterThan(200);
      expect(new Set(all.map((r) => r.uri)).size).toBe(all.length);
      expect(all.slice(0, 3).map((r) => r.uri)).toEqual([
        'ui://chokepoint/reserve-series.html',
        'ui://chokepoint/commodity-history.html',
        'ui://chokepoint/country-exposures.html',
      ]);
      await expect(client.listResources({ cursor: 'not-a-cursor' })).rejects.toMatchObject({ code: -32602 });
    });

    it('ranks search_briefings exactly as GET /v1/search ranks briefings, for the same query and filters', async () => {
      const queries: [string, string, number][] = [
        ['gas storage', 'en', 10],
        ['cobalt export ban', 'en', 5],
        ['Strait of Hormuz', 'en', 10],
        ['stockage de gaz', 'fr', 10],
        ['Kobalt', 'de', 3],
        ['fertilizantes', 'es', 10],
        ['copper shortage', 'fr', 50],
      ];
      for (const [q, lang, limit] of queries) {
        const r = await call(clients[kind], 'search_briefings', { q, lang, limit });
        const body = await rest(api, `/v1/search?q=${encodeURIComponent(q)}&type=briefing&lang=${lang}&limit=${limit}`);
        const mine = (r.structuredContent!.results as Json[]).map((h) => [h.id, h.score]);
        expect(mine, `${q} ${lang}`).toEqual((body.data as Json[]).map((h) => [h.id, h.score]));
        // Without type, /v1/search mixes in scenarios; its briefings keep their order.
        const mixed = await rest(api, `/v1/search?q=${encodeURIComponent(q)}&lang=${lang}&limit=50`);
        const briefingIds = (mixed.data as Json[]).filter((h) => h.type === 'briefing').map((h) => h.id);
        expect(
          mine.map(([id]) => id).filter((id) => briefingIds.includes(id)),
          `${q} ${lang}`,
        ).toEqual(briefingIds.filter((id) => mine.some(([m]) => m === id)));
      }
    });

    it('links three tools to MCP Apps: ui:// resources of type text/html;profile=mcp-app, self-contained', async () => {
      const { client } = clients[kind];
      const { tools } = await client.listTools();
      const apps = Object.fromEntries(tools.filter((t) => t._meta?.ui).map((t) => [t.name, (t._meta!.ui as Json).resourceUri]));
      expect(apps).toEqual({
        get_country_profile: 'ui://chokepoint/country-exposures.html',
        get_commodity: 'ui://chokepoint/commodity-history.html',
        get_reserve_timeseries: 'ui://chokepoint/reserve-series.html',
      });
      for (const t of tools) if (t._meta?.ui) expect(t._meta['ui/resourceUri'], t.name).toBe(apps[t.name]);
      expect(client.getServerCapabilities()?.extensions).toEqual({ 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } });
      for (const uri of Object.values(apps) as string[]) {
        const { contents } = await client.readResource({ uri });
        expect(contents).toHaveLength(1);
        const page = contents[0] as { uri: string; mimeType: string; text: string; _meta?: Json };
        expect(page.mimeType).toBe('text/html;profile=mcp-app');
        expect(page._meta?.ui).toEqual({ csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true });
        const html = page.text;
        expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
        // The page inlines the ext-apps View bundle (api/mcp/apps/bundle.ts) once; the whole answer stays under the response cap.
        expect(html.split(VIEW_SCRIPT)).toHaveLength(2);
        expect(Buffer.byteLength(html)).toBeLessThan(MCP_MAX_RESPONSE_BYTES - 64 * 1024);
        const own = html.replace(VIEW_SCRIPT, '');
        expect(own.length).toBeLessThan(12 * 1024);
        // Self-contained: no external script, style, image or font, no network call of any kind
        // (the bundle holds URLs only as JSON Schema dialect names and descriptions).
        expect(own).not.toMatch(/\b(src|href)\s*=|@import|url\(|\bfetch\(|XMLHttpRequest|WebSocket|EventSource|import\(|sendBeacon/);
        expect(own).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
        expect(VIEW_SCRIPT).not.toMatch(/\b(src|href)\s*=|@import|\bfetch\(|XMLHttpRequest|new WebSocket|EventSource|\bimport\(|sendBeacon/);
        // The View side of the MCP Apps handshake, and both colour schemes.
        for (const s of [
          'ui/initialize',
          'ui/notifications/initialized',
          'ui/notifications/tool-result',
          'ui/notifications/size-changed',
          'color-scheme:light dark',
        ])
          expect(html, `${uri} ${s}`).toContain(s);
      }
    });
  });

  describe('HTTP', () => {
    it('speaks the revisions the SDK supports and links data as resource_link only from 2025-06-18', async () => {
      expect([...MCP_PROTOCOL_VERSIONS]).toEqual(SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v !== '2024-10-07'));
      const card = await rest(api, '/.well-known/mcp/server-card');
      // Streamable HTTP also serves the stateless 2026-07-28 (api/mcp/revisions.test.ts); SSE only the initialize revisions.
      expect((card.remotes as Json[]).map((r) => [r.type, r.supportedProtocolVersions])).toEqual([
        ['streamable-http', [MCP_STATELESS_VERSION, ...MCP_PROTOCOL_VERSIONS]],
        ['sse', [...MCP_PROTOCOL_VERSIONS]],
      ]);
      const session = async (protocolVersion: string) => {
        const init = await postInit(api, {}, { ...INIT, params: { ...INIT.params, protocolVersion } });
        const answered = ((await init.json()) as Json).result.protocolVersion;
        const headers = {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': init.headers.get('mcp-session-id')!,
          'mcp-protocol-version': answered,
        };
        await fetch(`${api.url}/mcp`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
        const res = await fetch(`${api.url}/mcp`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 2,
            method: 'tools/call',
            params: { name: 'get_reserve_timeseries', arguments: { commodity: 'gas', country: 'de', from: '2020-01-01', to: '2026-08-31' } },
          }),
        });
        const result = ((await res.json()) as Json).result as CallToolResult;
        await fetch(`${api.url}/mcp`, { method: 'DELETE', headers });
        return { answered, result };
      };
      const old = await session('2025-03-26');
      expect(old.answered).toBe('2025-03-26');
      expect(old.result.content.map((c) => c.type)).toEqual(['text']);
      expect(text(old.result)).toMatch(/Full data:\n- .*, JSON: https:\/\/chokepoint\.test\/v1\/reserves\/timeseries\?/);
      const current = await session('2025-06-18');
      expect(current.result.content.map((c) => c.type)).toEqual(['text', 'resource_link', 'resource_link', 'resource_link']);
      // A revision the server does not know: it answers with its newest, and the client decides.
      expect((await session('2099-01-01')).answered).toBe(MCP_PROTOCOL_VERSIONS[0]);
    });

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
