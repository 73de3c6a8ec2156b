import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AskResponse, BriefingListResponse, EventListResponse, Problem, ScenarioListResponse, SearchResponse } from '../contract/api.ts';
import { CommodityListResponse, CommoditySheetResponse } from '../contract/commodities.ts';
import { CountryProfileResponse } from '../contract/countries.ts';
import { Health } from '../contract/health.ts';
import { ReserveResponse, TimeSeriesResponse } from '../contract/reserves.ts';
import { SOURCE_IDS } from '../contract/sources.ts';
import { startTestServer } from '../test/http.ts';

let api: Awaited<ReturnType<typeof startTestServer>>;
const get = (path: string, init?: RequestInit) => fetch(`${api.url}${path}`, init);
const problem = async (res: Response) => {
  expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  const body = Problem.parse(await res.json());
  expect(body.status).toBe(res.status);
  return body;
};

beforeAll(async () => {
  api = await startTestServer();
});
afterAll(() => api.close());

describe('the ten routes answer with the contract', () => {
  const cases: [string, { parse: (x: unknown) => unknown }][] = [
    ['/v1/commodities', CommodityListResponse],
    ['/v1/commodities?group=metals', CommodityListResponse],
    ['/v1/reserves?commodity=gas&country=de', ReserveResponse],
    ['/v1/reserves/timeseries?commodity=gas&country=de&from=2026-01-01', TimeSeriesResponse],
    ['/v1/countries/DEU', CountryProfileResponse],
    ['/v1/commodities/energy.gas', CommoditySheetResponse],
    ['/v1/scenarios', ScenarioListResponse],
    ['/v1/events', EventListResponse],
    ['/v1/events?since=2020-01-01&limit=500', EventListResponse],
    ['/v1/events?since=2020-01-01&limit=500&lang=fr', EventListResponse],
    ['/v1/briefings', BriefingListResponse],
    ['/v1/briefings?lang=de&limit=3', BriefingListResponse],
    ['/v1/search?q=gas%20storage', SearchResponse],
  ];
  for (const [path, schema] of cases) {
    it(`GET ${path}`, async () => {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const body = schema.parse(await res.json()) as { meta: { license: string; build: string } };
      expect(body.meta.license).toBe('CC-BY-4.0');
    });
  }

  it('POST /v1/ask', async () => {
    const res = await get('/v1/ask', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ q: 'What is the price of cobalt?' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = AskResponse.parse(await res.json());
    expect(body.data.citations.length).toBeGreaterThan(0);
  });
});

describe('HTTP semantics', () => {
  it('sends caching, licence and safety headers on data routes', async () => {
    const res = await get('/v1/commodities');
    expect(res.headers.get('cache-control')).toBe('public, max-age=60, s-maxage=900, stale-while-revalidate=900, stale-if-error=86400');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(new Date(res.headers.get('last-modified')!).getTime()).not.toBeNaN();
    expect(res.headers.get('link')).toBe('<https://creativecommons.org/licenses/by/4.0/>; rel="license", <https://chokepoint.test/>; rel="cite-as"');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toContain('RateLimit');
  });

  it('answers If-None-Match with 304 for static and parameterised responses', async () => {
    for (const path of ['/v1/commodities/metals.cobalt', '/v1/events?category=policy&since=2020-01-01']) {
      const first = await get(path);
      const etag = first.headers.get('etag')!;
      const again = await get(path, { headers: { 'if-none-match': etag } });
      expect(again.status, path).toBe(304);
      expect(again.headers.get('etag')).toBe(etag);
      expect(await again.text()).toBe('');
    }
  });

  it('answers HEAD wherever GET is, without a body', async () => {
    const res = await get('/v1/reserves?commodity=gas&country=de', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBeTruthy();
    expect(await res.text()).toBe('');
  });

  it('answers CORS preflight', async () => {
    const res = await get('/v1/ask', {
      method: 'OPTIONS',
      headers: { origin: 'https://example.org', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('answers in CSV on list and time-series routes, by format or Accept', async () => {
    const a = await get('/v1/commodities?format=csv');
    expect(a.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(a.headers.get('link')).toContain('rel="license"');
    const lines = (await a.text()).trim().split('\r\n');
    expect(lines[0]).toMatch(/^slug,code,group,name,names\.en,/);
    expect(lines).toHaveLength(37);
    const b = await get('/v1/reserves/timeseries?commodity=gas&country=de&from=2026-08-01', { headers: { accept: 'text/csv' } });
    expect(b.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect((await b.text()).split('\r\n')[0]).toBe('commodity,country,metric,unit,date,value');
  });
});

describe('identifiers are case-insensitive on input and canonical on output', () => {
  it('takes slugs, codes and both ISO forms', async () => {
    const sheet = CommoditySheetResponse.parse(await (await get('/v1/commodities/ENERGY.Gas')).json());
    expect(sheet.data.slug).toBe('energy.gas');
    const p2 = CountryProfileResponse.parse(await (await get('/v1/countries/de')).json());
    const p3 = CountryProfileResponse.parse(await (await get('/v1/countries/DEU')).json());
    expect(p2.data).toEqual(p3.data);
    expect(p2.data.iso3).toBe('DEU');
    const r = ReserveResponse.parse(await (await get('/v1/reserves?commodity=ENERGY.GAS&country=DEU')).json());
    expect([r.data.commodity, r.data.country]).toEqual(['gas', 'de']);
    const eu = ReserveResponse.parse(await (await get('/v1/reserves?commodity=gas&country=EU')).json());
    expect(eu.data.country).toBe('eu');
  });
});

describe('bad input gets a clear problem, never a 5xx', () => {
  it('names an unknown parameter and lists the accepted ones', async () => {
    const res = await get('/v1/events?sinse=2025-01-01');
    expect(res.status).toBe(400);
    const body = await problem(res);
    expect(body.errors).toEqual([{ param: 'sinse', message: 'unknown parameter; accepted: since, until, category, commodity, country, limit, lang, format' }]);
    expect(body.instance).toBe('/v1/events');
  });

  it('names the parameter and the accepted form', async () => {
    const cases: [string, string, RegExp][] = [
      ['/v1/events?limit=501', 'limit', /at most 500/],
      ['/v1/events?limit=ten', 'limit', /whole number/],
      ['/v1/events?category=war', 'category', /conflict/],
      ['/v1/events?since=2025-13-01', 'since', /not a calendar date/],
      ['/v1/events?since=2025-06-01&until=2025-01-01', 'until', /must not be before since/],
      ['/v1/briefings?lang=it', 'lang', /en, fr, de or es|expected one of/],
      ['/v1/briefings?limit=51', 'limit', /at most 50/],
      ['/v1/reserves?country=de', 'commodity', /required/],
      ['/v1/countries/DEU?format=csv', 'format', /must be json/],
      ['/v1/reserves/timeseries?commodity=gas&country=de', 'from', /required/],
      ['/v1/reserves/timeseries?commodity=gas&country=de&from=2025-01-01&to=2024-01-01', 'to', /must not be before from/],
      ['/v1/reserves/timeseries?commodity=gas&country=de&from=2025-01-01&metric=price', 'metric', /fill_pct|expected one of/],
      ['/v1/search', 'q', /required/],
      [`/v1/search?q=${'x'.repeat(201)}`, 'q', /at most 200/],
      ['/v1/commodities?group=fruit', 'group', /energy/],
      ['/v1/countries/%3CDE%3E', 'iso', /ISO 3166-1/],
      ['/v1/commodities/%24gas', 'slug', /commodity code/],
      ['/v1/events?limit=5&limit=6', 'limit', /more than once/],
    ];
    for (const [path, param, message] of cases) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      const body = await problem(res);
      const err = body.errors!.find((e) => e.param === param);
      expect(err, `${path} → ${JSON.stringify(body.errors)}`).toBeDefined();
      expect(err!.message, path).toMatch(message);
    }
  });

  it('suggests the nearest identifiers on 404', async () => {
    const a = await problem(await get('/v1/commodities/metals.cobolt'));
    expect(a.status).toBe(404);
    expect(a.suggestions).toContain('metals.cobalt');
    const b = await problem(await get('/v1/countries/DEX'));
    expect(b.suggestions).toContain('DEU');
    const c = await problem(await get('/v1/reserves?commodity=gas&country=us'));
    expect(c.detail).toMatch(/gas reserves exist for/);
    expect(c.suggestions![0]).toBe('commodity=oil&country=us');
    expect(c.suggestions).toContain('commodity=gas&country=eu');
    expect(c.suggestions!.length).toBeLessThanOrEqual(5);
    const d = await problem(await get('/v1/nothing-here'));
    expect(d.status).toBe(404);
  });

  it('refuses a wrong method with 405 and Allow', async () => {
    const a = await get('/v1/commodities', { method: 'DELETE' });
    expect(a.status).toBe(405);
    expect(a.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    await problem(a);
    const b = await get('/v1/ask');
    expect(b.status).toBe(405);
    expect(b.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('guards /v1/ask: media type, size, JSON and the question', async () => {
    const post = (body: string, type = 'application/json') => get('/v1/ask', { method: 'POST', headers: { 'content-type': type }, body });
    expect((await post('q=hello', 'application/x-www-form-urlencoded')).status).toBe(415);
    const big = await post(JSON.stringify({ q: 'x'.repeat(5000) }));
    expect(big.status).toBe(413);
    await problem(big);
    expect((await problem(await post('{"q": '))).detail).toMatch(/not valid JSON/);
    expect((await problem(await post('[1,2]'))).detail).toMatch(/JSON object/);
    expect((await problem(await post('{"q": ""}'))).errors).toEqual([{ param: 'q', message: expect.stringMatching(/must not be empty/) }]);
    expect((await problem(await post(JSON.stringify({ q: 'x'.repeat(501) })))).errors![0]!.message).toMatch(/at most 500/);
    expect((await problem(await post('{"q": "oil?", "model": "x"}'))).errors![0]!.param).toBe('model');
  });
});

describe('time series', () => {
  it('slices by from and to and resamples to the last observation of each period', async () => {
    const daily = TimeSeriesResponse.parse(await (await get('/v1/reserves/timeseries?commodity=gas&country=de&from=2026-07-01&to=2026-07-31')).json());
    expect(daily.data.frequency).toBe('daily');
    expect(daily.data.points).toHaveLength(31);
    expect(daily.data.points[0]!.date).toBe('2026-07-01');
    const monthly = TimeSeriesResponse.parse(
      await (await get('/v1/reserves/timeseries?commodity=gas&country=de&from=2026-01-01&to=2026-07-31&frequency=monthly&metric=volume')).json(),
    );
    expect(monthly.data.points.map((p) => p.date)).toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31', '2026-06-30', '2026-07-31']);
    const lastDay = TimeSeriesResponse.parse(
      await (await get('/v1/reserves/timeseries?commodity=gas&country=de&from=2026-07-31&to=2026-07-31&metric=volume')).json(),
    );
    expect(monthly.data.points.at(-1)).toEqual(lastDay.data.points[0]);
    expect(monthly.data.unit).toBe('TWh');
    expect(monthly.meta.as_of).toBe('2026-07-31');
  });

  it('refuses a frequency finer than the source and a metric the reserve lacks', async () => {
    const a = await problem(await get('/v1/reserves/timeseries?commodity=oil&country=us&from=2025-01-01&frequency=daily'));
    const ok = TimeSeriesResponse.parse(await (await get('/v1/reserves/timeseries?commodity=oil&country=us&from=2025-01-01')).json());
    expect([ok.data.metric, ok.data.frequency, ok.data.unit]).toEqual(['volume', 'weekly', 'thousand barrels']);
    expect(a.allowed).toEqual(['weekly', 'monthly']);
    const b = await problem(await get('/v1/reserves/timeseries?commodity=oil&country=us&from=2025-01-01&metric=fill_pct'));
    expect(b.allowed).toEqual(['volume', 'days_of_cover']);
  });
});

describe('events, briefings and scenarios', () => {
  it('filters events by date, category, commodity and country, newest first', async () => {
    const all = EventListResponse.parse(await (await get('/v1/events?since=2020-01-01&limit=500')).json()).data;
    const res = EventListResponse.parse(await (await get('/v1/events?since=2020-01-01&category=POLICY&commodity=cobalt&country=cd&limit=500')).json()).data;
    expect(res.length).toBe(all.filter((e) => e.category === 'policy' && e.commodities.includes('metals.cobalt') && e.countries.includes('COD')).length);
    for (let i = 1; i < all.length; i++) expect(all[i - 1]!.date >= all[i]!.date).toBe(true);
  });

  it('defaults events to the 90 days before the newest one', async () => {
    const body = EventListResponse.parse(await (await get('/v1/events')).json());
    const newest = body.data[0]!.date;
    const floor = new Date(Date.parse(newest) - 90 * 86_400_000).toISOString().slice(0, 10);
    expect(body.data.every((e) => e.date >= floor)).toBe(true);
  });

  it('gives event titles and summaries in the asked language, English by default with every translation', async () => {
    const q = '/v1/events?since=2022-09-26&until=2022-09-26';
    const en = EventListResponse.parse(await (await get(q)).json());
    const nordStream = en.data.find((e) => e.id === '2022-09-26-nord-stream-damage');
    expect(nordStream?.title).toBe('Explosions damage the Nord Stream pipelines in the Baltic');
    expect(nordStream && 'translations' in nordStream ? nordStream.translations.de.title : undefined).toBe(
      'Explosionen beschädigen die Nord-Stream-Pipelines in der Ostsee',
    );
    expect(await (await get(`${q}&lang=en`)).text()).toBe(JSON.stringify(en));

    const res = await get(`${q}&lang=DE`);
    expect(res.status).toBe(200);
    const de = EventListResponse.parse(await res.json());
    const e = de.data.find((x) => x.id === '2022-09-26-nord-stream-damage')!;
    expect(e).toMatchObject({ lang: 'de', title: 'Explosionen beschädigen die Nord-Stream-Pipelines in der Ostsee', date: '2022-09-26' });
    expect(e.summary).toMatch(/^Unterwasserexplosionen rissen beide Stränge von Nord Stream 1/);
    expect('translations' in e).toBe(false);
    expect(de.meta.query).toMatchObject({ lang: 'de' });

    const csv = await (await get(`${q}&lang=es&format=csv`)).text();
    expect(csv).toContain('Unas explosiones dañan los gasoductos Nord Stream en el Báltico');
    expect(await (await get(`${q}&format=csv`)).text()).toContain('Explosions damage the Nord Stream pipelines in the Baltic');

    const bad = await problem(await get('/v1/events?lang=it'));
    expect(bad.status).toBe(400);
    expect(bad.errors?.[0]?.param).toBe('lang');
    expect(bad.errors?.[0]?.message).toMatch(/en, fr, de or es|expected one of/);
  });

  it('serves briefings in the asked language, newest first, up to limit', async () => {
    for (const lang of ['en', 'fr', 'de', 'es']) {
      const body = BriefingListResponse.parse(await (await get(`/v1/briefings?lang=${lang}&limit=2`)).json());
      expect(body.data.every((b) => b.lang === lang)).toBe(true);
      expect(body.data.length).toBeLessThanOrEqual(2);
    }
  });
});

describe('health and discovery', () => {
  it('serves the discovery files, the contract, the feeds and the guides', async () => {
    const expectations: [string, string][] = [
      ['/openapi.json', 'application/json; charset=utf-8'],
      ['/.well-known/api-catalog', 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"'],
      ['/.well-known/mcp/server-card', 'application/json; charset=utf-8'],
      ['/.well-known/mcp.json', 'application/json; charset=utf-8'],
      ['/.well-known/security.txt', 'text/plain; charset=utf-8'],
      ['/llms.txt', 'text/markdown; charset=utf-8'],
      ['/feeds/briefings-fr.atom', 'application/atom+xml; charset=utf-8'],
      ['/feeds/events.atom', 'application/atom+xml; charset=utf-8'],
      ['/docs/api.md', 'text/markdown; charset=utf-8'],
      ['/docs/security.md', 'text/markdown; charset=utf-8'],
    ];
    for (const [path, type] of expectations) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe(type);
    }
    const card = await (await get('/.well-known/mcp.json')).text();
    expect(await (await get('/.well-known/mcp/server-card')).text()).toBe(card);
    const head = await get('/.well-known/api-catalog', { method: 'HEAD' });
    expect(head.headers.get('link')).toContain('</.well-known/api-catalog>; rel="api-catalog"');
  });

  it("says in meta.sources how old each payload's own series is (issue 12)", async () => {
    type Ref = { id: string; data_as_of: string | null; freshness: string; expected_next: string | null; retrieved_at: string; stale: boolean };
    const agsiOf = async (path: string) =>
      ((await (await get(path)).json()) as { meta: { sources: Ref[] } }).meta.sources.find((s) => s.id === 'gie-agsi-gas-storage')!;
    // AGSI+: Germany to 2026-08-20, France (one of the 16 countries of the shorter file) to 2026-05-06.
    expect(await agsiOf('/v1/reserves?commodity=gas&country=de')).toMatchObject({
      data_as_of: '2026-08-20',
      freshness: 'stale',
      expected_next: '2026-08-22',
      stale: false,
    });
    expect(await agsiOf('/v1/reserves?commodity=gas&country=fr')).toMatchObject({ data_as_of: '2026-05-06', freshness: 'stale', expected_next: '2026-05-08' });
    expect(await agsiOf('/v1/countries/FRA')).toMatchObject({ data_as_of: '2026-05-06' });
    // A commodity's price source carries the price series' own date.
    const cobalt = (await (await get('/v1/commodities/metals.cobalt')).json()) as {
      data: { price: { as_of: string } };
      meta: { sources: Ref[]; notes?: string[] };
    };
    expect(cobalt.meta.sources.find((s) => s.id === 'imf-commodity-prices')).toMatchObject({ data_as_of: cobalt.data.price.as_of, freshness: 'stale' });
    expect(cobalt.meta.notes?.join(' ')).toMatch(/imf-commodity-prices is stale: its data end/);
    // A historical source says so, with no date to wait for.
    const deu = (await (await get('/v1/countries/DEU')).json()) as { meta: { sources: Ref[] } };
    expect(deu.meta.sources.find((s) => s.id === 'eurostat-gas-imports-by-partner')).toMatchObject({
      data_as_of: '2020-12-31',
      freshness: 'historical',
      expected_next: null,
    });
    // The OpenAPI document carries the fields.
    const doc = (await (await get('/openapi.json')).json()) as {
      components: { schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }> };
    };
    expect(doc.components.schemas.SourceRef!.required).toEqual(expect.arrayContaining(['data_as_of', 'freshness', 'expected_next', 'retrieved_at', 'stale']));
    expect(Object.keys(doc.components.schemas.Health!.properties)).toEqual(expect.arrayContaining(['degraded_by', 'sources', 'checked_on']));
  });

  it('reports the build, its age and each source with its load status and its freshness', async () => {
    const res = await get('/healthz');
    // Degraded is still 200: load balancers keep an instance that serves old data.
    expect(res.status).toBe(200);
    const text = await res.text();
    // The body is exactly what contract/health.ts (and so the OpenAPI document) declares.
    const body = Health.parse(JSON.parse(text));
    expect(body.sources).toHaveLength(SOURCE_IDS.length);
    // Every file loaded, but the mirror's headline series end months before today: degraded, and it says which.
    expect(body.sources.every((s) => s.status === 'fresh' || s.status === 'unchanged')).toBe(true);
    expect(body).toMatchObject({ status: 'degraded', build: expect.any(String) });
    const weekly = body.sources.find((s) => s.id === 'eia-weekly-petroleum')!;
    expect(weekly).toMatchObject({
      status: 'fresh',
      freshness: 'stale',
      data_as_of: '2026-02-27',
      expected_next: '2026-03-11',
      cadence: 'weekly',
      headline: true,
    });
    expect(body.sources.find((s) => s.id === 'eurostat-gas-imports-by-partner')).toMatchObject({
      freshness: 'historical',
      expected_next: null,
      headline: false,
    });
    expect(body.degraded_by.map((d) => d.id)).toEqual(expect.arrayContaining(['eia-weekly-petroleum', 'gie-agsi-gas-storage', 'eia-oil-prices']));
    expect(body.degraded_by.map((d) => d.id)).not.toContain('eurostat-gas-imports-by-partner');
    expect(body.degraded_by.find((d) => d.id === 'eia-weekly-petroleum')!.reason).toMatch(
      /stale: they end 2026-02-27, the next observation was due by 2026-03-11/,
    );
    // No server paths or SQL in what the public reads.
    expect(text).not.toMatch(/\/work\/|\/tmp\/|\/home\/|SELECT |read_csv/);
  });
});
