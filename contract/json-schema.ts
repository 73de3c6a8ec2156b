import { z } from 'zod';

/** A JSON Schema (draft 2020-12) as a plain object. */
export type JsonSchema = Record<string, unknown>;

/**
 * JSON Schema 2020-12 of a zod schema, without the `$schema` keyword (the schemas are embedded in
 * OpenAPI 3.1 documents and MCP tool lists, whose dialect is already 2020-12).
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'output'): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/**
 * Schema of one query or path parameter. The input side is the base (what a client may send:
 * text, matched case-insensitively), enriched from the output side with what the input side
 * cannot show: the accepted values of an enum behind a lower-casing transform, the integer range
 * and default of a numeric parameter, and defaults applied after parsing.
 */
export function parameterSchema(field: z.ZodType): JsonSchema {
  const input = jsonSchemaOf(field, 'input');
  const output = jsonSchemaOf(field, 'output');
  let s: JsonSchema = { ...input };
  if ((output.type === 'integer' || output.type === 'number') && input.type === 'string') {
    s = { ...output };
  } else if (Array.isArray(output.enum) && !('enum' in s)) {
    s.enum = output.enum;
  }
  if (output.default !== undefined && s.default === undefined) s.default = output.default;
  delete s.description;
  delete s.examples;
  return s;
}

/** The object shape behind a request schema (refinements keep the ZodObject), or an empty one. */
export function shapeOf(schema: z.ZodType | undefined): Record<string, z.ZodType> {
  if (schema instanceof z.ZodObject) return schema.shape as Record<string, z.ZodType>;
  return {};
}

/** Description and first example of a schema, from its metadata (looking through optional/default wrappers). */
export function docOf(schema: z.ZodType): { description?: string; example?: unknown } {
  let s: z.ZodType | undefined = schema;
  let description: string | undefined;
  let example: unknown;
  for (let depth = 0; s && depth < 8; depth++) {
    const meta = s.meta() as { description?: string; examples?: unknown[] } | undefined;
    description ??= meta?.description ?? s.description;
    if (example === undefined && Array.isArray(meta?.examples) && meta.examples.length) example = meta.examples[0];
    const def: { innerType?: z.ZodType; in?: z.ZodType } = (s as unknown as { _zod: { def: { innerType?: z.ZodType; in?: z.ZodType } } })._zod.def;
    s = def.innerType ?? def.in;
  }
  return { ...(description !== undefined ? { description } : {}), ...(example !== undefined ? { example } : {}) };
}

/** `anyOf: [{type: T}, {type: 'null'}]` as `type: [T, 'null']`, the form a nullable scalar takes elsewhere. */
function nullable(s: JsonSchema): JsonSchema {
  const any = s.anyOf;
  if (!Array.isArray(any) || any.length !== 2) return s;
  const [a, b] = any as JsonSchema[];
  const plain = (x: JsonSchema | undefined) => x && Object.keys(x).every((k) => k === 'type' || k === 'description') && typeof x.type === 'string';
  if (!plain(a) || b?.type !== 'null' || Object.keys(b).length !== 1) return s;
  const { anyOf: _drop, ...rest } = s;
  return { ...rest, type: [a!.type, 'null'], ...(a!.description && rest.description === undefined ? { description: a!.description } : {}) };
}

/** Keywords an outline keeps: the shape (types, properties, items, required) and the nullable/union structure. */
const OUTLINE_KEYS = new Set(['type', 'properties', 'items', 'required', 'anyOf', 'oneOf', 'allOf', 'prefixItems', '$ref', '$defs', 'const']);

/**
 * The outline of a JSON Schema: the shape of the data (types, properties, items, required, unions)
 * with the descriptions kept on the top-level properties only, and without the enums, patterns,
 * ranges and nested descriptions that the full schema (OpenAPI, the reference resource) carries.
 * What an agent needs to read a result, at a fraction of the size: MCP tools/list publishes
 * output schemas this way.
 */
export function outlineSchema(schema: JsonSchema): JsonSchema {
  const walk = (s: unknown, depth: number): unknown => {
    if (Array.isArray(s)) return s.map((x) => walk(x, depth));
    if (!s || typeof s !== 'object') return s;
    const out: JsonSchema = {};
    for (const [k, v] of Object.entries(s as JsonSchema)) {
      if (k === 'properties' || k === '$defs') {
        out[k] = Object.fromEntries(Object.entries(v as JsonSchema).map(([name, p]) => [name, walk(p, depth + 1)]));
      } else if (k === 'description' && depth === 0) {
        out[k] = v;
      } else if (OUTLINE_KEYS.has(k)) {
        // Which fields are always there matters at the top; deeper, the types say enough.
        if (k === 'required' && depth > 1) continue;
        out[k] = k === 'required' || k === 'type' || k === 'const' || k === '$ref' ? v : walk(v, depth);
      }
    }
    // An enum without a type: the type of its values.
    const e = (s as JsonSchema).enum;
    if (out.type === undefined && Array.isArray(e) && e.length)
      out.type = [...new Set(e.map((x) => (x === null ? 'null' : typeof x)))].length === 1 ? (e[0] === null ? 'null' : typeof e[0]) : undefined;
    if (out.type === undefined) delete out.type;
    return nullable(out);
  };
  return walk(schema, 0) as JsonSchema;
}

/** An input schema without the regular expression of each `format: date` string (the format says it, in 300 fewer characters). */
export function withoutDatePatterns(schema: JsonSchema): JsonSchema {
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  if (!props) return schema;
  const lean = Object.fromEntries(
    Object.entries(props).map(([k, p]) => {
      if (p.format !== 'date') return [k, p];
      const { pattern: _drop, ...rest } = p;
      return [k, rest];
    }),
  );
  return { ...schema, properties: lean };
}
