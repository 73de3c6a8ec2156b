import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../test/http.ts';
import compareCountries from './mcp/tools/compare_countries.ts';
import getCommodity from './mcp/tools/get_commodity.ts';
import getPrice from './mcp/tools/get_price.ts';
import listCommodities from './mcp/tools/list_commodities.ts';

/** What a reader tripped on in the API and in MCP text (issue 35, point 4), against the real build. */

let api: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  api = await startTestServer();
});
afterAll(() => api.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = async (path: string): Promise<any> => {
  const res = await fetch(`${api.url}${path}`);
  return { status: res.status, ...((await res.json()) as object) };
};
const build = () => api.store.current()!;
const text = (r: { summary?: string; figures?: string }) => `${r.summary ?? ''}\n${r.figures ?? ''}`;

describe('names', () => {
  it('calls the Democratic Republic of the Congo "DR Congo" in every language, not CLDR\'s "Congo - Kinshasa"', async () => {
    const { data } = await json('/v1/countries/COD');
    expect(data.name).toBe('DR Congo');
    expect(data.names).toEqual({ en: 'DR Congo', fr: 'RD Congo', de: 'DR Kongo', es: 'RD del Congo' });
    const cobalt = await json('/v1/commodities/metals.cobalt');
    expect(cobalt.data.producers.entries[0]).toMatchObject({ iso3: 'COD', name: 'DR Congo' });
  });

  it('names a supplier with a code by its country name: "United States", never EI\'s "US"', async () => {
    const names = new Set<string>();
    for (const iso of ['DEU', 'FRA', 'JPN', 'GBR', 'ESP', 'ITA', 'NLD', 'POL']) {
      const { data } = await json(`/v1/countries/${iso}`);
      for (const e of data.exposures) for (const s of e.suppliers ?? []) if (s.iso3 === 'USA') names.add(s.name);
    }
    expect([...names]).toEqual(['United States']);
    const r = await compareCountries.run(build(), { countries: ['DEU', 'FRA', 'JPN', 'GBR'] } as never);
    expect(text(r as never)).not.toMatch(/\bUS\b/);
  });

  it("lists Germany's gas production once, not again as Henry Hub gas", async () => {
    const { data } = await json('/v1/countries/DEU');
    const slugs = data.production.map((p: { commodity: string }) => p.commodity);
    expect(slugs).toContain('energy.gas');
    expect(slugs).not.toContain('energy.usgas');
    expect(new Set(slugs).size).toBe(slugs.length);
  });
});

describe('prices without a stated unit', () => {
  it('say in MCP text that the quantity is not stated, with the unit note, never a bare "USD"', async () => {
    const { data } = await json('/v1/commodities/metals.vanadium');
    expect(data.price).toMatchObject({ currency: 'USD', unit: null, unit_note: expect.stringContaining('IMF') });
    const price = text((await getPrice.run(build(), { commodity: 'metals.vanadium' } as never)) as never);
    expect(price).toContain('USD (quantity not stated)');
    expect(price).toContain(data.price.unit_note);
    const sheet = text((await getCommodity.run(build(), { slug: 'metals.vanadium' } as never)) as never);
    expect(sheet).toContain('USD (quantity not stated)');
    expect(sheet).not.toMatch(/ USD on /);
    const list = text((await listCommodities.run(build(), {} as never)) as never);
    expect(list.match(/USD \(quantity not stated\)/g)).toHaveLength(4);
  });
});

describe('suggestions', () => {
  it('suggests no country for a two-letter code close to none ("xx" is not near Mexico)', async () => {
    const r = await json('/v1/reserves?commodity=gas&country=xx');
    expect(r.status).toBe(404);
    expect(r.detail).not.toMatch(/MEX|Mexico/);
    expect(r.suggestions ?? []).toEqual([]);
    // A real typo still gets its suggestion.
    const typo = await json('/v1/countries/Germny');
    expect(typo.detail).toContain('DEU (Germany)');
  });
});

describe('robots.txt', () => {
  it('is served from the build, allows crawling and names the sitemap', async () => {
    const res = await fetch(`${api.url}/robots.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const body = await res.text();
    expect(body).toBe('User-agent: *\nAllow: /\n\nSitemap: https://chokepoint.test/sitemap.xml\n');
    expect((await fetch(`${api.url}/sitemap.xml`)).status).toBe(200);
  });
});
