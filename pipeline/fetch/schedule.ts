import { type Cadence, type SourceCadence, expectedNext } from '../../contract/freshness.ts';

/**
 * When a source is next asked of its publisher (docs/freshness.md#live-fetching): not before a
 * new release can exist. The freshness rule already knows when the observation after the newest
 * one is due (`expectedNext`: the end of the next period plus the publisher's usual lag); the
 * source is first asked a window before that, at the publisher's release time of day
 * (`release_utc` in data/cadence.yaml), then polled while that observation is still missing.
 * After a failure it is asked again sooner, backing off with each failure in a row.
 */

/** How early before `expectedNext` a release can come (lags are usual, not exact). */
const EARLY_DAYS: Record<Cadence, number> = { daily: 0, weekly: 2, monthly: 4, annual: 30, irregular: 0 };
/** How often a source whose next observation is due but missing is asked again. */
const POLL_MS: Record<Cadence, number> = { daily: 3_600_000, weekly: 6 * 3_600_000, monthly: 12 * 3_600_000, annual: 86_400_000, irregular: 7 * 86_400_000 };
/** After a failure: 15 min, doubling with each failure in a row, at most 6 h. */
const FAILURE_BASE_MS = 15 * 60_000;
const FAILURE_MAX_MS = 6 * 3_600_000;

const DAY_MS = 86_400_000;

/** `HH:MM` of the release time (UTC) as ms into the day; midnight when the cadence names none. */
function releaseOffset(c: SourceCadence): number {
  const m = /^(\d{2}):(\d{2})$/.exec(c.release_utc ?? '00:00');
  return m ? (Number(m[1]) * 60 + Number(m[2])) * 60_000 : 0;
}

/**
 * When the source is next due, as an ISO timestamp; null when it never is (a historical or
 * discontinued source: only a forced refresh, or a missing snapshot, asks again).
 */
export function nextDue(c: SourceCadence, dataAsOf: string | null, failed: boolean, failures: number, now: Date): string | null {
  const t = now.getTime();
  if (failed) return new Date(t + Math.min(FAILURE_MAX_MS, FAILURE_BASE_MS * 2 ** Math.max(0, failures - 1))).toISOString();
  if (c.status !== 'active') return null;
  if (c.cadence === 'irregular' || dataAsOf === null) return new Date(t + POLL_MS[c.cadence]).toISOString();
  const expected = Date.parse(`${expectedNext(c, dataAsOf)}T00:00:00Z`);
  const opens = expected - EARLY_DAYS[c.cadence] * DAY_MS + releaseOffset(c);
  return new Date(opens > t ? opens : t + POLL_MS[c.cadence]).toISOString();
}

/** Whether a source is asked in this build. */
export function isDue(x: { force: boolean; hasSnapshot: boolean; nextDue: string | null | undefined; now: Date }): boolean {
  if (x.force || !x.hasSnapshot || x.nextDue === undefined) return true;
  return x.nextDue !== null && Date.parse(x.nextDue) <= x.now.getTime();
}
