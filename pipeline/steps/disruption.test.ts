import { describe, expect, it } from 'vitest';
import type { StressHistoryPoint } from '../../contract/stress.ts';
import { DATA_DIR } from '../../test/support.ts';
import { hitsNeeded, loadBacktest, runBacktest, translateLabel, wilson } from './backtest.ts';
import { D0, type TransitSeries, disruptionAt, routeLoss } from './disruption.ts';
import { type ExposureTable, exposureAt } from './exposure.ts';

const DAY = 86_400_000;
/** Daily transits from 2019-01-01: `normal` a day, then `closed` a day from `from` on. */
function series(days: number, normal: number, closed: number, from: string): TransitSeries {
  const first = Math.floor(Date.parse('2019-01-01') / DAY);
  const cut = Math.floor(Date.parse(from) / DAY) - first;
  const a = Float64Array.from({ length: days }, (_, i) => (i >= cut ? closed : normal + (i % 7) - 3));
  return { first, tanker: a, cargo: a };
}
const row = (chokepoint: string, share: number, published = '2019-01-01') => ({
  chokepoint,
  share,
  year: 2018,
  published,
  basis: 'test',
  source: 'eia-chokepoints' as const,
});

describe('measured disruption', () => {
  const transits = new Map([
    ['hormuz', series(2800, 60, 3, '2026-03-01')],
    ['malacca', series(2800, 80, 60, '2026-03-01')],
    ['suez', series(2800, 40, 40, '2030-01-01')],
  ]);

  it('reads 28 days of transits against the median of the same days in up to five earlier years', () => {
    const r = routeLoss(transits, 'hormuz', 'tanker', '2026-04-30');
    if ('reason' in r) throw new Error(r.reason);
    expect(r).toMatchObject({ transits: 3, from: '2026-04-03', to: '2026-04-30', normal_years: '2021,2022,2023,2024,2025' });
    expect(r.normal).toBeCloseTo(60, 0);
    expect(r.level).toBeCloseTo(0.05, 2);
    // 95 % short: the part beyond the 15 % of ordinary variation, rescaled (3.2.0).
    expect(r.loss).toBeCloseTo((0.95 - 0.15) / 0.85, 2);
    // Before the closure the level is normal.
    const before = routeLoss(transits, 'hormuz', 'tanker', '2026-02-27');
    expect('reason' in before ? null : before.loss).toBe(0);
  });

  it('does not measure a chokepoint whose data end more than 14 days before the date, or that we have no data for', () => {
    expect(routeLoss(transits, 'hormuz', 'tanker', '2026-12-31')).toMatchObject({ reason: expect.stringMatching(/more than 14 days/) });
    expect(routeLoss(transits, 'panama', 'tanker', '2026-04-30')).toMatchObject({ reason: expect.stringMatching(/no transit data/) });
  });

  it('counts one route once (its largest exposure × loss) and scores 7 % of world supply as 1', () => {
    const table: ExposureTable = { vessel: 'tanker', rows: [row('hormuz', 0.2), row('malacca', 0.25), row('suez', 0.05), row('panama', 0.02)] };
    const d = disruptionAt(table, transits, '2026-04-30');
    const hormuz = d.parts.find((p) => p.chokepoint === 'hormuz')!;
    const malacca = d.parts.find((p) => p.chokepoint === 'malacca')!;
    // Hormuz and Malacca are one route: the larger of 0.2 × 0.94 and 0.25 × 0.12 (25 % short: 0.1 / 0.85 beyond the tolerance), not their sum.
    expect(d.share).toBeCloseTo(Math.max(hormuz.at_risk, malacca.at_risk), 6);
    expect(hormuz.at_risk).toBeGreaterThan(malacca.at_risk);
    expect(d.score).toBe(1);
    expect(D0).toBe(0.07);
    expect(d.parts.find((p) => p.chokepoint === 'panama')).toMatchObject({ route: null, at_risk: 0 });
    // A small loss scores in proportion.
    const small = disruptionAt({ vessel: 'tanker', rows: [row('malacca', 0.1)] }, transits, '2026-04-30');
    expect(small.score).toBeCloseTo(small.share / 0.07, 3);
  });

  it('takes the newest exposure published by the date, and flags the oldest one used before any was published', () => {
    const table: ExposureTable = { vessel: 'tanker', rows: [row('hormuz', 0.2, '2020-06-28'), row('hormuz', 0.22, '2021-06-28')] };
    expect(exposureAt(table, '2021-01-31')).toMatchObject([{ share: 0.2, before_publication: false }]);
    expect(exposureAt(table, '2022-01-31')).toMatchObject([{ share: 0.22, before_publication: false }]);
    expect(exposureAt(table, '2019-01-31')).toMatchObject([{ share: 0.2, before_publication: true }]);
  });
});

describe('backtest', () => {
  const month = (m: string, index: number | null): StressHistoryPoint => ({
    date: `${m}-28`,
    index,
    band: index === null ? null : index >= 50 ? 'high' : 'low',
    coverage: 1,
  });
  const window = (commodity: string, from: string, to: string) => ({
    commodity,
    from,
    to,
    label: 'x',
    translations: { fr: { label: 'x' }, de: { label: 'x' }, es: { label: 'x' } },
    source_url: 'https://example.org/',
  });

  it('names every window of data/backtest.yaml in French, German and Spanish, price note included', async () => {
    const w = await loadBacktest(DATA_DIR);
    const oil2018 = w.crises.find((c) => c.commodity === 'energy.oil' && c.from === '2018-05')!;
    expect(oil2018.translations.fr.label).toBe(
      'Rétablissement des sanctions américaines sur le pétrole iranien (mai 2018) et effondrement de la production vénézuélienne (prix jusqu’à +60 % sur un an)',
    );
    expect(oil2018.translations.de.label).toMatch(/ \(Preis bis zu \+60 % gegenüber dem Vorjahr\)$/);
    for (const x of [...w.crises, ...w.calm]) for (const l of ['fr', 'de', 'es'] as const) expect(x.translations[l].label).not.toBe('');
    const labels = { price_note: { fr: '{change}', de: '{change}', es: '{change}' }, labels: {} };
    expect(translateLabel('Something new (price up to +50 % on the year)', labels)).toBeUndefined();
  });

  it('needs max(⌈n/3⌉, min(2, n)) flagged month-ends, counts a missing index as a miss, and gives Wilson intervals over windows', () => {
    expect([1, 2, 3, 6, 7, 12].map(hitsNeeded)).toEqual([1, 2, 2, 2, 3, 4]);
    const histories = new Map([
      ['a', ['2021-01', '2021-02', '2021-03', '2021-04'].map((m, i) => month(m, [10, 60, 10, 60][i]!))],
      ['b', ['2021-01', '2021-02', '2021-03'].map((m) => month(m, null))],
    ]);
    const r = runBacktest(
      { crises: [window('a', '2021-01', '2021-04'), window('b', '2021-01', '2021-03')], calm: [window('a', '2021-01', '2021-01')] },
      histories,
    );
    expect(r.crises.map((c) => [c.hit, c.flagged, c.lead_months])).toEqual([
      [true, 2, -1],
      [false, 0, null],
    ]);
    expect(r.hit_rate).toBe(0.5);
    expect(r.hit_rate_ci).toEqual(wilson(1, 2));
    expect(wilson(1, 2)).toEqual([0.0945, 0.9055]);
    expect(r.per_commodity.find((c) => c.commodity === 'a')).toMatchObject({ flagged: 2, precision: 1, hits: 1 });
    expect(r.gscpi).toBeNull();
  });
});
