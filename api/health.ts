import { freshnessAt } from '../contract/freshness.ts';
import { type DiskUse, type FailedBuilds, HEADLINE_SOURCES, type Health, type HealthSource } from '../contract/health.ts';
import { DEGRADED_AFTER_FAILED_BUILDS } from '../contract/limits.ts';
import type { BuildManifest } from '../contract/manifest.ts';

/** DuckDB error classes, said in words (the class name alone means nothing to a reader of /healthz). */
const ERROR_CLASSES: [RegExp, string][] = [
  [/^IO Error:\s*/i, 'a source file could not be read'],
  [/^Invalid Input Error:\s*/i, 'a source file is malformed'],
  [/^Conversion Error:\s*/i, 'a value in a source file does not have the expected type'],
  [/^Binder Error:\s*/i, 'a source file does not have the expected columns'],
  [/^Parser Error:\s*/i, 'the loading query was refused'],
  [/^Catalog Error:\s*/i, 'an expected table is missing'],
  [/^Constraint Error:\s*/i, 'a source file breaks a key constraint'],
  [/^Out of Memory Error:\s*/i, 'the load ran out of memory'],
  [/^(?:\w+ )?Error:\s*/, 'the source failed to load'],
];
/** Node system error codes, said in words. */
const SYSTEM_ERRORS: Record<string, string> = {
  ENOENT: 'a source file is missing',
  EACCES: 'a source file is not readable',
  EPERM: 'a source file is not readable',
  EISDIR: 'a directory was found where a source file was expected',
  ENOSPC: 'no space was left on the build disk',
  EMFILE: 'too many files were open',
  ETIMEDOUT: 'the source did not answer in time',
  ECONNREFUSED: 'the source refused the connection',
  ECONNRESET: 'the connection to the source was reset',
  ENOTFOUND: 'the source host was not found',
  EAI_AGAIN: 'the source host could not be resolved',
};
/** Anything that looks like a path: absolute, relative with a separator, file: URLs; quoted ones may hold spaces. */
const QUOTED_PATH = /(['"`])((?:file:\/\/)?[^'"`]*[\\/][^'"`]*)\1/g;
const BARE_PATH = /(?:file:\/\/)?(?:[A-Za-z]:)?(?:\.{0,2}[\\/])?(?:[^\s'"`\\/:;,()]+[\\/])+[^\s'"`\\/:;,()]*/g;
const SQL =
  /(?:\bin query:|\bSELECT\b|\bWITH\s+\w+\s+AS\s*\(|\bCREATE\s+(?:OR\s+REPLACE\s+)?(?:TEMP(?:ORARY)?\s+)?(?:TABLE|VIEW|MACRO)\b|\bCOPY\b.*\bTO\b|\bINSERT\s+INTO\b|\bUPDATE\s+\w+\s+SET\b|\bDELETE\s+FROM\b|\bread_(?:csv|json|parquet)\w*\s*\(|\bLINE \d+:).*$/is;
const basename = (path: string) =>
  path
    .replace(/^file:\/\//, '')
    .split(/[\\/]/)
    .filter(Boolean)
    .at(-1) ?? 'a file';

/**
 * A load failure as the public may read it: what went wrong in words, then the first line of the
 * message with every path cut to its file name and any query left out, at most 300 characters.
 * Never an absolute server path, never SQL.
 */
export function publicReason(reason: string | null): string | null {
  if (reason === null) return null;
  let text = reason.split('\n')[0]!.trim();
  let words: string | undefined;
  const sys = /^(E[A-Z_]+):\s*/.exec(text);
  if (sys && SYSTEM_ERRORS[sys[1]!]) {
    words = SYSTEM_ERRORS[sys[1]!];
    const path = /(['"`])([^'"`]*[\\/][^'"`]*)\1/.exec(text);
    text = path ? basename(path[2]!) : '';
  } else {
    for (const [re, w] of ERROR_CLASSES) {
      if (!re.test(text)) continue;
      words = w;
      text = text.replace(re, '');
      break;
    }
  }
  text = text.replace(SQL, '(query omitted)');
  text = text.replace(QUOTED_PATH, (_m, q: string, path: string) => `${q}${basename(path)}${q}`);
  text = text.replace(BARE_PATH, (path) => basename(path));
  text = text.replace(/\s+/g, ' ').trim();
  const out = words ? (text ? `${words}: ${text}` : words) : text || 'the source failed to load';
  return out.length > 300 ? `${out.slice(0, 299)}…` : out;
}

/**
 * /healthz for one build at `now`: per source both the load status and the freshness, the
 * freshness re-read on today's date from the build's `expected_next` (a build served for days
 * does not stay `current`). Degraded when a source failed to load, when a headline source is
 * stale, or when the last DEGRADED_AFTER_FAILED_BUILDS builds failed (`failed`, as the pipeline
 * recorded them in FAILED_BUILDS_FILE). Always answered with 200, so load balancers keep an
 * instance that serves old data.
 */
export function healthOf(manifest: BuildManifest, now: Date, generatedAt: Date, disk: DiskUse | null = null, failed: FailedBuilds | null = null): Health {
  const today = now.toISOString().slice(0, 10);
  const headline = new Set<string>(HEADLINE_SOURCES);
  const sources: HealthSource[] = manifest.sources.map((s) => {
    const f = freshnessAt(s, today);
    return {
      id: s.id,
      status: s.status,
      freshness: f.freshness,
      cadence: s.cadence,
      data_as_of: s.data_as_of,
      expected_next: s.expected_next,
      overdue_days: f.overdue_days,
      retrieved_at: s.retrieved_at,
      stale_since: s.stale_since,
      stale_reason: publicReason(s.stale_reason),
      ...(s.warnings?.length ? { warnings: s.warnings } : {}),
      headline: headline.has(s.id),
      ...(s.fetch ? { fetch: { ...s.fetch, reason: publicReason(s.fetch.reason) } } : {}),
    };
  });
  const degraded: { id: string; reason: string }[] = [];
  for (const s of sources) {
    if (s.status === 'stale' || s.status === 'unavailable') {
      degraded.push({
        id: s.id,
        reason:
          s.status === 'stale'
            ? `the latest load failed; the last good snapshot (retrieved ${s.retrieved_at}) is served`
            : 'the source failed to load and has no snapshot; its outputs are left out',
      });
    }
    if (s.headline && s.freshness === 'stale') {
      degraded.push({
        id: s.id,
        reason: `headline data are stale: they end ${s.data_as_of}, the next observation was due by ${s.expected_next} (${s.overdue_days} days overdue)`,
      });
    }
  }
  // Builds that keep failing leave the served build behind without any source saying so.
  const failedBuilds = failed ? { ...failed, last_reason: publicReason(failed.last_reason) ?? '' } : null;
  if (failedBuilds && failedBuilds.count >= DEGRADED_AFTER_FAILED_BUILDS) {
    degraded.push({
      id: 'builds',
      reason: `the last ${failedBuilds.count} builds failed (since ${failedBuilds.since}), the latest at ${failedBuilds.last_at}: ${failedBuilds.last_reason}; the build of ${manifest.generated_at} is served`,
    });
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
    disk,
    failed_builds: failedBuilds,
  };
}
