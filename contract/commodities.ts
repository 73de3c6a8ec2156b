import { z } from 'zod';
import { byLang, langList } from './languages.ts';
import { CommodityCode, CommodityGroup, CommoditySlug, DateString, Iso3, Point, envelope } from './common.ts';
import { ChokepointExposure, CommodityStress, StressBand, StressHistoryPoint, StructuralRisk } from './stress.ts';

export const Names = byLang(z.string()).describe(`Names in ${langList('and')}`);

export const Price = z
  .strictObject({
    value: z.number(),
    currency: z.string().describe('ISO 4217 currency'),
    unit: z.string().nullable().describe('Unit the price is quoted per (null where the publisher states none; then `unit_note` says so)'),
    unit_note: z
      .string()
      .optional()
      .describe('Present only where `unit` is null: what the publisher states about the unit instead (e.g. the currency without the quantity)'),
    as_of: DateString.describe('Date of the observation (first day of the month for monthly series)'),
    frequency: z.enum(['daily', 'weekly', 'monthly', 'annual']),
    benchmark: z.string().describe('The benchmark series, as its publisher names it'),
    source: z.string().describe('Source id'),
    change_1y_pct: z.number().nullable().describe('Change against the observation one year earlier, in %'),
  })
  .describe('Latest price of the commodity');
export type Price = z.infer<typeof Price>;

export const CommodityListEntry = z
  .strictObject({
    slug: CommoditySlug,
    code: CommodityCode,
    group: CommodityGroup,
    name: z.string(),
    names: Names,
    unit: z.string().describe('Unit in which production and consumption are counted'),
    price: Price.nullable().describe('Null where no public price series exists in our sources'),
    stress_index: z.number().min(0).max(100).nullable(),
    stress_band: StressBand.nullable(),
    updated_at: DateString.describe('Date of the newest observation behind this entry'),
    url: z.string().describe('API address of the full sheet'),
  })
  .describe('One tracked commodity');
export type CommodityListEntry = z.infer<typeof CommodityListEntry>;

export const ShareEntry = z.strictObject({
  iso3: Iso3,
  name: z.string(),
  value: z.number(),
  share: z.number().min(0).max(1).describe('Share of the world total (0–1)'),
});

export const ShareTable = z
  .strictObject({
    year: z.number().int(),
    unit: z.string(),
    basis: z.string().describe('What is counted, e.g. "mine production"'),
    source: z.string(),
    world_total: z.number().nullable(),
    entries: z.array(ShareEntry).describe('Countries, largest first'),
  })
  .describe('Countries with their shares of the world total');
export type ShareTable = z.infer<typeof ShareTable>;

export const Flow = z.strictObject({
  exporter: z.string(),
  exporter_iso3: Iso3.nullable(),
  importer: z.string(),
  importer_iso3: Iso3.nullable(),
  value: z.number(),
  unit: z.string(),
  route: z.string().describe('Kind of flow, e.g. "natural gas (pipeline)"'),
  year: z.number().int(),
  source: z.string(),
});

export const Concentration = z.strictObject({
  hhi: z.number().min(0).max(10000),
  band: z.enum(['unconcentrated', 'moderately concentrated', 'highly concentrated']),
  thresholds: z.string().describe('Which HHI thresholds the band uses'),
  basis: z.string(),
  year: z.number().int(),
  countries: z.number().int().describe('Number of producing countries counted'),
  source: z.string(),
});

export const CommoditySheet = CommodityListEntry.extend({
  aliases: byLang(z.array(z.string())),
  critical_mineral_us: z.boolean().nullable().describe('On the 2025 US critical minerals list (USGS), where known'),
  producers: ShareTable.nullable(),
  consumers: ShareTable.nullable(),
  reserves_in_ground: ShareTable.nullable().describe('Known reserves by country'),
  concentration: Concentration.nullable(),
  flows: z.array(Flow).describe('Largest recorded trade flows (exporter → importer)'),
  chokepoints: z.array(ChokepointExposure).describe('The measured chokepoints its trade passes, and their transit level against normal at stress.as_of'),
  structural_risk: StructuralRisk.nullable().describe('Supplier concentration of the narrowest stage (null without a production or trade table by country)'),
  stress: CommodityStress,
  stress_history: z
    .array(StressHistoryPoint)
    .describe(
      'The index at the end of every month from 2015-01 to the month of stress.as_of, computed with the same code from the observations dated on or before each month end',
    ),
  price_history: z
    .strictObject({ frequency: z.enum(['daily', 'weekly', 'monthly', 'annual']), currency: z.string(), unit: z.string().nullable(), points: z.array(Point) })
    .nullable()
    .describe('Recent price series: the last 5 years'),
  reserves: z.array(z.strictObject({ country: z.string(), url: z.string() })).describe('Strategic reserves tracked for this commodity'),
}).describe('Full sheet of one commodity');
export type CommoditySheet = z.infer<typeof CommoditySheet>;

export const CommodityListResponse = envelope(z.array(CommodityListEntry));
export const CommoditySheetResponse = envelope(CommoditySheet);
