/**
 * What a chart is, as data: the spec that chart-specs.ts builds from the build's files, that the
 * page renders at build time and embeds as JSON, and that the client script re-renders, compares
 * and exports from. Runtime-neutral and import-free (the client script bundles it).
 */
import type { NumFmt } from './chart-format';

/** A date-sorted series packed small for the page: first date, day gaps, values (null: a gap). */
export interface Packed {
  t0: string;
  dd: number[];
  v: (number | null)[];
}

/** Colour and dash of a series: the page's own (main, alt, ref, target) or an added country (c1–c4). */
export type SeriesKind = 'main' | 'alt' | 'ref' | 'target' | 'c1' | 'c2' | 'c3' | 'c4';

export interface LineSeriesSpec {
  label: string;
  kind: SeriesKind;
  data: Packed;
}

/** Where the figures come from and the terms of reuse, drawn in exports and embeds. */
export interface Credit {
  /** "Source: …" line, in the chart's language. */
  source: string;
  /** Where the line names the publishers' datasets by their own (English) titles: its label and those names, for a page to mark them as English. */
  english?: { label: string; names: string };
  /** Licence and attribution with the backlink, in the chart's language. */
  licence: string;
  license: string;
  licenseUrl: string;
  /** The full page, absolute. */
  page: string;
}

/** How other countries' figures are fetched from the API to be drawn beside the page's own. */
export interface CompareSpec {
  /** 'reserve': a reserve time series; 'profile': a field of /v1/countries/{iso3}. */
  from: 'reserve' | 'profile';
  /** The API path with `{id}` for the country, e.g. /v1/reserves/timeseries?commodity=gas&country={id}&from=2026-01-01. */
  url: string;
  /** For profiles: import_dependence, autonomy or stress_history. */
  field?: 'import_dependence' | 'autonomy' | 'stress_history';
  /** Cap applied to the values (self-sufficiency bars stop at 300 %). */
  cap?: number;
  /** Label of an added series: `{name}` is replaced by the country's name. */
  label: string;
  /** The countries one may add (never the page's own), in the chart's language. */
  options: { id: string; name: string }[];
}

/** The chart UI's words, in the chart's language (the client script carries no catalogue). */
export interface ChartUi {
  keys: string;
  added: string;
  failed: string;
  loading: string;
  remove: string;
  limit: string;
  copied: string;
  gap: string;
}

interface SpecBase {
  /** Chart key, also the embed path: commodities/energy.oil/price. */
  key: string;
  /** DOM id and file name stem. */
  id: string;
  locale: string;
  title: string;
  desc: string;
  credit: Credit;
  ui: ChartUi;
  fmt: NumFmt;
  compare?: CompareSpec;
}

export interface LineSpec extends SpecBase {
  type: 'line';
  height: number;
  /** Frequency of the main series: picks the date format and, when monthly, starts the axis at the first month's start. */
  freq: 'daily' | 'weekly' | 'monthly' | 'annual';
  unit?: string;
  yMin?: number;
  yMax?: number;
  /** Fixed value ticks (the stress bands); otherwise "nice" ticks over the data. */
  yTicks?: number[];
  /** Dashed lines at these ticks rather than grid lines. */
  thresholds?: number[];
  series: LineSeriesSpec[];
  hlines?: { value: number; label: string }[];
  markers?: { date: string; value: number; label: string }[];
  /** Days a text quotes the series on (a briefing's): each a small dot on the main series with its date. */
  days?: string[];
  /** Horizontal bands behind the lines (the stress bands). */
  zones?: { from: number; to: number; band: string; label: string }[];
  /** Shaded time windows with a key drawn above them (the backtest's crises). */
  windows?: { from: string; to: string; key: string; title: string }[];
  /** Buttons for the last n years, offered only when the series spans more. */
  ranges?: number[];
  /** Draw at most this many points per series (evenly thinned, ends kept). */
  maxPoints?: number;
}

export interface BarSeriesSpec {
  label: string;
  kind: SeriesKind;
  values: (number | null)[];
  /** Value texts as printed (e.g. "12.3 % · #4"); otherwise the spec's fmt. */
  display?: string[];
  /** Bar colour per category (stress bands), when not the kind's. */
  tones?: string[];
}

export interface BarSpec extends SpecBase {
  type: 'bar';
  /** Category keys (commodity slugs) to match other countries' figures, and their labels. */
  cats: { key: string; label: string }[];
  series: BarSeriesSpec[];
  /** The value of a full-width bar. */
  max?: number;
}

export type ChartSpec = LineSpec | BarSpec;

const DAY = 86_400_000;
export const ms = (d: string) => Date.parse(`${d.slice(0, 10)}T00:00:00Z`);
const isoDays = new Map<number, string>();
/** Made once per day: the same days recur in every chart drawn from a series, in each of four languages. */
export function iso(t: number): string {
  let d = isoDays.get(t);
  if (d === undefined) isoDays.set(t, (d = new Date(t).toISOString().slice(0, 10)));
  return d;
}

export function pack(points: readonly { date: string; value: number | null }[]): Packed {
  const out: Packed = { t0: points[0]?.date.slice(0, 10) ?? '1970-01-01', dd: [], v: [] };
  let prev = ms(out.t0);
  for (const p of points) {
    const t = ms(p.date);
    out.dd.push(Math.round((t - prev) / DAY));
    out.v.push(p.value);
    prev = t;
  }
  return out;
}

/** A point ready to draw: its date, its time in ms, its value (null: no value). */
export interface Pt {
  d: string;
  t: number;
  v: number | null;
}

export function unpack(p: Packed): Pt[] {
  let t = ms(p.t0);
  return p.dd.map((dd, i) => {
    t += dd * DAY;
    return { d: iso(t), t, v: p.v[i] ?? null };
  });
}
