/**
 * Measured disruption (methodology 3.0.0; 3.2.0 counts a shortfall only beyond ordinary variation): chokepoint
 * transits against their own seasonal normal, and the share of a commodity's world supply whose route they cut. Pure: transits and exposures
 * in, losses out; only days on or before t are read.
 */
import type { Db } from '../db.ts';
import { CHOKEPOINT_NAMES, COUNTED_AS_LOSS, type Exposure, type ExposureTable, ROUTES, type VesselClass, exposureAt } from './exposure.ts';
import { clamp01, round } from './reserves.ts';

/**
 * Transits: mean over 28 days ending t, against the median of the same days in up to 5 earlier years (at least 1).
 * `tolerance` (3.2.0): a shortfall within 15 % of normal is what ordinary years show (90th–95th percentile of the
 * shortfalls of 2020 – October 2023, `node eval/stress/transit-noise.ts`), so only the part beyond it counts as lost.
 */
export const TRANSITS = { windowDays: 28, normalYears: 5, minYears: 1, staleDays: 14, tolerance: 0.15 } as const;

/** The fraction of a route counted as lost: the shortfall beyond the tolerance, rescaled so that a closed route still reads 1. */
export const lossBeyondTolerance = (level: number) => round(clamp01((1 - level - TRANSITS.tolerance) / (1 - TRANSITS.tolerance)), 4);
/** A route loss of 7 % of world supply (the IEA collective-action trigger) scores 1. */
export const D0 = 0.07;

const DAY = 86_400_000;
const dayOf = (date: string) => Math.floor(Date.parse(date) / DAY);
const dateOf = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);

/** One chokepoint's daily transits, by vessel class, indexed by day from `first`. */
export interface TransitSeries {
  first: number;
  tanker: Float64Array;
  cargo: Float64Array;
}
export type Transits = ReadonlyMap<string, TransitSeries>;

export async function loadTransits(db: Db): Promise<Transits> {
  const rows = await db.all<{ chokepoint: string; date: string; n_tanker: number; n_cargo: number }>(
    `SELECT chokepoint, strftime(date, '%Y-%m-%d') AS date, n_tanker, n_cargo FROM portwatch_transits ORDER BY chokepoint, date`,
  );
  const out = new Map<string, TransitSeries>();
  for (const c of new Set(rows.map((r) => r.chokepoint))) {
    const mine = rows.filter((r) => r.chokepoint === c);
    const first = dayOf((mine[0] as { date: string }).date);
    const n = dayOf((mine.at(-1) as { date: string }).date) - first + 1;
    const s = { first, tanker: new Float64Array(n).fill(NaN), cargo: new Float64Array(n).fill(NaN) };
    for (const r of mine) {
      s.tanker[dayOf(r.date) - first] = r.n_tanker;
      s.cargo[dayOf(r.date) - first] = r.n_cargo;
    }
    out.set(c, s);
  }
  return out;
}

export interface RouteLoss {
  chokepoint: string;
  /** Mean daily transits over the window. */
  transits: number;
  normal: number;
  /** transits / normal. */
  level: number;
  /** clip((1 − level − τ) / (1 − τ), 0, 1), τ = TRANSITS.tolerance. */
  loss: number;
  from: string;
  to: string;
  normal_years: string;
}

function windowMean(a: Float64Array, from: number, to: number): number | null {
  if (from < 0 || to >= a.length) return null;
  let sum = 0;
  for (let i = from; i <= to; i++) {
    const v = a[i] as number;
    if (Number.isNaN(v)) return null;
    sum += v;
  }
  return sum / (to - from + 1);
}

/** The chokepoint's transits in the 28 days to t against the same days of earlier years; a reason when it cannot be measured at t. */
export function routeLoss(transits: Transits, chokepoint: string, vessel: VesselClass, t: string): RouteLoss | { reason: string } {
  const s = transits.get(chokepoint);
  if (!s) return { reason: 'no transit data for this chokepoint in our sources' };
  const a = s[vessel];
  const last = s.first + a.length - 1;
  const end = Math.min(dayOf(t), last);
  if (dayOf(t) - last > TRANSITS.staleDays) return { reason: `transit data end ${dateOf(last)}, more than ${TRANSITS.staleDays} days before ${t}` };
  const x = windowMean(a, end - s.first - TRANSITS.windowDays + 1, end - s.first);
  if (x === null) return { reason: `fewer than ${TRANSITS.windowDays} days of transits before ${t}` };
  const endDate = dateOf(end);
  const normals: number[] = [];
  const years: number[] = [];
  for (let k = 1; k <= TRANSITS.normalYears; k++) {
    const y = Number(endDate.slice(0, 4)) - k;
    // 29 February maps to 28 February of a common year.
    const e = dayOf(`${y}${endDate.slice(4) === '-02-29' ? '-02-28' : endDate.slice(4)}`);
    const m = windowMean(a, e - s.first - TRANSITS.windowDays + 1, e - s.first);
    if (m !== null) {
      normals.push(m);
      years.push(y);
    }
  }
  if (normals.length < TRANSITS.minYears) return { reason: `no earlier year of transits to form a normal at ${t}` };
  const sorted = [...normals].sort((p, q) => p - q);
  const mid = sorted.length >> 1;
  const normal = sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  const level = normal > 0 ? x / normal : 1;
  return {
    chokepoint,
    transits: round(x, 2),
    normal: round(normal, 2),
    level: round(level, 4),
    loss: lossBeyondTolerance(level),
    from: dateOf(end - TRANSITS.windowDays + 1),
    to: endDate,
    normal_years: years.sort().join(','),
  };
}

export interface ChokepointPart {
  chokepoint: string;
  name: string;
  exposure: Exposure;
  route: RouteLoss | null;
  reason?: string;
  /** exposure × loss (0 when not measured). */
  at_risk: number;
}

export interface DisruptionReading {
  /** Share of world supply on disrupted routes. */
  share: number;
  score: number;
  /** The part of `share` on chokepoints with no detour (COUNTED_AS_LOSS): supply lost, not delayed. */
  lost_share: number;
  /** clip(lost_share / D₀, 0, 1): what the physical floor reads. */
  lost_score: number;
  measured: boolean;
  /** The newest transit day behind the reading. */
  as_of: string | null;
  parts: ChokepointPart[];
}

/** The newest transit day, on or before t, of the vessels that carry the commodity through any chokepoint on its routes. */
export function lastTransitDay(table: ExposureTable, transits: Transits, t: string): string | null {
  let last: number | null = null;
  for (const c of new Set(table.rows.map((r) => r.chokepoint))) {
    const s = transits.get(c);
    if (!s) continue;
    const a = s[table.vessel];
    for (let i = Math.min(a.length - 1, dayOf(t) - s.first); i >= 0; i--)
      if (!Number.isNaN(a[i] as number)) {
        last = Math.max(last ?? -Infinity, s.first + i);
        break;
      }
  }
  return last === null ? null : dateOf(last);
}

/** D(t) = Σ over routes of the largest exposure × loss among its chokepoints; s = clip(D / D₀, 0, 1). */
export function disruptionAt(table: ExposureTable, transits: Transits, t: string): DisruptionReading {
  const parts: ChokepointPart[] = exposureAt(table, t).map((exposure) => {
    const r = routeLoss(transits, exposure.chokepoint, table.vessel, t);
    const name = CHOKEPOINT_NAMES[exposure.chokepoint] ?? exposure.chokepoint;
    return 'reason' in r
      ? { chokepoint: exposure.chokepoint, name, exposure, route: null, reason: r.reason, at_risk: 0 }
      : { chokepoint: exposure.chokepoint, name, exposure, route: r, at_risk: round(exposure.share * r.loss, 4) };
  });
  const grouped = new Set<string>();
  let share = 0;
  for (const route of ROUTES) {
    const on = parts.filter((p) => route.includes(p.chokepoint));
    on.forEach((p) => grouped.add(p.chokepoint));
    share += Math.max(0, ...on.map((p) => p.at_risk));
  }
  share += parts.filter((p) => !grouped.has(p.chokepoint)).reduce((s, p) => s + p.at_risk, 0);
  const measured = parts.filter((p) => p.route);
  const lost = parts.filter((p) => COUNTED_AS_LOSS.has(p.chokepoint)).reduce((s, p) => s + p.at_risk, 0);
  return {
    share: round(share, 4),
    score: round(clamp01(share / D0), 4),
    lost_share: round(lost, 4),
    lost_score: round(clamp01(lost / D0), 4),
    measured: measured.length > 0,
    as_of:
      measured
        .map((p) => (p.route as RouteLoss).to)
        .sort()
        .at(-1) ?? null,
    parts,
  };
}
