import { describe, expect, it } from 'vitest';
import type { EventCategory } from '../../contract/content.ts';
import { parseInterval } from '../../lib/config.ts';
import { COUNTRY_DOWN, COUNTRY_THRESHOLDS, type CountryEnergy, type LossAt, countryStressAt, routeExposure } from './countries.ts';
import { hhi, hhiBand } from './shares.ts';
import { routeLoss } from './disruption.ts';
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
  stressHistory,
  structuralRisk,
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
const ev = (id: string, date: string, category: EventCategory, extra: Partial<TaggedEvent> = {}): TaggedEvent => ({
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
  disruption: null,
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

  it('scores a rebound that leaves the price below its 60-month median: no zeroing, a continuous score', () => {
    // Five years at 200, a collapse to 100, then a rebound to 150: below the old median, +50 % in three months.
    const pts = monthly(2010, 150).map((p, i) => ({ ...p, value: (i < 140 ? 200 : 100) * (1 + 0.01 * Math.sin(i)) }));
    const r = priceStress({ ...series([]), points: [...pts, { date: '2022-07-01', value: 150 }] }, '2022-07-31');
    if ('reason' in r) throw new Error(r.reason);
    expect(r.score).toBe(1);
    expect(r.inputs).not.toHaveProperty('below_60m_median');
  });

  it('floors the dispersion, so a near-flat series cannot turn a small move into an extreme z', () => {
    // An administered price: flat for ten years (MAD = 0), then +5 % in a month.
    const flat = monthly(2010, 150).map((p) => ({ ...p, value: 100 }));
    const r = priceStress({ ...series([]), points: [...flat, { date: '2022-07-01', value: 105 }] }, '2022-07-31');
    if ('reason' in r) throw new Error(r.reason);
    // z = ln(1.05) / (0.04 × √3) = 0.70: no shock, where an unfloored z would be infinite.
    expect(r.z).toBeCloseTo(Math.log(1.05) / (0.04 * Math.sqrt(3)), 4);
    expect(r.score).toBe(0);
    expect(r.inputs.dispersion_floored_3m).toBe(true);
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

  it('publishes no band without market data, whatever the concentration or the events; structural risk stands apart', () => {
    const galliumLike = inputs({ stages: [stage(10000)], events: [ev('ctrl', '2025-01-01', 'policy', { commodities: ['metals.cobalt'] })] });
    const s = stressAt(galliumLike, '2025-06-30', '2025-06-30', cadences);
    expect(s).toMatchObject({ index: null, band: null, coverage: 0 });
    expect(s.reason).toMatch(/no market data/);
    // Events are annotations: listed, never counted.
    expect(s.events.map((e) => e.id)).toEqual(['ctrl']);
    expect(s.components.map((c) => c.key)).toEqual(['price', 'reserves', 'disruption']);
    expect(structuralRisk(galliumLike, '2025-06-30', cadences)).toMatchObject({
      index: 100,
      hhi: 10000,
      concentration: 'highly concentrated',
      governance_weighted: false,
    });
    expect(hhiScore(500)).toBe(0);
    expect(hhiScore(10000)).toBe(1);
  });

  it('keeps fixed weights: a price shock alone reaches 50, and a missing component counts 0 against the same denominator', () => {
    const price: PriceInput = { source: 'worldbank-pink-sheet', series: 'x', frequency: 'monthly', points: monthly(2010, 150, [180]) };
    const s = stressAt(inputs({ price, stages: [stage(10000)] }), '2022-07-31', '2022-07-31', cadences);
    expect(s).toMatchObject({ index: 50, band: 'high', coverage: 0.5, weights_rescaled: false });
    expect(s.components.find((c) => c.key === 'price')).toMatchObject({ weight: 0.5, effective_weight: 0.5, contribution: 50, score: 1 });
    expect(s.components.find((c) => c.key === 'disruption')).toMatchObject({ available: false, contribution: null });
  });

  it('reads supply lost at Hormuz on its own scale (3.1.0 physical floor, 3.2.0 tolerance), but a diversion through Suez only in its weighted 30 points', () => {
    const DAY = 86_400_000;
    const first = Math.floor(Date.parse('2016-01-01') / DAY);
    const cut = Math.floor(Date.parse('2022-06-01') / DAY) - first;
    // 2,400 days of 50 a day, then a tenth of that: to 2022-07-28.
    const closed = Float64Array.from({ length: 2400 }, (_, i) => (i >= cut ? 5 : 50));
    const open = Float64Array.from({ length: 2400 }, () => 50);
    const price: PriceInput = { source: 'worldbank-pink-sheet', series: 'x', frequency: 'monthly', points: monthly(2010, 150) };
    const at = (chokepoint: string) => {
      const transits = new Map([[chokepoint, { first, tanker: closed, cargo: open }]]);
      const row = { chokepoint, share: 0.2, year: 2015, published: '2016-01-01', basis: 'test', source: 'eia-chokepoints' as const };
      const x = inputs({ slug: 'energy.oil', price, disruption: { table: { vessel: 'tanker', rows: [row] }, transits } });
      return stressAt(x, '2022-07-28', '2022-07-28', cadences);
    };
    const hormuz = at('hormuz');
    // Transits at a tenth of normal: (0.9 − 0.15) / 0.85 of the route lost (3.2.0); 20 % of world supply × 0.882 = 17.6 % ≥ 7 %:
    // severe whatever the (flat) price says.
    expect(hormuz.components.find((c) => c.key === 'disruption')).toMatchObject({ score: 1, contribution: 30 });
    expect(hormuz.components.find((c) => c.key === 'disruption')!.inputs.share_lost).toBeCloseTo(0.2 * (0.75 / 0.85), 4);
    expect(hormuz).toMatchObject({ physical_floor: 75, index: 75, band: 'severe' });
    // The same loss through Suez is a detour round the Cape: no floor, the weighted sum only.
    const suez = at('suez');
    expect(suez.physical_floor).toBe(0);
    expect(suez.index).toBeLessThan(50);
    expect(suez.index).toBeGreaterThanOrEqual(30);
  });

  it('counts a shortfall of transits only beyond the 15 % that ordinary years show (3.2.0), and a closed route in full', () => {
    const DAY = 86_400_000;
    const first = Math.floor(Date.parse('2016-01-01') / DAY);
    const from = Math.floor(Date.parse('2022-06-01') / DAY) - first;
    const route = (perDay: number) => {
      const tanker = Float64Array.from({ length: 2400 }, (_, i) => (i >= from ? perDay : 50));
      const r = routeLoss(new Map([['hormuz', { first, tanker, cargo: tanker }]]), 'hormuz', 'tanker', '2022-07-28');
      if ('reason' in r) throw new Error(r.reason);
      return r;
    };
    // 45 a day against a normal of 50: 10 % short, within ordinary variation.
    expect(route(45)).toMatchObject({ level: 0.9, loss: 0 });
    // 30 a day: 40 % short, (0.4 − 0.15) / 0.85 counted.
    expect(route(30).loss).toBeCloseTo(0.25 / 0.85, 4);
    // Closed: the whole route, not 85 % of it.
    expect(route(0)).toMatchObject({ level: 0, loss: 1 });
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

  it('bands at 25, 50 and 75, stepping down only 5 points below a threshold', () => {
    expect([band(24.9), band(25), band(50), band(75), band(null)]).toEqual(['low', 'moderate', 'high', 'severe', null]);
    expect([band(49, 'high'), band(45.1, 'high'), band(44.9, 'high'), band(71, 'severe'), band(10, 'severe'), band(51, 'low')]).toEqual([
      'high',
      'high',
      'moderate',
      'severe',
      'low',
      'high',
    ]);
  });

  it('carries the band along the history, so a month-end just under a threshold keeps the band', () => {
    // A spike to 180, then 167: the index falls just under 50 but stays in `high`; a plain cut-off would read `moderate`.
    const price: PriceInput = { source: 'worldbank-pink-sheet', series: 'x', frequency: 'monthly', points: monthly(2010, 150, [180, 167]) };
    const h = stressHistory(inputs({ price }), '2022-08-31', '2022-08-31', cadences);
    expect(h.at(-2)).toMatchObject({ date: '2022-07-31', index: 50, band: 'high' });
    expect(h.at(-1)).toMatchObject({ date: '2022-08-31', index: 47.9, band: 'high' });
    expect(band(47.9)).toBe('moderate');
  });
});

describe('country stress', () => {
  const country = (fuels: Record<string, { ej: number; production: number; consumption: number }>, primary: number, region = 'Asia'): CountryEnergy => ({
    iso3: 'XXX',
    region,
    years: new Map([[2023, { primary, fuels: new Map(Object.entries(fuels).map(([k, v]) => [k, { ...v }])) }]]),
    suppliers: new Map([
      [
        'energy.oil',
        {
          entries: [
            { iso3: 'SAU', name: 'Saudi Arabia', value: 80, share: 0.8 },
            { iso3: 'USA', name: 'US', value: 20, share: 0.2 },
          ],
          hhi: 6800,
          unit: 'mt',
          basis: 'test',
        },
      ],
    ]),
  });
  const closed: LossAt = (c) => (c === 'hormuz' ? { loss: 0.9, level: 0.1 } : { loss: 0.5, level: 0.5 });

  it('is the share of primary energy at risk: energy share × import dependence × import share × loss at Hormuz', () => {
    // Oil 40 % of primary energy, all imported, 80 % from Saudi Arabia through a Hormuz at 10 % of normal.
    const c = { ...country({ 'energy.oil': { ej: 4, production: 0, consumption: 100 } }, 10), subregion: 'Eastern Asia' };
    const r = countryStressAt(c, '2026-04-30', 177, closed);
    // 100 × 0.4 × 1 × 0.8 × 0.9 = 28.8 % (severe: above the IEA's 7 %).
    expect(r.index).toBe(28.8);
    expect(r.parts[0]!.suppliers_at_risk).toEqual([
      { supplier: 'Saudi Arabia', iso3: 'SAU', import_share: 0.8, chokepoint: 'hormuz', loss: 0.9, contribution: 28.8 },
    ]);
    // Malacca is on the route but a detour exists: published in the route exposure, not counted as a loss.
    expect(routeExposure(c.suppliers.get('energy.oil'), 'energy.oil', 'Asia', 'Eastern Asia', '2026-04-30', closed)).toEqual([
      { chokepoint: 'hormuz', name: 'Strait of Hormuz', import_share: 0.8, level_vs_normal: 0.1, loss: 0.9, counted_as_loss: true },
      { chokepoint: 'malacca', name: 'Strait of Malacca', import_share: 0.8, level_vs_normal: 0.5, loss: 0.5, counted_as_loss: false },
    ]);
    expect([
      band(28.8, null, COUNTRY_THRESHOLDS, COUNTRY_DOWN),
      band(1.7, 'high', COUNTRY_THRESHOLDS, COUNTRY_DOWN),
      band(0.3, null, COUNTRY_THRESHOLDS, COUNTRY_DOWN),
    ]).toEqual(['severe', 'high', 'low']);
  });

  it('reads, each month, the EI edition out then: the 2024 edition until the 2026 edition (data year 2025) is published', () => {
    const balances = (year: number, ej: number) =>
      new Map([[year, { primary: 10, fuels: new Map([['energy.oil', { ej, production: 0, consumption: 100 }]]) }]]) as CountryEnergy['years'];
    const old = balances(2023, 4);
    const current = balances(2025, 2);
    const c: CountryEnergy = {
      ...country({}, 10),
      years: current,
      source: 'ei-statistical-review-2026',
      editions: [
        { source: 'ei-statistical-review-2024', dataYear: 2023, years: old },
        { source: 'ei-statistical-review-2026', dataYear: 2025, years: current },
      ],
    };
    // 2025-12-31 + 177 days = 2026-06-26: in April 2026 the 2026 edition is not out.
    expect(countryStressAt(c, '2026-04-30', 177, closed)).toMatchObject({ year: 2023, index: 28.8 });
    expect(countryStressAt(c, '2026-07-31', 177, closed)).toMatchObject({ year: 2025, index: 14.4 });
    // Late 2024: the 2024 edition, and never a later edition's figures.
    expect(countryStressAt(c, '2024-12-31', 177, closed)).toMatchObject({ year: 2023, index: 28.8 });
  });

  it('routes only seaborne imports: pipeline gas from Iran (Türkiye) passes no strait, Qatari LNG passes Hormuz', () => {
    const c: CountryEnergy & { subregion: string } = {
      ...country({ 'energy.gas': { ej: 3, production: 0, consumption: 50 } }, 10),
      subregion: 'Western Asia',
      suppliers: new Map([
        [
          'energy.gas',
          {
            entries: [
              { iso3: 'IRN', name: 'Iran', value: 10, share: 0.5 },
              { iso3: 'QAT', name: 'Qatar', value: 10, share: 0.5 },
            ],
            hhi: 5000,
            unit: 'bcm',
            basis: 'test',
            overland: new Map([['Iran', 0.5]]),
          },
        ],
      ]),
    };
    const r = countryStressAt(c, '2026-04-30', 177, closed);
    // 100 × 0.3 × 1 × 0.5 (Qatar's LNG only) × 0.9 = 13.5; Iran's pipeline gas is not at risk at Hormuz.
    expect(r.parts[0]!.suppliers_at_risk.map((s) => [s.supplier, s.import_share])).toEqual([['Qatar', 0.5]]);
    expect(r.index).toBe(13.5);
    expect(routeExposure(c.suppliers.get('energy.gas'), 'energy.gas', 'Asia', 'Western Asia', '2026-04-30', closed)).toMatchObject([
      { chokepoint: 'hormuz', import_share: 0.5 },
    ]);
  });

  it('is zero for a net exporter, null where Hormuz is not measured, and none before the EI year is published', () => {
    const self = country({ 'energy.oil': { ej: 4, production: 200, consumption: 100 } }, 10);
    expect(countryStressAt(self, '2026-04-30', 177, closed).index).toBe(0);
    const importer = country({ 'energy.oil': { ej: 4, production: 0, consumption: 100 } }, 10);
    expect(countryStressAt(importer, '2026-12-31', 177, () => null)).toMatchObject({ index: null, reason: expect.stringMatching(/no transit measurement/) });
    expect(countryStressAt(importer, '2024-03-01', 177, closed).index).toBeNull();
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
