/**
 * Which figures a question is about: ONE ordered table of rules, read by every operation. A
 * lookup reads every figure the table picks (lookup.ts), in the table's order; a comparison, a
 * ranking, a threshold, a change or a band list carries itself out over the first of them that
 * is a measure with readings (plan.ts). A pick is a multi-(measure, key) lookup: the measure and
 * the commodities and countries it is read for (the US SPR with its stock and days of cover, gas
 * storage with its target, a scenario list filtered by commodity, country and status).
 *
 * Before this table there were two planners with different rules (plan.ts `chooseMeasure` took
 * one measure, the first rule that matched; grounded.ts read records directly, every rule that
 * matched adding its sentences). Where they disagreed, the table now decides one way for both:
 *
 * - Gas storage: plan.ts only when every commodity named was gas; grounded.ts when any was and
 *   none was oil ("gas and copper storage": gas storage and copper's reserves in the ground).
 *   Now grounded.ts's rule. "Storage" of a metal (its reserves in the ground) was no measure in
 *   plan.ts ("how did copper storage change" changed the copper price); now a ranking or change
 *   of it is no operation, and the lookup gives the reserves in the ground.
 * - The SPR: plan.ts took it for storage or volume words beside oil, grounded.ts for days of
 *   cover too. Now both (cover is a figure of the SPR).
 * - Self-sufficiency and import dependence both asked: plan.ts took import dependence,
 *   grounded.ts self-sufficiency only. Now self-sufficiency (grounded.ts's rule).
 * - Several figures asked: plan.ts's precedence (import dependence, self-sufficiency,
 *   concentration, price, stress, producers) against grounded.ts's order of sentences (price,
 *   stress, self-sufficiency or imports, producers, concentration). Now one order, plan.ts's:
 *   a lookup asking for several says them in that order.
 * - Nothing asked for by name: plan.ts compared prices of two commodities (whatever else was
 *   named) and gas storage of two countries when all had it, else their stress index, and
 *   followed a commodity's price over time; grounded.ts read, per commodity and country named,
 *   gas storage, the production share or the import dependence; per commodity, price and stress;
 *   per country, stress and gas storage. Now grounded.ts's readings (a country's gas storage
 *   before its stress index), and an operation takes the first of them that every entity named
 *   has (two countries: gas storage when both have it, else the stress index, as before).
 * - Scenarios and events: no measure of plan.ts, so grounded.ts kept the planner away from any
 *   question asking for them. Now they are figures of the table (lists), and a question whose
 *   picks hold a list is a lookup.
 */
import type { LoadedBuild } from '../build.ts';
import type { Intent } from './intent.ts';
import type { Lexicon } from './lexicon.ts';
import type { MeasureId } from './measures.ts';
import type { CountryRef, Metric, Recognised } from './recognise.ts';

/** A figure the table can pick: a measure (with readings) or a list of records (read by the lookup only). */
export type FigureId = MeasureId | 'reserves_in_ground' | 'scenarios' | 'events';

/** Figures an operation cannot rank, compare or follow: a question asking for one is a lookup. */
export const LISTS: ReadonlySet<FigureId> = new Set(['scenarios', 'events']);

/** A figure and what it is read for. */
export interface Pick {
  id: FigureId;
  commodities: string[];
  countries: CountryRef[];
}

export const GAS: ReadonlySet<string> = new Set(['energy.gas', 'energy.lng']);
export const OIL: ReadonlySet<string> = new Set(['energy.oil', 'energy.wti']);
/** The commodities whose events count for one: Brent and WTI together, European gas and LNG together. */
export const kin = (slug: string): readonly string[] => (OIL.has(slug) ? [...OIL] : GAS.has(slug) ? [...GAS] : [slug]);
const US: CountryRef = { iso3: 'USA', iso2: 'us' };
const EU: CountryRef = { iso3: null, iso2: 'eu' };

/** What the rules read from a question, computed once. */
interface Slots {
  b: LoadedBuild;
  lex: Lexicon;
  r: Recognised;
  intent: Intent;
  has(m: Metric): boolean;
  /** Storage, volume or days-of-cover words: a reserve is asked for. */
  reserve: boolean;
  /** Countries named with a profile code (not the EU). */
  iso3s: CountryRef[];
  /** Commodities named other than gas and oil (their "storage" is reserves in the ground). */
  metals: string[];
  /** A figure asked for by name (or the SPR). */
  explicit: boolean;
}

const FIGURES_NAMED: readonly Metric[] = [
  'price',
  'storage',
  'stress',
  'volume',
  'cover',
  'producer',
  'imports',
  'autonomy',
  'concentration',
  'reserves_in_ground',
];

/** One rule: the figure, and what it is read for when the rule holds (nothing when it does not). */
interface Rule {
  id: FigureId;
  picks(s: Slots): Omit<Pick, 'id'>[];
}

const one = (commodities: string[], countries: CountryRef[] = []) => [{ commodities, countries }];
const when = (test: boolean, picks: () => Omit<Pick, 'id'>[]) => (test ? picks() : []);

/**
 * The rules in order of precedence: an operation takes the first figure picked (that every
 * entity named has), a lookup reads every one in this order.
 */
const RULES: readonly Rule[] = [
  // The strategic petroleum reserve, the only oil reserve in the data (other countries named: said missing).
  {
    id: 'spr',
    picks: (s) =>
      when(s.r.spr || (s.reserve && s.r.commodities.some((c) => OIL.has(c))), () => {
        const others = s.r.countries.filter((c) => c.iso2 !== 'us');
        return one([], others.length && !s.r.countries.some((c) => c.iso2 === 'us') ? others : [...others, US]);
      }),
  },
  // Gas storage of the countries named, else the EU.
  {
    id: 'gas_fill',
    picks: (s) =>
      when(s.reserve && !s.r.spr && !s.r.commodities.some((c) => OIL.has(c)) && (s.r.commodities.length === 0 || s.r.commodities.some((c) => GAS.has(c))), () =>
        one([], s.r.countries.length ? s.r.countries : [EU]),
      ),
  },
  {
    id: 'reserves_in_ground',
    picks: (s) =>
      when(s.has('reserves_in_ground') || (s.reserve && !s.r.spr && s.metals.length > 0), () => one(s.has('reserves_in_ground') ? s.r.commodities : s.metals)),
  },
  { id: 'import_dependence', picks: (s) => when(s.has('imports') && !s.has('autonomy'), () => one(s.r.commodities, s.iso3s)) },
  { id: 'autonomy', picks: (s) => when(s.has('autonomy'), () => one(s.r.commodities, s.iso3s)) },
  { id: 'hhi', picks: (s) => when(s.has('concentration'), () => one(s.r.commodities)) },
  { id: 'price', picks: (s) => when(s.has('price'), () => one(s.r.commodities)) },
  // A stress index: of the commodities named (or asked of commodities), else of the countries named (or asked of countries).
  {
    id: 'stress',
    picks: (s) =>
      when(s.has('stress') && (s.r.commodities.length > 0 || s.intent.set === 'commodities' || !(s.iso3s.length || s.intent.set === 'countries')), () =>
        one(s.r.commodities),
      ),
  },
  {
    id: 'country_stress',
    picks: (s) =>
      when(s.has('stress') && s.r.commodities.length === 0 && s.intent.set !== 'commodities' && (s.iso3s.length > 0 || s.intent.set === 'countries'), () =>
        one([], s.iso3s),
      ),
  },
  // Producers (not when the words were those of concentration, imports or self-sufficiency: "supplier concentration").
  {
    id: 'producer_share',
    picks: (s) => when(s.has('producer') && !s.has('concentration') && !s.has('imports') && !s.has('autonomy'), () => one(s.r.commodities, s.r.countries)),
  },
  { id: 'scenarios', picks: (s) => when(s.has('scenario'), () => one(s.r.commodities, s.iso3s)) },
  // Events: asked for, or a category of them named without a figure ("recent sanctions on oil").
  {
    id: 'events',
    picks: (s) =>
      when(s.has('event') || (s.intent.categories.length > 0 && !FIGURES_NAMED.some((m) => s.has(m)) && !s.r.spr), () => one(s.r.commodities, s.iso3s)),
  },
];

/** Nothing asked for by name: the usual figures of what is named, per commodity and country. */
function usual(s: Slots): Pick[] {
  const { r, b, lex } = s;
  if (r.commodities.length && s.iso3s.length)
    return r.commodities.flatMap((c) =>
      r.countries.flatMap((ref): Pick[] => {
        if (GAS.has(c) && b.reserves.has(`gas/${ref.iso2}`)) return [{ id: 'gas_fill', commodities: [], countries: [ref] }];
        if (lex.sheets.get(c)?.producers?.entries.some((e) => e.iso3 === ref.iso3)) return [{ id: 'producer_share', commodities: [c], countries: [ref] }];
        return ref.iso3 ? [{ id: 'import_dependence', commodities: [c], countries: [ref] }] : [];
      }),
    );
  if (r.commodities.length)
    return r.commodities.flatMap((c): Pick[] => [
      { id: 'price', commodities: [c], countries: [] },
      { id: 'stress', commodities: [c], countries: [] },
    ]);
  return r.countries.flatMap((ref): Pick[] => [
    ...(b.reserves.has(`gas/${ref.iso2}`) ? [{ id: 'gas_fill' as const, commodities: [], countries: [ref] }] : []),
    ...(ref.iso3 ? [{ id: 'country_stress' as const, commodities: [], countries: [ref] }] : []),
  ]);
}

/** The figures a question is about, in order of precedence. */
export function choose(b: LoadedBuild, lex: Lexicon, r: Recognised, intent: Intent): Pick[] {
  const s: Slots = {
    b,
    lex,
    r,
    intent,
    has: (m) => r.metrics.has(m),
    reserve: r.metrics.has('storage') || r.metrics.has('volume') || r.metrics.has('cover'),
    iso3s: r.countries.filter((c) => c.iso3),
    metals: r.commodities.filter((c) => !GAS.has(c) && !OIL.has(c) && c !== 'energy.usgas'),
    explicit: r.metrics.size > 0 || r.spr,
  };
  const picked = RULES.flatMap((rule) => rule.picks(s).map((p) => ({ id: rule.id, ...p })));
  // Without a figure named only a list can be picked (events of a category): then the usual figures.
  return s.explicit ? picked : [...picked, ...usual(s)];
}

/** Whether a figure was asked for by name (else the usual figures of what is named were picked). */
export const asksFigure = (r: Recognised) => r.metrics.size > 0 || r.spr;

/**
 * The figure an operation is carried out over: the first picked that every entity named has (of
 * two countries named without a figure, gas storage when both have it, else the stress index),
 * else the first; none when the question asks for a list (scenarios, events), or names no
 * figure and asks for neither a comparison nor a change (over commodities only).
 */
export function leading(picks: readonly Pick[], r: Recognised, intent: Intent): Pick | null {
  if (picks.some((p) => LISTS.has(p.id))) return null;
  if (!asksFigure(r)) {
    const op = intent.op.kind;
    if (!(op === 'compare' || (op === 'change' && r.commodities.length > 0 && r.countries.length === 0))) return null;
  }
  const ids = [...new Set(picks.map((p) => p.id))];
  const covers = (id: FigureId) => {
    const of = picks.filter((p) => p.id === id);
    const commodities = new Set(of.flatMap((p) => p.commodities));
    const countries = new Set(of.flatMap((p) => p.countries.map((c) => c.iso2)));
    return (
      (of.every((p) => p.commodities.length === 0) || r.commodities.every((c) => commodities.has(c))) &&
      (of.every((p) => p.countries.length === 0) || r.countries.every((c) => countries.has(c.iso2)))
    );
  };
  const id = ids.find(covers) ?? ids[0];
  if (!id) return null;
  const of = picks.filter((p) => p.id === id);
  return { id, commodities: [...new Set(of.flatMap((p) => p.commodities))], countries: of.flatMap((p) => p.countries) };
}
