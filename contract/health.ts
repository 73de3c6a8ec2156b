import { z } from 'zod';
import { Cadence, DateString, DateTimeString, Freshness } from './common.ts';
import { DEGRADED_AFTER_FAILED_BUILDS } from './limits.ts';
import { SourceFetch, SourceStatus } from './manifest.ts';
import type { SourceId } from './sources.ts';

/**
 * The sources the headline figures depend on: the commodity list prices and the reserves behind
 * the stress index. One of them stale (by freshness) makes the service `degraded`.
 */
export const HEADLINE_SOURCES = [
  'eia-oil-prices',
  'eia-henry-hub',
  'worldbank-pink-sheet',
  'imf-commodity-prices',
  'gie-agsi-gas-storage',
  'eia-weekly-petroleum',
] as const satisfies readonly SourceId[];

export const HealthSource = z.strictObject({
  id: z.string(),
  status: SourceStatus.shape.status,
  freshness: Freshness.describe("Age of the newest observation against the publisher's cadence and lag, on `checked_on` (see /en/docs/freshness/)"),
  cadence: Cadence,
  data_as_of: DateString.nullable(),
  expected_next: DateString.nullable().describe('When the next observation is due (null for historical, discontinued and irregular sources)'),
  overdue_days: z.number().int().nonnegative(),
  retrieved_at: DateTimeString.nullable(),
  stale_since: DateTimeString.nullable(),
  stale_reason: z.string().nullable().describe('Why the latest load failed, in words, without server paths or queries'),
  warnings: SourceStatus.shape.warnings,
  headline: z.boolean().describe('A source the headline figures depend on: stale makes the service degraded'),
  fetch: SourceFetch.optional().describe(
    'Live fetching of the source in the served build: last attempt, its outcome, last success, next scheduled fetch (absent when the build read the embedded mirror)',
  ),
});
export type HealthSource = z.infer<typeof HealthSource>;

export const DiskUse = z
  .strictObject({
    dist_bytes: z
      .number()
      .int()
      .nonnegative()
      .describe('Bytes the dist folder takes on disk: its builds, source snapshots and vintages, a file hard-linked between builds counted once'),
    builds: z.number().int().nonnegative().describe('Build folders kept: the newest 3, and any older one a server still serves (docs/architecture.md, Disk)'),
    measured_at: DateTimeString,
  })
  .describe('Disk use of the dist folder, measured at most once a minute');
export type DiskUse = z.infer<typeof DiskUse>;

/** Where the pipeline keeps the builds that failed since the last one that published: `<DIST_DIR>/build-failures.json`. */
export const FAILED_BUILDS_FILE = 'build-failures.json';

/** Builds that failed in a row since the last one that published, as the pipeline records them (FAILED_BUILDS_FILE). */
export const FailedBuilds = z
  .strictObject({
    count: z.number().int().positive().describe('Builds failed in a row'),
    since: DateTimeString.describe('When the first of them failed'),
    last_at: DateTimeString.describe('When the latest failed'),
    last_reason: z.string().describe('Why the latest failed, in words, without server paths or queries'),
  })
  .describe(
    `Builds that failed in a row since the served one was published: from ${DEGRADED_AFTER_FAILED_BUILDS} on the service is degraded (null when the latest build published, or where the server reads no dist folder)`,
  );
export type FailedBuilds = z.infer<typeof FailedBuilds>;

const Degraded = z.strictObject({ id: z.string(), reason: z.string() });

/** GET /healthz while a build is served (200, also when degraded). */
export const Health = z
  .strictObject({
    status: z
      .enum(['ok', 'degraded'])
      .describe(
        'degraded: a source failed to load (its last good snapshot is served, or it is unavailable), ' +
          `or a source the headline figures depend on (${HEADLINE_SOURCES.join(', ')}) is stale, ` +
          `or the last ${DEGRADED_AFTER_FAILED_BUILDS} builds failed (\`failed_builds\`); \`degraded_by\` says which`,
      ),
    degraded_by: z.array(Degraded).describe('One entry per reason the service is degraded (empty when ok)'),
    build: z.string(),
    generated_at: DateTimeString,
    age_seconds: z.number().int(),
    checked_on: DateString.describe('The day freshness was judged on (the day of the request)'),
    sources: z.array(HealthSource),
    omitted: z.array(z.strictObject({ output: z.string(), reason: z.string() })),
    disk: DiskUse.nullable().describe('null where the server reads no dist folder (the edge Worker) or before its first measurement'),
    failed_builds: FailedBuilds.nullable(),
  })
  .describe(
    'Health of the service: per source the load status of the published build and the freshness of its newest observation (rule: /en/docs/freshness/). Answered with 200 when degraded, so load balancers keep an instance that serves old data.',
  );
export type Health = z.infer<typeof Health>;

/** GET /healthz before any build is published (503). */
export const HealthUnavailable = z.strictObject({ status: z.literal('unavailable'), detail: z.string() }).describe('No build published yet (503)');
export type HealthUnavailable = z.infer<typeof HealthUnavailable>;
