import { z } from 'zod';
import { DateString } from './common.ts';

export const StressBand = z.enum(['low', 'moderate', 'high', 'severe']).describe('< 25 low, 25–50 moderate, 50–75 high, ≥ 75 severe');
export type StressBand = z.infer<typeof StressBand>;

export const ComponentKey = z.enum(['price', 'concentration', 'reserves', 'events']);
export type ComponentKey = z.infer<typeof ComponentKey>;

const InputValue = z.union([z.number(), z.string(), z.boolean(), z.null()]);

export const StressComponent = z
  .strictObject({
    key: ComponentKey,
    name: z.string(),
    weight: z.number().describe('Nominal weight wᵢ of the component'),
    effective_weight: z.number().describe('Weight after rescaling over the available components (0 when unavailable)'),
    available: z.boolean(),
    raw: z.number().nullable().describe('Raw indicator value (z-score, HHI, shortfall, event sum)'),
    raw_label: z.string().describe('What `raw` measures'),
    score: z.number().min(0).max(1).nullable().describe('Normalised score sᵢ in [0, 1]'),
    contribution: z.number().nullable().describe('Points this component adds to the index: 100 × effective_weight × score'),
    inputs: z.record(z.string(), InputValue).describe('Every raw input, so anyone can recompute the score'),
    as_of: DateString.nullable(),
    source: z.string().nullable().describe('Source id of the inputs'),
    reason: z.string().optional().describe('Why the component is unavailable'),
  })
  .describe('One component of the stress index');

export const EventContribution = z.strictObject({
  id: z.string(),
  date: DateString,
  category: z.string(),
  category_weight: z.number(),
  relevance: z.number(),
  age_days: z.number().int(),
  half_life_days: z.number(),
  decay: z.number(),
  pressure: z.number().describe('category_weight × relevance × decay'),
});

export const CommodityStress = z
  .strictObject({
    index: z.number().min(0).max(100).nullable().describe('Stress index 0–100 (null when no component is available)'),
    band: StressBand.nullable(),
    as_of: DateString,
    methodology_version: z.string(),
    weights_rescaled: z.boolean().describe('True when some component was unavailable and the weights were rescaled'),
    components: z.array(StressComponent),
    events: z.array(EventContribution).describe('The events that contributed to event pressure'),
  })
  .describe('Stress reading of a commodity with every component visible');
export type CommodityStress = z.infer<typeof CommodityStress>;
