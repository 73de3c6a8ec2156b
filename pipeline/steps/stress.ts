/**
 * Current stress of a commodity, methodology 3.1.0 (docs/methodology.md): a pure function of a
 * commodity's dated inputs and the date t the reading describes. Only observations dated on or
 * before t enter; the same function gives the current reading and every month of the history.
 * Market components only (price, buffer, measured disruption) on fixed weights, with a physical
 * floor for a measured route loss; supplier concentration is published apart as structural risk;
 * events are annotations.
 */
import { METHODOLOGY_VERSION } from '../../contract/common.ts';
import type { EventCategory, EventEffect, EventKind } from '../../contract/content.ts';
import type { CommodityStress, StressBand, StressHistoryPoint, StructuralRisk } from '../../contract/stress.ts';
import { type Cadence, type SourceCadence, daysBetween, freshnessOf, periodEnd } from '../freshness.ts';
import { D0, type DisruptionReading, TRANSITS, type Transits, disruptionAt, lastTransitDay } from './disruption.ts';
import type { ExposureTable } from './exposure.ts';
import { publishedPrice } from './precision.ts';
import { clamp01, round } from './reserves.ts';
import { hhiBand } from './shares.ts';

/** Fixed weights of current stress (sum 1, never rescaled): a missing component scores 0 against the same denominator. */
export const WEIGHTS = { price: 0.5, reserves: 0.2, disruption: 0.3 } as const;
/**
 * The physical floor (3.1.0): supply lost on a route with no detour, at D₀ (7 % of world supply,
 * the IEA's collective-action size), reads this many points whatever the price does, i.e. severe;
 * smaller losses in proportion. Price, buffer and diverted (late) supply stay compensatory.
 */
export const PHYSICAL_FLOOR_POINTS = 75;
/** A buffer a quarter below its norm scores 1. */
export const BUFFER_FULL_SHORTFALL = 0.25;
/** The US SPR is one country's buffer for a world market: its score counts half. */
export const SPR_SCALE = 0.5;
/** Band thresholds, and how far below a threshold the index must fall before the band steps down. */
export const BAND_THRESHOLDS = [25, 50, 75] as const;
export const HYSTERESIS_POINTS = 5;
export const CATEGORY_WEIGHTS: Readonly<Record<EventCategory, number>> = { conflict: 1.0, sanction: 0.8, policy: 0.7, infrastructure: 0.6, catastrophe: 0.5 };
/** Half-life in days of a one-off event, or of a lasting one after it ended. */
export const HALF_LIFE_DAYS: Readonly<Record<EventCategory, number>> = { policy: 90, sanction: 90, conflict: 30, infrastructure: 30, catastrophe: 30 };
/** A lasting measure in force weighs on supply for longer, but markets adapt: it decays with this half-life. */
export const IN_FORCE_HALF_LIFE_DAYS = 365;
export const RELEVANCE = { commodityAndTopSupplier: 1.0, commodityOnly: 0.7 } as const;
export const MIN_EVENT_PRESSURE = 0.0005;

/**
 * Price: robust z of the 3- and 12-month log change against the trailing 10 years of such changes;
 * the dispersion is at least 0.04 × √h so a near-flat series cannot turn a small move into an extreme z.
 */
export const PRICE = { horizons: [3, 12], windowMonths: 120, minChanges: 36, zFloor: 1, zSpan: 2, dailyLevelDays: 30, dispersionFloor: 0.04 } as const;
/** Concentration: s = log(HHI / 500) / log(20 ) — 0 for twenty equal suppliers, 1 for a monopoly. */
export const HHI_FLOOR = 500;
/** Precious metals' shocks are measured in gold, whose own price is monetary (central banks, ETFs), not a supply signal. */
export const PRECIOUS = { numeraire: 'metals.gold', measured: ['metals.silver', 'metals.platinum', 'metals.palladium'] } as const;
export const GOLD_PRICE_EXCLUDED =
  'gold’s price is set by monetary and investment demand, not by mine supply: it is the yardstick the other precious metals’ price shocks are measured against, and not scored itself';
/** Structural (annual) inputs keep full weight for 3 years after their year ends, half weight to 5, then expire. */
export const STRUCTURAL_AGE_YEARS = { full: 3, expire: 5 } as const;
/** Market inputs (prices, reserves): overdue days past which a stale input expires, by cadence. */
export const EXPIRY_DAYS: Record<Cadence, number> = { daily: 30, weekly: 60, monthly: 120, annual: 730, irregular: Infinity };
/** Seasonal norm of gas storage: same calendar day in up to five earlier years, at least three. */
export const GAS_NORM = { years: 5, minYears: 3 } as const;
/** US SPR: stock against its mean over the previous five years. */
export const SPR_NORM_YEARS = 5;

export interface Point {
  date: string;
  value: number;
}

export interface PriceInput {
  source: string;
  series: string | null;
  frequency: 'daily' | 'monthly' | 'annual';
  /** Positive prices, oldest first. */
  points: readonly Point[];
  /**
   * A price the shock is measured against (for silver, platinum and palladium: gold), so that a
   * rally every precious metal shares, which is monetary, does not read as a supply shock.
   */
  numeraire?: { slug: string; points: readonly Point[] } | undefined;
}

export interface HhiYear {
  year: number;
  hhi: number;
  countries: number;
  top: string | null;
  top_share: number | null;
}

export interface ConcentrationStage {
  stage: 'production' | 'exports' | 'refining';
  basis: string;
  source: string;
  /** HHI per year, oldest first. */
  years: readonly HhiYear[];
}

export interface ReserveInput {
  kind: 'gas_storage' | 'spr';
  source: string;
  scope: string;
  /** Factor on the buffer score: 1, or SPR_SCALE for one country's buffer of a world market. */
  scale: number;
  /** Fill % (gas) or stock in thousand barrels (SPR), oldest first. */
  points: readonly Point[];
}

export interface TaggedEvent {
  id: string;
  date: string;
  category: EventCategory;
  effect: EventEffect;
  kind: EventKind;
  ended_on?: string | undefined;
  commodities: readonly string[];
  countries: readonly string[];
}

export interface CommodityInputs {
  slug: string;
  price: PriceInput | null;
  /** Why the price is not scored although it is published (gold: the numeraire of the precious metals). */
  priceExcluded?: string | undefined;
  stages: readonly ConcentrationStage[];
  reserve: ReserveInput | null;
  /** Routes the commodity's supply takes through measured chokepoints, and the transits (null: no measured route). */
  disruption: { table: ExposureTable; transits: Transits } | null;
  events: readonly TaggedEvent[];
  topSuppliers: ReadonlySet<string>;
}

export type Cadences = (source: string, series?: string | null) => SourceCadence;

const BANDS: readonly StressBand[] = ['low', 'moderate', 'high', 'severe'];

/**
 * The band of an index, with hysteresis when the previous band is known: the band steps up when
 * the index reaches a threshold, and steps down only once it is HYSTERESIS_POINTS below it.
 */
export function band(
  index: number | null,
  previous: StressBand | null = null,
  thresholds: readonly number[] = BAND_THRESHOLDS,
  downs: readonly number[] = thresholds.map((x) => x - HYSTERESIS_POINTS),
): StressBand | null {
  if (index === null) return null;
  const plain = thresholds.filter((x) => index >= x).length;
  if (previous === null) return BANDS[plain] as StressBand;
  const prev = BANDS.indexOf(previous);
  if (plain >= prev) return BANDS[plain] as StressBand;
  // Falling: stay in a band until the index is below its down-step.
  const held = downs.filter((x) => index >= x).length;
  return BANDS[Math.max(plain, Math.min(prev, held))] as StressBand;
}

/** Concentration score of an HHI (0–10,000). */
export const hhiScore = (hhi: number) => clamp01(Math.log10(Math.max(hhi, 1) / HHI_FLOOR) / Math.log10(10_000 / HHI_FLOOR));

type Component = CommodityStress['components'][number];
type Age = { freshness: 'current' | 'late' | 'stale' | 'expired'; factor: number; overdue: number };

/** Age class of a market input dated `date` at the reading date t, by its publisher's cadence. */
function marketAge(c: SourceCadence, date: string, t: string): Age {
  const f = freshnessOf({ ...c, status: 'active' }, date, t);
  if (f.freshness === 'current' || f.freshness === 'late') return { freshness: f.freshness, factor: 1, overdue: f.overdue_days };
  return f.overdue_days > EXPIRY_DAYS[c.cadence]
    ? { freshness: 'expired', factor: 0, overdue: f.overdue_days }
    : { freshness: 'stale', factor: 0.5, overdue: f.overdue_days };
}

function structuralAge(year: number, t: string): Age {
  const years = daysBetween(`${year}-12-31`, t) / 365.25;
  if (years <= STRUCTURAL_AGE_YEARS.full) return { freshness: 'current', factor: 1, overdue: 0 };
  return years <= STRUCTURAL_AGE_YEARS.expire ? { freshness: 'stale', factor: 0.5, overdue: 0 } : { freshness: 'expired', factor: 0, overdue: 0 };
}

/** Index of the last point dated on or before t (−1 when none). */
function lastAtOrBefore(points: readonly Point[], t: string): number {
  let lo = 0;
  let hi = points.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((points[mid] as Point).date <= t) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

const monthKey = (date: string) => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;
const monthLabel = (k: number) => `${Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, '0')}`;

function median(xs: number[]): number {
  // A typed array sorts numerically in native code: the stress history asks this ~10⁵ times a build.
  const s = Float64Array.from(xs).sort();
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/** Monthly mean log price per month key, computed once per series; relative to the numeraire's when there is one. */
const monthlyCache = new WeakMap<readonly Point[], Map<number, number>>();
const relativeCache = new WeakMap<readonly Point[], Map<number, number>>();
function monthlyLogs(points: readonly Point[], numeraire?: readonly Point[]): Map<number, number> {
  if (numeraire) {
    const own = monthlyLogs(points);
    const num = monthlyLogs(numeraire);
    let rel = relativeCache.get(points);
    if (!rel) {
      rel = new Map([...own].flatMap(([k, v]) => (num.has(k) ? [[k, v - (num.get(k) as number)] as const] : [])));
      relativeCache.set(points, rel);
    }
    return rel;
  }
  let m = monthlyCache.get(points);
  if (m) return m;
  const sums = new Map<number, [number, number]>();
  for (const p of points) {
    const k = monthKey(p.date);
    const s = sums.get(k) ?? [0, 0];
    s[0] += Math.log(p.value);
    s[1] += 1;
    sums.set(k, s);
  }
  m = new Map([...sums].map(([k, [sum, n]]) => [k, sum / n]));
  monthlyCache.set(points, m);
  return m;
}

export interface PriceReading {
  score: number;
  z: number;
  horizon: number;
  inputs: Record<string, number | string | boolean | null>;
  date: string;
}

/**
 * Price stress at t: for h = 3 and 12 months, the change r_h = L(t) − M(month − h) in log price,
 * where L is the latest level (monthly mean, or the mean of the last 30 days of a daily series)
 * and M a monthly mean; z_h = (r_h − median) / max(1.4826 × MAD, 0.04 × √h) of the same changes
 * over the 120 months before; s = clip((max z_h − 1) / 2, 0, 1). Falls score 0: a collapse is not
 * supply stress.
 */
export function priceStress(p: PriceInput, t: string): PriceReading | { reason: string; date: string | null } {
  const i = lastAtOrBefore(p.points, t);
  if (i < 0) return { reason: 'no price observation on or before this date', date: null };
  const last = p.points[i] as Point;
  if (p.frequency === 'annual') return { reason: 'an annual average price cannot show a supply shock', date: last.date };
  const months = monthlyLogs(p.points, p.numeraire?.points);
  const current = monthKey(last.date);
  const numeraireLog = p.numeraire ? monthlyLogs(p.numeraire.points).get(current) : 0;
  if (numeraireLog === undefined)
    return { reason: `no ${p.numeraire?.slug} price for the month of the latest price, which the shock is measured against`, date: last.date };
  let level: number;
  if (p.frequency === 'daily') {
    let sum = 0;
    let n = 0;
    const from = new Date(Date.parse(last.date) - PRICE.dailyLevelDays * 86_400_000).toISOString().slice(0, 10);
    for (let j = i; j >= 0 && (p.points[j] as Point).date > from; j--) {
      sum += Math.log((p.points[j] as Point).value);
      n++;
    }
    level = sum / n - numeraireLog;
  } else level = Math.log(last.value) - numeraireLog;
  const inputs: Record<string, number | string | boolean | null> = {
    latest_price: publishedPrice(last.value),
    latest_date: last.date,
    level_log: round(level, 6),
  };
  if (p.numeraire) {
    inputs.measured_against = p.numeraire.slug;
    inputs.latest_ratio = round(Math.exp(level), 6);
  }
  let best: { z: number; h: number } | null = null;
  for (const h of PRICE.horizons) {
    const base = months.get(current - h);
    const changes: number[] = [];
    for (let k = current - PRICE.windowMonths; k < current; k++) {
      const a = months.get(k);
      const b = months.get(k - h);
      if (a !== undefined && b !== undefined) changes.push(a - b);
    }
    if (base === undefined || changes.length < PRICE.minChanges) {
      inputs[`change_${h}m_log`] = null;
      continue;
    }
    const med = median(changes);
    const mad = median(changes.map((x) => Math.abs(x - med)));
    const floor = PRICE.dispersionFloor * Math.sqrt(h);
    const sigma = Math.max(1.4826 * mad, floor);
    const r = level - base;
    const z = (r - med) / sigma;
    Object.assign(inputs, {
      [`change_${h}m_log`]: round(r, 6),
      [`change_${h}m_pct`]: round((Math.exp(r) - 1) * 100, 2),
      [`base_${h}m_month`]: monthLabel(current - h),
      [`median_${h}m`]: round(med, 6),
      [`mad_${h}m`]: round(mad, 6),
      [`dispersion_${h}m`]: round(sigma, 6),
      [`dispersion_floored_${h}m`]: sigma === floor,
      [`z_${h}m`]: round(z, 4),
      [`changes_${h}m`]: changes.length,
    });
    if (!best || z > best.z) best = { z, h };
  }
  if (!best) return { reason: `too short a history: needs ${PRICE.minChanges} monthly changes in the ${PRICE.windowMonths} months before`, date: last.date };
  inputs.window = `${monthLabel(current - PRICE.windowMonths)} to ${monthLabel(current - 1)}`;
  inputs.formula = 's = clip((max(z_3m, z_12m) − 1) / 2, 0, 1); z = (r − median) / max(1.4826 × MAD, 0.04 × √h)';
  return { score: clamp01((best.z - PRICE.zFloor) / PRICE.zSpan), z: best.z, horizon: best.h, inputs, date: last.date };
}

/** Reserve shortfall at t: gas fill against its seasonal norm, the SPR stock against its 5-year mean. */
export function reserveStress(
  r: ReserveInput,
  t: string,
): { shortfall: number; inputs: Record<string, number | string | null>; date: string } | { reason: string; date: string | null } {
  const i = lastAtOrBefore(r.points, t);
  if (i < 0) return { reason: 'no reserve observation on or before this date', date: null };
  const last = r.points[i] as Point;
  if (r.kind === 'gas_storage') {
    const byDate = gasIndex(r.points);
    const year = Number(last.date.slice(0, 4));
    const fills: number[] = [];
    const years: number[] = [];
    for (let y = year - GAS_NORM.years; y < year; y++) {
      const v = byDate.get(`${y}${last.date.slice(4)}`);
      if (v !== undefined) {
        fills.push(v);
        years.push(y);
      }
    }
    if (fills.length < GAS_NORM.minYears) return { reason: `seasonal norm needs ${GAS_NORM.minYears} earlier years on the same day`, date: last.date };
    const norm = fills.reduce((s, x) => s + x, 0) / fills.length;
    return {
      shortfall: norm > 0 ? clamp01((norm - last.value) / norm) : 0,
      inputs: {
        fill_pct: last.value,
        seasonal_norm_pct: round(norm, 2),
        norm_years: years.join(','),
        gas_day: last.date,
        formula: 's = clip((norm − fill) / norm, 0, 1)',
      },
      date: last.date,
    };
  }
  const from = `${Number(last.date.slice(0, 4)) - SPR_NORM_YEARS}${last.date.slice(4)}`;
  let sum = 0;
  let n = 0;
  for (let j = i - 1; j >= 0 && (r.points[j] as Point).date > from; j--) {
    sum += (r.points[j] as Point).value;
    n++;
  }
  if (n < 52 * (SPR_NORM_YEARS - 1)) return { reason: `needs ${SPR_NORM_YEARS} years of earlier weekly stocks`, date: last.date };
  const norm = sum / n;
  return {
    shortfall: clamp01((norm - last.value) / norm),
    inputs: {
      stock_kb: last.value,
      norm_kb: round(norm, 0),
      norm_from: from,
      norm_weeks: n,
      week: last.date,
      formula: 's = clip((5-year mean − stock) / 5-year mean, 0, 1)',
    },
    date: last.date,
  };
}

const gasCache = new WeakMap<readonly Point[], Map<string, number>>();
function gasIndex(points: readonly Point[]): Map<string, number> {
  let m = gasCache.get(points);
  if (!m) {
    m = new Map(points.map((p) => [p.date, p.value]));
    gasCache.set(points, m);
  }
  return m;
}

/** The most concentrated supply stage usable at t (its year published by t, and not expired). */
export function concentrationStress(stages: readonly ConcentrationStage[], t: string, cadences: Cadences) {
  const usable = stages.flatMap((s) => {
    const lag = cadences(s.source).lag_days;
    const y = [...s.years].reverse().find((x) => daysBetween(`${x.year}-12-31`, t) >= lag);
    if (!y) return [];
    const age = structuralAge(y.year, t);
    return age.factor > 0 ? [{ stage: s, year: y, age, score: hhiScore(y.hhi) }] : [];
  });
  if (usable.length === 0) return null;
  const best = usable.reduce((a, b) => (b.score > a.score ? b : a));
  const inputs: Record<string, number | string | null> = {
    stage: best.stage.stage,
    basis: best.stage.basis,
    hhi: best.year.hhi,
    year: best.year.year,
    countries: best.year.countries,
    top_supplier: best.year.top,
    top_share: best.year.top_share,
  };
  for (const u of usable) Object.assign(inputs, { [`${u.stage.stage}_hhi`]: u.year.hhi, [`${u.stage.stage}_year`]: u.year.year });
  inputs.formula = 's = clip(log10(HHI / 500) / log10(20), 0, 1), most concentrated stage';
  return { ...best, inputs };
}

/** Net event pressure at t: easing events count against tightening ones; lasting events hold while in force. */
export function eventPressure(slug: string, events: readonly TaggedEvent[], topSuppliers: ReadonlySet<string>, t: string) {
  const mine = events.filter((e) => e.commodities.includes(slug) && e.date <= t);
  const contributions = mine
    .map((e) => {
      const h = HALF_LIFE_DAYS[e.category];
      const w = CATEGORY_WEIGHTS[e.category];
      const r = e.countries.some((c) => topSuppliers.has(c)) ? RELEVANCE.commodityAndTopSupplier : RELEVANCE.commodityOnly;
      const ended = e.kind === 'lasting' && e.ended_on !== undefined && e.ended_on <= t ? e.ended_on : null;
      let decay: number;
      let age: number;
      let half: number;
      if (e.kind === 'one-off') {
        age = daysBetween(e.date, t);
        half = h;
        decay = 2 ** (-age / h);
      } else if (ended === null) {
        age = daysBetween(e.date, t);
        half = IN_FORCE_HALF_LIFE_DAYS;
        decay = 2 ** (-age / IN_FORCE_HALF_LIFE_DAYS);
      } else {
        age = daysBetween(ended, t);
        half = h;
        decay = 2 ** (-daysBetween(e.date, ended) / IN_FORCE_HALF_LIFE_DAYS) * 2 ** (-age / h);
      }
      const sign = e.effect === 'easing' ? -1 : 1;
      return {
        id: e.id,
        date: e.date,
        category: e.category,
        effect: e.effect,
        kind: e.kind,
        ended_on: e.ended_on ?? null,
        category_weight: w,
        relevance: r,
        age_days: age,
        half_life_days: half,
        decay: round(decay, 6),
        pressure: round(sign * w * r * decay, 6),
      };
    })
    .filter((c) => Math.abs(c.pressure) >= MIN_EVENT_PRESSURE)
    .sort((a, b) => Math.abs(b.pressure) - Math.abs(a.pressure) || a.id.localeCompare(b.id));
  const sum = contributions.reduce((s, c) => s + c.pressure, 0);
  return { covered: mine.length > 0, sum, score: 1 - Math.exp(-Math.max(0, sum)), contributions };
}

/** Structural risk at t: the concentration of the narrowest supply stage usable then (not governance weighted: no WGI in our sources). */
export function structuralRisk(x: CommodityInputs, t: string, cadences: Cadences): StructuralRisk | null {
  const cs = concentrationStress(x.stages, t, cadences);
  if (!cs) return null;
  return {
    index: round(100 * cs.score, 1),
    concentration: hhiBand(cs.year.hhi),
    hhi: cs.year.hhi,
    stage: cs.stage.stage,
    basis: cs.stage.basis,
    year: cs.year.year,
    countries: cs.year.countries,
    top_supplier: cs.year.top,
    top_share: cs.year.top_share,
    as_of: `${cs.year.year}-12-31`,
    input_freshness: cs.age.freshness,
    source: cs.stage.source,
    governance_weighted: false,
    formula: 'index = 100 × clip(log10(HHI / 500) / log10(20), 0, 1), most concentrated stage; HHI bands: US DOJ/FTC 2023 (1,000 / 1,800)',
  };
}

/** The reading of one commodity at date t, every component with its inputs, weights and age. `previous` is the band of the month-end before (hysteresis). */
export function stressAt(x: CommodityInputs, t: string, today: string, cadences: Cadences, previous: StressBand | null = null): CommodityStress {
  const components: Component[] = [];
  const base = (key: Component['key'], name: string, weight: number, raw_label: string): Component => ({
    key,
    name,
    weight,
    freshness_factor: 0,
    effective_weight: 0,
    available: false,
    raw: null,
    raw_label,
    score: null,
    contribution: null,
    inputs: {},
    as_of: null,
    input_freshness: null,
    source: null,
  });
  const withAge = (c: Component, age: Age, what: string) => {
    c.input_freshness = age.freshness;
    c.freshness_factor = age.factor;
    c.available = age.factor > 0;
    if (age.freshness === 'stale') c.reason = `${what} is stale at ${t} (${age.overdue} days past its next expected release): half weight`;
    if (age.freshness === 'expired') c.reason = `${what} is too old at ${t} to describe it (${age.overdue} days past its next expected release): counts 0`;
  };

  // Price.
  const price = base('price', 'Price shock', WEIGHTS.price, 'largest robust z of the 3- and 12-month change in log price');
  if (x.priceExcluded) price.reason = x.priceExcluded;
  else if (!x.price) price.reason = 'no public price series in our sources: counts 0';
  else {
    price.source = x.price.source;
    const p = priceStress(x.price, t);
    const cad = cadences(x.price.source, x.price.series);
    if (p.date) price.as_of = priceEnd(x.price, p.date);
    if ('reason' in p) price.reason = `${p.reason}: counts 0`;
    else {
      price.raw = round(p.z, 4);
      price.score = round(p.score, 4);
      price.inputs = { ...p.inputs, horizon_months: p.horizon };
      withAge(price, marketAge(cad, p.date, t), 'the latest price');
    }
  }
  components.push(price);

  // Buffer.
  const res = base(
    'reserves',
    'Reserve buffer',
    WEIGHTS.reserves,
    x.reserve?.kind === 'spr'
      ? 'relative shortfall of the US Strategic Petroleum Reserve against its 5-year mean (the US buffer only: score × 0.5)'
      : 'relative shortfall of EU gas storage fill against its seasonal norm',
  );
  if (!x.reserve) res.reason = 'no strategic reserve data for this commodity in our sources: counts 0';
  else {
    res.source = x.reserve.source;
    res.inputs = { scope: x.reserve.scope };
    const r = reserveStress(x.reserve, t);
    if (r.date) res.as_of = r.date;
    if ('reason' in r) res.reason = `${r.reason}: counts 0`;
    else {
      res.raw = round(r.shortfall, 4);
      res.score = round(x.reserve.scale * clamp01(r.shortfall / BUFFER_FULL_SHORTFALL), 4);
      res.inputs = { scope: x.reserve.scope, ...r.inputs, full_score_shortfall: BUFFER_FULL_SHORTFALL, scale: x.reserve.scale };
      res.inputs.formula = `s = ${x.reserve.scale === 1 ? '' : `${x.reserve.scale} × `}clip(shortfall / ${BUFFER_FULL_SHORTFALL}, 0, 1)`;
      withAge(res, marketAge(cadences(x.reserve.source), r.date, t), 'the latest reserve reading');
    }
  }
  components.push(res);

  // Measured disruption.
  const dis = base(
    'disruption',
    'Measured route disruption',
    WEIGHTS.disruption,
    'share of world supply on chokepoint routes whose transits are below their seasonal normal',
  );
  let reading: DisruptionReading | null = null;
  if (!x.disruption) dis.reason = 'none of its supply routes passes a chokepoint with transit data in our sources: counts 0';
  else {
    reading = disruptionAt(x.disruption.table, x.disruption.transits, t);
    dis.source = 'imf-portwatch-chokepoints';
    dis.as_of = reading.as_of;
    const inputs: Component['inputs'] = {
      vessels: x.disruption.table.vessel,
      share_at_risk: reading.share,
      full_score_share: 0.07,
      // The physical floor's input: only the loss on chokepoints with no detour.
      share_lost: reading.lost_share,
    };
    for (const part of reading.parts) {
      const k = part.chokepoint;
      inputs[`${k}_exposure`] = part.exposure.share;
      inputs[`${k}_exposure_year`] = part.exposure.year;
      inputs[`${k}_exposure_source`] = part.exposure.source;
      if (part.exposure.before_publication) inputs[`${k}_exposure_before_publication`] = true;
      inputs[`${k}_level_vs_normal`] = part.route?.level ?? null;
      inputs[`${k}_loss`] = part.route?.loss ?? null;
      inputs[`${k}_at_risk`] = part.at_risk;
    }
    inputs.formula = `D = Σ over routes of max(exposure × loss); s = clip(D / ${D0}, 0, 1); loss = clip((1 − level − ${TRANSITS.tolerance}) / ${1 - TRANSITS.tolerance}, 0, 1), level = transits(28 days) / median of the same days in up to 5 earlier years (a shortfall within ${100 * TRANSITS.tolerance} % is ordinary variation)`;
    dis.inputs = inputs;
    if (!reading.measured) dis.reason = `no chokepoint on its routes has transit data at ${t}: counts 0`;
    else {
      dis.raw = reading.share;
      dis.score = reading.score;
      dis.available = true;
      dis.freshness_factor = 1;
      dis.input_freshness = 'current';
    }
  }
  components.push(dis);

  // Fixed denominator: every component's weight counts, measured or not.
  let sum = 0;
  for (const c of components) {
    c.effective_weight = round(c.weight * c.freshness_factor, 6);
    c.contribution = c.available ? round(100 * c.effective_weight * (c.score ?? 0), 2) : null;
    sum += c.contribution ?? 0;
  }
  const coverage = round(
    components.reduce((s, c) => s + c.weight * c.freshness_factor, 0),
    4,
  );
  // Non-compensatory for a measured loss: no price move offsets supply lost at the size governments act on.
  const physicalFloor = dis.available && reading ? round(PHYSICAL_FLOOR_POINTS * dis.freshness_factor * reading.lost_score, 2) : null;
  const fresh = components.filter((c) => c.available && c.freshness_factor === 1);
  let index: number | null = null;
  let reason: string | undefined;
  if (fresh.length === 0)
    reason =
      components.some((c) => c.available) || x.price || x.reserve
        ? `no market input is fresh at ${t} (price, buffer or measured disruption): no band`
        : 'no market data in our sources (no price, buffer or measured route): see structural_risk';
  else index = round(Math.min(100, Math.max(0, sum, physicalFloor ?? 0)), 1);
  const e = eventPressure(x.slug, x.events, x.topSuppliers, t);
  return {
    index,
    band: band(index, previous),
    as_of: t,
    lag_days: Math.max(0, daysBetween(t, today)),
    methodology_version: METHODOLOGY_VERSION,
    coverage,
    weights_rescaled: false,
    physical_floor: physicalFloor,
    ...(reason ? { reason } : {}),
    components,
    events: e.contributions.slice(0, 20),
  };
}

/** End of the period a price observation stands for: the day, or the month of a monthly average. */
const priceEnd = (p: PriceInput, date: string) => periodEnd(date, p.frequency === 'daily' ? 'daily' : p.frequency === 'monthly' ? 'monthly' : 'annual');

/** The date a current reading describes: the newest market observation (price, reserve or chokepoint transits) up to today. */
export function readingDate(x: CommodityInputs, today: string): string {
  // Only observations dated up to today: a future-dated row is the contract's to refuse, not ours to read.
  const dates: string[] = [];
  const p = x.price && !x.priceExcluded ? x.price.points[lastAtOrBefore(x.price.points, today)] : undefined;
  if (p && x.price && x.price.frequency !== 'annual') dates.push(priceEnd(x.price, p.date));
  const r = x.reserve ? x.reserve.points[lastAtOrBefore(x.reserve.points, today)] : undefined;
  if (r) dates.push(r.date);
  // Measured disruption is a market input too (3.1.0): a monthly price does not stop the reading while routes are measured.
  const transit = x.disruption ? lastTransitDay(x.disruption.table, x.disruption.transits, today) : null;
  if (transit) dates.push(transit);
  const newest = dates.sort().at(-1);
  return newest && newest < today ? newest : today;
}

/** Month ends from `from` (YYYY-MM) to the last month end on or before `until`. */
export function monthEnds(from: string, until: string): string[] {
  const out: string[] = [];
  let k = monthKey(`${from}-01`);
  for (;;) {
    const end = new Date(Date.UTC(Math.floor(k / 12), (k % 12) + 1, 0)).toISOString().slice(0, 10);
    if (end > until) break;
    out.push(end);
    k++;
  }
  return out;
}

export const HISTORY_FROM = '2015-01';

/** The reading at the end of every month from 2015-01 to the month of `until`, with the same code. */
export function stressHistory(x: CommodityInputs, until: string, today: string, cadences: Cadences): StressHistoryPoint[] {
  let previous: StressBand | null = null;
  return monthEnds(HISTORY_FROM, until).map((d) => {
    const s = stressAt(x, d, today, cadences, previous);
    previous = s.band;
    return { date: d, index: s.index, band: s.band, coverage: s.coverage };
  });
}

/** The band of the last month-end strictly before t in a history (the current reading's hysteresis anchor). */
export function bandBefore(history: readonly StressHistoryPoint[], t: string): StressBand | null {
  return [...history].reverse().find((p) => p.date < t)?.band ?? null;
}
