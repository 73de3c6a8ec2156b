import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ROUTES } from '../../contract/api.ts';
import { TOOLS } from '../../contract/tools.ts';
import { shapeOf, type JsonSchema } from '../../contract/json-schema.ts';
import { buildOpenApi, responseComponentName } from './openapi.ts';

const BASE = 'https://chokepoint.example';
const doc = buildOpenApi({ baseUrl: BASE, version: '0.1.0' }) as {
  openapi: string;
  info: Record<string, unknown>;
  servers: { url: string }[];
  paths: Record<string, Record<string, JsonSchema>>;
  components: Record<string, Record<string, JsonSchema>>;
};

/** Follow $ref pointers inside the document. */
function deref(s: unknown): JsonSchema {
  let cur = s as JsonSchema;
  for (let i = 0; i < 20 && cur && typeof cur.$ref === 'string'; i++) {
    const parts = (cur.$ref as string).replace(/^#\//, '').split('/');
    let node: unknown = doc;
    for (const p of parts) node = (node as Record<string, unknown>)[p];
    if (!node) throw new Error(`unresolvable $ref ${String(cur.$ref)}`);
    cur = node as JsonSchema;
  }
  return cur;
}

/** The branch of a (possibly nullable / anyOf) JSON schema that has `key`. */
function branchWith(s: unknown, key: 'properties' | 'items' | 'additionalProperties'): JsonSchema | undefined {
  const r = deref(s);
  if (key in r) return r;
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const b of (r[k] as unknown[] | undefined) ?? []) {
      const hit = branchWith(b, key);
      if (hit) return hit;
    }
  }
  return undefined;
}

type Def = {
  type: string;
  innerType?: z.ZodType;
  out?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  getter?: () => z.ZodType;
};
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

function unwrapZod(s: z.ZodType): z.ZodType {
  let cur = s;
  for (let i = 0; i < 20; i++) {
    const d = defOf(cur);
    if (['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional', 'catch'].includes(d.type) && d.innerType) cur = d.innerType;
    else if (d.type === 'pipe' && d.out) cur = d.out;
    else if (d.type === 'lazy' && d.getter) cur = d.getter();
    else break;
  }
  return cur;
}

/** Every object field of the zod schema must appear at the same place in the JSON schema. */
function missingFields(zs: z.ZodType, js: unknown, path: string, out: string[], depth = 0): void {
  if (depth > 12) return;
  const s = unwrapZod(zs);
  const d = defOf(s);
  if (d.type === 'object') {
    const obj = branchWith(js, 'properties');
    if (!obj) {
      out.push(`${path} (no object schema)`);
      return;
    }
    const props = obj.properties as Record<string, unknown>;
    for (const [k, v] of Object.entries((s as z.ZodObject).shape as Record<string, z.ZodType>)) {
      if (!(k in props)) out.push(`${path}.${k}`);
      else missingFields(v, props[k], `${path}.${k}`, out, depth + 1);
    }
  } else if (d.type === 'array' && d.element) {
    const arr = branchWith(js, 'items');
    if (!arr) out.push(`${path}[] (no array schema)`);
    else missingFields(d.element, arr.items, `${path}[]`, out, depth + 1);
  } else if (d.type === 'record' && d.valueType) {
    const rec = branchWith(js, 'additionalProperties');
    if (rec && typeof rec.additionalProperties === 'object') missingFields(d.valueType, rec.additionalProperties, `${path}{}`, out, depth + 1);
  }
}

const op = (path: string, method: string) => doc.paths[path]?.[method] as JsonSchema | undefined;
const paramsOf = (o: JsonSchema) => ((o.parameters as unknown[]) ?? []).map(deref);

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const res = await validator.validate(JSON.parse(JSON.stringify(doc)));
    expect(res.errors ?? []).toEqual([]);
    expect(res.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(doc.openapi).toBe('3.1.0');
  });

  it('the validator does catch a broken document', async () => {
    const broken = JSON.parse(JSON.stringify(doc));
    broken.paths['/v1/reserves'].get.responses = 'none';
    const res = await new Validator().validate(broken);
    expect(res.valid).toBe(false);
  });

  it('states the licence, the attribution rule, the server and the build', () => {
    expect(doc.info.title).toBe('Chokepoint');
    expect(doc.info.version).toBe('0.1.0');
    expect(doc.info.license).toEqual({ name: 'CC-BY-4.0', identifier: 'CC-BY-4.0' });
    expect(doc.info.contact).toBeTruthy();
    const text = String(doc.info.description);
    for (const w of ['CC-BY-4.0', 'attribution', `${BASE}/`, 'Deprecation', 'Sunset', 'ignore fields they do not know']) expect(text).toContain(w);
    expect(doc.servers).toEqual([{ url: BASE, description: 'Production' }]);
    // No build id: the document changes with the contract, not with every 15-minute rebuild.
    expect(doc.info['x-build']).toBeUndefined();
    expect(text).not.toMatch(/build \d{8}T\d{6}Z/);
  });

  it('documents every route of ROUTES with its operationId, summary, tag and example', () => {
    const missing: string[] = [];
    for (const r of ROUTES) {
      const o = op(r.path, r.method);
      if (!o) {
        missing.push(`${r.method.toUpperCase()} ${r.path}`);
        continue;
      }
      expect(o.operationId).toBe(r.operationId);
      expect(o.summary).toBe(r.summary);
      expect(o.tags).toEqual([r.tag]);
      expect(String(o.description)).toContain(`${BASE}${r.example}`);
    }
    expect(missing).toEqual([]);
  });

  it('documents every parameter of every route with schema, description, required and example', () => {
    const missing: string[] = [];
    for (const r of ROUTES) {
      const o = op(r.path, r.method);
      if (!o) continue;
      const params = paramsOf(o);
      for (const [where, shape] of [
        ['query', shapeOf(r.query)],
        ['path', shapeOf(r.params)],
      ] as const) {
        for (const [name, field] of Object.entries(shape)) {
          const p = params.find((x) => x.name === name && x.in === where);
          if (!p) {
            missing.push(`${r.path} ${where} parameter ${name}`);
            continue;
          }
          expect(p.schema, `${r.path} ${name}`).toBeTypeOf('object');
          expect(String(p.description).length, `${r.path} ${name} description`).toBeGreaterThan(3);
          expect(p.example, `${r.path} ${name} example`).not.toBeUndefined();
          expect(p.required, `${r.path} ${name} required`).toBe(where === 'path' || !field.safeParse(undefined).success);
        }
      }
      if (r.body) {
        const body = deref((((o.requestBody as JsonSchema).content as JsonSchema)['application/json'] as JsonSchema).schema);
        for (const name of Object.keys(shapeOf(r.body))) if (!(name in (body.properties as object))) missing.push(`${r.path} body field ${name}`);
        expect(String((o.requestBody as JsonSchema).description)).toContain('4096');
        expect((body.properties as Record<string, JsonSchema>).q!.maxLength).toBe(500);
      }
    }
    expect(missing).toEqual([]);
  });

  it('a required parameter is required and an optional one is not (spot checks)', () => {
    const ts = paramsOf(op('/v1/reserves/timeseries', 'get')!);
    expect(ts.find((p) => p.name === 'from')!.required).toBe(true);
    expect(ts.find((p) => p.name === 'to')!.required).toBe(false);
    expect((ts.find((p) => p.name === 'metric')!.schema as JsonSchema).enum).toEqual(['fill_pct', 'volume', 'days_of_cover']);
    const ev = paramsOf(op('/v1/events', 'get')!);
    expect(ev.find((p) => p.name === 'limit')!.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 500, default: 50 });
    expect(ev.find((p) => p.name === 'since')!.example).toBe('2025-01-01');
  });

  it('documents every field of every response data schema (walking the zod shapes)', () => {
    const missing: string[] = [];
    for (const r of ROUTES) {
      const o = op(r.path, r.method);
      if (!o) continue;
      const ok = (o.responses as Record<string, JsonSchema>)['200']!;
      const schema = ((ok.content as JsonSchema)['application/json'] as JsonSchema).schema;
      expect(schema).toEqual({ $ref: `#/components/schemas/${responseComponentName(r)}` });
      missingFields(r.response, schema, `${r.operationId}`, missing);
    }
    expect(missing).toEqual([]);
  });

  it('puts shared schemas in components and references them', () => {
    const schemas = doc.components.schemas!;
    for (const name of [
      'Meta',
      'Problem',
      'Reserve',
      'TimeSeries',
      'CountryProfile',
      'CommoditySheet',
      'CommodityListEntry',
      'Event',
      'Scenario',
      'Briefing',
      'SearchHit',
      'Answer',
      'AskRequest',
    ]) {
      expect(schemas[name], name).toBeTypeOf('object');
    }
    const json = JSON.stringify(doc);
    expect(json).toContain('"$ref":"#/components/schemas/Meta"');
    expect(json).not.toContain('"$schema"');
    expect(json).not.toContain('"$id"');
    // every $ref resolves
    for (const m of json.matchAll(/"\$ref":"([^"]+)"/g)) expect(() => deref({ $ref: m[1] })).not.toThrow();
  });

  it('answers the right statuses per route, errors as problem+json', () => {
    for (const r of ROUTES) {
      const responses = op(r.path, r.method)!.responses as Record<string, unknown>;
      const codes = Object.keys(responses);
      for (const c of ['200', '400', '405', '429', '503']) expect(codes, `${r.path} ${c}`).toContain(c);
      if (r.method === 'get') expect(codes).toEqual(expect.arrayContaining(['304', '406']));
      const identifiers = [...Object.keys(shapeOf(r.query)), ...Object.keys(shapeOf(r.params))].some((n) =>
        ['commodity', 'country', 'iso', 'slug'].includes(n),
      );
      expect(codes.includes('404'), `${r.path} 404`).toBe(identifiers);
      expect(codes.includes('413') && codes.includes('415'), `${r.path} 413/415`).toBe(Boolean(r.body));
      const ok = deref(responses['200']);
      const types = Object.keys(ok.content as object);
      expect(types.includes('text/csv'), `${r.path} csv`).toBe(r.csv);
      expect(Object.keys(ok.headers as object)).toEqual(expect.arrayContaining(['Link', 'RateLimit', 'RateLimit-Policy', 'Cache-Control']));
      if (r.method === 'get') expect(Object.keys(ok.headers as object)).toEqual(expect.arrayContaining(['ETag', 'Last-Modified']));
      for (const c of codes.filter((c) => Number(c) >= 400)) {
        const res = deref(responses[c]);
        expect((res.content as Record<string, JsonSchema>)['application/problem+json']!.schema).toEqual({ $ref: '#/components/schemas/Problem' });
      }
    }
    const tooMany = deref(doc.components.responses!.TooManyRequests);
    expect(Object.keys(tooMany.headers as object)).toContain('Retry-After');
  });

  it('documents the non-REST endpoints: health, the contract, discovery files, llms.txt, feeds and MCP', () => {
    for (const p of [
      '/healthz',
      '/openapi.json',
      '/.well-known/api-catalog',
      '/.well-known/mcp/server-card',
      '/.well-known/mcp/server-card.json',
      '/.well-known/mcp.json',
      '/.well-known/security.txt',
      '/llms.txt',
      '/feeds/briefings-{lang}.atom',
      '/feeds/events.atom',
    ]) {
      expect(op(p, 'get'), p).toBeTruthy();
    }
    expect(op('/.well-known/api-catalog', 'head')).toBeTruthy();
    const mcp = op('/mcp', 'post')!;
    for (const t of TOOLS) expect(String(mcp.description)).toContain(t.name);
    expect(op('/mcp', 'get')).toBeTruthy();
  });
});
