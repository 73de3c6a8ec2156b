import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAILED_BUILDS_FILE, Health } from '../contract/health.ts';
import { DEGRADED_AFTER_FAILED_BUILDS } from '../contract/limits.ts';
import { readConfig } from '../lib/config.ts';
import { runBuild } from '../pipeline/build.ts';
import { DATA_DIR, NO_SITE, SOURCES_DIR, tempDir, testEffects } from '../test/support.ts';
import { startServer, type RunningServer } from './server.ts';

/**
 * Issue 34: /healthz kept its status while every build failed (on a full disk), since a failed
 * build publishes nothing. Real builds into a dist folder of our own, the real server over it:
 * builds that fail (here: a data folder that is not there) are recorded beside the builds, and
 * the third in a row makes /healthz degraded with the reason and time; a build that publishes
 * clears them.
 */

const at = (hhmm: string) => testEffects(new Date(`2026-11-22T${hhmm}:00Z`));

describe('/healthz after failed builds', () => {
  let dist: string;
  let api: RunningServer;
  const build = (fx: ReturnType<typeof testEffects>, dataDir = DATA_DIR) =>
    runBuild({ sourcesDir: SOURCES_DIR, dataDir, outDir: dist, baseUrl: 'https://chokepoint.test', site: NO_SITE }, fx);
  const fail = async (hhmm: string) => {
    const err = await build(at(hhmm), join(dist, 'no-such-data')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
  };
  const health = async () => {
    const res = await fetch(`http://127.0.0.1:${api.port}/healthz`);
    expect(res.status).toBe(200);
    return Health.parse(await res.json());
  };
  const byBuilds = (h: Health) => h.degraded_by.filter((d) => d.id === 'builds');

  beforeAll(async () => {
    dist = await tempDir('dist-failing');
    await build(at('00:00'));
    api = await startServer(readConfig({ DIST_DIR: dist, PORT: '0', HOST: '127.0.0.1', RATE_LIMIT_DATA: '0' }), true);
  }, 300_000);
  afterAll(() => api?.close());

  it('says nothing of builds while the latest one published', async () => {
    const h = await health();
    expect(h.failed_builds).toBeNull();
    expect(byBuilds(h)).toEqual([]);
  });

  it(`counts failed builds, and is degraded from the ${DEGRADED_AFTER_FAILED_BUILDS}rd in a row with the latest reason and time`, async () => {
    await fail('00:15');
    await fail('00:30');
    const two = await health();
    expect(two.failed_builds).toMatchObject({ count: 2, since: '2026-11-22T00:15:00.000Z', last_at: '2026-11-22T00:30:00.000Z' });
    expect(byBuilds(two)).toEqual([]);

    await fail('00:45');
    const three = await health();
    expect(three.status).toBe('degraded');
    expect(three.failed_builds).toMatchObject({ count: 3, since: '2026-11-22T00:15:00.000Z', last_at: '2026-11-22T00:45:00.000Z' });
    // Said for the public: what went wrong in words, the file's name but not the server's path.
    expect(three.failed_builds!.last_reason).toBe('a source file is missing: commodities.yaml');
    expect(three.failed_builds!.last_reason).not.toContain(dist);
    expect(byBuilds(three)).toEqual([
      {
        id: 'builds',
        reason: `the last 3 builds failed (since 2026-11-22T00:15:00.000Z), the latest at 2026-11-22T00:45:00.000Z: a source file is missing: commodities.yaml; the build of ${three.generated_at} is served`,
      },
    ]);
  });

  it('a build that publishes clears them', async () => {
    await build(at('01:00'));
    expect(existsSync(join(dist, FAILED_BUILDS_FILE))).toBe(false);
    const h = await health();
    expect(h.failed_builds).toBeNull();
    expect(byBuilds(h)).toEqual([]);
  }, 300_000);
});
