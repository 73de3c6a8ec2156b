import { z } from 'zod';
import { Cadence, DateString, DateTimeString, Freshness } from './common.ts';

/** What live fetching did with a source in a build (DATA_SOURCE=live or --download; docs/freshness.md#live-fetching). */
export const FetchOutcome = z
  .enum(['fetched', 'unchanged', 'skipped-not-due', 'failed'])
  .describe(
    "fetched: the publisher sent new data and it loaded; unchanged: asked, and the publisher answered 304 or the same bytes; skipped-not-due: not asked, no new release can exist yet on the publisher's cadence; failed: the fetch or the load failed (`reason`), the last good snapshot is served",
  );
export type FetchOutcome = z.infer<typeof FetchOutcome>;

export const SourceFetch = z
  .strictObject({
    outcome: FetchOutcome,
    reason: z.string().nullable().describe('Why the fetch failed (null unless failed)'),
    last_attempt: DateTimeString.nullable().describe('When the publisher was last asked (a skipped source keeps the time of the last time it was)'),
    last_success: DateTimeString.nullable().describe('When the publisher last answered with data that loaded (new or unchanged)'),
    next_due: DateTimeString.nullable().describe('When the source is next asked (null: only by a forced refresh; its cadence says it will not update)'),
    requests: z.number().int().nonnegative().describe('Requests sent in this build, retries included'),
    not_modified: z.number().int().nonnegative().describe('Of those, answered 304 Not Modified'),
    retries: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative().describe('Bytes received in this build'),
  })
  .describe('Live fetching of the source; absent when the build read the embedded mirror');
export type SourceFetch = z.infer<typeof SourceFetch>;

export const SourceStatus = z.strictObject({
  id: z.string(),
  publisher: z.string(),
  dataset: z.string(),
  url: z.string(),
  license: z.string(),
  redistribution: z.enum(['open', 'derived-only']),
  status: z
    .enum(['fresh', 'unchanged', 'stale', 'unavailable'])
    .describe(
      'Load status of this build (did the files load?), not the age of the data (see `freshness`). fresh: loaded a new version; unchanged: same sha256 as the last good load; stale: the latest load failed and the last good snapshot is served; unavailable: failed with no snapshot',
    ),
  sha256: z.string().nullable(),
  retrieved_at: DateTimeString.nullable(),
  data_as_of: DateString.nullable().describe('Newest observation in the source'),
  cadence: Cadence.describe('How often the publisher releases a new period (data/cadence.yaml)'),
  freshness: Freshness,
  expected_next: DateString.nullable().describe(
    "When the observation after `data_as_of` is due: the end of the next period plus the publisher's usual lag (null for historical, discontinued and irregular sources)",
  ),
  overdue_days: z.number().int().nonnegative().describe('Days past `expected_next` on the build date (0 when not overdue)'),
  stale_reason: z.string().nullable(),
  stale_since: DateTimeString.nullable(),
  files: z.array(z.strictObject({ path: z.string(), sha256: z.string(), bytes: z.number().int() })),
  warnings: z
    .array(z.string())
    .optional()
    .describe(
      "Values the served load was accepted with but flagged: a change more than JUMP_DEVIATIONS robust deviations from the series' usual change (contract/bounds.ts); absent when none",
    ),
  fetch: SourceFetch.optional(),
});
export type SourceStatus = z.infer<typeof SourceStatus>;

/**
 * Content codings a published file may also be stored in (RFC 9110 §8.4.1), in the order the API
 * prefers them, each with the suffix its bytes carry on disk: `<path>.br`, `<path>.gz`.
 */
export const CONTENT_CODINGS = ['br', 'gzip'] as const;
export type ContentCoding = (typeof CONTENT_CODINGS)[number];
export const CODING_SUFFIX: Record<ContentCoding, string> = { br: '.br', gzip: '.gz' };

/** Files smaller than this are stored only as they are: compression would save less than a round of headers. */
export const COMPRESS_MIN_BYTES = 1024;
/**
 * A build folder modified this recently is in use and never pruned: it was just published, or a
 * server serving it marked it (touched its folder), which a server does every BUILD_MARK_MS.
 */
export const BUILD_IN_USE_MS = 2 * 60_000;
export const BUILD_MARK_MS = 30_000;
/**
 * Folders of a build the API never sends as they are (it reads them into indexes and answers
 * from those): no compressed copies, which would only cost memory (1.7 MB) and build time.
 */
export const UNSERVED_PREFIXES = ['data/', 'search/'] as const;

/** Whether a file of this media type is text worth compressing (JSON, CSV, HTML, Markdown, XML, JS, CSS, SVG, linksets). */
export function compressible(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return (
    type.startsWith('text/') ||
    type === 'application/json' ||
    type === 'application/xml' ||
    type === 'application/javascript' ||
    type === 'image/svg+xml' ||
    /^application\/[\w.-]+\+(json|xml)$/.test(type)
  );
}

const EncodedFile = z.strictObject({ sha256: z.string(), bytes: z.number().int() });

export const ManifestFile = z.strictObject({
  sha256: z.string(),
  bytes: z.number().int(),
  content_type: z.string(),
  encodings: z
    .strictObject({ br: EncodedFile.optional(), gzip: EncodedFile.optional() })
    .optional()
    .describe(
      'The same bytes compressed, stored beside the file (`<path>.br`, `<path>.gz`; CODING_SUFFIX): text files of at least COMPRESS_MIN_BYTES, each coding kept when smaller',
    ),
});
export type ManifestFile = z.infer<typeof ManifestFile>;

export const BuildManifest = z.strictObject({
  build: z.string(),
  generated_at: DateTimeString,
  methodology_version: z.string(),
  base_url: z.string(),
  duration_ms: z.number().int(),
  sources: z.array(SourceStatus),
  omitted: z.array(z.strictObject({ output: z.string(), reason: z.string() })).describe('Outputs left out, and why'),
  stages: z.record(z.string(), z.string()).optional().describe('Input key of each cached stage (search index, site): equal keys reuse the outputs'),
  files: z.record(z.string(), ManifestFile),
});
export type BuildManifest = z.infer<typeof BuildManifest>;
