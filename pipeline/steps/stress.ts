import { METHODOLOGY_VERSION } from '../../contract/common.ts';
import type { CommodityStress, StressBand } from '../../contract/stress.ts';
import type { PriceAnomaly } from './prices.ts';
import { clamp01, round } from './reserves.ts';

/** Nominal weights (METHOD.md starting point); rescaled over the components that are available. */
export const WEIGHTS = { price: 0.3, concentration: 0.25, reserves: 0.2, events: 0.25 } as const;
export const CATEGORY_WEIGHTS: Record<string, number> = { conflict: 1.0, sanction: 0.8, policy: 0.7, infrastructure: 0.6, catastrophe: 0.5 };
/** Half-life in days: policy and sanctions weigh on supply for longer than shocks. */
export const HALF_LIFE_DAYS: Record<string, number> = { policy: 90, sanction: 90, conflict: 30, infrastructure: 30, catastrophe: 30 };
export const RELEVANCE = { commodityAndTopSupplier: 1.0, commodityOnly: 0.7 } as const;

export interface TaggedEvent {
  id: string;
  date: string;
  category: string;
  commodities: readonly string[];
  countries: readonly string[];
}

export function band(index: number | null): StressBand | null {
  if (index === null) return null;
  return index < 25 ? 'low' : index < 50 ? 'moderate' : index < 75 ? 'high' : 'severe';
}

const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

/** Event pressure of one commodity: Σ category weight × relevance × 2^(−age / half-life). */
export function eventPressure(slug: string, events: readonly TaggedEvent[], topSuppliers: ReadonlySet<string>, asOf: string) {
  const contributions = events
    .filter((e) => e.commodities.includes(slug) && e.date <= asOf)
    .map((e) => {
      const age = daysBetween(e.date, asOf);
      const h = HALF_LIFE_DAYS[e.category] ?? 30;
      const w = CATEGORY_WEIGHTS[e.category] ?? 0.5;
      const r = e.countries.some((c) => topSuppliers.has(c)) ? RELEVANCE.commodityAndTopSupplier : RELEVANCE.commodityOnly;
      const decay = 2 ** (-age / h);
      return { id: e.id, date: e.date, category: e.category, category_weight: w, relevance: r, age_days: age, half_life_days: h, decay: round(decay, 6), pressure: round(w * r * decay, 6) };
    })
    .filter((c) => c.pressure >= 0.0005)
    .sort((a, b) => b.pressure - a.pressure);
  const sum = contributions.reduce((s, c) => s + c.pressure, 0);
  return { sum, score: 1 - Math.exp(-sum), contributions };
}

export interface StressInputs {
  slug: string;
  asOf: string;
  anomaly: PriceAnomaly | undefined;
  priceSource: string | null;
  concentration: { hhi: number; year: number; source: string; countries: number } | null;
  reserve: { shortfall: number | null; inputs: Record<string, number | string | null>; as_of: string; source: string; label: string } | null;
  events: ReturnType<typeof eventPressure> | null;
}

/** stress = 100 × Σ wᵢ·sᵢ / Σ wᵢ over the available components (METHOD.md), every input shown. */
export function commodityStress(x: StressInputs): CommodityStress {
  const z = x.anomaly?.z ?? null;
  const components: CommodityStress['components'] = [
    {
      key: 'price', name: 'Price anomaly', weight: WEIGHTS.price, effective_weight: 0, available: z !== null,
      raw: z === null ? null : round(z, 4), raw_label: 'z-score of the latest log price against the trailing 60 months',
      score: z === null ? null : round(Math.min(Math.max(z, 0), 3) / 3, 4), contribution: null,
      inputs: {
        latest_price: x.anomaly?.latest ?? null, latest_date: x.anomaly?.as_of ?? null,
        window_mean_log: x.anomaly?.window_mean_log ?? null, window_std_log: x.anomaly?.window_std_log ?? null,
        window_periods: x.anomaly?.window_periods ?? 0, window_from: x.anomaly?.window_from ?? null, window_to: x.anomaly?.window_to ?? null,
        volatility_annualised: x.anomaly?.volatility_annualised ?? null, formula: 's = clip(z, 0, 3) / 3',
      },
      as_of: x.anomaly?.as_of ?? null, source: x.priceSource,
      ...(z === null ? { reason: x.anomaly
        ? 'too short or flat a trailing history (needs 24 months, or 3 years for annual series, with some variation)'
        : 'no public price series in our sources' } : {}),
    },
    {
      key: 'concentration', name: 'Supplier concentration', weight: WEIGHTS.concentration, effective_weight: 0, available: x.concentration !== null,
      raw: x.concentration?.hhi ?? null, raw_label: 'Herfindahl–Hirschman index of producer shares (0–10,000)',
      score: x.concentration ? round(clamp01(Math.log10(x.concentration.hhi / 1000)), 4) : null, contribution: null,
      inputs: { hhi: x.concentration?.hhi ?? null, year: x.concentration?.year ?? null, producing_countries: x.concentration?.countries ?? null, formula: 's = clip(log10(HHI / 1000), 0, 1)' },
      as_of: x.concentration ? `${x.concentration.year}-12-31` : null, source: x.concentration?.source ?? null,
      ...(x.concentration ? {} : { reason: 'no production table by country in our sources' }),
    },
    {
      key: 'reserves', name: 'Reserve buffer', weight: WEIGHTS.reserves, effective_weight: 0, available: x.reserve?.shortfall != null,
      raw: x.reserve?.shortfall == null ? null : round(x.reserve.shortfall, 4), raw_label: x.reserve?.label ?? 'relative shortfall of the reserve against its target',
      score: x.reserve?.shortfall == null ? null : round(x.reserve.shortfall, 4), contribution: null,
      inputs: x.reserve?.inputs ?? {}, as_of: x.reserve?.as_of ?? null, source: x.reserve?.source ?? null,
      ...(x.reserve?.shortfall == null ? { reason: 'no strategic reserve data for this commodity in our sources' } : {}),
    },
    {
      key: 'events', name: 'Event pressure', weight: WEIGHTS.events, effective_weight: 0, available: x.events !== null,
      raw: x.events ? round(x.events.sum, 4) : null, raw_label: 'Σ category weight × relevance × 2^(−age / half-life) over tagged events',
      score: x.events ? round(x.events.score, 4) : null, contribution: null,
      inputs: { events_counted: x.events?.contributions.length ?? 0, as_of: x.asOf, formula: 's = 1 − exp(−Σ)' },
      as_of: x.asOf, source: 'chokepoint-editorial',
      ...(x.events ? {} : { reason: 'the events dataset is not available' }),
    },
  ];
  const available = components.filter((c) => c.available);
  const totalWeight = available.reduce((s, c) => s + c.weight, 0);
  let index: number | null = null;
  if (totalWeight > 0) {
    let sum = 0;
    for (const c of available) {
      c.effective_weight = round(c.weight / totalWeight, 6);
      c.contribution = round(100 * c.effective_weight * (c.score ?? 0), 2);
      sum += c.contribution;
    }
    index = round(sum, 1);
  }
  return {
    index,
    band: band(index),
    as_of: x.asOf,
    methodology_version: METHODOLOGY_VERSION,
    weights_rescaled: available.length < components.length,
    components,
    events: x.events?.contributions.slice(0, 20) ?? [],
  };
}
