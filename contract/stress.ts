import { z } from 'zod';
import { DateString, envelope } from './common.ts';

export const StressBand = z.enum(['low', 'moderate', 'high', 'severe']).describe('< 25 low, 25–50 moderate, 50–75 high, ≥ 75 severe');
export type StressBand = z.infer<typeof StressBand>;

export const ComponentKey = z.enum(['price', 'concentration', 'reserves', 'events']);
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
    weight: z.number().describe('Nominal weight wᵢ of the component'),
    freshness_factor: z.number().min(0).max(1).describe('1 for a current input, 0.5 for a stale one, 0 when unavailable or expired'),
    effective_weight: z.number().describe('wᵢ × freshness_factorᵢ / Σ wⱼ × freshness_factorⱼ over the available components (0 when unavailable)'),
    available: z.boolean(),
    raw: z.number().nullable().describe('Raw indicator value (robust z of the price move, HHI, shortfall, net event pressure)'),
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
    coverage: z.number().min(0).max(1).describe('Σ nominal weight × freshness factor of the available components / Σ nominal weights'),
    weights_rescaled: z.boolean().describe('True when some component was unavailable or down-weighted and the weights were rescaled'),
    reason: z.string().optional().describe('Why `index` is null'),
    components: z.array(StressComponent),
    events: z.array(EventContribution).describe('The events that contributed to event pressure, largest first'),
  })
  .describe('Stress reading of a commodity with every component visible');
export type CommodityStress = z.infer<typeof CommodityStress>;

const Month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'a month as YYYY-MM');
/** One window of data/backtest.yaml: a documented crisis, or a calm period. */
export const BacktestWindow = z.strictObject({
  commodity: z.string(),
  from: Month.describe('First month of the window, inclusive'),
  to: Month.describe('Last month of the window, inclusive'),
  label: z.string().min(1),
  source_url: z.url({ protocol: /^https$/ }).describe('Where the crisis (or the calm) is documented'),
});
export type BacktestWindow = z.infer<typeof BacktestWindow>;
/** A window with what the published history did in it. */
export const BacktestWindowResult = BacktestWindow.extend({
  months: z.number().int().nonnegative(),
  scored: z.number().int().nonnegative().describe('Months with a published index'),
  flagged: z.number().int().nonnegative().describe('Months at `high` or `severe`'),
  peak: z.number().nullable(),
  peak_month: z.string().nullable(),
  hit: z.boolean().optional().describe('Crises only: flagged at least once'),
});
export type BacktestWindowResult = z.infer<typeof BacktestWindowResult>;
export const BacktestResult = z.strictObject({
  crises: z.array(BacktestWindowResult.required({ hit: true })),
  calm: z.array(BacktestWindowResult),
  hit_rate: z.number().min(0).max(1),
  false_alarm_rate: z.number().min(0).max(1),
  calm_months: z.number().int().nonnegative(),
  calm_flagged: z.number().int().nonnegative(),
});
export type BacktestResult = z.infer<typeof BacktestResult>;
/** data/stress/backtest.json */
export const BacktestResponse = envelope(BacktestResult);
