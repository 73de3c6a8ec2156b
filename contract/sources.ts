import { z } from 'zod';

/**
 * Every source the pipeline reads, by id (its folder under SOURCES_DIR and its id in
 * `meta.sources`). A figure's attribution names one of these; a typo is a type error, not a
 * silently missing citation.
 */
export const SOURCE_IDS = [
  'country-codes',
  'ei-statistical-review-2024',
  'ei-statistical-review-2026',
  'usgs-mcs-2026',
  'usgs-mcs-2022',
  'usgs-mcs-2023',
  'usgs-mcs-2024',
  'worldbank-pink-sheet',
  'imf-commodity-prices',
  'eia-oil-prices',
  'eia-henry-hub',
  'eia-weekly-petroleum',
  'gie-agsi-gas-storage',
  'the-de-gas-consumption',
  'eurostat-gas-imports-by-partner',
  'imf-portwatch-chokepoints',
  'eia-chokepoints',
  'nyfed-gscpi',
] as const;
export const SourceId = z.enum(SOURCE_IDS).describe('Source id (a dataset of ../shared/sources/SOURCES.md)');
export type SourceId = z.infer<typeof SourceId>;

/** The sources whose price series the API publishes. */
export const PRICE_SOURCES = [
  'eia-oil-prices',
  'eia-henry-hub',
  'worldbank-pink-sheet',
  'imf-commodity-prices',
  'ei-statistical-review-2024',
] as const satisfies readonly SourceId[];
export type PriceSource = (typeof PRICE_SOURCES)[number];

/** Chokepoint's own editorial content (events, scenarios, briefings), cited like a source. */
export const EDITORIAL_SOURCE = 'chokepoint-editorial' as const;
/** What a response may cite: a source, or the editorial content. */
export type CitedSource = SourceId | typeof EDITORIAL_SOURCE;

/** A source id read from data (a catalogue entry, a computed component), checked: an unknown id is an error, never a silently missing citation. */
export function citedSource(id: string): CitedSource {
  if (id === EDITORIAL_SOURCE || (SOURCE_IDS as readonly string[]).includes(id)) return id as CitedSource;
  throw new Error(`unknown source id '${id}': add it to contract/sources.ts or fix the reference`);
}
