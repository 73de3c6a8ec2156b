/**
 * What a question asks to be done with the figures it names, read from its folded words in the
 * four languages: a comparison, a ranking, a threshold filter, a change over a period, an
 * explanation of an index, or a plain lookup. The slots (commodities, countries, metric, date)
 * are read by recognise.ts; this module reads the operation and the slots it adds (order, count,
 * bound, period, the set a ranking runs over, event categories).
 */
import { EVENT_CATEGORIES, type EventCategory } from '../../contract/content.ts';
import type { StressBand } from '../../contract/stress.ts';
import { LANGS } from '../../contract/languages.ts';
import { cue, cueSource, entries, group, PACKS } from './lang/index.ts';
import type { CommodityGroup as Group, PeriodUnit } from './lang/pack.ts';
import { fold, type Lang } from './text.ts';

export type Operation =
  | { kind: 'compare' }
  | { kind: 'rank'; order: 'max' | 'min'; n: number | null }
  | { kind: 'threshold'; op: '<' | '>'; value: number }
  | { kind: 'change'; months: number; days: number; since: string | null }
  | { kind: 'explain' }
  | { kind: 'lookup' };

/** What a ranking or a filter runs over when the question names a kind of thing rather than things. */
export type SetKind = 'countries' | 'commodities' | null;
export type CommodityGroup = Group | null;

export interface Intent {
  op: Operation;
  /** Which end a superlative or comparative word asks for (max when none). */
  order: 'max' | 'min';
  set: SetKind;
  group: CommodityGroup;
  /** A date given relative to the day of the question ("one year ago", "il y a un mois"). */
  ago: { months: number; days: number } | null;
  categories: EventCategory[];
  /** "recent", "latest": newest first (the default order of event lists anyway). */
  recent: boolean;
  /** A stress band named ("high", "élevé", "hoch", "alto"): a list of the members in it. */
  band: StressBand | null;
}

const NUMBER_WORDS: Record<string, number> = Object.assign({}, ...LANGS.map((l) => PACKS[l].numbers));
const countWord = (s: string | undefined): number | null => (s === undefined ? null : /^\d+$/.test(s) ? Number(s) : (NUMBER_WORDS[s] ?? null));
const COUNT = `(\\d{1,2}|${Object.keys(NUMBER_WORDS).join('|')})`;

/** Period units, as [months, days]. */
const UNIT_SPANS: Record<PeriodUnit, [number, number]> = { year: [12, 0], quarter: [3, 0], month: [1, 0], week: [0, 7], day: [0, 1] };
const UNITS = (Object.entries(UNIT_SPANS) as [PeriodUnit, [number, number]][]).map(
  ([u, [months, days]]) => [new RegExp(`^${group((p) => p.units[u])}$`), months, days] as const,
);
const UNIT = `(${Object.keys(UNIT_SPANS)
  .flatMap((u) => entries((p) => p.units[u as PeriodUnit]))
  .join('|')})`;
function period(unit: string, count: number): { months: number; days: number } {
  const u = UNITS.find(([re]) => re.test(unit));
  return u ? { months: u[1] * count, days: u[2] * count } : { months: 0, days: 0 };
}
/** A pack's template with its `{COUNT}` and `{UNIT}` capture groups filled in. */
const template = (src: string) => new RegExp(src.replaceAll('{COUNT}', COUNT).replaceAll('{UNIT}', UNIT));

/** "one year ago", "il y a un mois", "vor einem Jahr", "hace 3 meses". */
const AGO = LANGS.flatMap((l) => PACKS[l].ago.map(template));
/** "over the last month", "in the past 3 months", "au cours des 12 derniers mois", "in den letzten 6 Monaten", "en el último año". */
const LAST = LANGS.flatMap((l) => PACKS[l].last.map(template));
const YEAR_ON_YEAR = cue((p) => p.yearOnYear);
/** "over the last month", "au cours des derniers mois", "in den letzten", "durante el último año": a period to measure a change over. */
const OVER = new RegExp(`\\b${group((p) => p.overBefore)}\\s+(?:the\\s+)?(?:\\d+\\s+)?${group((p) => p.overLast)}\\b`);
const SINCE = cue((p) => p.since);
const CHANGE = cue((p) => p.change);
const EXPLAIN = cue((p) => p.explain);
const COMPARE = cue((p) => p.compare);
/** What makes a comparison of a superlative-looking word: "than", "plus … que", "más … que", "als", "X or Y". */
const COMPARATIVE = cue((p) => p.comparative);
/** "the most", "le plus", "el más": a superlative even beside a comparative word. */
const DEFINITE_SUPERLATIVE = cue((p) => p.definiteSuperlative);
/** Superlatives: the word and which end of the ranking it asks for. */
const SUPER_MIN = cue((p) => p.superMin);
const SUPER_MAX = cue((p) => p.superMax);
/** "most" beside a word of the low end ("the most … least" is rare; "le plus bas" is the low end itself). */
const MAX_OVERRIDE = cue((p) => p.maxOverride);
const RANKING = cue((p) => p.ranking);
/** "top 5", "les 5", "die 3", "los 5", "five most", "5 countries". */
const TOP_N = new RegExp(`\\b${group((p) => p.topBefore)}\\s+${COUNT}\\b|\\b${COUNT}\\s+${group((p) => p.topAfter)}\\b`);

/** "below 20 %", "plus de 80 %", "unter 30 Prozent", "por encima del 50 %". */
const BELOW = group((p) => p.below);
const ABOVE = group((p) => p.above);
const THRESHOLD = new RegExp(`\\b(${BELOW}|${ABOVE})\\s+(\\d+(?:[.,]\\d+)?)\\s*(${entries((p) => p.percent).join('|')})?`);
const IS_BELOW = new RegExp(`^${BELOW}$`);

const COUNTRY_SET = cue((p) => p.countrySet);
const COMMODITY_SET = cue((p) => p.commoditySet);
const GROUPS = (['metals', 'energy', 'agri'] as const).map((g) => [g, cue((p) => p.groups[g])] as const);
/** The order in which category words are tried (the first that matches comes first in the answer). */
const CATEGORY_RANK: Readonly<Record<EventCategory, number>> = { sanction: 0, conflict: 1, catastrophe: 2, policy: 3, infrastructure: 4 };
const CATEGORY_ORDER = EVENT_CATEGORIES.toSorted((a, b) => CATEGORY_RANK[a] - CATEGORY_RANK[b]);
const CATEGORIES = CATEGORY_ORDER.map((c) => [c, cue((p) => p.categories[c])] as const);
/** Category words of one language only (English "war" is German "was"). */
const OWN_CATEGORIES = Object.fromEntries(
  LANGS.map((l) => [l, CATEGORY_ORDER.filter((c) => PACKS[l].ownCategories[c]).map((c) => [c, new RegExp(cueSource(PACKS[l].ownCategories[c]!))] as const)]),
) as Record<Lang, (readonly [EventCategory, RegExp])[]>;
/** The stress bands by name, with their inflections (the first that matches wins). */
const BANDS = (['severe', 'high', 'moderate', 'low'] as const satisfies readonly StressBand[]).map((band) => [band, cue((p) => p.bands[band])] as const);
const RECENT = cue((p) => p.recent);

/** What the rules of the operations read from a question (folded), computed once. */
interface Clues {
  t: string;
  /** A date relative to the day of the question ("one year ago"). */
  ago: Intent['ago'];
  /** A period named ("the last 6 months", "year on year"). */
  last: { months: number; days: number } | null;
  since: boolean;
  order: 'max' | 'min';
}

/** The period "the last …" names, or a year for "year on year". */
function lastPeriod(t: string): Clues['last'] {
  for (const re of LAST) {
    const m = re.exec(t);
    if (m) {
      const unit = m.slice(1).find((g) => g !== undefined && UNITS.some(([u]) => u.test(g)));
      const count = m.slice(1).find((g) => g !== undefined && countWord(g) !== null && !UNITS.some(([u]) => u.test(g)));
      if (unit) return period(unit, countWord(count) ?? 1);
      break;
    }
  }
  return YEAR_ON_YEAR.test(t) ? { months: 12, days: 0 } : null;
}

/**
 * The operations in the order they are tried: the first whose rule reads the question wins. A
 * bound with a number is a filter before anything else; "why" before a change; a change (a word of
 * movement, "since", a period) before a superlative; a superlative unless it is a comparative
 * ("plus … que", "more than"); a comparison; else a lookup. `lastIsDate`: for the operations after
 * a change, a period named without a word of change is the date that long ago ("the price last
 * month").
 */
const OPERATIONS: readonly { kind: Operation['kind']; lastIsDate: boolean; read: (c: Clues) => Operation | null }[] = [
  {
    kind: 'threshold',
    lastIsDate: false,
    read: ({ t }) => {
      const th = THRESHOLD.exec(t);
      const value = th ? Number(th[2]!.replace(',', '.')) : NaN;
      // "in 2024" is a year, not a bound.
      if (!th || (value >= 1900 && !th[3])) return null;
      return { kind: 'threshold', op: IS_BELOW.test(th[1]!) ? '<' : '>', value };
    },
  },
  { kind: 'explain', lastIsDate: false, read: ({ t }) => (EXPLAIN.test(t) ? { kind: 'explain' } : null) },
  {
    kind: 'change',
    lastIsDate: false,
    read: ({ t, ago, last, since }) => {
      if (ago || !(CHANGE.test(t) || since || (last && OVER.test(t)) || YEAR_ON_YEAR.test(t))) return null;
      const p = last ?? { months: since ? 0 : 1, days: 0 };
      return { kind: 'change', months: p.months, days: p.days, since: since ? 'named' : null };
    },
  },
  {
    kind: 'rank',
    lastIsDate: true,
    read: ({ t, order }) => {
      const top = TOP_N.exec(t);
      if (!(SUPER_MIN.test(t) || SUPER_MAX.test(t) || RANKING.test(t) || top)) return null;
      // "plus … que", "mas … que", "more than": a comparison, not a superlative.
      if (COMPARATIVE.test(t) && !DEFINITE_SUPERLATIVE.test(t) && !RANKING.test(t) && !top) return null;
      return { kind: 'rank', order, n: top ? countWord(top[1] ?? top[2]) : null };
    },
  },
  { kind: 'compare', lastIsDate: true, read: ({ t }) => (COMPARE.test(t) ? { kind: 'compare' } : null) },
  { kind: 'lookup', lastIsDate: true, read: () => ({ kind: 'lookup' }) },
];

/** The operation and the extra slots of a question (folded words; see recognise.ts for the rest). */
export function readIntent(question: string, lang: Lang = 'en'): Intent {
  const t = fold(question);
  const categories: EventCategory[] = CATEGORIES.filter(([, re]) => re.test(t)).map(([c]) => c);
  for (const [c, re] of OWN_CATEGORIES[lang]) if (re.test(t) && !categories.includes(c)) categories.push(c);
  let ago: Intent['ago'] = null;
  for (const re of AGO) {
    const m = re.exec(t);
    if (m) {
      ago = period(m[2]!, countWord(m[1]) ?? 1);
      break;
    }
  }
  const set: SetKind = COMMODITY_SET.test(t) ? 'commodities' : COUNTRY_SET.test(t) ? 'countries' : null;
  const group = set === 'commodities' ? (GROUPS.find(([, re]) => re.test(t))?.[0] ?? null) : null;
  const order = SUPER_MIN.test(t) && !MAX_OVERRIDE.test(t) ? ('min' as const) : ('max' as const);
  const clues: Clues = { t, ago, last: lastPeriod(t), since: SINCE.test(t), order };
  const recent = RECENT.test(t);
  const band = BANDS.find(([, re]) => re.test(t))?.[0] ?? null;
  for (const rule of OPERATIONS) {
    const op = rule.read(clues);
    if (op) return { set, group, ago: rule.lastIsDate ? (ago ?? clues.last) : ago, categories, recent, band, order, op };
  }
  throw new Error('unreachable: the lookup rule always reads');
}

/** The day `p` before `iso` (calendar months, then days). */
export function minusPeriod(iso: string, p: { months: number; days: number }): string {
  const d = new Date(`${iso}T00:00:00Z`);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - p.months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  d.setUTCDate(d.getUTCDate() - p.days);
  return d.toISOString().slice(0, 10);
}
