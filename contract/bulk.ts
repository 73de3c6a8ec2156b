/**
 * The bulk package (docs/bulk.md): every published table as Parquet and CSV under `bulk/`,
 * described by a Frictionless Data Package, and the vintage index of past packages. The
 * resource list here is the single source of truth: the pipeline writes exactly these tables
 * with these columns, and datapackage.json is generated from it.
 */
import { z } from 'zod';
import { PRICE_SOURCES, type CitedSource } from './sources.ts';
import { DateString } from './common.ts';

export const BULK_DIR = 'bulk';
export const VINTAGES_DIR = 'vintages';
export const VINTAGE_INDEX = `${VINTAGES_DIR}/index.json`;

export type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'date';
export interface BulkField {
  name: string;
  type: FieldType;
  description: string;
  unit?: string;
}
export interface BulkResource {
  name: string;
  title: string;
  description: string;
  primaryKey: readonly string[];
  /** Source ids whose figures the table carries (besides Chokepoint's own computation). */
  sources: readonly CitedSource[];
  fields: readonly BulkField[];
}

const f = (name: string, type: FieldType, description: string, unit?: string): BulkField => ({ name, type, description, ...(unit ? { unit } : {}) });

export const BULK_RESOURCES: readonly BulkResource[] = [
  {
    name: 'commodities',
    title: 'Commodities',
    primaryKey: ['slug'],
    sources: PRICE_SOURCES,
    description: 'One row per commodity: its latest price (the figure the stress index uses) and its stress index.',
    fields: [
      f('slug', 'string', '<group>.<code>'),
      f('group', 'string', 'energy, metals or agri'),
      f('name', 'string', 'English name'),
      f('unit', 'string', 'Physical unit of volumes'),
      f('price_benchmark', 'string', 'Price series used'),
      f('price_value', 'number', 'Latest price'),
      f('price_currency', 'string', 'ISO 4217'),
      f('price_unit', 'string', 'Per unit'),
      f('price_as_of', 'date', 'Date of the latest price'),
      f('price_frequency', 'string', 'daily, monthly or annual'),
      f('price_source', 'string', 'Source id'),
      f('stress_index', 'number', 'Supply stress index, null when coverage is too low', '0–100'),
      f('stress_band', 'string', 'low, moderate, high, severe'),
      f('stress_as_of', 'date', 'The date the index describes'),
      f('stress_coverage', 'number', 'Share of nominal weight measured', '0–1'),
      f('methodology_version', 'string', 'docs/methodology.md'),
    ],
  },
  {
    name: 'stress_components',
    title: 'Stress index components',
    primaryKey: ['slug', 'component'],
    sources: [...PRICE_SOURCES, 'usgs-mcs-2026', 'gie-agsi-gas-storage', 'eia-weekly-petroleum', 'chokepoint-editorial'],
    description: 'Each commodity stress index broken into its components: recompute the index as Σ effective_weight × score × 100.',
    fields: [
      f('slug', 'string', 'Commodity'),
      f('component', 'string', 'price, concentration, reserves or events'),
      f('weight', 'number', 'Nominal weight'),
      f('effective_weight', 'number', 'Weight after coverage and staleness rescaling'),
      f('available', 'boolean', 'Whether the component counts'),
      f('raw', 'number', 'Raw measure (z, HHI, shortfall, Σ pressure)'),
      f('score', 'number', 'Score', '0–1'),
      f('contribution', 'number', 'Points added to the index', '0–100'),
      f('as_of', 'date', 'Date of the newest input'),
      f('input_freshness', 'string', 'current, late, stale or expired'),
      f('source', 'string', 'Source id'),
      f('reason', 'string', 'Why the component is left out or down-weighted'),
    ],
  },
  {
    name: 'stress_history',
    title: 'Stress index history',
    primaryKey: ['kind', 'id', 'date'],
    sources: [...PRICE_SOURCES, 'usgs-mcs-2026', 'gie-agsi-gas-storage', 'chokepoint-editorial'],
    description: 'The stress index at every month end from 2015, for commodities and countries, computed with the same code from the data published by then.',
    fields: [
      f('kind', 'string', 'commodity or country'),
      f('id', 'string', 'Commodity slug or ISO3'),
      f('date', 'date', 'Month end'),
      f('index', 'number', 'Index, null when coverage is too low', '0–100'),
      f('band', 'string', 'Band'),
      f('coverage', 'number', 'Coverage', '0–1'),
    ],
  },
  {
    name: 'prices',
    title: 'Price series (open sources)',
    primaryKey: ['slug', 'date'],
    sources: ['eia-oil-prices', 'eia-henry-hub', 'worldbank-pink-sheet'],
    description:
      'Full price history for commodities priced by an open source (EIA, World Bank). IMF and Energy Institute series are derived-only: download them from the publisher.',
    fields: [
      f('slug', 'string', 'Commodity'),
      f('date', 'date', 'Observation date (monthly series: first of the month)'),
      f('value', 'number', 'Price'),
      f('currency', 'string', 'ISO 4217'),
      f('unit', 'string', 'Per unit'),
      f('frequency', 'string', 'daily or monthly'),
      f('source', 'string', 'Source id'),
    ],
  },
  {
    name: 'producers',
    title: 'Producers and consumers',
    primaryKey: ['slug', 'role', 'country'],
    sources: ['ei-statistical-review-2026', 'usgs-mcs-2026'],
    description:
      'Country shares of world production and consumption. Volumes are given only where the source is open (USGS); Energy Institute rows carry shares and ranks.',
    fields: [
      f('slug', 'string', 'Commodity'),
      f('role', 'string', 'producer or consumer'),
      f('country', 'string', "ISO3, or the publisher's name where it has none"),
      f('name', 'string', 'Country name'),
      f('rank', 'integer', 'Rank by volume'),
      f('share', 'number', 'Share of the world total', '0–1'),
      f('value', 'number', 'Volume (open sources only)'),
      f('unit', 'string', 'Unit of value'),
      f('year', 'integer', 'Data year'),
      f('source', 'string', 'Source id'),
    ],
  },
  {
    name: 'countries',
    title: 'Countries',
    primaryKey: ['iso3'],
    sources: ['ei-statistical-review-2026', 'ei-statistical-review-2024', 'country-codes'],
    description: 'One row per country: its energy-mix stress index.',
    fields: [
      f('iso3', 'string', 'ISO 3166-1 alpha-3'),
      f('iso2', 'string', 'ISO 3166-1 alpha-2'),
      f('name', 'string', 'English name'),
      f('region', 'string', 'UN M49 region'),
      f('stress_index', 'number', 'Country stress index', '0–100'),
      f('stress_band', 'string', 'Band'),
      f('stress_as_of', 'date', 'Newest benchmark reading'),
      f('energy_year', 'integer', 'EI data year of the energy mix'),
    ],
  },
  {
    name: 'country_stress_parts',
    title: 'Country stress: each fuel',
    primaryKey: ['iso3', 'commodity'],
    sources: ['ei-statistical-review-2026', 'ei-statistical-review-2024'],
    description: 'The parts of each country index: index = Σ contribution.',
    fields: [
      f('iso3', 'string', 'Country'),
      f('commodity', 'string', 'Fuel'),
      f('benchmark', 'string', 'Commodity whose stress the country faces'),
      f('energy_share', 'number', 'Share of primary energy', '0–1'),
      f('material', 'boolean', 'At least 5 % of primary energy'),
      f('import_dependence', 'number', 'clip(1 − production / consumption)', '0–1'),
      f('supplier_hhi', 'number', 'HHI of import suppliers', '0–10,000'),
      f('concentration_score', 'number', 'Score of the supplier HHI', '0–1'),
      f('weight', 'number', 'energy_share × import_dependence × (0.5 + 0.5 × concentration_score)'),
      f('commodity_stress', 'number', 'Benchmark stress index', '0–100'),
      f('contribution', 'number', 'Points', '0–100'),
    ],
  },
  {
    name: 'mineral_exposures',
    title: 'United States mineral import exposure',
    primaryKey: ['iso3', 'commodity'],
    sources: ['usgs-mcs-2026'],
    description: 'USGS net import reliance and import-source concentration per mineral (United States only).',
    fields: [
      f('iso3', 'string', 'Country'),
      f('commodity', 'string', 'Mineral'),
      f('year', 'integer', 'Year of the reliance figure'),
      f('net_import_reliance', 'number', 'Share of apparent consumption', '0–1'),
      f('net_import_reliance_printed', 'string', 'As USGS prints it'),
      f('top_supplier', 'string', 'Largest import source'),
      f('top_supplier_share', 'number', 'Its share of imports', '0–1'),
      f('supplier_hhi', 'number', 'HHI of named import sources', '0–10,000'),
      f('commodity_stress', 'number', 'Mineral stress index', '0–100'),
      f('points', 'number', 'Exposure points', '0–100'),
    ],
  },
  {
    name: 'reserves',
    title: 'Reserves: latest readings',
    primaryKey: ['commodity', 'country'],
    sources: ['gie-agsi-gas-storage', 'eia-weekly-petroleum'],
    description: 'The latest gas storage and strategic oil reserve readings and the indicators derived from them.',
    fields: [
      f('commodity', 'string', 'gas or oil'),
      f('country', 'string', 'ISO 3166-1 alpha-2, or eu'),
      f('name', 'string', 'Reserve'),
      f('as_of', 'date', 'Reading date'),
      f('fill_pct', 'number', 'Fill', '%'),
      f('volume', 'number', 'Volume in store'),
      f('volume_unit', 'string', 'Unit of volume'),
      f('coverage_days', 'number', 'Days of cover', 'days'),
      f('seasonal_norm_pct', 'number', 'Fill on this day in the norm years', '%'),
      f('gap_to_norm_pct', 'number', 'Fill minus norm', 'percentage points'),
      f('target_fill_pct', 'number', 'Legal target', '%'),
      f('target_date', 'date', 'Target date'),
    ],
  },
  {
    name: 'reserve_series',
    title: 'Reserve series (open sources)',
    primaryKey: ['commodity', 'country', 'metric', 'date'],
    sources: ['eia-weekly-petroleum'],
    description: 'Full history of the reserves from open sources (the US SPR). AGSI+ storage series are derived-only: download them from GIE.',
    fields: [
      f('commodity', 'string', 'oil'),
      f('country', 'string', 'ISO 3166-1 alpha-2'),
      f('metric', 'string', 'volume or days_of_cover'),
      f('date', 'date', 'Week'),
      f('value', 'number', 'Value'),
      f('unit', 'string', 'Unit'),
    ],
  },
  {
    name: 'events',
    title: 'Supply events',
    primaryKey: ['id'],
    sources: ['chokepoint-editorial'],
    description: 'Curated supply events, each with a public source.',
    fields: [
      f('id', 'string', 'Event id'),
      f('date', 'date', 'Event date'),
      f('category', 'string', 'conflict, sanction, policy, infrastructure, catastrophe'),
      f('effect', 'string', 'tightening or easing'),
      f('kind', 'string', 'one-off or lasting'),
      f('title', 'string', 'Title'),
      f('commodities', 'string', 'Commodity slugs, separated by ";"'),
      f('countries', 'string', 'ISO3 codes, separated by ";"'),
      f('source_url', 'string', 'Public source'),
    ],
  },
  {
    name: 'scenarios',
    title: 'Scenarios',
    primaryKey: ['id'],
    sources: ['chokepoint-editorial'],
    description: 'Supply scenarios with their status, probability and severity.',
    fields: [
      f('id', 'string', 'Scenario id'),
      f('title', 'string', 'English title'),
      f('status', 'string', 'Status'),
      f('probability', 'number', 'Probability', '0–1'),
      f('severity', 'integer', 'Severity', '1–5'),
      f('commodities', 'string', 'Commodity slugs, separated by ";"'),
      f('countries', 'string', 'ISO3 codes, separated by ";"'),
      f('updated_at', 'date', 'Last status change'),
    ],
  },
  {
    name: 'revisions',
    title: 'Revisions between vintages',
    primaryKey: ['series', 'date', 'vintage'],
    sources: [],
    description:
      'Every headline value (prices, stress index history, reserve readings) that changed from one vintage to the next: the record of what publishers revised.',
    fields: [
      f('series', 'string', 'prices/<slug>, stress_history/<kind>/<id> or reserves/<commodity>/<country>'),
      f('date', 'date', 'Observation date'),
      f('old_value', 'number', 'Value in the previous vintage (null: new observation)'),
      f('new_value', 'number', 'Value in this vintage (null: removed)'),
      f('previous_vintage', 'string', 'Vintage id that had old_value'),
      f('vintage', 'string', 'Vintage id that has new_value'),
    ],
  },
];

const Field = z.strictObject({
  name: z.string(),
  type: z.enum(['string', 'number', 'integer', 'boolean', 'date']),
  description: z.string(),
  unit: z.string().optional(),
});
const Source = z.strictObject({ title: z.string(), path: z.string(), licenses: z.array(z.strictObject({ name: z.string() })).optional() });

/** datapackage.json: a Frictionless Data Package (v1 profile, tabular resources). */
export const DataPackage = z.strictObject({
  profile: z.literal('tabular-data-package'),
  name: z.string().regex(/^[a-z0-9._-]+$/),
  title: z.string(),
  description: z.string(),
  version: z.string(),
  created: z.string(),
  homepage: z.string(),
  id: z.string(),
  licenses: z.array(z.strictObject({ name: z.string(), path: z.string(), title: z.string() })),
  contributors: z.array(z.strictObject({ title: z.string(), role: z.string(), path: z.string() })),
  sources: z.array(Source),
  keywords: z.array(z.string()),
  chokepoint: z.strictObject({ build: z.string(), methodology_version: z.string(), attribution: z.string(), fingerprint: z.string() }),
  resources: z.array(
    z.strictObject({
      profile: z.literal('tabular-data-resource'),
      name: z.string(),
      title: z.string(),
      description: z.string(),
      path: z.string(),
      format: z.enum(['parquet', 'csv']),
      mediatype: z.string(),
      encoding: z.string().optional(),
      bytes: z.number().int(),
      hash: z.string(),
      rows: z.number().int(),
      schema: z.strictObject({ fields: z.array(Field), primaryKey: z.array(z.string()) }),
      sources: z
        .array(z.strictObject({ title: z.string(), path: z.string() }))
        .min(1)
        .optional(),
    }),
  ),
});
export type DataPackage = z.infer<typeof DataPackage>;

export const Vintage = z.strictObject({
  id: z.string().describe('The build id that published it'),
  date: DateString,
  generated_at: z.string(),
  methodology_version: z.string(),
  fingerprint: z.string().describe('Hash of the figures: equal fingerprints mean equal figures'),
  sources: z.array(z.strictObject({ id: z.string(), sha256: z.string().nullable(), data_as_of: z.string().nullable() })),
  revisions: z.number().int().describe('Values changed since the previous vintage'),
  url: z.string(),
});
export type Vintage = z.infer<typeof Vintage>;

export const VintageIndex = z.strictObject({
  retention: z.string(),
  vintages: z.array(Vintage).describe('Newest first'),
});
export type VintageIndex = z.infer<typeof VintageIndex>;
