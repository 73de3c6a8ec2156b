import type { ComponentKey } from '../../contract/stress.ts';
import type { MeasureId } from './measures.ts';

/** The sentences of the planner's answers (comparisons, rankings, filters, changes, explanations), per language. Figures arrive formatted. */
export interface PlanPhrases {
  measure: Record<MeasureId, string>;
  /** "EU countries with data", "commodities", … : the set a ranking ran over, with its size. */
  set: { countries2: (n: string) => string; countries3: (n: string) => string; commodities: (n: string) => string };
  list: (items: string[]) => string;
  /** "Portugal 91.26%" */
  item: (name: string, value: string) => string;
  itemDated: (name: string, value: string, date: string) => string;
  compareCommon: (measure: string, date: string, items: string, top: string, diff: string) => string;
  compareLevel: (measure: string, date: string, items: string) => string;
  /** Readings on different dates and no common date in the series: compared as they are, said so. */
  compareApart: (measure: string, items: string, top: string) => string;
  newer: (items: string) => string;
  units: (items: string) => string;
  rank: (measure: string, order: 'max' | 'min', set: string, date: string | null, items: string) => string;
  commonDate: string;
  /** Said after a date the question named (rankings, filters): "the date asked". */
  askedDate: string;
  /** A comparison on the date the question named. */
  compareOn: (measure: string, date: string, items: string, top: string, diff: string) => string;
  /** A series without a reading on the date asked: the nearest earlier reading was taken. */
  earlier: (asked: string) => string;
  /** An explanation of a move: the events recorded on the commodity in the period (or no event). */
  whyEvents: (name: string, from: string, to: string, items: string) => string;
  whyNoEvent: (name: string, from: string, to: string) => string;
  effect: { tightening: string; easing: string };
  /** The members of a set in one stress band. */
  bandList: (measure: string, band: string, set: string, count: string, items: string) => string;
  bandNone: (measure: string, band: string, set: string) => string;
  /** A ranking on a date when only one member of the set has a reading then. */
  onlyOn: (set: string, date: string, items: string) => string;
  tied: (count: string, value: string) => string;
  missingOn: (names: string, date: string) => string;
  threshold: (measure: string, op: '<' | '>', bound: string, set: string, date: string | null, count: string, items: string) => string;
  thresholdNone: (measure: string, op: '<' | '>', bound: string, set: string, date: string | null, nearest: string) => string;
  change: (
    name: string,
    measure: string,
    to: string,
    toDate: string,
    dir: 'up' | 'down' | 'flat',
    diff: string,
    rel: string | null,
    from: string,
    fromDate: string,
  ) => string;
  seriesEnds: (date: string, days: string) => string;
  seriesStarts: (date: string) => string;
  points: string;
  pp: string;
  explainHead: (name: string, index: string, band: string, date: string) => string;
  explainPart: (points: string, label: string, detail: string) => string;
  explainNone: (label: string, detail: string) => string;
  explainOff: (label: string, reason: string) => string;
  explainCountryHead: (name: string, index: string, band: string) => string;
  explainFuel: (fuel: string, points: string, share: string, dep: string, stress: string) => string;
  component: Record<ComponentKey, string>;
  detail: {
    concentration: (supplier: string, share: string, basis: string, year: string, hhi: string) => string;
    price12: (pct: string) => string;
    reserves: (fill: string, norm: string) => string;
    events: (n: string) => string;
  };
}
