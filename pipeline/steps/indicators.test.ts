import { describe, expect, it } from 'vitest';
import { parseInterval } from '../config.ts';
import { countryStress } from './countries.ts';
import { hhi, hhiBand } from './shares.ts';
import { band, commodityStress, eventPressure, type StressInputs } from './stress.ts';

describe('HHI', () => {
  it('sums squared percentage shares and bands them by the 2023 DOJ/FTC thresholds', () => {
    expect(hhi([1])).toBe(10000);
    expect(hhi([0.5, 0.5])).toBe(5000);
    expect(hhi([0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1])).toBe(1000);
    expect(hhiBand(999.9)).toBe('unconcentrated');
    expect(hhiBand(1000)).toBe('moderately concentrated');
    expect(hhiBand(1800)).toBe('moderately concentrated');
    expect(hhiBand(1800.1)).toBe('highly concentrated');
  });
});

describe('event pressure', () => {
  const ev = (id: string, date: string, category: string, countries: string[] = []) => ({ id, date, category, commodities: ['metals.cobalt'], countries });

  it('halves a conflict every 30 days and a policy every 90, and weighs a top supplier fully', () => {
    const asOf = '2025-04-01';
    const p = eventPressure('metals.cobalt', [ev('a', '2025-03-02', 'conflict'), ev('b', '2025-01-01', 'policy', ['COD'])], new Set(['COD']), asOf);
    const a = p.contributions.find((c) => c.id === 'a')!;
    const b = p.contributions.find((c) => c.id === 'b')!;
    expect(a).toMatchObject({ age_days: 30, decay: 0.5, relevance: 0.7, pressure: 0.35 });
    expect(b).toMatchObject({ age_days: 90, decay: 0.5, relevance: 1, category_weight: 0.7, pressure: 0.35 });
    expect(p.score).toBeCloseTo(1 - Math.exp(-0.7), 6);
  });

  it('ignores events after the reading date and events about other commodities', () => {
    const p = eventPressure('metals.cobalt', [ev('future', '2026-01-01', 'conflict'), { ...ev('x', '2025-01-01', 'conflict'), commodities: ['energy.gas'] }], new Set(), '2025-06-01');
    expect(p).toMatchObject({ sum: 0, score: 0, contributions: [] });
  });
});

describe('commodity stress', () => {
  const base: StressInputs = { slug: 'metals.x', asOf: '2026-01-01', anomaly: undefined, priceSource: null, concentration: null, reserve: null, events: { sum: 0, score: 0, contributions: [] } };

  it('rescales the weights over the available components and says so', () => {
    const s = commodityStress({ ...base, concentration: { hhi: 10000, year: 2025, source: 'usgs-mcs-2026', countries: 1 } });
    // concentration (0.25, score 1) and events (0.25, score 0) available: 100 × 0.25 / 0.5 = 50.
    expect(s.index).toBe(50);
    expect(s.band).toBe('high');
    expect(s.weights_rescaled).toBe(true);
    expect(s.components.find((c) => c.key === 'concentration')).toMatchObject({ effective_weight: 0.5, contribution: 50 });
    expect(s.components.find((c) => c.key === 'price')).toMatchObject({ available: false, reason: 'no public price series in our sources' });
  });

  it('caps the price score at z = 3 and floors it at 0', () => {
    const anomaly = (z: number) => ({ slug: 'x', as_of: '2026-01-01', latest: 1, z, window_mean_log: 0, window_std_log: 1, window_periods: 60, window_from: null, window_to: null, volatility_annualised: null });
    expect(commodityStress({ ...base, anomaly: anomaly(6) }).components[0]!.score).toBe(1);
    expect(commodityStress({ ...base, anomaly: anomaly(-2) }).components[0]!.score).toBe(0);
    expect(commodityStress({ ...base, anomaly: anomaly(1.5) }).components[0]!.score).toBe(0.5);
  });

  it('bands at 25, 50 and 75', () => {
    expect([band(24.9), band(25), band(50), band(75), band(null)]).toEqual(['low', 'moderate', 'high', 'severe', null]);
  });
});

describe('country stress', () => {
  const exposure = (commodity: string, dep: number | null, supplierHhi: number | null) => ({
    commodity, year: 2023, unit: 'bcm', production: null, production_listed: false, consumption: 1, import_dependence: dep,
    suppliers: [], suppliers_year: null, suppliers_unit: null, supplier_hhi: supplierHhi, source: 'ei',
  });

  it('is zero for a self-sufficient country and the full commodity stress for a single-supplier importer', () => {
    const stress = new Map([['energy.gas', 60], ['energy.oil', 40]]);
    expect(countryStress([exposure('energy.gas', 0, 10000)], stress).index).toBe(0);
    expect(countryStress([exposure('energy.gas', 1, 10000)], stress).index).toBe(60);
    // Unknown suppliers count as a neutral 0.5 concentration score: weight 0.75.
    const r = countryStress([exposure('energy.gas', 1, 10000), exposure('energy.oil', 1, null)], stress);
    expect(r.parts.map((p) => p.weight)).toEqual([1, 0.75]);
    expect(r.index).toBe(45);
  });
});

describe('--every', () => {
  it('reads 15m, 90s and 1h and rejects anything else clearly', () => {
    expect([parseInterval('15m'), parseInterval('90s'), parseInterval('1h')]).toEqual([900_000, 90_000, 3_600_000]);
    expect(() => parseInterval('15')).toThrow(/--every takes a duration like 15m/);
    expect(() => parseInterval('0m')).toThrow(/greater than zero/);
  });
});

describe('ISO weeks', () => {
  it('follow ISO 8601 across year ends', async () => {
    const { isoWeekId } = await import('../../contract/dates.ts');
    expect(['2026-11-22', '2026-11-23', '2025-12-29', '2026-01-01', '2027-01-03', '2020-12-31', '2021-01-03'].map(isoWeekId)).toEqual([
      '2026-w47', '2026-w48', '2026-w01', '2026-w01', '2026-w53', '2020-w53', '2020-w53',
    ]);
  });
});
