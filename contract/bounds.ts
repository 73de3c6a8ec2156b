import type { ColumnOf, TableName } from './tables.ts';

/**
 * What a value of a source table may physically be (issue 34, finding 2: a fill of −12 % and
 * 2,463 TWh stored for 246 TWh of capacity were published as Germany's reserve, as fresh).
 * A load with one value outside its bound is refused whole (the last good snapshot is served,
 * the source reported stale naming the table, series, date, value and bound); a jump beyond
 * JUMP_DEVIATIONS robust deviations of the series' own changes is only flagged, because real
 * crises make real jumps (docs/freshness.md#value-gates).
 *
 * Keyed by the declared tables and columns (contract/tables.ts): a misspelt name does
 * not compile. `when` narrows a rule to the rows whose columns equal the given text.
 */
export type Bound<T extends TableName> =
  /** min ≤ value ≤ max (either side optional); `above`: strictly greater than. */
  | { kind: 'range'; column: ColumnOf<T>; min?: number; above?: number; max?: number; when?: Partial<Record<ColumnOf<T>, string>>; why: string }
  /** value ≤ factor × another column of the same row (a stock within its capacity). */
  | { kind: 'at-most'; column: ColumnOf<T>; limit: ColumnOf<T>; factor: number; why: string }
  /** Shares of a whole: per group, the non-null values sum to total ± tolerance. */
  | {
      kind: 'sums-to';
      column: ColumnOf<T>;
      group: readonly ColumnOf<T>[];
      total: number;
      tolerance: number;
      when?: Partial<Record<ColumnOf<T>, string>>;
      why: string;
    }
  /**
   * Flag (never refuse) a change from the series' previous observation that lies more than
   * JUMP_DEVIATIONS robust deviations (1.4826 × MAD) from the median of its own changes:
   * `difference` for levels (a fill, a stock), `ratio` (log of the ratio) for prices, whose
   * changes scale with the price.
   */
  | { kind: 'jump'; column: ColumnOf<T>; change: 'difference' | 'ratio' };

export interface TableBounds<T extends TableName> {
  /** Columns that name a row's series in a refusal's reason and split the series a jump is measured in. */
  series: readonly ColumnOf<T>[];
  rules: readonly Bound<T>[];
}

/** A change more than this many robust deviations from the series' usual change is flagged. */
export const JUMP_DEVIATIONS = 10;
/** Scale of the median absolute deviation to a normal distribution's standard deviation. */
export const MAD_SCALE = 1.4826;

/**
 * AGSI+ reports a fill above 100 % when a site holds more than its declared working gas volume
 * (the mirror's highest: Portugal 107.15 %, Germany 100.32 %); 10 % headroom keeps those and
 * refuses the impossible.
 */
const FILL_MAX_PCT = 110;

const nonNegative = <T extends TableName>(column: ColumnOf<T>, why: string): Bound<T> => ({ kind: 'range', column, min: 0, why });
const positive = <T extends TableName>(column: ColumnOf<T>, why: string): Bound<T> => ({ kind: 'range', column, above: 0, why });

export const BOUNDS: { readonly [T in TableName]?: TableBounds<T> } = {
  agsi_storage: {
    series: ['country'],
    rules: [
      { kind: 'range', column: 'fill_pct', min: 0, max: FILL_MAX_PCT, why: 'a storage fill in %' },
      nonNegative('gas_in_storage_twh', 'gas in storage'),
      positive('working_gas_volume_twh', 'a storage capacity'),
      {
        kind: 'at-most',
        column: 'gas_in_storage_twh',
        limit: 'working_gas_volume_twh',
        factor: FILL_MAX_PCT / 100,
        why: 'gas in storage within the working gas volume',
      },
      nonNegative('injection_gwh_d', 'an injection flow'),
      nonNegative('withdrawal_gwh_d', 'a withdrawal flow'),
      { kind: 'jump', column: 'fill_pct', change: 'difference' },
    ],
  },
  agsi_reference: {
    series: ['country'],
    rules: [positive('working_gas_volume_twh', 'a storage capacity'), positive('annual_consumption_twh', 'an annual consumption')],
  },
  eia_oil_prices: {
    series: ['series', 'frequency'],
    rules: [
      // WTI settled at −36.98 dollars a barrel on 2020-04-20 (a full Cushing, an expiring contract): real, and in the mirror.
      { kind: 'range', column: 'value', above: -100, max: 1000, why: 'a crude price in dollars a barrel (WTI went to −36.98 on 2020-04-20)' },
      { kind: 'jump', column: 'value', change: 'ratio' },
    ],
  },
  eia_henry_hub: {
    series: ['frequency'],
    rules: [positive('value', 'a gas price'), { kind: 'jump', column: 'value', change: 'ratio' }],
  },
  worldbank_prices: { series: ['series'], rules: [positive('value', 'a price'), { kind: 'jump', column: 'value', change: 'ratio' }] },
  worldbank_indices: { series: ['series'], rules: [positive('value', 'a price index')] },
  imf_prices: { series: ['code'], rules: [positive('value', 'a price or price index'), { kind: 'jump', column: 'value', change: 'ratio' }] },
  ei_energy: { series: ['sheet', 'country'], rules: [nonNegative('value', 'an energy volume')] },
  ei_energy_2026: { series: ['sheet', 'country'], rules: [nonNegative('value', 'an energy volume')] },
  ei_mine_production: { series: ['mineral', 'country'], rules: [nonNegative('value', 'a mine output')] },
  ei_mineral_reserves: { series: ['mineral', 'country'], rules: [nonNegative('value', 'a mineral reserve')] },
  ei_mineral_prices: { series: ['series'], rules: [positive('value', 'a price')] },
  ei_trade: { series: ['sheet', 'exporter', 'importer'], rules: [nonNegative('value', 'a traded volume')] },
  usgs_world: { series: ['commodity', 'statistic', 'country'], rules: [nonNegative('value', 'a production or capacity')] },
  usgs_world_2022: { series: ['slug', 'type', 'country'], rules: [nonNegative('value', 'a production')] },
  usgs_world_2023: { series: ['slug', 'type', 'country'], rules: [nonNegative('value', 'a production')] },
  usgs_world_2024: { series: ['slug', 'type', 'country'], rules: [nonNegative('value', 'a production')] },
  usgs_us: {
    series: ['commodity', 'statistic', 'detail', 'country'],
    rules: [
      { kind: 'range', column: 'value', min: 0, max: 100, when: { unit: 'percent' }, why: 'a share in %' },
      {
        kind: 'sums-to',
        column: 'value',
        group: ['chapter', 'commodity', 'detail', 'year'],
        when: { statistic: 'Import sources 2021-2024' },
        // USGS rounds each share to a whole per cent.
        total: 100,
        tolerance: 2,
        why: 'import sources, shares of all imports in %',
      },
    ],
  },
  eurostat_gas_imports: { series: ['geo', 'partner'], rules: [nonNegative('value', 'an import volume')] },
  de_gas_consumption: {
    series: [],
    rules: [
      nonNegative('consumption_gwh', 'a consumption'),
      nonNegative('slp_gwh', 'a consumption'),
      nonNegative('rlm_gwh', 'a consumption'),
      { kind: 'jump', column: 'consumption_gwh', change: 'difference' },
    ],
  },
  eia_petroleum_weekly: {
    series: ['series_id'],
    // Stocks, flows and a utilisation in %: none below zero (the mirror's lowest is 0).
    rules: [nonNegative('value', 'a stock, a flow or a utilisation'), { kind: 'jump', column: 'value', change: 'difference' }],
  },
  portwatch_transits: {
    series: ['chokepoint'],
    rules: [nonNegative('n_total', 'a count of ships'), nonNegative('n_tanker', 'a count of ships'), nonNegative('n_cargo', 'a count of ships')],
  },
  eia_chokepoint_oil: { series: ['chokepoint', 'period'], rules: [nonNegative('mbd', 'an oil flow')] },
  gscpi: { series: [], rules: [{ kind: 'jump', column: 'value', change: 'difference' }] },
};
