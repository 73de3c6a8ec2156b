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

/** Every source the pipeline reads, one adapter each (the dataset list of ../shared/sources/SOURCES.md). */
export const SOURCES: readonly SourceAdapter[] = [
  countryCodesSource,
  eiStatisticalReviewSource,
  eiStatisticalReview2026Source,
  usgsMcsSource,
  ...usgsMcsVintageSources,
  worldbankPinkSheetSource,
  imfCommodityPricesSource,
  eiaOilPricesSource,
  eiaHenryHubSource,
  eiaWeeklyPetroleumSource,
  gieAgsiSource,
  theGasConsumptionSource,
  eurostatGasImportsSource,
  imfPortwatchSource,
  eiaChokepointsSource,
  nyfedGscpiSource,
];
