import { z } from 'zod';

/** Methodology version of the indicators; bumped whenever a formula or weight changes. */
export const METHODOLOGY_VERSION = '3.2.0';
export const LICENSE = 'CC-BY-4.0';
export const LICENSE_URL = 'https://creativecommons.org/licenses/by/4.0/';
/** The attribution a reuser must give, with the backlink. */
export const attributionText = (baseUrl: string) =>
  `Chokepoint (${baseUrl}/), licensed ${LICENSE}. Reuse requires attribution with a link back to ${baseUrl}/. Upstream sources keep their own terms (meta.sources).`;

/** A real calendar date (2026-02-30 and 2026-13-45 are refused): the one date schema of the project. */
export const DateString = z.iso.date({ message: 'not a calendar date: expected YYYY-MM-DD' }).describe('Calendar date, YYYY-MM-DD');
export const DateTimeString = z.iso.datetime({ offset: true }).describe('Timestamp, RFC 3339 (UTC)');
export const CommoditySlug = z
  .string()
  .regex(/^(energy|metals|agri)\.[a-z0-9]+$/)
  .describe('Commodity slug `<group>.<code>`, lower-case, e.g. `energy.gas`');
export const CommodityCode = z
  .string()
  .regex(/^[a-z0-9]+$/)
  .describe('Short commodity code, e.g. `gas`, `cobalt`');
export const CommodityGroup = z.enum(['energy', 'metals', 'agri']).describe('Commodity group');
export const Iso3 = z
  .string()
  .regex(/^[A-Z]{3}$/)
  .describe('ISO 3166-1 alpha-3 country code, upper-case');
export const Iso2 = z
  .string()
  .regex(/^[a-z]{2}$/)
  .describe('ISO 3166-1 alpha-2 country code, lower-case (`eu` for the EU aggregate)');
export { Lang, LANGS } from './languages.ts';

/** How old a source's newest observation is against its publisher's cadence (rule: docs/freshness.md). */
export const Freshness = z
  .enum(['current', 'late', 'stale', 'historical', 'discontinued'])
  .describe(
    "How old the newest observation is against the publisher's cadence and lag: current (the next observation is not due yet); late (past its expected date, within the grace period of its cadence); stale (past the grace period); historical (a fixed edition or extract that will not update); discontinued (the publisher stopped the series). Rule: docs/freshness.md",
  );
export type Freshness = z.infer<typeof Freshness>;

export const Cadence = z.enum(['daily', 'weekly', 'monthly', 'annual', 'irregular']).describe('How often the publisher releases a new period');
export type Cadence = z.infer<typeof Cadence>;

/** Provenance of one upstream source behind a payload. */
export const SourceRef = z
  .strictObject({
    id: z.string().describe('Source id in the build manifest'),
    publisher: z.string(),
    dataset: z.string(),
    url: z.url().describe("The publisher's page for the dataset"),
    license: z.string().describe("The publisher's terms for this source (not Chokepoint's licence)"),
    retrieved_at: DateTimeString.describe(
      'When the pipeline retrieved the version of the source this payload was made from. A newer version that leaves the payload as it was does not change it (the latest retrieval of every source is in /healthz)',
    ),
    data_as_of: DateString.nullable().describe(
      "Newest observation of this source behind the payload: the payload's own series where it ends earlier than the source (null when the source has no dated observation)",
    ),
    freshness: Freshness,
    expected_next: DateString.nullable().describe(
      "When the observation after `data_as_of` is due under the publisher's cadence and lag (null for historical, discontinued and irregular sources)",
    ),
    stale: z.boolean().describe('True when the latest load failed and the last good snapshot is served (the load status; how old the data is, is `freshness`)'),
  })
  .describe('An upstream source behind the payload');
export type SourceRef = z.infer<typeof SourceRef>;

export const Meta = z
  .strictObject({
    as_of: DateString.nullable().describe('Date of the newest observation behind the payload (null when it has none)'),
    generated_at: DateTimeString.describe(
      "When this payload's content last changed: the time of the build that first published it as it is. A rebuild that changes nothing in it keeps this, the bytes and the ETag; the build serving it and its time are in /healthz",
    ),
    build: z.string().describe('Id of the build that first published this content as it is (the build of `generated_at`), not necessarily the one serving it'),
    license: z.literal(LICENSE),
    license_url: z.url(),
    attribution: z.string().describe('Attribution text with the backlink, required on reuse'),
    sources: z.array(SourceRef),
    count: z.number().int().nonnegative().optional().describe('Number of items in `data` (lists only)'),
    methodology_version: z.string().optional(),
    notes: z.array(z.string()).optional().describe('Caveats that apply to the payload (e.g. a stale source)'),
  })
  .describe('Metadata carried by every data response');
export type Meta = z.infer<typeof Meta>;

/** `{ data, meta }`: the envelope of every data response. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.strictObject({ data, meta: Meta });
}

export const Point = z.strictObject({ date: DateString, value: z.number() });
export type Point = z.infer<typeof Point>;
