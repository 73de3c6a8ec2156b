import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Freshness as FreshnessEnum } from '../contract/common.ts';
import { DATA_DIR } from '../test/support.ts';
import {
  CADENCE_SOURCE_IDS,
  cadenceTable,
  GRACE_DAYS,
  type SourceCadence,
  ageText,
  buildFreshness,
  deadlineStatus,
  freshnessAt,
  cadenceFor,
  expectedNext,
  freshnessOf,
  loadCadences,
  periodEnd,
} from './freshness.ts';

/** Newest observation of each source in the mirror (SOURCES.md), as ingest computes data_as_of. */
const MIRROR_AS_OF: Record<string, string | null> = {
  'eia-oil-prices': '2026-08-18',
  'eia-henry-hub': '2026-08-18',
  'eia-weekly-petroleum': '2026-02-27',
  'worldbank-pink-sheet': '2026-05-01',
  'imf-commodity-prices': '2025-09-01',
  'gie-agsi-gas-storage': '2026-08-20',
  'the-de-gas-consumption': '2026-08-22',
  'usgs-mcs-2026': '2025-12-31',
  'usgs-mcs-2022': '2021-12-31',
  'usgs-mcs-2023': '2022-12-31',
  'usgs-mcs-2024': '2023-12-31',
  'ei-statistical-review-2024': '2023-12-31',
  'ei-statistical-review-2026': '2025-12-31',
  'eurostat-gas-imports-by-partner': '2020-12-31',
  'imf-portwatch-chokepoints': '2026-08-16',
  'eia-chokepoints': '2025-12-31',
  'nyfed-gscpi': '2026-07-01',
  'country-codes': null,
  'chokepoint-editorial': null,
};

const dayAfter = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

describe('data/cadence.yaml', () => {
  let all: Record<string, SourceCadence>;
  beforeAll(async () => {
    all = await loadCadences(DATA_DIR);
  });

  it('has an entry for every source in the registry and the editorial source', () => {
    expect(Object.keys(all).sort()).toEqual([...CADENCE_SOURCE_IDS].sort());
    expect(Object.keys(MIRROR_AS_OF).sort()).toEqual([...CADENCE_SOURCE_IDS].sort());
  });

  it('pins each source at the clock 2026-11-23 (issue 12)', () => {
    const at = (id: string) => freshnessOf(cadenceFor(all, id), MIRROR_AS_OF[id] ?? null, '2026-11-23');
    expect(at('eia-weekly-petroleum')).toEqual({ freshness: 'stale', expected_next: '2026-03-11', overdue_days: 257 });
    expect(at('eurostat-gas-imports-by-partner')).toEqual({ freshness: 'historical', expected_next: null, overdue_days: 0 });
    expect(at('ei-statistical-review-2024').freshness).toBe('historical');
    expect(['late', 'stale']).toContain(at('eia-oil-prices').freshness);
    expect(['late', 'stale']).toContain(at('eia-henry-hub').freshness);
    expect(at('eia-oil-prices')).toEqual({ freshness: 'stale', expected_next: '2026-09-01', overdue_days: 83 });
    expect(at('worldbank-pink-sheet')).toEqual({ freshness: 'stale', expected_next: '2026-07-04', overdue_days: 142 });
    expect(at('imf-commodity-prices').freshness).toBe('stale');
    expect(at('gie-agsi-gas-storage')).toEqual({ freshness: 'stale', expected_next: '2026-08-22', overdue_days: 93 });
    expect(at('the-de-gas-consumption').freshness).toBe('stale');
    // USGS MCS 2027 (data year 2026) is not due until early February 2027.
    expect(at('usgs-mcs-2026')).toEqual({ freshness: 'current', expected_next: '2027-02-04', overdue_days: 0 });
    expect(at('country-codes')).toEqual({ freshness: 'current', expected_next: null, overdue_days: 0 });
    expect(at('chokepoint-editorial').freshness).toBe('current');
  });

  it('calls every active source current on the day after its newest observation', () => {
    for (const [id, asOf] of Object.entries(MIRROR_AS_OF)) {
      const c = cadenceFor(all, id);
      if (c.status !== 'active' || asOf === null) continue;
      expect(freshnessOf(c, asOf, dayAfter(asOf)), id).toEqual({ freshness: 'current', expected_next: expectedNext(c, asOf), overdue_days: 0 });
    }
  });

  it('rejects a malformed file with the path of each problem, and a missing or unknown source', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cadence-'));
    const text = await readFile(join(DATA_DIR, 'cadence.yaml'), 'utf8');
    await writeFile(join(dir, 'cadence.yaml'), text.replace('cadence: weekly', 'cadence: fortnightly'));
    await expect(loadCadences(dir)).rejects.toThrow(/cadence\.yaml \[eia-oil-prices\.cadence\]/);
    await writeFile(join(dir, 'cadence.yaml'), text.replace(/^eurostat-gas-imports-by-partner:/m, 'eurostat-gas-import:'));
    await expect(loadCadences(dir)).rejects.toThrow(/no entry for source 'eurostat-gas-imports-by-partner'[\s\S]*\[eurostat-gas-import\]: not a source id/);
    await writeFile(join(dir, 'cadence.yaml'), 'a: [');
    await expect(loadCadences(dir)).rejects.toThrow(/invalid cadence file/);
  });
});

describe('freshness rule', () => {
  const weekly: SourceCadence = { cadence: 'weekly', lag_days: 5, status: 'active', note: 'WPSR' };
  const monthly: SourceCadence = { cadence: 'monthly', lag_days: 4, status: 'active', note: 'Pink Sheet' };

  it('periodEnd: the day, the month or the year an observation stands for', () => {
    expect(periodEnd('2026-02-27', 'daily')).toBe('2026-02-27');
    expect(periodEnd('2026-02-27', 'weekly')).toBe('2026-02-27');
    expect(periodEnd('2026-02-27', 'irregular')).toBe('2026-02-27');
    expect(periodEnd('2024-02-01', 'monthly')).toBe('2024-02-29');
    expect(periodEnd('2026-12-15', 'monthly')).toBe('2026-12-31');
    expect(periodEnd('2025-06-30', 'annual')).toBe('2025-12-31');
    expect(() => periodEnd('2026-02-30', 'daily')).toThrow(/calendar date/);
  });

  it('expectedNext: the end of the next period plus the lag', () => {
    expect(expectedNext(weekly, '2026-02-27')).toBe('2026-03-11'); // week to Fri 6 Mar, published Wed 11 Mar
    expect(expectedNext(monthly, '2026-05-01')).toBe('2026-07-04'); // June, published early July
    expect(expectedNext(monthly, '2026-01-31')).toBe('2026-03-04'); // February has 28 days
    expect(expectedNext({ ...monthly, cadence: 'daily', lag_days: 1 }, '2026-12-31')).toBe('2027-01-02');
    expect(expectedNext({ ...monthly, cadence: 'annual', lag_days: 35 }, '2025-12-31')).toBe('2027-02-04');
  });

  it('current up to the expected date, late within the grace period, stale beyond', () => {
    expect(freshnessOf(weekly, '2026-02-27', '2026-03-11')).toEqual({ freshness: 'current', expected_next: '2026-03-11', overdue_days: 0 });
    expect(freshnessOf(weekly, '2026-02-27', '2026-03-12')).toEqual({ freshness: 'late', expected_next: '2026-03-11', overdue_days: 1 });
    expect(freshnessOf(weekly, '2026-02-27', '2026-03-25')).toEqual({ freshness: 'late', expected_next: '2026-03-11', overdue_days: GRACE_DAYS.weekly });
    expect(freshnessOf(weekly, '2026-02-27', '2026-03-26')).toEqual({ freshness: 'stale', expected_next: '2026-03-11', overdue_days: 15 });
    // A clock before the data (a replayed build) is never overdue.
    expect(freshnessOf(weekly, '2026-02-27', '2026-01-01').overdue_days).toBe(0);
  });

  it('historical and discontinued never update; irregular and empty sources are never overdue', () => {
    expect(freshnessOf({ ...weekly, status: 'historical' }, '2020-12-31', '2026-11-23')).toEqual({
      freshness: 'historical',
      expected_next: null,
      overdue_days: 0,
    });
    expect(freshnessOf({ ...weekly, status: 'discontinued' }, '2020-12-31', '2026-11-23').freshness).toBe('discontinued');
    expect(freshnessOf({ ...weekly, cadence: 'irregular' }, '2020-12-31', '2026-11-23')).toEqual({
      freshness: 'current',
      expected_next: null,
      overdue_days: 0,
    });
    expect(freshnessOf(weekly, null, '2026-11-23')).toEqual({ freshness: 'current', expected_next: null, overdue_days: 0 });
  });

  it('buildFreshness lets a broken date through to validation instead of stopping the build', () => {
    expect(() => freshnessOf(weekly, '12026-02-27', '2026-11-23')).toThrow(/not a YYYY-MM-DD date/);
    expect(buildFreshness(weekly, '12026-02-27', '2026-11-23')).toEqual({ freshness: 'current', expected_next: null, overdue_days: 0 });
    expect(buildFreshness(weekly, '2026-02-27', '2026-11-23')).toEqual(freshnessOf(weekly, '2026-02-27', '2026-11-23'));
  });

  it('merges a series override over its source', () => {
    const all: Record<string, SourceCadence> = { s: { ...weekly, series: { m: { cadence: 'monthly', lag_days: 7 } } } };
    expect(cadenceFor(all, 's', 'm')).toEqual({ cadence: 'monthly', lag_days: 7, status: 'active', note: 'WPSR' });
    expect(cadenceFor(all, 's', 'other')).toEqual({ ...weekly });
    expect(cadenceFor(all, 's')).toEqual({ ...weekly });
    expect(() => cadenceFor(all, 'nope')).toThrow(/no cadence for source 'nope'/);
  });

  it('the contract enum lists exactly the statuses the rule can give', () => {
    expect(FreshnessEnum.options).toEqual(['current', 'late', 'stale', 'historical', 'discontinued']);
  });
});

describe('docs/freshness.md', () => {
  it('carries the cadence table of data/cadence.yaml and the grace periods of the rule', async () => {
    const doc = await readFile(join(DATA_DIR, '..', 'docs', 'freshness.md'), 'utf8');
    const table = /<!-- cadence-table:start -->\n([\s\S]*?)\n<!-- cadence-table:end -->/.exec(doc)?.[1];
    // On a mismatch, paste cadenceTable(await loadCadences('data')) between the markers.
    expect(table).toBe(cadenceTable(await loadCadences(DATA_DIR)));
    for (const [cadence, days] of Object.entries(GRACE_DAYS)) expect(doc).toMatch(new RegExp(`\\| ${cadence} \\| ${days}\\b`));
  });
});

describe('ages and deadlines against today', () => {
  it('ageText: how long ago, in words', () => {
    expect(ageText('2026-02-27', '2026-11-23')).toBe('9 months ago');
    expect(ageText('2026-08-20', '2026-11-22')).toBe('3 months ago');
    expect(ageText('2026-11-20', '2026-11-23')).toBe('3 days ago');
    expect(ageText('2026-11-22', '2026-11-23')).toBe('yesterday');
    expect(ageText('2026-11-23', '2026-11-23')).toBe('today');
    expect(ageText('2026-10-26', '2026-11-23')).toBe('4 weeks ago');
    expect(ageText('2020-12-31', '2026-11-23')).toBe('6 years ago');
  });

  it('freshnessAt re-reads a status computed earlier on a later day', () => {
    const at = (today: string) => freshnessAt({ freshness: 'current', cadence: 'weekly', expected_next: '2026-03-11' }, today);
    expect(at('2026-03-11')).toEqual({ freshness: 'current', overdue_days: 0 });
    expect(at('2026-03-20')).toEqual({ freshness: 'late', overdue_days: 9 });
    expect(at('2026-11-23')).toEqual({ freshness: 'stale', overdue_days: 257 });
    expect(freshnessAt({ freshness: 'historical', cadence: 'annual', expected_next: null }, '2030-01-01')).toEqual({
      freshness: 'historical',
      overdue_days: 0,
    });
  });

  it('a target date that has passed is passed, never days to go from the data date (issue 12)', () => {
    // EU storage: 62 % on 20 Aug 2026, target 90 % by 1 Nov 2026, asked on 23 Nov 2026.
    expect(deadlineStatus({ target: 90, by: '2026-11-01', value: 62, as_of: '2026-08-20', today: '2026-11-23' })).toEqual({
      passed: true,
      reached: false,
      days_left: 0,
      to_go: 28,
      data_behind_days: 95,
    });
    // Data behind but the deadline ahead: days left count from today (10), not from the data date (73).
    expect(deadlineStatus({ target: 90, by: '2026-11-01', value: 62, as_of: '2026-08-20', today: '2026-10-22' })).toMatchObject({
      passed: false,
      days_left: 10,
      to_go: 28,
    });
    expect(deadlineStatus({ target: 90, by: '2026-11-01', value: 91, as_of: '2026-10-30', today: '2026-10-31' })).toMatchObject({
      passed: false,
      reached: true,
      to_go: 0,
      days_left: 1,
    });
    expect(deadlineStatus({ target: 90, by: '2026-11-01', value: 62, as_of: '2026-08-20', today: '2026-11-01' }).passed).toBe(false);
  });
});
