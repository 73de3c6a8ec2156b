import { SOURCE_IDS, type SourceId } from '../../contract/sources.ts';
import { countryCodesSource } from './country-codes.ts';
import { eiStatisticalReview2026Source, eiStatisticalReviewSource } from './ei-statistical-review.ts';
import { eiaChokepointsSource } from './eia-chokepoints.ts';
import { eiaHenryHubSource } from './eia-henry-hub.ts';
import { eiaOilPricesSource } from './eia-oil-prices.ts';
import { eiaWeeklyPetroleumSource } from './eia-weekly-petroleum.ts';
import { eurostatGasImportsSource } from './eurostat-gas-imports.ts';
import { gieAgsiSource } from './gie-agsi.ts';
import { imfCommodityPricesSource } from './imf-commodity-prices.ts';
import { imfPortwatchSource } from './imf-portwatch.ts';
import { nyfedGscpiSource } from './nyfed-gscpi.ts';
import { theGasConsumptionSource } from './the-gas-consumption.ts';
import type { SourceAdapter } from './types.ts';
import { usgsMcsSource } from './usgs-mcs.ts';
import { usgsMcsVintageSources } from './usgs-mcs-vintage.ts';
import { worldbankPinkSheetSource } from './worldbank-pink-sheet.ts';

const vintage = (id: SourceId): SourceAdapter => usgsMcsVintageSources.find((s) => s.id === id)!;

/** One adapter per source id of the contract: a source id without an adapter does not compile. */
export const ADAPTERS: Readonly<Record<SourceId, SourceAdapter>> = {
  'country-codes': countryCodesSource,
  'ei-statistical-review-2024': eiStatisticalReviewSource,
  'ei-statistical-review-2026': eiStatisticalReview2026Source,
  'usgs-mcs-2026': usgsMcsSource,
  'usgs-mcs-2022': vintage('usgs-mcs-2022'),
  'usgs-mcs-2023': vintage('usgs-mcs-2023'),
  'usgs-mcs-2024': vintage('usgs-mcs-2024'),
  'worldbank-pink-sheet': worldbankPinkSheetSource,
  'imf-commodity-prices': imfCommodityPricesSource,
  'eia-oil-prices': eiaOilPricesSource,
  'eia-henry-hub': eiaHenryHubSource,
  'eia-weekly-petroleum': eiaWeeklyPetroleumSource,
  'gie-agsi-gas-storage': gieAgsiSource,
  'the-de-gas-consumption': theGasConsumptionSource,
  'eurostat-gas-imports-by-partner': eurostatGasImportsSource,
  'imf-portwatch-chokepoints': imfPortwatchSource,
  'eia-chokepoints': eiaChokepointsSource,
  'nyfed-gscpi': nyfedGscpiSource,
};

/** Every source the pipeline reads, in the contract's order (the dataset list of ../shared/sources/SOURCES.md). */
export const SOURCES: readonly SourceAdapter[] = SOURCE_IDS.map((id) => ADAPTERS[id]);
