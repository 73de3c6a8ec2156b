import { freshnessAt } from '../contract/freshness.ts';
import type { BuildManifest } from '../contract/manifest.ts';

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
] as const;

/**
 * A load failure as the public may read it: its first line, absolute paths cut to the file name,
 * no SQL (DuckDB quotes the statement after `LINE n:`), at most 300 characters.
 */
export function publicReason(reason: string | null): string | null {
  if (reason === null) return null;
  let text = reason.split('\n')[0]!.replace(/\s*LINE \d+:.*$/s, '');
  text = text.replace(/(?:[A-Za-z]:)?(?:[\\/][^\s'"`\\/:;,()]+){2,}[\\/]?/g, (path) => path.split(/[\\/]/).filter(Boolean).at(-1) ?? '…');
  text = text.replace(/(?:\bin query:|\bSELECT\b.*\bFROM\b|\bCREATE (?:OR REPLACE )?TABLE\b|\bCOPY\b.*\bTO\b|\bINSERT INTO\b|\bUPDATE \w+ SET\b|\bDELETE FROM\b).*$/is, '(query omitted)');
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

export interface HealthSource {
  id: string;
  /** Load status of the build: fresh, unchanged, stale (last good snapshot served), unavailable. */
  status: BuildManifest['sources'][number]['status'];
  /** Age of the newest observation, by the rule of docs/freshness.md, on the day of the request. */
  freshness: BuildManifest['sources'][number]['freshness'];
  cadence: BuildManifest['sources'][number]['cadence'];
  data_as_of: string | null;
  expected_next: string | null;
  overdue_days: number;
  retrieved_at: string | null;
  stale_since: string | null;
  stale_reason: string | null;
  headline: boolean;
}

export interface Health {
  status: 'ok' | 'degraded';
  /** Why the service is degraded, one line per source (empty when ok). */
  degraded_by: { id: string; reason: string }[];
  build: string;
  generated_at: string;
  age_seconds: number;
  checked_on: string;
  sources: HealthSource[];
  omitted: BuildManifest['omitted'];
}

/**
 * /healthz for one build at `now`: per source both the load status and the freshness, the
 * freshness re-read on today's date from the build's `expected_next` (a build served for days
 * does not stay `current`). Degraded when a source failed to load, or when a headline source
 * is stale. Always answered with 200, so load balancers keep an instance that serves old data.
 */
export function healthOf(manifest: BuildManifest, now: Date, generatedAt: Date): Health {
  const today = now.toISOString().slice(0, 10);
  const headline = new Set<string>(HEADLINE_SOURCES);
  const sources: HealthSource[] = manifest.sources.map((s) => {
    const f = freshnessAt(s, today);
    return {
      id: s.id, status: s.status, freshness: f.freshness, cadence: s.cadence, data_as_of: s.data_as_of, expected_next: s.expected_next, overdue_days: f.overdue_days,
      retrieved_at: s.retrieved_at, stale_since: s.stale_since, stale_reason: publicReason(s.stale_reason), headline: headline.has(s.id),
    };
  });
  const degraded: { id: string; reason: string }[] = [];
  for (const s of sources) {
    if (s.status === 'stale' || s.status === 'unavailable') {
      degraded.push({ id: s.id, reason: s.status === 'stale' ? `the latest load failed; the last good snapshot (retrieved ${s.retrieved_at}) is served` : 'the source failed to load and has no snapshot; its outputs are left out' });
    }
    if (s.headline && s.freshness === 'stale') {
      degraded.push({ id: s.id, reason: `headline data are stale: they end ${s.data_as_of}, the next observation was due by ${s.expected_next} (${s.overdue_days} days overdue)` });
    }
  }
  return {
    status: degraded.length ? 'degraded' : 'ok',
    degraded_by: degraded,
    build: manifest.build,
    generated_at: manifest.generated_at,
    age_seconds: Math.round((now.getTime() - generatedAt.getTime()) / 1000),
    checked_on: today,
    sources,
    omitted: manifest.omitted.map((o) => ({ output: o.output, reason: publicReason(o.reason) ?? '' })),
  };
}
