/**
 * How old a figure's series is, in words, for the notes on figures and charts (docs/freshness.md).
 * "Today" is the build clock: pages are rebuilt every 15 minutes and carry their build time.
 */
import type { Meta, SourceRef } from '../../../contract/common.ts';
import { ageText } from '../../../contract/freshness.ts';
import { site } from './data';
import { date } from '../../../lib/format.ts';

export const today = site.today;

/** How a note names a source's data: "EIA weekly data ends 27 Feb 2026". */
export const SOURCE_LABEL: Record<string, string> = {
  'eia-oil-prices': 'EIA spot price data',
  'eia-henry-hub': 'EIA Henry Hub data',
  'eia-weekly-petroleum': 'EIA weekly data',
  'worldbank-pink-sheet': 'World Bank Pink Sheet data',
  'imf-commodity-prices': 'IMF commodity price data',
  'gie-agsi-gas-storage': 'AGSI+ storage data',
  'the-de-gas-consumption': 'THE consumption data',
  'usgs-mcs-2026': 'USGS Mineral Commodity Summaries data',
  'ei-statistical-review-2024': 'Energy Institute Statistical Review 2024 data',
  'eurostat-gas-imports-by-partner': 'Eurostat gas import data',
  'country-codes': 'Country code data',
};

export const FRESHNESS_LABEL: Record<string, string> = {
  current: 'Current',
  late: 'Late',
  stale: 'Stale',
  historical: 'Historical (will not update)',
  discontinued: 'Discontinued',
};

/** ageText against the build date; empty for a date the build will reject at validation anyway. */
export function age(d: string): string {
  try {
    return ageText(d, today);
  } catch {
    return '';
  }
}

export interface AgeNote {
  source: string;
  freshness: 'late' | 'stale';
  text: string;
}

type Dated = Pick<SourceRef, 'id' | 'data_as_of' | 'freshness' | 'expected_next'>;

/** The note for a late or stale series: "EIA weekly data ends 27 Feb 2026, 9 months ago (stale: …)"; null otherwise. */
export function ageNote(s: Dated): AgeNote | null {
  if ((s.freshness !== 'late' && s.freshness !== 'stale') || !s.data_as_of) return null;
  const label = SOURCE_LABEL[s.id] ?? s.id;
  const due = s.expected_next ? `; the next release was due by ${date(s.expected_next)}` : '';
  return { source: s.id, freshness: s.freshness, text: `${label} ends ${date(s.data_as_of)}, ${age(s.data_as_of)} (${s.freshness}${due}).` };
}

/** The notes of a payload's late or stale sources, optionally only those in `ids`. */
export function ageNotes(meta: Pick<Meta, 'sources'>, ids?: readonly string[]): AgeNote[] {
  return meta.sources
    .filter((s) => !ids || ids.includes(s.id))
    .map(ageNote)
    .filter((n): n is AgeNote => n !== null);
}
