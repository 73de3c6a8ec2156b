import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BriefingListResponse, EventListResponse, GetReserveResponse, Problem, ROUTES, ReserveListResponse } from '../contract/api.ts';
import { CSV_COLUMNS, flattenRecord, type CsvRoute } from '../contract/csv.ts';
import { BUILD_FILES } from '../contract/layout.ts';
import { LIST_DEFAULTS } from '../contract/limits.ts';
import { LANGS } from '../contract/languages.ts';
import { ReserveResponse } from '../contract/reserves.ts';
import { startTestServer } from '../test/http.ts';
import { type LoadedBuild, loadBuild } from './build.ts';
import { listCommodities } from './queries/commodities.ts';
import { computeBriefings, computeEvents, defaultEventsQuery, listScenarios } from './queries/content.ts';
import { resolveCommodity, resolveCountry } from './resolve.ts';

/**
 * "Safe behind any cache, consistent for every client", over real HTTP (and MCP) against the
 * shared test build: one identifier resolver for REST and MCP, the same parameter rules on every
 * route, every country's reserve of a commodity, CSVs with fixed columns, and default views that
 * are the answers of the same query functions.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let api: Awaited<ReturnType<typeof startTestServer>>;
let build: LoadedBuild;
let client: Client;
const dist = () => join(inject('distDir'), 'current');
const get = (path: string, init?: RequestInit) => fetch(`${api.url}${path}`, init);
const json = async (path: string): Promise<Json> => {
  const res = await get(path);
  expect(res.status, path).toBe(200);
  expect(res.headers.get('content-type'), path).toBe('application/json; charset=utf-8');
  return (await res.json()) as Json;
};
const problem = async (path: string, status: number, init?: RequestInit) => {
  const res = await get(path, init);
  expect(res.status, path).toBe(status);
  expect(res.headers.get('content-type'), path).toBe('application/problem+json; charset=utf-8');
  return Problem.parse(await res.json());
};
const call = async (name: string, args: Json) => (await client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent?: Json };
const text = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
const META_KEYS = ['as_of', 'license', 'attribution', 'notes', 'sources'];
const withoutMeta = (x: Json) => Object.fromEntries(Object.entries(x).filter(([k]) => !META_KEYS.includes(k)));

beforeAll(async () => {
  api = await startTestServer();
  build = await loadBuild((p) => readFile(join(dist(), p)));
  client = new Client({ name: 'consistency-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`)));
});
afterAll(async () => {
  await client?.close();
  await api?.close();
});

describe('one identifier resolver for REST and MCP', () => {
  it('a commodity by slug, bare code or name in any of the four languages, any case', async () => {
    const sheet = await json('/v1/commodities/metals.cobalt');
    for (const input of ['cobalt', 'COBALT', 'Metals.Cobalt', 'Kobalt', 'cobalto']) expect(await json(`/v1/commodities/${input}`), input).toEqual(sheet);
    expect((await json(`/v1/commodities/${encodeURIComponent('natural gas')}`)).data.slug).toBe('energy.gas');
    expect((await json(`/v1/commodities/${encodeURIComponent('Pétrole brut')}`)).data.slug).toBe('energy.oil');
    expect((await json('/v1/scenarios?commodity=Erdgas')).data).toEqual((await json('/v1/scenarios?commodity=gas')).data);
  });

  it('a country by ISO2, ISO3, common abbreviation or name in en/fr/de/es', async () => {
    const deu = await json('/v1/countries/DEU');
    for (const input of ['DE', 'de', 'deu', 'GER', 'Germany', 'germany', 'Allemagne', 'Deutschland', 'Alemania']) {
      expect(await json(`/v1/countries/${encodeURIComponent(input)}`), input).toEqual(deu);
    }
    for (const [input, iso3] of [
      ['UK', 'GBR'],
      ['U.K.', 'GBR'],
      ['US', 'USA'],
      ['USA', 'USA'],
      ['UAE', 'ARE'],
      ['china', 'CHN'],
      ['Côte d’Ivoire', 'CIV'],
      ['Royaume-Uni', 'GBR'],
    ]) {
      expect((await json(`/v1/countries/${encodeURIComponent(input!)}`)).data.iso3, input).toBe(iso3);
    }
    const byName = await json(`/v1/reserves?commodity=${encodeURIComponent('gaz naturel')}&country=Allemagne`);
    expect(byName).toEqual(await json('/v1/reserves?commodity=gas&country=de'));
    expect((await json(`/v1/reserves?commodity=gas&country=${encodeURIComponent('European Union')}`)).data.country).toBe('eu');
  });

  it('unknown input: 404 with at most five suggestions, by meaning first, then spelling', async () => {
    const cases: [string, string][] = [
      ['/v1/countries/chin', 'CHN'],
      ['/v1/countries/Germny', 'DEU'],
      ['/v1/countries/korea', 'KOR'],
      ['/v1/countries/Deutsch', 'DEU'],
      ['/v1/commodities/metals.cobolt', 'metals.cobalt'],
      ['/v1/commodities/agri.cobalt', 'metals.cobalt'],
      ['/v1/commodities/kobolt', 'metals.cobalt'],
      ['/v1/events?country=Allemange', 'DEU'],
      ['/v1/reserves?commodity=gass&country=de', 'energy.gas'],
    ];
    for (const [path, first] of cases) {
      const p = await problem(path, 404);
      expect(p.suggestions![0], path).toBe(first);
      expect(p.suggestions!.length, path).toBeLessThanOrEqual(5);
      expect(p.errors![0]!.message, path).toMatch(/^unknown (commodity|country); expected /);
    }
    expect((await problem('/v1/countries/korea', 404)).suggestions).toEqual(['KOR', 'PRK']);
    expect((await problem('/v1/countries/QQ', 404)).suggestions!.length).toBeLessThanOrEqual(5);
    const far = await problem(`/v1/countries/${'x'.repeat(40)}`, 404);
    expect(far.suggestions).toEqual([]);
  });

  it('MCP tools, resources and prompts resolve through the same functions', async () => {
    const sheet = await call('get_commodity', { slug: 'cobalt' });
    expect(sheet.isError).toBeFalsy();
    expect(sheet.structuredContent!.slug).toBe('metals.cobalt');
    const price = await call('get_price', { commodity: 'Kobalt' });
    expect(price.structuredContent!.slug).toBe('metals.cobalt');
    const uk = await call('get_country_profile', { iso: 'UK' });
    expect(withoutMeta(uk.structuredContent!)).toEqual((await json('/v1/countries/GBR')).data);
    const compared = await call('compare_countries', { countries: ['Allemagne', 'France'] });
    expect((compared.structuredContent!.countries as Json[]).map((c) => c.iso3)).toEqual(['DEU', 'FRA']);
    const events = await call('list_events', { country: 'china', since: '2020-01-01' });
    expect(events.structuredContent!.events).toEqual((await json('/v1/events?country=CHN&since=2020-01-01')).data);
    const { contents } = await client.readResource({ uri: 'chokepoint://commodity/cobalt' });
    expect(JSON.parse((contents[0] as { text: string }).text)).toEqual(await json('/v1/commodities/metals.cobalt'));
  });

  it('an MCP error gives the problem, the accepted form and at most five suggestions, once', async () => {
    const r = await call('get_country_profile', { iso: 'korea' });
    expect(r.isError).toBe(true);
    expect(text(r)).toBe(
      "unknown or uncovered country 'korea'. Accepted: an ISO 3166-1 code (DEU or DE), a common abbreviation (UK), or the country's name in English, French, German or Spanish (Germany, Allemagne). Did you mean: KOR (South Korea), PRK (North Korea)?",
    );
    const many = await call('get_commodity', { slug: 'natural' });
    expect(
      text(many)
        .match(/Did you mean: (.*)\?$/)![1]!
        .split(', ').length,
    ).toBeLessThanOrEqual(5);
    await expect(client.getPrompt({ name: 'commodity_stress_explainer', arguments: { commodity: 'kobolt' } })).rejects.toThrow(
      /^MCP error -32602: unknown commodity 'kobolt'\. Accepted: [^]*Did you mean: metals\.cobalt \(Cobalt\)/,
    );
  });

  it('resolves in microseconds once the build is loaded, whatever the input', () => {
    const inputs = ['x'.repeat(40), 'Germny', 'QQ', 'korea', 'a b c d e f g h i j k l m n o p q r s t', 'metals.cobolt'];
    const attempt = (f: () => unknown) => {
      try {
        f();
      } catch {
        /* a 404 is the expected answer */
      }
    };
    attempt(() => resolveCountry(build, 'warm'));
    attempt(() => resolveCommodity(build, 'warm'));
    const t0 = performance.now();
    for (let i = 0; i < 200; i++) {
      for (const s of inputs) {
        attempt(() => resolveCountry(build, s));
        attempt(() => resolveCommodity(build, s));
      }
    }
    expect((performance.now() - t0) / (200 * inputs.length * 2)).toBeLessThan(1); // ms per resolution, on a loaded machine
  });
});

describe('the same parameter rules on every route', () => {
  const getRoutes = ROUTES.filter((r) => r.method === 'get');

  it('every /v1 route refuses an unknown parameter with the same 400 problem', async () => {
    for (const r of getRoutes) {
      const sep = r.example.includes('?') ? '&' : '?';
      const p = await problem(`${r.example}${sep}foo=bar`, 400);
      expect(p.type, r.example).toBe('/problems/invalid-parameter');
      expect(p.errors, r.example).toEqual([{ param: 'foo', message: expect.stringMatching(/^unknown parameter; accepted: .*format/) }]);
    }
    const ask = await problem('/v1/ask?foo=bar', 400, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"q":"gas"}' });
    expect(ask.errors).toEqual([{ param: 'foo', message: 'unknown parameter; accepted: format' }]);
  });

  it('format: json everywhere, csv where the route has a CSV form, else one 400 naming the formats offered', async () => {
    for (const r of getRoutes) {
      const sep = r.example.includes('?') ? '&' : '?';
      const asJson = await get(`${r.example}${sep}format=json`);
      expect(asJson.status, r.example).toBe(200);
      expect(asJson.headers.get('content-type'), r.example).toBe('application/json; charset=utf-8');
      const asCsv = await get(`${r.example}${sep}format=csv`);
      if (r.csv) {
        expect(asCsv.status, r.example).toBe(200);
        expect(asCsv.headers.get('content-type'), r.example).toBe('text/csv; charset=utf-8');
      } else {
        expect(asCsv.status, r.example).toBe(400);
        const p = Problem.parse(await asCsv.json());
        expect(p.errors, r.example).toEqual([{ param: 'format', message: expect.stringMatching(/^must be json \(.*no CSV form/) }]);
      }
      const other = await problem(`${r.example}${sep}format=xml`, 400);
      expect(other.errors![0]!.message, r.example).toMatch(r.csv ? /^must be json or csv/ : /^must be json \(/);
    }
  });
});

describe("every country's reserve of a commodity", () => {
  it('GET /v1/reserves?commodity=gas: the same Reserve objects as the single answers, EU included', async () => {
    const list = ReserveListResponse.parse(await json('/v1/reserves?commodity=gas'));
    GetReserveResponse.parse(list);
    expect(list.meta.count).toBe(list.data.length);
    expect(list.data.map((r) => r.country)).toContain('eu');
    expect(list.data.every((r) => r.commodity === 'gas')).toBe(true);
    for (const r of list.data) {
      const one = ReserveResponse.parse(await json(`/v1/reserves?commodity=gas&country=${r.country}`));
      expect(r).toEqual(one.data);
    }
    expect(list.meta.as_of).toBe(
      list.data
        .map((r) => r.as_of)
        .sort()
        .at(-1),
    );
    expect((await json('/v1/reserves?commodity=oil')).data.map((r: Json) => r.country)).toEqual(['us']);
    const none = await problem('/v1/reserves?commodity=cobalt', 404);
    expect(none.suggestions).toEqual(['commodity=gas', 'commodity=oil']);
  });

  it('as CSV: one row per reserve; and the MCP get_reserve without country', async () => {
    const list = (await json('/v1/reserves?commodity=gas')).data as Json[];
    const rows = parse(await (await get('/v1/reserves?commodity=gas&format=csv')).text(), { columns: true }) as Json[];
    expect(rows.map((r) => r.country)).toEqual(list.map((r) => r.country));
    const tool = await call('get_reserve', { commodity: 'gas' });
    expect(tool.isError).toBeFalsy();
    expect(tool.structuredContent!.reserves).toEqual(list);
    expect(tool.structuredContent!.count).toBe(list.length);
  });
});

describe('CSVs with a fixed column set per route', () => {
  const header = (csv: string) => csv.slice(0, csv.indexOf('\r\n'));
  const csvOf = async (path: string) => {
    const res = await get(path, { headers: { accept: 'text/csv' } });
    expect(res.status, path).toBe(200);
    expect(res.headers.get('content-type'), path).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('link'), path).toMatch(/rel="license".*rel="cite-as"/);
    return res.text();
  };
  const pairs: [CsvRoute, string, string][] = [
    ['listCommodities', '/v1/commodities?group=energy', '/v1/commodities?group=metals'],
    ['getReserve', '/v1/reserves?commodity=gas&country=de', '/v1/reserves?commodity=oil&country=us'],
    [
      'getReserveTimeseries',
      '/v1/reserves/timeseries?commodity=gas&country=de&from=2026-01-01',
      '/v1/reserves/timeseries?commodity=oil&country=us&from=2025-01-01',
    ],
    ['getCommodity', '/v1/commodities/metals.cobalt', '/v1/commodities/metals.tungsten'],
    ['listScenarios', '/v1/scenarios?status=elevated', '/v1/scenarios?commodity=oil'],
    ['listEvents', '/v1/events?category=policy&since=2000-01-01', '/v1/events?since=2000-01-01&limit=3'],
    ['listBriefings', '/v1/briefings?lang=en', '/v1/briefings?lang=de&limit=2'],
  ];

  it('two filters of one route give identical header lines: the declared columns, CRLF, UTF-8', async () => {
    for (const [route, a, b] of pairs) {
      const [x, y] = [await csvOf(a), await csvOf(b)];
      expect(header(x), route).toBe(header(y));
      expect(header(x).split(','), route).toEqual([...CSV_COLUMNS[route]]);
      for (const csv of [x, y]) {
        expect(csv.endsWith('\r\n'), route).toBe(true);
        expect(csv.charCodeAt(0), route).not.toBe(0xfeff);
        // Every record ends in CRLF: read with CRLF as the only record delimiter, the header has every column.
        expect(
          Object.keys((parse(csv, { columns: true, record_delimiter: '\r\n' }) as Json[])[0] ?? Object.fromEntries(CSV_COLUMNS[route].map((c) => [c, '']))),
        ).toEqual([...CSV_COLUMNS[route]]);
      }
    }
  });

  it('no field of the JSON answer is lost (only the Markdown body of briefings), rows match the JSON', async () => {
    const cases: [CsvRoute, string][] = [
      ['listCommodities', '/v1/commodities'],
      ['getReserve', '/v1/reserves?commodity=gas'],
      ['listScenarios', '/v1/scenarios'],
      ['listEvents', '/v1/events?since=2000-01-01&limit=500'],
      ['listEvents', '/v1/events?since=2000-01-01&limit=500&lang=de'],
      ['listBriefings', '/v1/briefings?lang=fr'],
    ];
    for (const [route, path] of cases) {
      const data = (await json(path)).data as Json[];
      const columns = new Set<string>(CSV_COLUMNS[route]);
      for (const record of data) {
        for (const [key, value] of Object.entries(flattenRecord(record))) {
          // A null object (a commodity without a price) is its columns left empty.
          const nullObject = value === null && [...columns].some((c) => c.startsWith(`${key}.`));
          if (key !== 'body' && !nullObject) expect(columns.has(key), `${route} ${key}`).toBe(true);
        }
      }
      const rows = parse(await csvOf(path), { columns: true, record_delimiter: '\r\n' }) as Json[];
      expect(rows.length, route).toBe(data.length);
    }
    const sheet = (await json('/v1/commodities/metals.cobalt')).data as Json;
    const history = parse(await csvOf('/v1/commodities/metals.cobalt'), { columns: true }) as Json[];
    expect(history.map((r) => [r.date, Number(r.value)])).toEqual(sheet.price_history.points.map((p: Json) => [p.date, p.value]));
  });

  it('a path-addressed CSV is never served for another path (the memo key has no path)', async () => {
    const cobalt = await (await get('/v1/commodities/metals.cobalt?format=csv')).text();
    const gas = await (await get('/v1/commodities/energy.gas?format=csv')).text();
    expect(gas).not.toBe(cobalt);
    expect(gas.split('\r\n')[1]).toMatch(/^energy\.gas,/);
  });
});

describe('default views are the answers of the same query functions', () => {
  const file = async (path: string) => JSON.parse(await readFile(join(dist(), path), 'utf8')) as Json;

  it('v1/events.json is GET /v1/events with the default since and limit spelled out, meta.query included', async () => {
    const prebuilt = EventListResponse.parse(await file(BUILD_FILES.recentEvents().path));
    const query = defaultEventsQuery(build);
    expect(prebuilt.meta.query).toEqual(query);
    expect(query.limit).toBe(LIST_DEFAULTS.events.limit);
    expect(prebuilt).toEqual(computeEvents(build, query));
    const explicit = `/v1/events?since=${query.since}&limit=${query.limit}`;
    const [plain, spelled] = [await get('/v1/events'), await get(explicit)];
    expect(await spelled.json()).toEqual(prebuilt);
    expect(await plain.json()).toEqual(prebuilt);
    // The same bytes, so the same ETag: a cache holds one copy.
    expect(spelled.headers.get('etag')).toBe(plain.headers.get('etag'));
    // A query that differs from the defaults says so in meta.query.
    const other = EventListResponse.parse(await json('/v1/events?since=2000-01-01&limit=5&country=Allemagne'));
    expect(other.meta.query).toEqual({ since: '2000-01-01', country: 'DEU', limit: 5 });
  });

  it('v1/briefings/<lang>.json is GET /v1/briefings?lang=<lang>&limit=10, meta.query included', async () => {
    for (const lang of LANGS) {
      const prebuilt = BriefingListResponse.parse(await file(BUILD_FILES.latestBriefings(lang).path));
      const query = { lang, limit: LIST_DEFAULTS.briefings.limit };
      expect(prebuilt.meta.query).toEqual(query);
      expect(prebuilt).toEqual(computeBriefings(build, query));
      expect(await json(`/v1/briefings?lang=${lang}&limit=${query.limit}`)).toEqual(prebuilt);
    }
    expect(await json('/v1/briefings')).toEqual(await file(BUILD_FILES.latestBriefings('en').path));
    expect((await json('/v1/briefings?lang=de&limit=2')).meta.query).toEqual({ lang: 'de', limit: 2 });
  });

  it('v1/commodities.json and v1/scenarios.json are the unfiltered answers', async () => {
    expect(await file(BUILD_FILES.commodityList().path)).toEqual(listCommodities(build, {}).envelope());
    expect(await json('/v1/commodities')).toEqual(await file(BUILD_FILES.commodityList().path));
    expect(await file(BUILD_FILES.scenarios().path)).toEqual(listScenarios(build, {}).envelope());
    expect(await json('/v1/scenarios')).toEqual(await file(BUILD_FILES.scenarios().path));
  });
});
