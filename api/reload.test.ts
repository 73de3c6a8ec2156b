import { cp, mkdir, readdir, readlink, stat, symlink, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { inject } from 'vitest';
import { Health, HealthUnavailable } from '../contract/health.ts';
import { BUILD_IN_USE_MS, BUILD_MARK_MS } from '../contract/manifest.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../lib/config.ts';
import { startServer, type RunningServer } from './server.ts';
import { DATA_DIR, NO_SITE, SOURCES_DIR, tempDir, testEffects } from '../test/support.ts';
import { runBuild } from '../pipeline/build.ts';

/** A dist folder of our own whose `current` we can switch, as the pipeline does. */
async function distWithBuild(): Promise<{ dist: string; build: string }> {
  const shared = inject('distDir');
  const dist = await tempDir('dist-reload');
  const build = (await readlink(join(shared, 'current'))).split('/').pop()!;
  await mkdir(join(dist, 'builds'), { recursive: true });
  await cp(join(shared, 'builds', build), join(dist, 'builds', build), { recursive: true });
  return { dist, build };
}

describe('with no build published yet', () => {
  let api: RunningServer;
  beforeAll(async () => {
    api = await startServer(readConfig({ DIST_DIR: await tempDir('empty'), PORT: '0', HOST: '127.0.0.1' }), true);
  });
  afterAll(() => api.close());

  it('answers 503 with a problem and Retry-After, and healthz says so', async () => {
    const res = await fetch(`http://127.0.0.1:${api.port}/v1/commodities`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(await res.json()).toMatchObject({ status: 503, type: '/problems/no-build' });
    const health = await fetch(`http://127.0.0.1:${api.port}/healthz`);
    expect(health.status).toBe(503);
    expect(HealthUnavailable.parse(await health.json())).toEqual({ status: 'unavailable', detail: 'no build published yet' });
  });
});

describe('hot reload', () => {
  let api: RunningServer;
  let dist: string;
  let build: string;
  beforeAll(async () => {
    ({ dist, build } = await distWithBuild());
    await symlink(join('builds', build), join(dist, 'current'));
    api = await startServer(readConfig({ DIST_DIR: dist, PORT: '0', HOST: '127.0.0.1', RATE_LIMIT_DATA: '0' }), true);
  });
  afterAll(() => api.close());

  it('takes up a new build without a restart, and every response comes from one build', async () => {
    const url = `http://127.0.0.1:${api.port}`;
    const buildOf = async () => ((await (await fetch(`${url}/healthz`)).json()) as { build: string }).build;
    expect(await buildOf()).toBe(build);
    // Traffic while the switch happens: every answer is a 200 from one of the two builds (X-Build),
    // and its body is the same in both, since no figure changed (content-stable bodies).
    let stop = false;
    const seen = new Set<string>();
    const bodies = new Set<string>();
    const errors: number[] = [];
    const load = (async () => {
      while (!stop) {
        const res = await fetch(`${url}/v1/events?since=2020-01-01`);
        if (res.status !== 200) errors.push(res.status);
        seen.add(res.headers.get('x-build') ?? 'none');
        bodies.add(await res.text());
      }
    })();
    const next = await runBuild(
      { sourcesDir: SOURCES_DIR, dataDir: DATA_DIR, outDir: dist, baseUrl: 'https://chokepoint.test', site: NO_SITE },
      testEffects(new Date('2026-11-22T00:15:00Z')),
    );
    await api.store.refresh();
    expect(await buildOf()).toBe(next.build);
    await new Promise((r) => setTimeout(r, 200));
    stop = true;
    await load;
    expect(errors).toEqual([]);
    expect([...seen].sort()).toEqual([build, next.build].sort());
    expect(bodies.size).toBe(1);
    expect((JSON.parse([...bodies][0]!) as { meta: { build: string } }).meta.build).toBe(build);
  });

  it('marks the build it serves as in use, so pruning leaves it, and reports the disk use of dist/', async () => {
    const served = (await readlink(join(dist, 'current'))).split('/').pop()!;
    const old = new Date(Date.now() - 3 * BUILD_IN_USE_MS);
    await utimes(join(dist, 'builds', served), old, old);
    // The next mark (every BUILD_MARK_MS, on the store's poll) makes it recent again.
    await api.store.markServed(Date.now() + BUILD_MARK_MS);
    expect(Date.now() - (await stat(join(dist, 'builds', served))).mtimeMs).toBeLessThan(BUILD_IN_USE_MS);
    const disk = await (async () => {
      for (let i = 0; i < 600; i++) {
        const h = Health.parse(await (await fetch(`http://127.0.0.1:${api.port}/healthz`)).json());
        if (h.disk) return h.disk;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('no disk measurement in /healthz after 60 s');
    })();
    // Measured at most once a minute: an earlier test's reading may predate the last publish, so the
    // count lies between one build and the folders there now.
    expect(disk.builds).toBeGreaterThanOrEqual(1);
    expect(disk.builds).toBeLessThanOrEqual((await readdir(join(dist, 'builds'))).filter((n) => !n.startsWith('.')).length);
    expect(disk.dist_bytes).toBeGreaterThan(10_000_000);
  });
});
