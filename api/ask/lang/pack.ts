/**
 * What the answerer knows of one language: the words that give it away, the cues that ask for a
 * metric, an operation or a set, and the sentences of its answers. One file per language
 * (api/ask/lang/<lang>.ts) satisfies this type; lang/index.ts keys them by the contract's `Lang`,
 * so a language added to `Lang` does not compile until its pack exists, and a pack missing a cue
 * does not compile either. The matchers are compiled from the packs (see `cue` in lang/index.ts).
 *
 * Words are written folded (see `fold` in text.ts: lower case, no accents, ß → ss), as regular
 * expression source. A cue entry is a whole word or phrase (matched between word boundaries)
 * unless it starts with `*`: then it is matched anywhere (German compounds: …speicher, …preis).
 */
import type { EventCategory, ScenarioStatus } from '../../../contract/content.ts';
import type { StressBand } from '../../../contract/stress.ts';
import type { PackPhrases } from '../phrases.ts';
import type { PlanPhrases } from '../plan-phrases.ts';

/** The figures a question can ask for, in the order they are reported. */
export const METRICS = [
  'storage', 'cover', 'volume', 'price', 'stress', 'producer', 'reserves_in_ground', 'concentration', 'autonomy', 'imports', 'scenario', 'event',
] as const; // prettier-ignore
export type Metric = (typeof METRICS)[number];

/** Regular expression sources of words (folded); `*` first: matched inside words too. */
export type Cue = readonly string[];

export type PeriodUnit = 'year' | 'quarter' | 'month' | 'week' | 'day';
export type CommodityGroup = 'metals' | 'energy' | 'agri';

export interface LanguagePack {
  /** Function and question words that give the language away in a short question. */
  words: readonly string[];
  /** Letters and marks that give it away, with their weight. */
  letters: readonly (readonly [RegExp, number])[];
  /** The twelve months, January first; alternatives (abbreviations) separated by `|`. */
  months: readonly string[];
  /** Words that open or join the ends of a span ("between … and", "de … à"). */
  spanWords: Cue;
  /** Words before a year that make it a date ("in 2024", "fin 2023"). */
  yearWords: Cue;

  // ——— what is asked about ———
  metrics: Record<Metric, Cue>;
  statuses: Record<ScenarioStatus, Cue>;
  /** Topics outside the data (answered "the data cannot answer"). */
  outOfScope: Cue;
  /** Requests to reveal the answerer's instructions or to change its role. */
  instructions: Cue;
  /** Asking about the future. */
  forecast: Cue;
  /** The US Strategic Petroleum Reserve. */
  spr: Cue;
  /** Words after which a name follows ("the price of coffee", "le prix du café"), and the articles that may come between. */
  nameAfter: readonly string[];
  articles: readonly string[];
  /** Question words that name no topic (no help in judging a search hit). */
  generic: readonly string[];
  /** Heads of compounds a commodity name starts ("Ölpreis", "Gasspeicher"): prefixes of the tail. */
  compoundTails: readonly string[];

  // ——— the operation (see intent.ts) ———
  /** Number words of counts ("two", "deux"). */
  numbers: Readonly<Record<string, number>>;
  units: Record<PeriodUnit, Cue>;
  /** "{COUNT} {UNIT} ago": a date before the day of the question. `{COUNT}` and `{UNIT}` are the capture groups. */
  ago: readonly string[];
  /** "the last {COUNT} {UNIT}": the period a change is measured over. */
  last: readonly string[];
  yearOnYear: Cue;
  /** "over the last …": the word before and the word for "last". */
  overBefore: Cue;
  overLast: Cue;
  since: Cue;
  /** A word of movement (rise, fall, climb, dearer…): a "why" about a commodity asks why its price moved. */
  movement: Cue;
  /** "last year", "il y a un an": a "why" measured over a year rather than three months. */
  lastYear: Cue;
  change: Cue;
  explain: Cue;
  compare: Cue;
  /** What makes a comparison of a superlative-looking word ("than", "plus … que"). */
  comparative: Cue;
  /** A superlative with its article ("the most", "le plus"): a ranking even beside a comparative word. */
  definiteSuperlative: Cue;
  superMin: Cue;
  superMax: Cue;
  /** A high end that wins over a low-end word beside it. */
  maxOverride: Cue;
  ranking: Cue;
  /** "top 5", "les 5": words before a count; "5 countries": words after one. */
  topBefore: Cue;
  topAfter: Cue;
  below: Cue;
  above: Cue;
  /** Units of a bound ("percent", "points"): matched as written, not as words. */
  percent: readonly string[];
  countrySet: Cue;
  commoditySet: Cue;
  groups: Record<CommodityGroup, Cue>;
  categories: Record<EventCategory, Cue>;
  /** Category words that count only in a question in this language (English "war" is German "was"). */
  ownCategories: Partial<Record<EventCategory, Cue>>;
  bands: Record<StressBand, Cue>;
  recent: Cue;

  // ——— answers ———
  phrases: PackPhrases;
  plan: PlanPhrases;
}
