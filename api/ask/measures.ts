/**
 * The figures a question can compare, rank, filter or follow over time, each read the way the
 * REST routes publish it, with the record (and the API address) that holds every reading. One
 * interface for all of them so the planner's operations are written once.
 */
import type { CommoditySheet } from '../../contract/commodities.ts';
import { COUNTRY_NAME_OVERRIDES as NAME_OVERRIDES, type CountryProfile } from '../../contract/countries.ts';
import type { Reserve } from '../../contract/reserves.ts';
import { fileData, type LoadedBuild } from '../build.ts';
import type { Fact } from './fact.ts';
import type { Lexicon } from './lexicon.ts';
import type { Lang } from './text.ts';

export interface Point {
  date: string;
  value: number;
}

export interface Reading {
  key: string;
  value: number;
  /** The day the reading describes (a year's figures: `YYYY`). */
  date: string;
  fact: Fact;
}

export const MEASURE_IDS = ['gas_fill', 'spr', 'price', 'stress', 'country_stress', 'producer_share', 'import_dependence', 'autonomy', 'hhi'] as const;
export type MeasureId = (typeof MEASURE_IDS)[number];
const MEASURES: ReadonlySet<string> = new Set(MEASURE_IDS);
/** Whether a figure of the planner's table has readings an operation can compare, rank or follow. */
export const isMeasure = (id: string): id is MeasureId => MEASURES.has(id);

/** How a value is written: a percentage already, a share of one shown as a percentage, index points, or an amount in a unit. */
export type ValueKind = 'pct' | 'share' | 'index' | 'amount';

export interface Measure {
  id: MeasureId;
  kind: ValueKind;
  /** What the entities are: ranking sets and names. */
  entity: 'country2' | 'country3' | 'commodity';
  /** The unit an amount is written in (prices: USD/bbl). */
  unit(key: string): string;
  members(): string[];
  current(key: string): Reading | null;
  /** Whether a ranking over many entities reads them on one common date (daily series) rather than as published (indices with their own dates). */
  align: boolean;
  /** Dated observations, oldest first, when the data hold a series. */
  series?(key: string): readonly Point[] | null;
  /** The record of one observation of the series. */
  pointFact?(key: string, p: Point): Fact;
  /** The record of a stretch of the series (a change from `a` to `b`). */
  rangeFact?(key: string, a: Point, b: Point): Fact;
}

const commodityFact = (s: CommoditySheet, quote: string): Fact => ({ id: s.slug, type: 'commodity', title: s.name, url: `/v1/commodities/${s.slug}`, quote });
const countryFact = (p: CountryProfile, quote: string): Fact => ({ id: p.iso3, type: 'country', title: p.name, url: p.url, quote });

/** A metric of a reserve's time series: the measure's own (gas fill, the SPR's stock) or another of the same record. */
export type ReserveMetric = 'fill_pct' | 'volume' | 'days_of_cover';

/**
 * A reserve's time series of one metric. Gas storage is read by its fill and the SPR by its
 * stock; their other metrics (the volume in storage, days of cover) are readings of the same
 * record on the same day, each cited by its own address (the route returns one metric at a time).
 */
export function reserveMeasure(b: LoadedBuild, code: 'gas' | 'oil', metric: ReserveMetric = code === 'gas' ? 'fill_pct' : 'volume'): Measure {
  const series = (k: string) => b.reserves.get(`${code}/${k}`)?.series.metrics[metric]?.points ?? null;
  const titles = new Map<string, string>();
  const title = (k: string) => {
    let t = titles.get(k);
    if (t === undefined) titles.set(k, (t = fileData<Reserve>(b, `v1/reserves/${code}/${k}.json`)?.name ?? `${code}/${k}`));
    return t;
  };
  const ts = (k: string, from: string, to: string) =>
    `/v1/reserves/timeseries?commodity=${code}&country=${k}&from=${from}&to=${to}${metric === 'fill_pct' ? '' : `&metric=${metric}`}`;
  const pointFact = (k: string, p: Point): Fact => ({
    id: `${code}/${k}`,
    type: 'reserve',
    title: title(k),
    url: ts(k, p.date, p.date),
    quote: `date: ${p.date}; ${metric}: ${p.value}`,
  });
  return {
    id: code === 'gas' ? 'gas_fill' : 'spr',
    kind: code === 'gas' ? 'pct' : 'amount',
    entity: 'country2',
    align: true,
    unit: (k) => b.reserves.get(`${code}/${k}`)?.series.metrics[metric]?.unit ?? '',
    members: () =>
      [...b.reserves.keys()]
        .filter((k) => k.startsWith(`${code}/`) && k !== `${code}/eu`)
        .map((k) => k.slice(code.length + 1))
        .sort(),
    current(k) {
      const pts = series(k);
      const last = pts?.at(-1);
      return last ? { key: k, value: last.value, date: last.date, fact: pointFact(k, last) } : null;
    },
    series,
    pointFact,
    rangeFact: (k, a, z) => ({
      id: `${code}/${k}`,
      type: 'reserve',
      title: title(k),
      url: ts(k, a.date, z.date),
      quote: `${a.date} ${metric}: ${a.value}; ${z.date} ${metric}: ${z.value}`,
    }),
  };
}

function priceMeasure(lex: Lexicon): Measure {
  const sheet = (k: string) => lex.sheets.get(k);
  const unit = (k: string) => {
    const p = sheet(k)?.price;
    return p ? (p.unit ? `${p.currency}/${p.unit}` : p.currency) : '';
  };
  return {
    id: 'price',
    kind: 'amount',
    entity: 'commodity',
    align: true,
    unit,
    members: () => [...lex.sheets.values()].filter((s) => s.price).map((s) => s.slug),
    current(k) {
      const s = sheet(k);
      if (!s?.price) return null;
      return {
        key: k,
        value: s.price.value,
        date: s.price.as_of,
        fact: commodityFact(s, `price: ${s.price.value} ${unit(k)} (as_of ${s.price.as_of}; ${s.price.benchmark})`),
      };
    },
    series: (k) => sheet(k)?.price_history?.points ?? null,
    pointFact: (k, p) => commodityFact(sheet(k)!, `price_history ${p.date}: ${p.value} ${unit(k)}`),
    rangeFact: (k, a, z) => commodityFact(sheet(k)!, `price_history ${a.date}: ${a.value} ${unit(k)}; ${z.date}: ${z.value} ${unit(k)}`),
  };
}

const indexPoints = (h: readonly { date: string; index: number | null }[] | undefined): Point[] =>
  (h ?? []).filter((p) => p.index !== null).map((p) => ({ date: p.date, value: p.index! }));

function stressMeasure(lex: Lexicon): Measure {
  const history = new Map<string, Point[]>();
  const series = (k: string) => {
    let h = history.get(k);
    if (!h) history.set(k, (h = indexPoints(lex.sheets.get(k)?.stress_history)));
    return h;
  };
  return {
    id: 'stress',
    kind: 'index',
    entity: 'commodity',
    align: false,
    unit: () => '',
    members: () => [...lex.sheets.values()].filter((s) => s.stress_index !== null).map((s) => s.slug),
    current(k) {
      const s = lex.sheets.get(k);
      if (!s || s.stress_index === null) return null;
      return {
        key: k,
        value: s.stress_index,
        date: s.stress.as_of,
        fact: commodityFact(s, `stress_index: ${s.stress_index} (${s.stress_band}; as_of ${s.stress.as_of})`),
      };
    },
    series,
    pointFact: (k, p) => commodityFact(lex.sheets.get(k)!, `stress_history ${p.date}: ${p.value}`),
    rangeFact: (k, a, z) => commodityFact(lex.sheets.get(k)!, `stress_history ${a.date}: ${a.value}; ${z.date}: ${z.value}`),
  };
}

function countryStressMeasure(lex: Lexicon): Measure {
  const history = new Map<string, Point[]>();
  const series = (k: string) => {
    let h = history.get(k);
    if (!h) history.set(k, (h = indexPoints(lex.profiles.get(k)?.stress_history)));
    return h;
  };
  return {
    id: 'country_stress',
    kind: 'index',
    entity: 'country3',
    align: false,
    unit: () => '',
    members: () => [...lex.profiles.values()].filter((p) => p.stress_index !== null).map((p) => p.iso3),
    current(k) {
      const p = lex.profiles.get(k);
      if (!p || p.stress_index === null) return null;
      return {
        key: k,
        value: p.stress_index,
        date: p.stress?.as_of ?? p.updated_at ?? '',
        fact: countryFact(p, `stress_index: ${p.stress_index}; stress_band: ${p.stress_band}`),
      };
    },
    series,
    pointFact: (k, pt) => countryFact(lex.profiles.get(k)!, `stress_history ${pt.date}: ${pt.value}`),
    rangeFact: (k, a, z) => countryFact(lex.profiles.get(k)!, `stress_history ${a.date}: ${a.value}; ${z.date}: ${z.value}`),
  };
}

/** A country's figure for one commodity from its profile (import dependence, self-sufficiency). */
function profileMeasure(lex: Lexicon, slug: string, kind: 'import_dependence' | 'autonomy'): Measure {
  const row = (k: string) => {
    const p = lex.profiles.get(k);
    if (!p) return null;
    if (kind === 'autonomy') {
      const a = p.autonomy.find((x) => x.commodity === slug);
      return a ? { value: a.ratio, year: a.year, quote: `autonomy ${slug} (${a.year}): ratio ${a.ratio}` } : null;
    }
    const e = p.exposures.find((x) => x.commodity === slug && x.import_dependence !== null);
    if (e) return { value: e.import_dependence!, year: e.year, quote: `exposures ${slug} (${e.year}): import_dependence ${e.import_dependence}` };
    // A mineral: USGS net import reliance, where the profile publishes it (the United States).
    const m = p.mineral_exposures.find((x) => x.commodity === slug && x.net_import_reliance !== null);
    if (!m) return null;
    // "Other countries" is a remainder, not a source: the largest named one.
    const top = m.suppliers.find((x) => x.iso3);
    const from = top ? `; suppliers: ${top.name} ${top.value}` : '';
    return { value: m.net_import_reliance!, year: m.year, quote: `mineral_exposures ${slug} (${m.year}): net_import_reliance ${m.net_import_reliance}${from}` };
  };
  return {
    id: kind,
    kind: 'share',
    entity: 'country3',
    align: false,
    unit: () => '',
    members: () => [...lex.profiles.keys()].filter((k) => row(k)),
    current(k) {
      const r = row(k);
      return r ? { key: k, value: r.value, date: String(r.year), fact: countryFact(lex.profiles.get(k)!, r.quote) } : null;
    },
  };
}

function producerMeasure(lex: Lexicon, slug: string): Measure {
  const t = lex.sheets.get(slug)?.producers;
  return {
    id: 'producer_share',
    kind: 'share',
    entity: 'country3',
    align: false,
    unit: () => '',
    members: () => t?.entries.map((e) => e.iso3) ?? [],
    current(k) {
      const s = lex.sheets.get(slug)!;
      const i = t?.entries.findIndex((e) => e.iso3 === k) ?? -1;
      if (!t || i < 0) return null;
      const e = t.entries[i]!;
      return {
        key: k,
        value: e.share,
        date: String(t.year),
        fact: commodityFact(s, `producers ${t.year} (${t.basis}): ${e.name} ${e.value} ${t.unit}, share ${e.share}`),
      };
    },
  };
}

function hhiMeasure(lex: Lexicon): Measure {
  return {
    id: 'hhi',
    kind: 'index',
    entity: 'commodity',
    align: false,
    unit: () => '',
    members: () => [...lex.sheets.values()].filter((s) => s.concentration).map((s) => s.slug),
    current(k) {
      const s = lex.sheets.get(k);
      const c = s?.concentration;
      return s && c
        ? { key: k, value: c.hhi, date: String(c.year), fact: commodityFact(s, `concentration ${c.year} (${c.basis}): hhi ${c.hhi} (${c.band})`) }
        : null;
    },
  };
}

export function measureOf(b: LoadedBuild, lex: Lexicon, id: MeasureId, slug?: string): Measure | null {
  switch (id) {
    case 'gas_fill':
      return reserveMeasure(b, 'gas');
    case 'spr':
      return reserveMeasure(b, 'oil');
    case 'price':
      return priceMeasure(lex);
    case 'stress':
      return stressMeasure(lex);
    case 'country_stress':
      return countryStressMeasure(lex);
    case 'hhi':
      return hhiMeasure(lex);
    case 'producer_share':
      return slug && lex.sheets.get(slug)?.producers ? producerMeasure(lex, slug) : null;
    case 'import_dependence':
    case 'autonomy':
      return slug ? profileMeasure(lex, slug, id) : null;
  }
}

/** A measure's reading on a day: its observation on or before it, with the record of that observation. */
export function readingAt(m: Measure, key: string, date: string): Reading | null {
  const pt = m.series && m.pointFact ? onOrBefore(m.series(key) ?? [], date) : null;
  return pt ? { key, value: pt.value, date: pt.date, fact: m.pointFact!(key, pt) } : null;
}

/** The last point on or before `date` (points in date order). */
export function onOrBefore<P extends { date: string }>(points: readonly P[], date: string): P | null {
  let lo = 0;
  let hi = points.length - 1;
  let best: P | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const pt = points[mid]!;
    if (pt.date <= date) {
      best = pt;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}

const regionNames = new Map<Lang, Intl.DisplayNames>();
function regionName(iso2: string, lang: Lang): string | undefined {
  let n = regionNames.get(lang);
  if (!n) regionNames.set(lang, (n = new Intl.DisplayNames([lang], { type: 'region' })));
  try {
    return n.of(iso2.toUpperCase());
  } catch {
    return undefined;
  }
}

/** A country's name in a language: its profile's, else the usual one, else CLDR's (Intl). */
export function countryNameOf(b: LoadedBuild, lex: Lexicon, iso3: string, lang: Lang): string {
  const own = NAME_OVERRIDES[iso3]?.[lang] ?? lex.profiles.get(iso3)?.names[lang];
  if (own) return own;
  const iso2 = b.countries.get(iso3)?.iso2;
  return (iso2 && regionName(iso2, lang)) ?? b.countries.get(iso3)?.name ?? iso3;
}

/** An entity's name in a language (EU aggregate, country by alpha-2 or alpha-3, commodity). */
export function entityName(b: LoadedBuild, lex: Lexicon, m: Pick<Measure, 'entity'>, key: string, lang: Lang, eu: string): string {
  if (m.entity === 'commodity') return lex.sheets.get(key)?.names[lang] ?? key;
  if (key === 'eu') return eu;
  const iso3 = m.entity === 'country2' ? lex.iso2to3.get(key) : key;
  return iso3 ? countryNameOf(b, lex, iso3, lang) : key.toUpperCase();
}
