/**
 * The clean tables every adapter promises, column → DuckDB type. The ingest step checks each
 * load against these (so an adapter can't drift silently from what the SQL steps read), and
 * creates them empty when a source is unavailable with no snapshot, so that every step still
 * runs and simply finds no rows.
 */
const USGS_COLUMNS = {
  chapter: 'VARCHAR',
  commodity: 'VARCHAR',
  section: 'VARCHAR',
  country: 'VARCHAR',
  is_aggregate: 'BOOLEAN',
  is_world_total: 'BOOLEAN',
  statistic: 'VARCHAR',
  detail: 'VARCHAR',
  unit: 'VARCHAR',
  year: 'VARCHAR',
  value: 'DOUBLE',
  value_code: 'VARCHAR',
  value_low: 'DOUBLE',
  value_high: 'DOUBLE',
  is_critical: 'BOOLEAN',
} as const;
/** An earlier USGS data release's world tables (pipeline/sources/usgs-mcs-vintage.ts): one row per file, country and year. */
const USGS_VINTAGE_COLUMNS = {
  slug: 'VARCHAR',
  country: 'VARCHAR',
  is_aggregate: 'BOOLEAN',
  is_world_total: 'BOOLEAN',
  type: 'VARCHAR',
  unit: 'VARCHAR',
  year: 'INTEGER',
  estimated: 'BOOLEAN',
  value: 'DOUBLE',
} as const;

const SCHEMAS = {
  eia_oil_prices: { series: 'VARCHAR', frequency: 'VARCHAR', date: 'DATE', value: 'DOUBLE' },
  eia_henry_hub: { frequency: 'VARCHAR', date: 'DATE', value: 'DOUBLE' },
  worldbank_prices: { series: 'VARCHAR', date: 'DATE', value: 'DOUBLE' },
  worldbank_series: { series: 'VARCHAR', unit: 'VARCHAR' },
  worldbank_indices: { series: 'VARCHAR', date: 'DATE', value: 'DOUBLE' },
  imf_prices: { code: 'VARCHAR', date: 'DATE', value: 'DOUBLE' },
  imf_series: { code: 'VARCHAR', imf_code: 'VARCHAR', data_type: 'VARCHAR', description: 'VARCHAR', unit: 'VARCHAR' },
  country_codes: {
    iso2: 'VARCHAR',
    iso3: 'VARCHAR',
    m49: 'VARCHAR',
    name_en: 'VARCHAR',
    official_name_en: 'VARCHAR',
    official_name_fr: 'VARCHAR',
    name_es: 'VARCHAR',
    region: 'VARCHAR',
    subregion: 'VARCHAR',
    is_independent: 'BOOLEAN',
  },
  country_names: { name: 'VARCHAR', iso3: 'VARCHAR' },
  ei_energy: { sheet: 'VARCHAR', unit: 'VARCHAR', section: 'VARCHAR', country: 'VARCHAR', is_aggregate: 'BOOLEAN', year: 'INTEGER', value: 'DOUBLE' },
  ei_energy_2026: { sheet: 'VARCHAR', unit: 'VARCHAR', section: 'VARCHAR', country: 'VARCHAR', is_aggregate: 'BOOLEAN', year: 'INTEGER', value: 'DOUBLE' },
  ei_mine_production: { mineral: 'VARCHAR', sheet: 'VARCHAR', unit: 'VARCHAR', country: 'VARCHAR', is_aggregate: 'BOOLEAN', year: 'INTEGER', value: 'DOUBLE' },
  ei_mineral_reserves: {
    mineral: 'VARCHAR',
    sheet: 'VARCHAR',
    unit: 'VARCHAR',
    as_of: 'VARCHAR',
    country: 'VARCHAR',
    is_aggregate: 'BOOLEAN',
    value: 'DOUBLE',
  },
  ei_mineral_prices: { series: 'VARCHAR', unit: 'VARCHAR', year: 'INTEGER', value: 'DOUBLE' },
  ei_trade: {
    sheet: 'VARCHAR',
    unit: 'VARCHAR',
    flow: 'VARCHAR',
    exporter: 'VARCHAR',
    exporter_is_aggregate: 'BOOLEAN',
    importer: 'VARCHAR',
    importer_is_aggregate: 'BOOLEAN',
    value: 'DOUBLE',
  },
  usgs_world: USGS_COLUMNS,
  usgs_us: USGS_COLUMNS,
  usgs_world_2022: USGS_VINTAGE_COLUMNS,
  usgs_world_2023: USGS_VINTAGE_COLUMNS,
  usgs_world_2024: USGS_VINTAGE_COLUMNS,
  eurostat_gas_imports: { siec: 'VARCHAR', partner: 'VARCHAR', unit: 'VARCHAR', geo: 'VARCHAR', is_aggregate: 'BOOLEAN', year: 'INTEGER', value: 'DOUBLE' },
  agsi_storage: {
    country: 'VARCHAR',
    date: 'DATE',
    fill_pct: 'DOUBLE',
    gas_in_storage_twh: 'DOUBLE',
    working_gas_volume_twh: 'DOUBLE',
    injection_gwh_d: 'DOUBLE',
    withdrawal_gwh_d: 'DOUBLE',
    net_withdrawal_gwh_d: 'DOUBLE',
    status: 'VARCHAR',
    file: 'VARCHAR',
  },
  agsi_reference: { country: 'VARCHAR', working_gas_volume_twh: 'DOUBLE', annual_consumption_twh: 'DOUBLE', as_of: 'DATE', file: 'VARCHAR' },
  de_gas_consumption: { date: 'DATE', consumption_gwh: 'DOUBLE', slp_gwh: 'DOUBLE', rlm_gwh: 'DOUBLE', status: 'VARCHAR' },
  eia_petroleum_weekly: { series_id: 'VARCHAR', name: 'VARCHAR', unit: 'VARCHAR', date: 'DATE', value: 'DOUBLE', file: 'VARCHAR' },
  portwatch_transits: { date: 'DATE', chokepoint: 'VARCHAR', n_total: 'INTEGER', n_tanker: 'INTEGER', n_cargo: 'INTEGER', file: 'VARCHAR' },
  eia_chokepoint_oil: { chokepoint: 'VARCHAR', name: 'VARCHAR', period: 'VARCHAR', year: 'INTEGER', full_year: 'BOOLEAN', mbd: 'DOUBLE' },
  gscpi: { date: 'DATE', value: 'DOUBLE' },
} as const satisfies Record<string, Readonly<Record<string, string>>>;

export const TABLE_SCHEMAS: Readonly<Record<string, Readonly<Record<string, string>>>> = SCHEMAS;
/** A declared table, and its columns: what contract/bounds.ts keys its rules by, so the compiler checks every name. */
export type TableName = keyof typeof SCHEMAS;
export type ColumnOf<T extends TableName> = keyof (typeof SCHEMAS)[T] & string;
