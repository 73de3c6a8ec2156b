import { createHash } from 'node:crypto';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Health } from '../../contract/health.ts';
import { BuildManifest, type SourceStatus } from '../../contract/manifest.ts';
import { SOURCE_IDS } from '../../contract/sources.ts';
import { startTestServer } from '../../test/http.ts';
import { EI_WORKBOOK_2026, type ReplayServer, type Router, USGS_ITEM, originsOf, recordedPlays, recording, replayPublishers } from '../../test/publishers.ts';
import { DATA_DIR, NO_SITE, SOURCES_DIR, readCsv, readJson, tempDir, testEffects } from '../../test/support.ts';
import { type BuildResult, runBuild } from '../build.ts';
import { SOURCES } from '../sources/registry.ts';
import type { FetchLine, FetchPolicy } from './polite.ts';
import { readFetchState } from './state.ts';

/**
 * The live build end to end: every publisher stood in for by a local server (PUBLISHER_URL_*),
 * which replays the real recorded answers of ../shared/publishers/ where the adapter asks for what
 * was recorded (country codes, the USGS MCS 2026 CSV, the World Bank's June 2026 workbook) and plays
 * a live publisher's faults for others: a 429 with Retry-After, a 500, a hang, an empty 200, a
 * truncated body. The other sources get 404: their recordings answer other queries than the ones
 * the adapters send (an EIA cassette of another series, AGSI+ for one date), and are read by each
 * adapter's own test (pipeline/sources/*.test.ts).
 */

const COUNTRY_CODES = recording('country-codes/country-codes.csv');
const USGS_CSV = recording('usgs-mcs-2026/MCS2026_Commodities_Data.csv');
const THE_XML = recording('the-de-gas-consumption/getXML.ashx_ReportId=AggregatedConsumptionData_Start=01-01-2026_End=02-01-2026.xml');
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

const recorded = recordedPlays();
const PLAYS: Partial<Record<string, Router>> = {
  ...recorded,
  'country-codes': (req) => (req.n === 0 ? { kind: 'status', status: 429, headers: { 'retry-after': '1' } } : recorded['country-codes']!(req)),
  'eia-oil-prices': () => ({ kind: 'status', status: 500 }),
  'eia-henry-hub': () => ({ kind: 'hang' }),
  'eia-weekly-petroleum': () => ({ kind: 'empty' }),
  'the-de-gas-consumption': () => ({ kind: 'truncate', body: THE_XML }),
};

// Fast limits for a test (the defaults are a minute per request and ten per source); no timing is asserted.
const POLICY: Partial<FetchPolicy> = { timeoutMs: 3_000, deadlineMs: 20_000, retries: 1, backoffMs: 10, maxBackoffMs: 50 };
const T0 = new Date('2026-11-27T12:00:00Z');
const DAY = 86_400_000;

describe('a live build against the publishers’ recorded answers and faults', () => {
  let mirror: string;
  let out: string;
  let servers: Record<string, ReplayServer> = {};
  let seed: BuildResult;
  let first: BuildResult;
  let second: BuildResult;
  const lines: FetchLine[] = [];
  /** Requests each stand-in had seen when the first live build was done. */
  const afterFirst: Record<string, number> = {};

  const live = (now: Date) => {
    const fx = { ...testEffects(now), fetch: globalThis.fetch, fetchLog: (l: FetchLine) => lines.push(l) };
    return runBuild(
      {
        sourcesDir: mirror,
        dataDir: DATA_DIR,
        outDir: out,
        baseUrl: 'https://chokepoint.test',
        site: NO_SITE,
        download: true,
        sourceKeys: { eia: 'TESTKEY-EIA', agsi: 'TESTKEY-AGSI' },
        live: { policy: POLICY, publisherUrls: originsOf(servers) },
      },
      fx,
    );
  };
  const status = (r: BuildResult, id: string): SourceStatus => r.sources.find((s) => s.id === id)!;

  beforeAll(async () => {
    servers = await replayPublishers(SOURCE_IDS, PLAYS);
    // The last good build read a mirror whose country-code list lacked Bouvet Island.
    mirror = await tempDir('live-mirror');
    await cp(SOURCES_DIR, mirror, { recursive: true });
    const rows = COUNTRY_CODES.toString().split('\n');
    await writeFile(join(mirror, 'country-codes/country-codes.csv'), rows.filter((r) => !r.includes(',BVT,')).join('\n'));
    out = await tempDir('live-out');
    seed = await runBuild(
      { sourcesDir: mirror, dataDir: DATA_DIR, outDir: out, baseUrl: 'https://chokepoint.test', site: NO_SITE },
      testEffects(new Date(T0.getTime() - DAY)),
    );
    first = await live(T0);
    for (const [id, s] of Object.entries(servers)) afterFirst[id] = s.seen.length;
    second = await live(new Date(T0.getTime() + 8 * DAY));
  }, 600_000);
  afterAll(async () => {
    for (const s of Object.values(servers)) await s.close();
  });

  it('publishes what the publishers sent: the replayed country codes, fetched after a 429 with Retry-After', () => {
    expect(status(first, 'country-codes')).toMatchObject({ status: 'fresh', files: [{ path: 'country-codes.csv', sha256: sha256(COUNTRY_CODES) }] });
    expect(status(first, 'country-codes').fetch).toMatchObject({ outcome: 'fetched', reason: null, requests: 2, retries: 1, bytes: COUNTRY_CODES.length });
    expect(servers['country-codes']!.seen.slice(0, 2).map((s) => s.status)).toEqual([429, 200]);
    // The USGS file arrives in Windows-1252 and is stored as UTF-8: the same text the mirror holds.
    expect(status(first, 'usgs-mcs-2026').fetch).toMatchObject({
      outcome: 'unchanged',
      requests: 2,
      bytes: USGS_CSV.length + JSON.stringify(USGS_ITEM).length,
    });
    expect(status(first, 'usgs-mcs-2026').sha256).toBe(status(seed, 'usgs-mcs-2026').sha256);
    // The EI 2026 workbook, converted to the mirror's layout: its downloads page answered 404, the last known address served it.
    const ei = status(first, 'ei-statistical-review-2026');
    expect(ei.fetch).toMatchObject({ outcome: 'fetched', reason: null, requests: 2 });
    expect(ei.fetch!.bytes).toBeGreaterThanOrEqual(recording(EI_WORKBOOK_2026).length);
    expect(['fresh', 'unchanged']).toContain(ei.status);
  });

  it('keeps the last good snapshot of each failing publisher, named stale with its reason', () => {
    const failing: Record<string, RegExp> = {
      'eia-oil-prices': /answered 500 \(2 attempts\)$/,
      'eia-henry-hub': /deadline of 20 s passed|did not answer within 3 s \(2 attempts\)$/,
      'eia-weekly-petroleum': /answered 200 with an empty body \(2 attempts\)$/,
      'the-de-gas-consumption': / failed: .*\(2 attempts\)$/,
      // The June workbook, still served in November: an old edition, refused rather than published as fresh.
      'worldbank-pink-sheet': /serves data up to 2026-05 only; by the publisher's monthly cadence a newer period was due by/,
    };
    for (const [id, reason] of Object.entries(failing)) {
      const s = status(first, id);
      expect(s, id).toMatchObject({ status: 'stale', stale_since: T0.toISOString(), sha256: status(seed, id).sha256 });
      expect(s.stale_reason, id).toMatch(reason);
      expect(s.fetch, id).toMatchObject({ outcome: 'failed', last_attempt: T0.toISOString(), last_success: null, next_due: '2026-11-27T12:15:00.000Z' });
      expect(s.fetch!.reason, id).toBe(s.stale_reason);
    }
    expect(afterFirst['eia-oil-prices']).toBe(2);
  });

  it('reads the sources that cannot be fetched (closed editions, a table published only as HTML) from the embedded mirror, not as failures', () => {
    const mirrorOnly = SOURCES.filter((a) => a.mirrorOnly).map((a) => a.id);
    expect(mirrorOnly.toSorted()).toEqual(['eia-chokepoints', 'imf-portwatch-chokepoints', 'nyfed-gscpi', 'usgs-mcs-2022', 'usgs-mcs-2023', 'usgs-mcs-2024']);
    for (const id of mirrorOnly) {
      expect(status(first, id), id).toMatchObject({ status: 'unchanged', stale_reason: null, sha256: status(seed, id).sha256 });
      expect(status(first, id).fetch, id).toBeUndefined();
      expect(servers[id]!.seen, id).toHaveLength(0);
    }
  });

  it('logs one line per fetch, with the source, the URL without the key, status, bytes, time and retries', () => {
    const first = lines.filter((l) => l.source === 'country-codes')[0]!;
    expect(first).toEqual({
      source: 'country-codes',
      url: `${servers['country-codes']!.origin}/datasets/country-codes/main/data/country-codes.csv`,
      status: 200,
      bytes: COUNTRY_CODES.length,
      ms: expect.any(Number),
      retries: 1,
    });
    expect(lines.filter((l) => l.source === 'eia-oil-prices')[0]).toMatchObject({ status: 500, retries: 1, error: expect.stringMatching(/answered 500/) });
    expect(JSON.stringify(lines)).not.toMatch(/TESTKEY/);
  });

  it('on the next build asks only what is due: unchanged files answered 304, a source whose next release cannot exist yet not asked', () => {
    // Country codes (irregular) are due a week after the last check, and the server answers the validators with 304.
    expect(servers['country-codes']!.seen.at(-1)).toMatchObject({ status: 304, ifNoneMatch: expect.stringMatching(/^"/) });
    expect(status(second, 'country-codes')).toMatchObject({ status: 'unchanged', sha256: status(first, 'country-codes').sha256 });
    expect(status(second, 'country-codes').fetch).toMatchObject({ outcome: 'unchanged', requests: 1, not_modified: 1, bytes: 0 });
    // The next MCS (data year 2026) cannot be out before January 2027: not asked.
    expect(servers['usgs-mcs-2026']!.seen).toHaveLength(2);
    expect(status(second, 'usgs-mcs-2026').fetch).toMatchObject({
      outcome: 'skipped-not-due',
      requests: 0,
      last_attempt: T0.toISOString(),
      next_due: '2027-01-05T00:00:00.000Z',
    });
    expect(status(second, 'usgs-mcs-2026').status).toBe('unchanged');
    // A failing publisher is asked again (its retry time has passed) and stays stale since its first failure.
    expect(status(second, 'eia-oil-prices')).toMatchObject({ status: 'stale', stale_since: T0.toISOString(), sha256: status(seed, 'eia-oil-prices').sha256 });
    expect(servers['eia-oil-prices']!.seen).toHaveLength(4);
  });

  it('keeps the schedule and the validators beside the snapshots, written once the build published', async () => {
    const state = await readFetchState(join(out, 'snapshots/.live/country-codes'));
    expect(state).toMatchObject({ outcome: 'unchanged', failures: 0, last_success: new Date(T0.getTime() + 8 * DAY).toISOString() });
    expect(Object.keys(state!.validators)).toEqual(['https://raw.githubusercontent.com/datasets/country-codes/main/data/country-codes.csv']);
    expect(await readFile(join(out, 'snapshots/.live/country-codes/answers', state!.validators[Object.keys(state!.validators)[0]!]!.sha256))).toEqual(
      COUNTRY_CODES,
    );
    expect((await readFetchState(join(out, 'snapshots/.live/eia-oil-prices')))!.failures).toBe(2);
  });

  it('shows operators each source’s last attempt, outcome, last success and next fetch in the manifest and on /healthz', async () => {
    const manifest = BuildManifest.parse(readJson(join(out, 'current/manifest.json')));
    expect(manifest.sources.find((s) => s.id === 'usgs-mcs-2026')!.fetch!.outcome).toBe('skipped-not-due');
    const server = await startTestServer({ DIST_DIR: out });
    try {
      const res = await fetch(`${server.url}/healthz`);
      expect(res.status).toBe(200);
      const health = Health.parse(await res.json());
      expect(health.status).toBe('degraded');
      const oil = health.sources.find((s) => s.id === 'eia-oil-prices')!;
      expect(oil.fetch).toMatchObject({ outcome: 'failed', last_success: null, next_due: expect.any(String) });
      expect(oil.fetch!.reason).toMatch(/answered 500/);
      expect(health.sources.find((s) => s.id === 'country-codes')!.fetch).toMatchObject({ outcome: 'unchanged', last_success: expect.any(String) });
    } finally {
      await server.close();
    }
  });
});

describe('a live build publishes the figures the publisher sent: the World Bank’s June 2026 workbook, replayed on 10 June 2026', () => {
  const T = new Date('2026-06-10T20:00:00Z');
  const MONTHLY = ['cmo-monthly-prices.csv', 'cmo-monthly-indices.csv'];
  let out: string;
  let servers: Record<string, ReplayServer> = {};
  let seed: BuildResult;
  let live: BuildResult;
  const copper = () =>
    readJson(join(out, 'current/v1/commodities/metals.copper.json')).data as {
      price: { value: number; as_of: string };
      price_history: { points: { date: string; value: number }[] };
    };

  beforeAll(async () => {
    servers = await replayPublishers(SOURCE_IDS, { 'worldbank-pink-sheet': recordedPlays()['worldbank-pink-sheet']! });
    // The last good build was made before the May figures were posted.
    const mirror = await tempDir('live-wb-mirror');
    await cp(SOURCES_DIR, mirror, { recursive: true });
    for (const f of MONTHLY) {
      const file = join(mirror, 'worldbank-pink-sheet', f);
      await writeFile(
        file,
        (await readFile(file, 'utf8'))
          .split('\n')
          .filter((l) => !l.startsWith('2026-05,'))
          .join('\n'),
      );
    }
    out = await tempDir('live-wb-out');
    const opts = { sourcesDir: mirror, dataDir: DATA_DIR, outDir: out, baseUrl: 'https://chokepoint.test', site: NO_SITE };
    seed = await runBuild(opts, testEffects(new Date(T.getTime() - DAY)));
    live = await runBuild(
      { ...opts, download: true, sourceKeys: { eia: 'TESTKEY-EIA', agsi: 'TESTKEY-AGSI' }, live: { policy: POLICY, publisherUrls: originsOf(servers) } },
      { ...testEffects(T), fetch: globalThis.fetch },
    );
  }, 600_000);
  afterAll(async () => {
    for (const s of Object.values(servers)) await s.close();
  });

  it('fetches the workbook from the last known address when the listing page cannot be read, and publishes it as fresh', () => {
    const wb = live.sources.find((s) => s.id === 'worldbank-pink-sheet')!;
    expect(wb).toMatchObject({ status: 'fresh', stale_reason: null });
    expect(wb.fetch).toMatchObject({ outcome: 'fetched', reason: null, last_success: T.toISOString() });
    expect(wb.sha256).not.toBe(seed.sources.find((s) => s.id === 'worldbank-pink-sheet')!.sha256);
    expect(servers['worldbank-pink-sheet']!.seen.map((s) => [s.path, s.status])).toEqual([
      ['/en/research/commodity-markets', 404],
      ['/en/doc/74e8be41ceb20fa0da750cda2f6b9e4e-0050012026/related/CMO-Historical-Data-Monthly.xlsx', 200],
    ]);
  });

  it('serves the replayed May price, and a history equal to the mirror’s on every month both hold', () => {
    const { price, price_history } = copper();
    const mirror = new Map(
      readCsv(join(SOURCES_DIR, 'worldbank-pink-sheet/cmo-monthly-prices.csv')).map((r): [string, number] => [`${r.date}-01`, Number(r.Copper)]),
    );
    expect(mirror.get('2026-05-01')).toBeGreaterThan(0);
    expect(price.as_of).toBe('2026-05-01');
    expect(price.value).toBeCloseTo(mirror.get('2026-05-01')!, 2);
    expect(price_history.points.length).toBeGreaterThan(24);
    for (const p of price_history.points) expect(p.value, p.date).toBeCloseTo(mirror.get(p.date)!, 2);
  });
});
