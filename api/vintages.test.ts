import { readFileSync } from 'node:fs';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VintageIndex } from '../contract/bulk.ts';
import { runBuild } from '../pipeline/build.ts';
import { DATA_DIR, NO_SITE, SOURCES_DIR, tempDir, testEffects } from '../test/support.ts';
import { readConfig } from '../lib/config.ts';
import { startServer, type RunningServer } from './server.ts';

/** The bulk package and its vintages over real HTTP, across a rebuild in which a publisher revised a figure. */
describe('bulk files and vintages over HTTP', () => {
  let api: RunningServer;
  let url: string;
  let dist: string;
  let first: string;
  let second: string;

  beforeAll(async () => {
    dist = await tempDir('dist-vintages');
    const mirror = await tempDir('mirror-vintages');
    await cp(SOURCES_DIR, mirror, { recursive: true });
    const build = (minutes: number) =>
      runBuild(
        { sourcesDir: mirror, dataDir: DATA_DIR, outDir: dist, baseUrl: 'https://chokepoint.test', site: NO_SITE },
        testEffects(new Date(Date.parse('2026-11-22T00:00:00Z') + minutes * 60_000)),
      );
    first = (await build(0)).build;
    api = await startServer(readConfig({ DIST_DIR: dist, PORT: '0', HOST: '127.0.0.1', RATE_LIMIT_DATA: '0' }), true);
    url = `http://127.0.0.1:${api.port}`;
    const brent = join(mirror, 'eia-oil-prices/brent-daily.csv');
    await writeFile(brent, (await readFile(brent, 'utf8')).replace('1987-05-21,18.45', '1987-05-21,18.55'));
    second = (await build(15)).build;
    await api.store.refresh();
  }, 300_000);
  afterAll(() => api?.close());

  it('serves the current package with its descriptor, as the build wrote it', async () => {
    const res = await fetch(`${url}/bulk/prices.csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('etag')).toBeTruthy();
    expect(await res.text()).toContain('energy.oil,1987-05-21,18.55');
    const pkg = (await (await fetch(`${url}/bulk/datapackage.json`)).json()) as { chokepoint: { build: string } };
    expect(pkg.chokepoint.build).toBe(second);
    expect((await fetch(`${url}/bulk/prices.parquet`)).headers.get('content-type')).toBe('application/vnd.apache.parquet');
  });

  it('keeps the first vintage reachable after the new build is switched in, unchanged and cacheable for a year', async () => {
    const index = VintageIndex.parse(await (await fetch(`${url}/vintages/index.json`)).json());
    expect(index.vintages.map((v) => v.id)).toEqual([second, first]);
    const old = await fetch(`${url}/vintages/${first}/prices.csv`);
    expect(old.status).toBe(200);
    expect(old.headers.get('cache-control')).toContain('immutable');
    const body = Buffer.from(await old.arrayBuffer());
    expect(body.equals(readFileSync(join(dist, 'vintages', first, 'prices.csv')))).toBe(true);
    expect(body.toString()).toContain('energy.oil,1987-05-21,18.45');
    const again = await fetch(`${url}/vintages/${first}/prices.csv`, { headers: { 'if-none-match': old.headers.get('etag')! } });
    expect(again.status).toBe(304);
    const revisions = await (await fetch(`${url}/vintages/${second}/revisions.csv`)).text();
    expect(revisions).toContain(`prices/energy.oil,1987-05-21,18.45,18.55,${first},${second}`);
  });

  it('redirects a date to the newest vintage of that day, and refuses anything else with a problem', async () => {
    const day = await fetch(`${url}/vintages/2026-11-22/commodities.csv`, { redirect: 'manual' });
    expect(day.status).toBe(307);
    expect(day.headers.get('location')).toBe(`/vintages/${second}/commodities.csv`);
    for (const path of [
      `/vintages/${first}/..%2F..%2Fmanifest.json`,
      `/vintages/${first}/secrets.csv`,
      '/vintages/..%2Fbuilds/prices.csv',
      '/vintages/1999-01-01/prices.csv',
      '/vintages/20200101T000000Z-00000000/prices.csv',
    ]) {
      const res = await fetch(`${url}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/problem\+json/);
    }
  });
});
