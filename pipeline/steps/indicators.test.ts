import { describe, expect, it } from 'vitest';
import { parseInterval } from '../../lib/config.ts';
import { type CountryEnergy, countryStressAt } from './countries.ts';
import { hhi, hhiBand } from './shares.ts';
import {
  type Cadences,
  type CommodityInputs,
  type ConcentrationStage,
  type Point,
  type PriceInput,
  type TaggedEvent,
  band,
  eventPressure,
  hhiScore,
  priceStress,
  stressAt,
} from './stress.ts';

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

const ACTIVE = { lag_days: 0, status: 'active' as const, note: 'test' };
const cadences: Cadences = (source) =>
  source.startsWith('ei-') || source.startsWith('usgs')
    ? { ...ACTIVE, cadence: 'annual', lag_days: 35 }
    : source === 'daily'
      ? { ...ACTIVE, cadence: 'daily' }
      : { ...ACTIVE, cadence: 'monthly', lag_days: 5 };
const ev = (id: string, date: string, category: string, extra: Partial<TaggedEvent> = {}): TaggedEvent => ({
  id,
  date,
  category,
  effect: 'tightening',
  kind: 'one-off',
  commodities: ['metals.cobalt'],
  countries: [],
  ...extra,
});
/** A monthly price series: 1 + 1 % a month of noise-free drift with a seasonal wiggle, then `tail` appended. */
function monthly(from: number, n: number, tail: number[] = []): Point[] {
  const pts: Point[] = [];
  for (let i = 0; i < n + tail.length; i++) {
    const y = from + Math.floor(i / 12);
    const m = (i % 12) + 1;
    const v = i < n ? 100 * Math.exp(0.002 * i + 0.03 * Math.sin(i * 1.7)) : (tail[i - n] as number);
    pts.push({ date: `${y}-${String(m).padStart(2, '0')}-01`, value: v });
  }
  return pts;
}
const inputs = (x: Partial<CommodityInputs>): CommodityInputs => ({
  slug: 'metals.cobalt',
  price: null,
  stages: [],
  reserve: null,
  events: [],
  topSuppliers: new Set(),
  ...x,
});

describe('event pressure', () => {
  it('halves a one-off conflict every 30 days and a policy every 90, and weighs a top supplier fully', () => {
    const p = eventPressure(
      'metals.cobalt',
      [ev('a', '2025-03-02', 'conflict'), ev('b', '2025-01-01', 'policy', { countries: ['COD'] })],
      new Set(['COD']),
      '2025-04-01',
    );
    expect(p.contributions.find((c) => c.id === 'a')).toMatchObject({ age_days: 30, decay: 0.5, relevance: 0.7, pressure: 0.35 });
    expect(p.contributions.find((c) => c.id === 'b')).toMatchObject({ age_days: 90, decay: 0.5, relevance: 1, category_weight: 0.7, pressure: 0.35 });
    expect(p.score).toBeCloseTo(1 - Math.exp(-0.7), 6);
  });

  it('counts an easing event against the tightening ones, so it lowers the score', () => {
    const ban = ev('ban', '2025-01-01', 'policy', { kind: 'lasting' });
    const release = ev('release', '2025-03-01', 'policy', { effect: 'easing' });
    const without = eventPressure('metals.cobalt', [ban], new Set(), '2025-04-01');
    const withRelease = eventPressure('metals.cobalt', [ban, release], new Set(), '2025-04-01');
    expect(withRelease.contributions.find((c) => c.id === 'release')!.pressure).toBeLessThan(0);
    expect(withRelease.score).toBeLessThan(without.score);
    // Easing alone cannot push the score below zero.
    expect(eventPressure('metals.cobalt', [release], new Set(), '2025-04-01').score).toBe(0);
  });

  it('holds a lasting measure while in force and lets it decay from its end', () => {
    const inForce = ev('ban', '2024-04-01', 'policy', { kind: 'lasting' });
    const ended = { ...inForce, ended_on: '2025-01-01' };
    const t = '2025-04-01';
    const a = eventPressure('metals.cobalt', [inForce], new Set(), t).contributions[0]!;
    const b = eventPressure('metals.cobalt', [ended], new Set(), t).contributions[0]!;
    expect(a).toMatchObject({ half_life_days: 365, age_days: 365, decay: 0.5 });
    // 275 days in force (2^(−275/365)), then 90 days at the policy half-life (0.5).
    expect(b.decay).toBeCloseTo(2 ** (-275 / 365) * 0.5, 5);
    expect(b).toMatchObject({ age_days: 90, ended_on: '2025-01-01' });
    // Before its end the ended measure still reads as in force: no look-ahead.
    expect(eventPressure('metals.cobalt', [ended], new Set(), '2024-10-01').contributions[0]!.half_life_days).toBe(365);
  });

  it('ignores events after the reading date and events about other commodities', () => {
    const p = eventPressure(
      'metals.cobalt',
      [ev('future', '2026-01-01', 'conflict'), { ...ev('x', '2025-01-01', 'conflict'), commodities: ['energy.gas'] }],
      new Set(),
      '2025-06-01',
    );
    expect(p).toMatchObject({ sum: 0, score: 0, contributions: [], covered: false });
  });
});

describe('price shock', () => {
  const series = (tail: number[]): PriceInput => ({ source: 'worldbank-pink-sheet', series: 'x', frequency: 'monthly', points: monthly(2010, 150, tail) });

  it('scores a sharp rise against the history of such moves, and a collapse as zero', () => {
    const calm = priceStress(series([]), '2022-06-30');
    const spike = priceStress(series([180]), '2022-07-31');
    const crash = priceStress(series([50]), '2022-07-31');
    if ('reason' in calm || 'reason' in spike || 'reason' in crash) throw new Error('expected readings');
    expect(calm.score).toBeLessThan(0.5);
    expect(spike.score).toBe(1);
    expect(spike.inputs.change_3m_pct).toBeGreaterThan(30);
    expect(crash.score).toBe(0);
  });

  it('is not silenced by an older crisis in the window (robust statistics)', () => {
    const old = monthly(2010, 150).map((p, i) => (i >= 100 && i < 106 ? { ...p, value: p.value * 3 } : p));
    const withCrisis: PriceInput = { ...series([]), points: [...old, { date: '2022-07-01', value: 180 }] };
    const r = priceStress(withCrisis, '2022-07-31');
    if ('reason' in r) throw new Error(r.reason);
    expect(r.score).toBe(1);
  });

  it('measures a precious metal in gold, so a rally gold shares is not a supply shock', () => {
    // Gold moves on its own path (a different wobble) and rallies with the metal in the last month.
    const gold = monthly(2010, 150, [180]).map((p, i) => (i < 150 ? { ...p, value: 100 * Math.exp(0.002 * i + 0.03 * Math.cos(i * 1.3)) } : p));
    const metal = series([180]);
    const alone = priceStress(metal, '2022-07-31');
    const inGold = priceStress({ ...metal, numeraire: { slug: 'metals.gold', points: gold } }, '2022-07-31');
    const outrunsGold = priceStress({ ...series([360]), numeraire: { slug: 'metals.gold', points: gold } }, '2022-07-31');
    if ('reason' in alone || 'reason' in inGold || 'reason' in outrunsGold) throw new Error('expected readings');
    expect(alone.score).toBe(1);
    expect(inGold.score).toBe(0);
    expect(inGold.inputs.measured_against).toBe('metals.gold');
    expect(outrunsGold.score).toBe(1);
  });

  it('refuses an annual average: it cannot show a shock', () => {
    expect(
      priceStress({ source: 'ei-statistical-review-2024', series: 'x', frequency: 'annual', points: [{ date: '2023-01-01', value: 5 }] }, '2024-01-01'),
    ).toMatchObject({ reason: expect.stringMatching(/annual average/) });
  });
});

describe('commodity stress', () => {
  const stage = (hhi: number): ConcentrationStage => ({
    stage: 'production',
    basis: 'mine',
    source: 'usgs-mcs-2026',
    years: [{ year: 2024, hhi, countries: 3, top: 'CHN', top_share: 0.9 }],
  });

  it('publishes no index from events alone, or from a single component, and says why', () => {
    const germaniumLike = inputs({ events: [ev('ctrl', '2025-01-01', 'policy', { commodities: ['metals.cobalt'] })] });
    const s = stressAt(germaniumLike, '2025-06-30', '2025-06-30', cadences);
    expect(s).toMatchObject({ index: null, band: null });
    expect(s.reason).toMatch(/not events alone/);
    const concentrationOnly = stressAt(inputs({ stages: [stage(10000)] }), '2025-06-30', '2025-06-30', cadences);
    expect(concentrationOnly.index).toBeNull();
    // With nothing tagged the event desk does not cover the commodity: no free zero.
    expect(concentrationOnly.components.find((c) => c.key === 'events')).toMatchObject({ available: false });
  });

  it('rescales the weights over the available components and scores a monopoly 1', () => {
    const s = stressAt(inputs({ stages: [stage(10000)], events: [ev('old', '2015-01-01', 'conflict')] }), '2025-06-30', '2025-06-30', cadences);
    // concentration (0.25, score 1) and events (0.25, score ≈ 0): 100 × 0.25 / 0.5 = 50.
    expect(s.index).toBe(50);
    expect(s.band).toBe('high');
    expect(s.coverage).toBe(0.5);
    expect(s.components.find((c) => c.key === 'concentration')).toMatchObject({ effective_weight: 0.5, contribution: 50, score: 1 });
    expect(hhiScore(500)).toBe(0);
    expect(hhiScore(10000)).toBe(1);
  });

  it('halves a stale input and drops an expired one by the published rule', () => {
    const price: PriceInput = { source: 'worldbank-pink-sheet', series: 'x', frequency: 'monthly', points: monthly(2010, 150) };
    const x = inputs({ price, stages: [stage(2000)] });
    const last = price.points.at(-1)!.date; // 2022-06-01: due 2022-08-05
    expect(last).toBe('2022-06-01');
    const fresh = stressAt(x, '2022-06-30', '2022-06-30', cadences).components[0]!;
    const stale = stressAt(x, '2022-10-31', '2022-10-31', cadences).components[0]!;
    const expired = stressAt(x, '2023-03-31', '2023-03-31', cadences).components[0]!;
    expect(fresh).toMatchObject({ input_freshness: 'current', freshness_factor: 1 });
    expect(stale).toMatchObject({ input_freshness: 'stale', freshness_factor: 0.5, available: true });
    expect(expired).toMatchObject({ input_freshness: 'expired', freshness_factor: 0, available: false });
  });

  it('bands at 25, 50 and 75', () => {
    expect([band(24.9), band(25), band(50), band(75), band(null)]).toEqual(['low', 'moderate', 'high', 'severe', null]);
  });
});

describe('country stress', () => {
  const country = (fuels: Record<string, { ej: number; production: number; consumption: number }>, primary: number): CountryEnergy => ({
    iso3: 'XXX',
    region: 'Europe',
    years: new Map([[2023, { primary, fuels: new Map(Object.entries(fuels).map(([k, v]) => [k, { ...v }])) }]]),
    suppliers: new Map([['energy.gas', { entries: [], hhi: 10000, unit: 'bcm', basis: 'test' }]]),
  });
  const stress = (slug: string) => ({ 'energy.gas': 60, 'energy.oil': 40, 'energy.coal': 80 })[slug] ?? null;

  it('weighs each fuel by its share of primary energy, so negligible coal does not stress a country', () => {
    // Gas 50 % of primary energy, all imported from one supplier; coal 1 % of primary, all imported.
    const c = country({ 'energy.gas': { ej: 5, production: 0, consumption: 100 }, 'energy.coal': { ej: 0.1, production: 0, consumption: 0.1 } }, 10);
    const r = countryStressAt(c, '2025-01-01', 177, stress);
    const coal = r.parts.find((p) => p.commodity === 'energy.coal')!;
    expect(coal).toMatchObject({ energy_share: 0.01, material: false, weight: 0, contribution: 0 });
    // 0.5 × 1 × (0.5 + 0.5 × 1) × 60 = 30.
    expect(r.index).toBe(30);
  });

  it('is zero for a self-sufficient country and unknown suppliers count as a neutral 0.5', () => {
    const self = country({ 'energy.gas': { ej: 5, production: 100, consumption: 100 } }, 10);
    expect(countryStressAt(self, '2025-01-01', 177, stress).index).toBe(0);
    const oil = country({ 'energy.oil': { ej: 10, production: 0, consumption: 50 } }, 10);
    // No recorded oil suppliers: 1 × 1 × 0.75 × 40 = 30.
    expect(countryStressAt(oil, '2025-01-01', 177, stress)).toMatchObject({ index: 30 });
    // Before EI 2023 was published there is no balance to stand on.
    expect(countryStressAt(oil, '2024-03-01', 177, stress).index).toBeNull();
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
      '2026-w47',
      '2026-w48',
      '2026-w01',
      '2026-w01',
      '2026-w53',
      '2020-w53',
      '2020-w53',
    ]);
  });
});
