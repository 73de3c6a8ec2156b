import { z } from 'zod';
import { DateString, envelope } from './common.ts';

export const StressBand = z
  .enum(['low', 'moderate', 'high', 'severe'])
  .describe(
    'Commodities: < 25 low, 25–50 moderate, 50–75 high, ≥ 75 severe; countries: share of primary energy at risk < 0.5 %, 0.5–2 %, 2–7 %, ≥ 7 %. A band steps down only 5 points (countries: 20 % of the threshold) below its threshold',
  );
export type StressBand = z.infer<typeof StressBand>;

/** 3.0.0 uses price, reserves and disruption; concentration and events were 2.x components and stay valid keys for older payloads. */
export const ComponentKey = z.enum(['price', 'concentration', 'reserves', 'events', 'disruption']);
export type ComponentKey = z.infer<typeof ComponentKey>;

/** How old an input is at the date the index describes (methodology §staleness). */
export const InputFreshness = z
  .enum(['current', 'late', 'stale', 'expired'])
  .describe('Age of the input at the index date: current or late keep full weight, stale halves it, expired drops the component');

const InputValue = z.union([z.number(), z.string(), z.boolean(), z.null()]);

export const StressComponent = z
  .strictObject({
    key: ComponentKey,
    name: z.string(),
    weight: z.number().describe('Fixed weight wᵢ of the component (price 0.5, reserves 0.2, disruption 0.3; never rescaled)'),
    freshness_factor: z.number().min(0).max(1).describe('1 for a current input, 0.5 for a stale one, 0 when unavailable or expired'),
    effective_weight: z.number().describe('wᵢ × freshness_factorᵢ (the denominator is fixed at 1: a missing component counts 0)'),
    available: z.boolean(),
    raw: z.number().nullable().describe('Raw indicator value (robust z of the price move, buffer shortfall, share of world supply on disrupted routes)'),
    raw_label: z.string().describe('What `raw` measures'),
    score: z.number().min(0).max(1).nullable().describe('Normalised score sᵢ in [0, 1]'),
    contribution: z.number().nullable().describe('Points this component adds to the index: 100 × effective_weight × score'),
    inputs: z.record(z.string(), InputValue).describe('Every raw input, so anyone can recompute the score'),
    as_of: DateString.nullable().describe('Date of the newest observation the component uses (end of its period)'),
    input_freshness: InputFreshness.nullable().describe('Age class of that observation at the index date'),
    source: z.string().nullable().describe('Source id of the inputs'),
    reason: z.string().optional().describe('Why the component is unavailable, stale or expired'),
  })
  .describe('One component of the stress index');

export const EventContribution = z.strictObject({
  id: z.string(),
  date: DateString,
  category: z.string(),
  effect: z.enum(['tightening', 'easing']),
  kind: z.enum(['one-off', 'lasting']),
  ended_on: DateString.nullable(),
  category_weight: z.number(),
  relevance: z.number(),
  age_days: z.number().int().describe('Days from the event (or from its end, once ended) to the index date'),
  half_life_days: z.number(),
  decay: z.number(),
  pressure: z.number().describe('± category_weight × relevance × decay: positive when tightening, negative when easing'),
});

export const StressHistoryPoint = z.strictObject({
  date: DateString.describe('Last day of the month the reading describes'),
  index: z.number().min(0).max(100).nullable(),
  band: StressBand.nullable(),
  coverage: z.number().min(0).max(1).describe('Share of the nominal weight behind the reading'),
});
export type StressHistoryPoint = z.infer<typeof StressHistoryPoint>;

export const CommodityStress = z
  .strictObject({
    index: z.number().min(0).max(100).nullable().describe('Stress index 0–100; null when coverage is too thin (see `reason`)'),
    band: StressBand.nullable(),
    as_of: DateString.describe('The date the reading describes: the newest market observation behind it (not the build date)'),
    lag_days: z.number().int().nonnegative().describe('Days between `as_of` and the build date'),
    methodology_version: z.string(),
    coverage: z.number().min(0).max(1).describe('Σ weight × freshness factor of the measured components (the weights sum to 1)'),
    weights_rescaled: z.boolean().describe('Always false since methodology 3.0.0: weights are fixed and a missing component counts 0'),
    physical_floor: z
      .number()
      .min(0)
      .max(100)
      .nullable()
      .describe(
        '75 × freshness × clip(share_lost / 0.07, 0, 1) (methodology 3.1.0): supply lost on a route with no detour (Hormuz), at 7 % of world supply, reads severe whatever the price does. The index is the larger of this floor and the sum of the contributions; null when no route is measured',
      ),
    reason: z.string().optional().describe('Why `index` is null'),
    components: z.array(StressComponent),
    events: z
      .array(EventContribution)
      .describe('Annotations: tagged events near the date, with their decayed weight, largest first. They do not enter the index (methodology 3.0.0)'),
  })
  .describe('Stress reading of a commodity with every component visible');
export type CommodityStress = z.infer<typeof CommodityStress>;

export const StructuralRisk = z
  .strictObject({
    index: z.number().min(0).max(100).describe('100 × clip(log10(HHI / 500) / log10(20), 0, 1): 0 for twenty equal suppliers, 100 for a monopoly'),
    concentration: z.enum(['unconcentrated', 'moderately concentrated', 'highly concentrated']).describe('US DOJ/FTC 2023: < 1,000, 1,000–1,800, > 1,800'),
    hhi: z.number().min(0).max(10000),
    stage: z.enum(['production', 'exports', 'refining']).describe('The most concentrated supply stage with a table published by as_of'),
    basis: z.string(),
    year: z.number().int(),
    countries: z.number().int(),
    top_supplier: z.string().nullable(),
    top_share: z.number().nullable(),
    as_of: DateString,
    input_freshness: z.enum(['current', 'late', 'stale', 'expired']),
    source: z.string(),
    governance_weighted: z.literal(false).describe('The EU CRM method weights shares by governance (WGI); no WGI table is in our sources'),
    formula: z.string(),
  })
  .describe('Structural risk: supplier concentration of the narrowest stage, apart from current stress');
export type StructuralRisk = z.infer<typeof StructuralRisk>;

/** The fraction of a chokepoint's route counted as lost (pipeline/steps/disruption.ts lossBeyondTolerance). */
export const RouteLoss = z
  .number()
  .min(0)
  .max(1)
  .nullable()
  .describe(
    'Fraction of the route counted as lost: the shortfall beyond 15 % of normal (ordinary variation), rescaled so a closed route reads 1 (methodology 3.2.0)',
  );

export const ChokepointExposure = z
  .strictObject({
    chokepoint: z.string(),
    name: z.string(),
    exposure_share: z.number().min(0).describe("Share of the commodity's world supply (or seaborne trade) whose route passes the chokepoint"),
    exposure_basis: z.string(),
    exposure_year: z.number().int(),
    exposure_source: z.string(),
    vessels: z.enum(['tanker', 'cargo']),
    transits_per_day: z.number().nullable().describe('Mean daily transits of those vessels over the 28 days to `as_of` (IMF PortWatch)'),
    normal_per_day: z.number().nullable().describe('Median of the same 28 calendar days in up to 5 earlier years'),
    level_vs_normal: z.number().nullable().describe('transits / normal (1 = normal)'),
    loss: RouteLoss,
    as_of: DateString.nullable(),
    reason: z.string().optional().describe('Why the transit level is not measured'),
  })
  .describe('A chokepoint the commodity’s trade passes, and its transit level against normal');
export type ChokepointExposure = z.infer<typeof ChokepointExposure>;

const Month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'a month as YYYY-MM');
/** One window of data/backtest.yaml: a documented crisis, or a calm period. */
export const BacktestWindow = z.strictObject({
  commodity: z.string(),
  from: Month.describe('First month of the window, inclusive'),
  to: Month.describe('Last month of the window, inclusive'),
  label: z.string().min(1).describe('The supply cause (crises) or the rule (calm), in English'),
  source_url: z.url({ protocol: /^https$/ }).describe('Where the crisis (or the calm) is documented'),
});
export type BacktestWindow = z.infer<typeof BacktestWindow>;
/** A window with what the published history did in it. */
const WindowLabel = z.strictObject({ label: z.string().min(1).describe('The label in this language') });
export const BacktestWindowResult = BacktestWindow.extend({
  translations: z
    .strictObject({ fr: WindowLabel, de: WindowLabel, es: WindowLabel })
    .describe('The label in French, German and Spanish (data/backtest-labels.yaml)'),
  months: z.number().int().nonnegative(),
  scored: z.number().int().nonnegative().describe('Months with a published index'),
  flagged: z.number().int().nonnegative().describe('Months at `high` or `severe`'),
  peak: z.number().nullable(),
  peak_month: z.string().nullable(),
  hit: z.boolean().optional().describe('Crises only: at least max(⌈n/3⌉, min(2, n)) of the n month-ends flagged'),
  lead_months: z
    .number()
    .int()
    .nullable()
    .optional()
    .describe('Crises only: window start − first flagged month (from 6 months before); negative = late; null = never flagged'),
});
export type BacktestWindowResult = z.infer<typeof BacktestWindowResult>;
const Interval = z.tuple([z.number(), z.number()]).describe('Wilson 95 % interval');
export const BacktestCommodity = z.strictObject({
  commodity: z.string(),
  months: z.number().int().describe('Month-ends of the history from 2016-01'),
  scored: z.number().int(),
  flagged: z.number().int(),
  base_rate: z.number().nullable().describe('Flagged / scored month-ends'),
  crises: z.number().int(),
  hits: z.number().int(),
  misses: z.number().int(),
  calm_months: z.number().int(),
  false_alarms: z.number().int().describe('Flagged calm month-ends'),
  precision: z.number().nullable().describe('Flagged month-ends in crisis windows / flagged month-ends outside the 6 months before a window'),
  median_lead_months: z.number().nullable(),
});
export const BacktestResult = z.strictObject({
  rule: z.string().describe('How the windows were chosen and scored (data/backtest.yaml)'),
  crises: z.array(BacktestWindowResult.required({ hit: true })),
  calm: z.array(BacktestWindowResult),
  hit_rate: z.number().min(0).max(1),
  hit_rate_ci: Interval.describe('Wilson 95 % over crisis windows'),
  false_alarm_rate: z.number().min(0).max(1).describe('Flagged calm month-ends / calm month-ends'),
  calm_months: z.number().int().nonnegative(),
  calm_flagged: z.number().int().nonnegative(),
  calm_windows_flagged: z.number().int().nonnegative().describe('Calm windows with at least one flagged month-end'),
  calm_window_rate_ci: Interval.describe('Wilson 95 % of the share of calm windows with a flagged month-end'),
  base_rate: z.number().min(0).max(1).describe('Flagged / scored month-ends over every commodity from 2016-01'),
  precision: z.number().nullable(),
  precision_ci: Interval.nullable().describe('Wilson 95 % over flagged month-ends (autocorrelated: read as optimistic)'),
  per_commodity: z.array(BacktestCommodity),
  gscpi: z
    .strictObject({
      months: z.number().int(),
      correlation: z.number().nullable().describe('Pearson correlation of the monthly mean commodity index with the GSCPI'),
      from: z.string(),
      to: z.string(),
      points: z.array(z.strictObject({ month: z.string(), mean_index: z.number(), gscpi: z.number() })),
    })
    .nullable()
    .describe('Comparison with the NY Fed Global Supply Chain Pressure Index (not an input)'),
});
export type BacktestResult = z.infer<typeof BacktestResult>;
/** data/stress/backtest.json */
export const BacktestResponse = envelope(BacktestResult);
