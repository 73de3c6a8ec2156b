import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../../pipeline/build.ts';
import { BuildValidationError } from '../../pipeline/publish.ts';
import { eiaOilPricesSource } from '../../pipeline/sources/eia-oil-prices.ts';
import { SOURCES } from '../../pipeline/sources/registry.ts';
import type { SourceAdapter } from '../../pipeline/sources/types.ts';
import { DATA_DIR, NO_SITE, SOURCES_DIR, tempDir, testEffects } from '../support.ts';
import { startTestServer } from '../http.ts';

/**
 * pipeline/faults.test.ts proves the pipeline side (snapshots, staleness in the manifest, no
 * publication on failed validation). This file watches the same faults from a running server
 * under traffic: what a client sees while a source is broken and while a build fails.
 */

type Api = Awaited<ReturnType<typeof startTestServer>>;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('faults seen from a running server', () => {
  let api: Api;
  let mirror: string;
  let dist: string;
  let firstBuild: string;
  const build = (now: string, sources?: readonly SourceAdapter[]) =>
    runBuild({ sourcesDir: mirror, dataDir: DATA_DIR, outDir: dist, baseUrl: 'https://chokepoint.test', sources, site: NO_SITE }, testEffects(new Date(now)));

  beforeAll(async () => {
    mirror = await tempDir('mirror-live');
    await cp(SOURCES_DIR, mirror, { recursive: true });
    dist = await tempDir('dist-live');
    firstBuild = (await build('2026-11-22T00:00:00Z')).build;
    api = await startTestServer({ DIST_DIR: dist });
  }, 120_000);
  afterAll(() => api?.close());

  const get = async (path: string) => {
    const res = await fetch(`${api.url}${path}`);
    return { status: res.status, build: res.headers.get('x-build'), body: (await res.json()) as Json };
  };

  /** Traffic while something happens: every response must be a 200. */
  async function underLoad<T>(during: () => Promise<T>): Promise<{ result: T; errors: string[]; served: number }> {
    let stop = false;
    const errors: string[] = [];
    let served = 0;
    const paths = ['/v1/reserves?commodity=gas&country=de', '/v1/commodities/energy.oil', '/v1/events?since=2020-01-01', '/healthz'];
    const worker = async (w: number) => {
      for (let i = 0; !stop && i < 20_000; i++) {
        const p = paths[(w + i) % paths.length]!;
        try {
          const res = await fetch(`${api.url}${p}`);
          await res.arrayBuffer();
          if (res.status !== 200) errors.push(`${p}: ${res.status}`);
          served++;
        } catch (err) {
          errors.push(`${p}: ${(err as Error).message}`);
        }
      }
    };
    const load = Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
    try {
      const result = await during();
      return { result, errors, served };
    } finally {
      stop = true;
      await load;
    }
  }

  it('a corrupt source: the server keeps the last good figures and reports the source stale, with zero errors', async () => {
    const before = await get('/v1/reserves?commodity=gas&country=de');
    expect(before.status).toBe(200);
    // Before: every source loaded (the mirror's stale headline series degrade it, but no load failure does).
    const healthy = await get('/healthz');
    expect((healthy.body.sources as Json[]).every((s) => s.status === 'fresh' || s.status === 'unchanged')).toBe(true);
    expect((healthy.body.degraded_by as Json[]).filter((d) => /load failed|failed to load/.test(d.reason))).toEqual([]);
    const file = join(mirror, 'gie-agsi-gas-storage/agsi_de_eu_daily_2020_2026.csv');
    const good = await readFile(file);
    await writeFile(file, 'this is not the AGSI file\n1,2\n');
    try {
      const {
        result: stale,
        errors,
        served,
      } = await underLoad(async () => {
        const b = await build('2026-11-22T00:15:00Z');
        await api.store.refresh();
        return b;
      });
      expect(errors).toEqual([]);
      expect(served).toBeGreaterThan(0);
      const health = await get('/healthz');
      expect(health.body).toMatchObject({ status: 'degraded', build: stale.build });
      const src = (health.body.sources as Json[]).find((s) => s.id === 'gie-agsi-gas-storage')!;
      expect(src).toMatchObject({ status: 'stale', stale_since: '2026-11-22T00:15:00.000Z' });
      expect(src.stale_reason).toMatch(/header lacks/);
      // The load status and the freshness are separate: the snapshot served keeps its data date.
      expect(src).toMatchObject({ freshness: 'stale', data_as_of: '2026-08-20' });
      expect((health.body.degraded_by as Json[]).find((d) => d.id === 'gie-agsi-gas-storage' && /latest load failed/.test(d.reason))).toBeTruthy();
      const after = await get('/v1/reserves?commodity=gas&country=de');
      expect(after.status).toBe(200);
      expect(after.body.data).toEqual(before.body.data);
      expect(after.build).toBe(stale.build);
      expect((after.body.meta.sources as Json[]).find((s) => s.id === 'gie-agsi-gas-storage')!.stale).toBe(true);
    } finally {
      await writeFile(file, good);
    }
  }, 60_000);

  it('a build that fails validation: the server goes on serving the previous build, with zero errors', async () => {
    const serving = (await get('/healthz')).body.build as string;
    expect(serving).not.toBe(firstBuild); // the stale build of the previous test
    const poisoned: SourceAdapter = {
      ...eiaOilPricesSource,
      async load(db, dir) {
        await eiaOilPricesSource.load(db, dir);
        await db.run(`UPDATE eia_oil_prices SET date = date + INTERVAL 10000 YEAR WHERE series = 'brent' AND date = (SELECT max(date) FROM eia_oil_prices)`);
      },
    };
    await rm(join(dist, 'snapshots', poisoned.id), { recursive: true, force: true });
    const {
      result: failed,
      errors,
      served,
    } = await underLoad(async () => {
      const r = await build(
        '2026-11-22T00:30:00Z',
        SOURCES.map((s) => (s.id === poisoned.id ? poisoned : s)),
      ).catch((e: unknown) => e);
      await api.store.refresh();
      return r;
    });
    expect(failed).toBeInstanceOf(BuildValidationError);
    expect(errors).toEqual([]);
    expect(served).toBeGreaterThan(0);
    expect((await get('/healthz')).body.build).toBe(serving);
    const oil = await get('/v1/commodities/energy.oil');
    expect(oil.status).toBe(200);
    expect(oil.build).toBe(serving);
    expect(oil.body.data.price.as_of).toMatch(/^20\d\d-/);
  }, 60_000);
});
