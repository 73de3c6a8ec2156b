import { z } from 'zod';
import { CommodityCode, DateString, Iso2, Point, envelope } from './common.ts';

export const ReserveMetric = z.enum(['fill_pct', 'volume', 'days_of_cover']).describe('Metric of a reserve time series');
export type ReserveMetric = z.infer<typeof ReserveMetric>;
export const Frequency = z.enum(['daily', 'weekly', 'monthly']);
export type Frequency = z.infer<typeof Frequency>;

const Quantity = z.strictObject({ value: z.number(), unit: z.string() });

export const Reserve = z
  .strictObject({
    commodity: CommodityCode,
    country: Iso2,
    name: z.string().describe('What is stored, e.g. "Gas in underground storage, Germany"'),
    kind: z.enum(['gas_storage', 'strategic_petroleum_reserve']),
    as_of: DateString,
    fill_pct: z.number().nullable().describe('Stock as % of capacity (working gas volume)'),
    volume: Quantity,
    capacity: Quantity.nullable(),
    coverage_days: z.number().nullable().describe('Days of cover, by the method named in coverage_method'),
    coverage_method: z.string(),
    target: z
      .strictObject({ fill_pct: z.number(), date: DateString, basis: z.string(), url: z.url() })
      .nullable()
      .describe(
        "The legal or seasonal target that applies next after `as_of` (the reading's date). When the data are behind, that date may already have passed: count days to it from today, never from `as_of`, and report a passed target as passed with the value on `as_of`",
      ),
    seasonal_norm_pct: z.number().nullable().describe('Mean fill on this calendar day over the reference years'),
    seasonal_norm_years: z.array(z.number().int()),
    gap_to_norm_pct: z.number().nullable().describe('fill_pct − seasonal_norm_pct, in percentage points'),
    flows: z
      .strictObject({ injection: z.number().nullable(), withdrawal: z.number().nullable(), net_withdrawal: z.number().nullable(), unit: z.string() })
      .nullable(),
    commercial_stocks: Quantity.nullable().describe('Commercial stocks beside the strategic reserve (oil)'),
    status: z.string().nullable().describe("The publisher's status of the newest figure (e.g. AGSI C confirmed / E estimated)"),
    metrics: z.array(ReserveMetric).describe('Metrics available in /v1/reserves/timeseries'),
    first_date: DateString,
    timeseries_url: z.string(),
  })
  .describe('Current strategic reserve for one commodity and one country');
export type Reserve = z.infer<typeof Reserve>;

export const TimeSeries = z
  .strictObject({
    commodity: CommodityCode,
    country: Iso2,
    metric: ReserveMetric,
    unit: z.string(),
    frequency: Frequency,
    from: DateString,
    to: DateString,
    aggregation: z.string().describe('How points were aggregated to the frequency (last observation of the period)'),
    points: z.array(Point),
  })
  .describe('A normalised series of one reserve metric');
export type TimeSeries = z.infer<typeof TimeSeries>;

/** The full native-frequency series of every metric of one reserve: the API slices it per request. */
export const ReserveSeries = z.strictObject({
  commodity: CommodityCode,
  country: Iso2,
  native_frequency: z.enum(['daily', 'weekly']),
  metrics: z.partialRecord(ReserveMetric, z.strictObject({ unit: z.string(), points: z.array(Point) })),
});
export type ReserveSeries = z.infer<typeof ReserveSeries>;

export const ReserveResponse = envelope(Reserve);
export const TimeSeriesResponse = envelope(TimeSeries);
export const ReserveSeriesFile = envelope(ReserveSeries);
export const ReserveIndexFile = envelope(
  z.array(z.strictObject({ commodity: CommodityCode, country: Iso2, name: z.string(), as_of: DateString, url: z.string() })),
);
export type ReserveIndexFile = z.infer<typeof ReserveIndexFile>;
