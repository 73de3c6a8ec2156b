import type { z } from 'zod';
import { ApiError } from './problem.ts';

/** Accepted values of an enum-like field, for the error message ('one of: a, b, c'). */
function acceptedForm(schema: z.ZodType, key: string): string | undefined {
  const field = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape?.[key];
  return field?.description;
}

/**
 * Parse request parameters with their contract schema. Every problem is reported at once, each
 * naming the parameter and the accepted form; unknown parameters are refused (a typo must not
 * silently return unfiltered data), with the accepted names listed.
 */
export function parseParams<S extends z.ZodType>(schema: S, input: unknown, what = 'parameter'): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const base = (schema as unknown as { def?: { in?: z.ZodType } }).def?.in ?? schema;
  const known = Object.keys((base as unknown as { shape?: object }).shape ?? {});
  const errors: { param: string; message: string }[] = [];
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) errors.push({ param: k, message: `unknown ${what}; accepted: ${known.join(', ') || 'none'}` });
      continue;
    }
    const param = String(issue.path[0] ?? '(body)');
    const form = acceptedForm(base, param);
    // zod 4 leaves `input` out of its issues: whether the value was missing is read from the input.
    const given = typeof input === 'object' && input !== null && Object.hasOwn(input, param);
    const message = issue.code === 'invalid_type' && !given ? 'required' : issue.message;
    errors.push({ param, message: form ? `${message} (${form})` : message });
  }
  const detail = errors.map((e) => `${e.param}: ${e.message}`).join('; ');
  throw new ApiError(400, detail, { errors });
}
