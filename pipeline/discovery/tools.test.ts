import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ROUTES } from '../../contract/api.ts';
import { TOOLS, toolByName } from '../../contract/tools.ts';
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
        else expect(HTTP_PARAMS.has(arg), `${t.name}.${arg}`).toBe(true);
      }
      expect(Object.keys(t.inputSchema.shape)).not.toContain('format');
    }
  });

  it('mirrors existing routes, with the same arguments as the route parameters', () => {
    for (const t of TOOLS) {
      if (!t.route) continue;
      const r = ROUTES.find((x) => x.path === t.route);
      expect(r, `${t.name} → ${t.route}`).toBeTruthy();
      if (t.name === 'get_price') continue;
      const params = new Set([...Object.keys(shapeOf(r!.query)), ...Object.keys(shapeOf(r!.params))]);
      for (const arg of Object.keys(t.inputSchema.shape)) expect(params.has(arg), `${t.name}.${arg}`).toBe(true);
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
    expect(parse('search_briefings', { q: 'cobalt', limit: 3 }).data).toEqual({ q: 'cobalt', limit: 3 });
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
