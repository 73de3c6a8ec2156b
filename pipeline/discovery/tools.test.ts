import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ROUTES } from '../../contract/api.ts';
import { TOOLS, toolByName, toolDescriptors } from '../../contract/tools.ts';
import { shapeOf } from '../../contract/json-schema.ts';

const HTTP_PARAMS = new Set(ROUTES.flatMap((r) => [...Object.keys(shapeOf(r.query)), ...Object.keys(shapeOf(r.params)), ...Object.keys(shapeOf(r.body))]));

describe('MCP tool registry', () => {
  it('has the ten tools of SPEC §6, each read-only and closed-world', () => {
    expect(TOOLS.map((t) => t.name)).toEqual([
      'get_reserve',
      'get_price',
      'compare_countries',
      'list_scenarios',
      'search_briefings',
      'get_country_profile',
      'list_commodities',
      'get_commodity',
      'get_reserve_timeseries',
      'list_events',
    ]);
    for (const t of TOOLS) {
      expect(t.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
      expect(t.title.length).toBeGreaterThan(3);
      expect(t.inputSchema).toBeInstanceOf(z.ZodObject);
      expect(t.outputSchema).toBeInstanceOf(z.ZodObject);
    }
  });

  it('names its arguments after the HTTP parameters (compare_countries takes a list of countries)', () => {
    for (const t of TOOLS) {
      for (const arg of Object.keys(t.inputSchema.shape)) {
        if (t.name === 'compare_countries') expect(arg).toBe('countries');
        // cursor: the page token of the paged list tools, named as MCP names its own (tools/list, resources/list).
        else expect(HTTP_PARAMS.has(arg) || arg === 'cursor', `${t.name}.${arg}`).toBe(true);
      }
      expect(Object.keys(t.inputSchema.shape)).not.toContain('format');
    }
  });

  it('mirrors existing routes, with the same arguments as the route parameters (and the few it declares its own)', () => {
    for (const t of TOOLS) {
      if (!t.route) continue;
      const r = ROUTES.find((x) => x.path === t.route);
      expect(r, `${t.name} → ${t.route}`).toBeTruthy();
      if (t.name === 'get_price') continue;
      const params = new Set([...Object.keys(shapeOf(r!.query)), ...Object.keys(shapeOf(r!.params)), ...(t.toolOnlyArgs ?? [])]);
      for (const arg of Object.keys(t.inputSchema.shape)) expect(params.has(arg), `${t.name}.${arg}`).toBe(true);
      // A tool-only argument is a real argument of the tool, not of its route.
      for (const arg of t.toolOnlyArgs ?? []) {
        expect(Object.keys(t.inputSchema.shape), `${t.name}.${arg}`).toContain(arg);
        expect(Object.keys(shapeOf(r!.query)), `${t.name}.${arg}`).not.toContain(arg);
      }
    }
  });

  it('returns one language by default where the content is multilingual, and takes a limit where a list can grow', () => {
    const parse = (name: string, args: unknown) => toolByName(name)!.inputSchema.safeParse(args);
    expect(parse('list_scenarios', {}).data).toEqual({ lang: 'en', limit: 50 });
    expect(parse('list_scenarios', { lang: 'fr', limit: 2 }).data).toEqual({ lang: 'fr', limit: 2 });
    expect(parse('list_scenarios', { lang: 'it' }).success).toBe(false);
    expect(parse('search_briefings', { q: 'cobalt' }).data).toEqual({ q: 'cobalt', lang: 'en', limit: 10 });
    expect(parse('list_commodities', {}).data).toEqual({ limit: 100 });
    expect(parse('list_commodities', { limit: 101 }).success).toBe(false);
  });

  it('links the reserve series, the commodity sheet and the country profile to their MCP Apps', () => {
    const withApps = TOOLS.filter((t) => t.app).map((t) => [t.name, t.app]);
    expect(withApps).toEqual([
      ['get_country_profile', 'ui://chokepoint/country-exposures.html'],
      ['get_commodity', 'ui://chokepoint/commodity-history.html'],
      ['get_reserve_timeseries', 'ui://chokepoint/reserve-series.html'],
    ]);
    for (const d of toolDescriptors()) {
      const app = toolByName(d.name)!.app;
      expect(d._meta, d.name).toEqual(app ? { ui: { resourceUri: app }, 'ui/resourceUri': app } : undefined);
    }
  });

  it('validates arguments as the HTTP API does', () => {
    const parse = (name: string, args: unknown) => toolByName(name)!.inputSchema.safeParse(args);
    expect(parse('get_reserve', { commodity: 'GAS', country: 'DE' }).data).toEqual({ commodity: 'gas', country: 'de' });
    // Without country: every country's reserve of the commodity.
    expect(parse('get_reserve', { commodity: 'gas' }).data).toEqual({ commodity: 'gas' });
    expect(parse('get_reserve', { commodity: 'gas', country: 'de', format: 'csv' }).success).toBe(false);
    expect(parse('get_reserve_timeseries', { commodity: 'gas', country: 'de', from: '2026-02-01', to: '2026-01-01' }).success).toBe(false);
    expect(parse('get_reserve_timeseries', { commodity: 'gas', country: 'de', from: '2026-02-30' }).success).toBe(false);
    expect(parse('get_reserve_timeseries', { commodity: 'gas', country: 'de', from: '2026-01-01', metric: 'fill_pct' }).success).toBe(true);
    expect(parse('list_events', { limit: 5, category: 'policy' }).data).toEqual({ limit: 5, category: 'policy' });
    expect(parse('list_events', {}).data).toEqual({ limit: 50 });
    expect(parse('list_events', { limit: 501 }).success).toBe(false);
    expect(parse('list_events', { since: '2025-02-01', until: '2025-01-01' }).success).toBe(false);
    expect(parse('search_briefings', { q: 'cobalt', limit: 3 }).data).toEqual({ q: 'cobalt', lang: 'en', limit: 3 });
    expect(parse('search_briefings', { q: 'cobalt', type: 'scenario' }).success).toBe(false);
    expect(parse('compare_countries', { countries: ['DEU'] }).success).toBe(false);
    expect(parse('compare_countries', { countries: ['DEU', 'fra'] }).success).toBe(true);
    expect(parse('compare_countries', { countries: Array(11).fill('DEU') }).success).toBe(false);
    expect(parse('get_country_profile', { iso: 'DEU' }).success).toBe(true);
    expect(parse('get_commodity', { slug: 'metals.cobalt' }).success).toBe(true);
    expect(parse('get_price', { commodity: 'energy.oil' }).success).toBe(true);
    expect(parse('list_commodities', { group: 'metals' }).success).toBe(true);
    expect(parse('list_scenarios', { status: 'bogus' }).success).toBe(false);
  });

  it('converts every input and output schema to JSON Schema objects', () => {
    for (const t of TOOLS) {
      expect(z.toJSONSchema(t.inputSchema, { io: 'input' }).type, t.name).toBe('object');
      expect(z.toJSONSchema(t.outputSchema).type, t.name).toBe('object');
    }
  });
});
