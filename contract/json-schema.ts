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
