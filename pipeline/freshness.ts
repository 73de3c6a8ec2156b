/**
 * Freshness: how old a source's newest observation is, against its publisher's cadence and lag.
 * The cadences live in data/cadence.yaml; the rule is published in docs/freshness.md and lives in
 * contract/freshness.ts (pure, no clock inside, shared with the API and the site), re-exported here.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { Cadence as CadenceEnum, DateString } from '../contract/common.ts';
import { SOURCES } from './sources/registry.ts';
import { type SourceCadence, freshnessOf } from '../contract/freshness.ts';

export {
  type Cadence,
  type Freshness,
  type SourceCadence,
  GRACE_DAYS,
  ageText,
  daysBetween,
  deadlineStatus,
  expectedNext,
  freshnessAt,
  freshnessOf,
  periodEnd,
} from '../contract/freshness.ts';

const Fields = {
  cadence: CadenceEnum,
  lag_days: z.number().int().nonnegative(),
  status: z.enum(['active', 'historical', 'discontinued']),
  next_release: DateString.optional(),
  release_utc: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'release_utc is a time of day HH:MM (UTC)')
    .optional(),
  note: z.string().min(1),
};
const CadenceEntry = z.strictObject({
  ...Fields,
  series: z.record(z.string(), z.strictObject(Fields).partial()).optional(),
});
const CadenceFile = z.record(z.string(), CadenceEntry);

/** The source ids that must have a cadence: every adapter in the registry, and the editorial source (build.ts EDITORIAL_SOURCE). */
export const CADENCE_SOURCE_IDS: readonly string[] = [...SOURCES.map((s) => s.id), 'chokepoint-editorial'];

/**
 * Read and validate data/cadence.yaml. Fails with every problem listed (file, path, message)
 * when an entry is malformed, when a source in `sourceIds` has no entry, or when an entry
 * names no known source (a typo would otherwise leave its source without a cadence).
 */
export async function loadCadences(dataDir: string, sourceIds: readonly string[] = CADENCE_SOURCE_IDS): Promise<Record<string, SourceCadence>> {
  const file = join(dataDir, 'cadence.yaml');
  let raw: unknown;
  try {
    raw = parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new Error(`invalid cadence file ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const parsed = CadenceFile.safeParse(raw ?? {});
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${file} [${i.path.join('.')}]: ${i.message}`);
    throw new Error(`invalid cadence file:\n${lines.join('\n')}`);
  }
  const problems: string[] = [];
  for (const id of sourceIds) if (!parsed.data[id]) problems.push(`  ${file}: no entry for source '${id}'`);
  for (const id of Object.keys(parsed.data)) if (!sourceIds.includes(id)) problems.push(`  ${file} [${id}]: not a source id (known: ${sourceIds.join(', ')})`);
  if (problems.length > 0) throw new Error(`invalid cadence file:\n${problems.join('\n')}`);
  return parsed.data;
}

/** The cadence of one source, with the overrides of `series` merged in when it has any. */
export function cadenceFor(all: Record<string, SourceCadence>, sourceId: string, series?: string): SourceCadence {
  const base = all[sourceId];
  if (!base) throw new Error(`no cadence for source '${sourceId}' in data/cadence.yaml`);
  const { series: overrides, ...rest } = base;
  const over = series !== undefined ? overrides?.[series] : undefined;
  return over ? { ...rest, ...over } : rest;
}

/** The build clock as a calendar date (UTC), the `today` of freshnessOf. */
export const isoDay = (d: Date): string => d.toISOString().slice(0, 10);

/**
 * The cadence table of docs/freshness.md, from data/cadence.yaml (a test keeps the two equal):
 * one row per source, then one per series override.
 */
export function cadenceTable(all: Record<string, SourceCadence>): string {
  const cell = (s: string) => s.replaceAll('|', '\\|');
  const rows = ['| Source | Cadence | Usual lag | Status | Next release | Based on |', '|---|---|---|---|---|---|'];
  for (const [id, c] of Object.entries(all)) {
    const row = (name: string, x: Omit<SourceCadence, 'series'>) =>
      rows.push(`| ${name} | ${x.cadence} | ${x.lag_days} day${x.lag_days === 1 ? '' : 's'} | ${x.status} | ${x.next_release ?? '—'} | ${cell(x.note)} |`);
    row(`\`${id}\``, c);
    for (const series of Object.keys(c.series ?? {})) row(`\`${id}\` series \`${series}\``, cadenceFor(all, id, series));
  }
  return rows.join('\n');
}

/**
 * freshnessOf for the build: a `dataAsOf` that is no calendar date (a broken load) gives no
 * expected date instead of throwing, so that the build reaches validation, which rejects the
 * date and names the file and the field.
 */
export function buildFreshness(c: SourceCadence, dataAsOf: string | null, today: string): ReturnType<typeof freshnessOf> {
  try {
    return freshnessOf(c, dataAsOf, today);
  } catch {
    return { freshness: 'current', expected_next: null, overdue_days: 0 };
  }
}
