/**
 * The freshness rule (docs/freshness.md), pure and dependency-free so that the pipeline, the API
 * (/healthz, /v1/ask) and the site apply the same one. The clock is always an argument.
 */

export type Cadence = 'daily' | 'weekly' | 'monthly' | 'annual' | 'irregular';
export type Freshness = 'current' | 'late' | 'stale' | 'historical' | 'discontinued';

export interface SourceCadence {
  cadence: Cadence;
  lag_days: number;
  status: 'active' | 'historical' | 'discontinued';
  next_release?: string;
  /** HH:MM (UTC) at which the publisher releases, where known: live fetching asks from then on (pipeline/fetch/schedule.ts). */
  release_utc?: string;
  note: string;
  series?: Record<string, Partial<Omit<SourceCadence, 'series'>>>;
}

/** Days past the expected next observation that a series may run before it counts as stale. */
export const GRACE_DAYS: Record<Cadence, number> = { daily: 7, weekly: 14, monthly: 31, annual: 92, irregular: 0 };

const DAY_MS = 86_400_000;

/**
 * Days since 1970-01-01 of a YYYY-MM-DD calendar date, by arithmetic (Hinnant's days_from_civil):
 * the build asks this a few hundred thousand times, and a Date parse with a round-trip check
 * was a third of a rebuild's CPU.
 */
function dayNumber(date: string): number {
  const digit = (i: number) => {
    const c = date.charCodeAt(i) - 48;
    if (!(c >= 0 && c <= 9)) throw new Error(`not a YYYY-MM-DD date: '${date}'`);
    return c;
  };
  if (typeof date !== 'string' || date.length !== 10 || date[4] !== '-' || date[7] !== '-') throw new Error(`not a YYYY-MM-DD date: '${date}'`);
  const y = digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3);
  const m = digit(5) * 10 + digit(6);
  const d = digit(8) * 10 + digit(9);
  const monthDays = m === 2 ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
  if (m < 1 || m > 12 || d < 1 || d > monthDays) throw new Error(`not a calendar date: '${date}'`);
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

const toUtc = (date: string): Date => new Date(dayNumber(date) * DAY_MS);
const fmt = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (date: string, n: number) => fmt(new Date(toUtc(date).getTime() + n * DAY_MS));
/** Last day of the month `offset` months after the month of `date`. */
const monthEnd = (date: string, offset = 0) => {
  const d = toUtc(date);
  return fmt(new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + offset + 1, 0)));
};

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** End of the period an observation dated `date` stands for: the day itself, its month, or its year. */
export function periodEnd(date: string, cadence: Cadence): string {
  switch (cadence) {
    case 'monthly':
      return monthEnd(date);
    case 'annual':
      return `${toUtc(date).getUTCFullYear()}-12-31`;
    default:
      toUtc(date);
      return date;
  }
}

/** When the observation after `dataAsOf` is due: the end of the next period, plus the publisher's lag. */
export function expectedNext(c: SourceCadence, dataAsOf: string): string {
  const end = periodEnd(dataAsOf, c.cadence);
  let next: string;
  switch (c.cadence) {
    case 'daily':
      next = addDays(end, 1);
      break;
    case 'weekly':
      next = addDays(end, 7);
      break;
    case 'monthly':
      next = monthEnd(end, 1);
      break;
    case 'annual':
      next = `${toUtc(end).getUTCFullYear() + 1}-12-31`;
      break;
    default:
      next = end;
  }
  return addDays(next, c.lag_days);
}

/**
 * The freshness of a series whose newest observation is `dataAsOf`, on the day `today`
 * (both YYYY-MM-DD). See docs/freshness.md for the rule in words.
 */
export function freshnessOf(
  c: SourceCadence,
  dataAsOf: string | null,
  today: string,
): { freshness: Freshness; expected_next: string | null; overdue_days: number } {
  if (c.status === 'historical' || c.status === 'discontinued') return { freshness: c.status, expected_next: null, overdue_days: 0 };
  if (c.cadence === 'irregular' || dataAsOf === null) return { freshness: 'current', expected_next: null, overdue_days: 0 };
  const expected = expectedNext(c, dataAsOf);
  const overdue = Math.max(0, daysBetween(expected, today));
  const freshness: Freshness = overdue === 0 ? 'current' : overdue <= GRACE_DAYS[c.cadence] ? 'late' : 'stale';
  return { freshness, expected_next: expected, overdue_days: overdue };
}

/**
 * The freshness of a status computed at an earlier clock, re-read at `today`: the same rule,
 * from the `expected_next` it carries (the API uses it when a build is older than today).
 */
export function freshnessAt(
  s: { freshness: Freshness; cadence: Cadence; expected_next: string | null },
  today: string,
): { freshness: Freshness; overdue_days: number } {
  if (s.freshness === 'historical' || s.freshness === 'discontinued' || s.expected_next === null) return { freshness: s.freshness, overdue_days: 0 };
  const overdue = Math.max(0, daysBetween(s.expected_next, today));
  return { freshness: overdue === 0 ? 'current' : overdue <= GRACE_DAYS[s.cadence] ? 'late' : 'stale', overdue_days: overdue };
}

/** How long ago `date` was, in words a reader takes in at a glance: 'today', '5 days ago', '3 weeks ago', '9 months ago', '6 years ago'. */
export function ageText(date: string, today: string): string {
  const days = daysBetween(date, today);
  if (days <= 0) return 'today';
  if (days === 1) return 'yesterday';
  if (days < 14) return `${days} days ago`;
  if (days < 60) return `${Math.round(days / 7)} weeks ago`;
  const months = Math.round(days / 30.44);
  if (months < 24) return `${months} months ago`;
  return `${Math.round(days / 365.25)} years ago`;
}

/**
 * A dated target (EU gas storage: 90 % by 1 November) read against today. When the newest
 * observation is older than today, the days left are counted from today, never from the data's
 * date; a target date already past is `passed`, with the value on the newest day as it stands.
 */
export function deadlineStatus(x: { target: number; by: string; value: number | null; as_of: string; today: string }): {
  passed: boolean;
  reached: boolean | null;
  days_left: number;
  to_go: number | null;
  data_behind_days: number;
} {
  const daysLeft = Math.max(0, daysBetween(x.today, x.by));
  const toGo = x.value === null ? null : Math.max(0, x.target - x.value);
  return {
    passed: x.by < x.today,
    reached: x.value === null ? null : x.value >= x.target,
    days_left: daysLeft,
    to_go: toGo,
    data_behind_days: Math.max(0, daysBetween(x.as_of, x.today)),
  };
}
