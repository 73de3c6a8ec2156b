import { z } from 'zod';
import { DateString, DateTimeString } from './common.ts';

export const SourceStatus = z.strictObject({
  id: z.string(),
  publisher: z.string(),
  dataset: z.string(),
  url: z.string(),
  license: z.string(),
  redistribution: z.enum(['open', 'derived-only']),
  status: z.enum(['fresh', 'unchanged', 'stale', 'unavailable']).describe(
    'fresh: loaded a new version; unchanged: same sha256 as the last good load; stale: the load failed and the last good snapshot was used; unavailable: failed with no snapshot',
  ),
  sha256: z.string().nullable(),
  retrieved_at: DateTimeString.nullable(),
  data_as_of: DateString.nullable().describe('Newest observation in the source'),
  stale_reason: z.string().nullable(),
  stale_since: DateTimeString.nullable(),
  files: z.array(z.strictObject({ path: z.string(), sha256: z.string(), bytes: z.number().int() })),
});
export type SourceStatus = z.infer<typeof SourceStatus>;

export const BuildManifest = z.strictObject({
  build: z.string(),
  generated_at: DateTimeString,
  methodology_version: z.string(),
  base_url: z.string(),
  duration_ms: z.number().int(),
  sources: z.array(SourceStatus),
  omitted: z.array(z.strictObject({ output: z.string(), reason: z.string() })).describe('Outputs left out, and why'),
  stages: z.record(z.string(), z.string()).optional().describe('Input key of each cached stage (search index, site): equal keys reuse the outputs'),
  files: z.record(z.string(), z.strictObject({ sha256: z.string(), bytes: z.number().int(), content_type: z.string() })),
});
export type BuildManifest = z.infer<typeof BuildManifest>;
