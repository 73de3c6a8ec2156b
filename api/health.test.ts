import { describe, expect, it } from 'vitest';
import type { BuildManifest } from '../contract/manifest.ts';
import { HEADLINE_SOURCES, Health } from '../contract/health.ts';
import { DEGRADED_AFTER_FAILED_BUILDS } from '../contract/limits.ts';
import { healthOf, publicReason } from './health.ts';

type Source = BuildManifest['sources'][number];
const source = (id: string, over: Partial<Source> = {}): Source => ({
  id,
  publisher: 'P',
  dataset: 'D',
  url: 'https://example.org',
  license: 'Public domain',
  redistribution: 'open',
  status: 'fresh',
  sha256: 'x',
  retrieved_at: '2026-11-22T00:00:00.000Z',
  data_as_of: '2026-11-20',
  cadence: 'daily',
  freshness: 'current',
  expected_next: '2026-11-22',
  overdue_days: 0,
  stale_reason: null,
  stale_since: null,
  files: [],
  ...over,
});
const manifest = (sources: Source[]): BuildManifest => ({
  build: 'b1',
  generated_at: '2026-11-22T00:00:00.000Z',
  methodology_version: '1',
  base_url: 'https://chokepoint.test',
  duration_ms: 1,
  sources,
  omitted: [],
  files: {},
});
const at = (day: string) => new Date(`${day}T12:00:00Z`);
const built = new Date('2026-11-22T00:00:00Z');

describe('/healthz', () => {
  it('is ok while every source loaded and no headline source is stale', () => {
    const h = Health.parse(healthOf(manifest(HEADLINE_SOURCES.map((id) => source(id))), at('2026-11-22'), built));
    expect(h).toMatchObject({ status: 'ok', degraded_by: [], checked_on: '2026-11-22', age_seconds: 43_200 });
    expect(h.sources.every((s) => s.headline && s.freshness === 'current')).toBe(true);
  });

  it('re-reads freshness on the day of the request: a build served for days does not stay current', () => {
    const m = manifest([source('gie-agsi-gas-storage')]);
    expect(healthOf(m, at('2026-11-25'), built).sources[0]).toMatchObject({ freshness: 'late', overdue_days: 3 });
    const later = healthOf(m, at('2026-12-01'), built);
    expect(later.sources[0]).toMatchObject({ status: 'fresh', freshness: 'stale', overdue_days: 9 });
    expect(later).toMatchObject({
      status: 'degraded',
      degraded_by: [
        {
          id: 'gie-agsi-gas-storage',
          reason: expect.stringMatching(/headline data are stale: they end 2026-11-20, the next observation was due by 2026-11-22 \(9 days overdue\)/),
        },
      ],
    });
  });

  it('a stale source outside the headline figures, and a historical one, leave it ok', () => {
    const h = healthOf(
      manifest([
        source('the-de-gas-consumption', { data_as_of: '2026-08-22', expected_next: '2026-08-24', freshness: 'stale', overdue_days: 90 }),
        source('eurostat-gas-imports-by-partner', { cadence: 'annual', data_as_of: '2020-12-31', expected_next: null, freshness: 'historical' }),
      ]),
      at('2026-11-23'),
      built,
    );
    expect(h.status).toBe('ok');
    expect(h.sources.map((s) => s.freshness)).toEqual(['stale', 'historical']);
  });

  it('a failed load degrades it whatever the freshness, with a reason free of paths and SQL', () => {
    const h = healthOf(
      manifest([
        source('country-codes', {
          status: 'stale',
          stale_reason: 'Binder Error: in /srv/chokepoint/dist/snapshots/x/a.csv\nLINE 1: SELECT * FROM t',
          stale_since: '2026-11-22T00:00:00.000Z',
          cadence: 'irregular',
          expected_next: null,
        }),
      ]),
      at('2026-11-23'),
      built,
    );
    expect(h.status).toBe('degraded');
    expect(h.degraded_by).toEqual([
      { id: 'country-codes', reason: 'the latest load failed; the last good snapshot (retrieved 2026-11-22T00:00:00.000Z) is served' },
    ]);
    expect(h.sources[0]!.stale_reason).toBe('a source file does not have the expected columns: in a.csv');
  });

  it('publicReason keeps the message and drops server paths and queries', () => {
    expect(publicReason('header lacks column fill_pct in /work/shared/sources/gie/agsi.csv')).toBe('header lacks column fill_pct in agsi.csv');
    expect(publicReason('Conversion Error: could not convert "a" in query: SELECT * FROM read_csv(\'/tmp/x.csv\')')).toBe(
      'a value in a source file does not have the expected type: could not convert "a" (query omitted)',
    );
    expect(publicReason("ENOENT: no such file or directory, open '/srv/my sources/gie/agsi.csv'")).toBe('a source file is missing: agsi.csv');
    expect(publicReason('IO Error: No files found that match the pattern "/srv/shared sources/agsi/*.csv"')).toBe(
      'a source file could not be read: No files found that match the pattern "*.csv"',
    );
    expect(publicReason('Parser Error: syntax error at or near "FROM" in read_csv_auto(x)')).toBe(
      'the loading query was refused: syntax error at or near "FROM" in (query omitted)',
    );
    expect(publicReason('Catalog Error: Table with name agsi does not exist!')).toBe('an expected table is missing: Table with name agsi does not exist!');
    expect(publicReason('failed reading file:///etc/chokepoint/x.csv and ../../secrets/y.csv')).toBe('failed reading x.csv and y.csv');
    expect(publicReason('eia_oil_prices has 2 row(s) with NaN or infinite values')).toBe('eia_oil_prices has 2 row(s) with NaN or infinite values');
    expect(publicReason(null)).toBeNull();
  });

  it(`is degraded from ${DEGRADED_AFTER_FAILED_BUILDS} failed builds in a row, saying why in words, and ok again once one publishes`, () => {
    const m = manifest(HEADLINE_SOURCES.map((id) => source(id)));
    const failed = (count: number) => ({
      count,
      since: '2026-11-22T01:00:00.000Z',
      last_at: '2026-11-22T11:45:00.000Z',
      last_reason: "ENOSPC: no space left on device, write '/srv/chokepoint/dist/builds/.tmp-20261122-1/v1/reserves/gas/de.json'",
    });
    const two = Health.parse(healthOf(m, at('2026-11-22'), built, null, failed(DEGRADED_AFTER_FAILED_BUILDS - 1)));
    expect(two.status).toBe('ok');
    expect(two.failed_builds).toMatchObject({ count: 2, last_reason: 'no space was left on the build disk: de.json' });
    const three = Health.parse(healthOf(m, at('2026-11-22'), built, null, failed(DEGRADED_AFTER_FAILED_BUILDS)));
    expect(three.status).toBe('degraded');
    expect(three.degraded_by).toEqual([
      {
        id: 'builds',
        reason:
          'the last 3 builds failed (since 2026-11-22T01:00:00.000Z), the latest at 2026-11-22T11:45:00.000Z: no space was left on the build disk: de.json; the build of 2026-11-22T00:00:00.000Z is served',
      },
    ]);
    expect(JSON.stringify(three)).not.toContain('/srv/');
    expect(Health.parse(healthOf(m, at('2026-11-22'), built, null, null))).toMatchObject({ status: 'ok', failed_builds: null });
  });
});
