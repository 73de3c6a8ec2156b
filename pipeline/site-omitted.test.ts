import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BuildManifest } from '../contract/manifest.ts';
import { REPO, SOURCES_DIR, readJson, tempDir } from '../test/support.ts';

const run = promisify(execFile);

/**
 * Issue 20, finding 10: an unusable AGSI source with no snapshot crashed the site stage (the
 * pages read v1/reserves/gas/eu.json, which the build leaves out) and so no build published.
 * A real `npm run build` process with the site stage on, into an empty DIST_DIR.
 */
describe('an unusable source with no snapshot', () => {
  it('publishes the build and its site with those outputs left out', async () => {
    const mirror = await tempDir('mirror-agsi');
    await cp(SOURCES_DIR, mirror, { recursive: true });
    await writeFile(join(mirror, 'gie-agsi-gas-storage/agsi_de_eu_daily_2020_2026.csv'), 'this is not the AGSI file\n1,2\n');
    const dist = await tempDir('dist-agsi');
    const env = { ...process.env, DIST_DIR: dist, SOURCES_DIR: mirror, CHOKEPOINT_SITE: 'on' };
    const res = await run(process.execPath, [join(REPO, 'bin/build.ts')], { cwd: REPO, env, maxBuffer: 16 << 20 });
    expect(res.stdout).toMatch(/published build \S+: \d+ files/);

    const manifest = BuildManifest.parse(readJson(join(dist, 'current/manifest.json')));
    expect(manifest.sources.find((s) => s.id === 'gie-agsi-gas-storage')).toMatchObject({ status: 'unavailable', sha256: null });
    expect(manifest.omitted.map((o) => o.output)).toContain('outputs from gie-agsi-gas-storage');
    expect(Object.keys(manifest.files).filter((p) => p.startsWith('v1/reserves/gas/'))).toEqual([]);
    expect(manifest.files['v1/reserves/oil/us.json']).toBeDefined();
    // The site copes: its pages leave out what the build left out, and the reason is not a crash.
    expect(manifest.omitted.find((o) => o.output === 'site/')).toBeUndefined();
    const home = readFileSync(join(dist, 'current/site/en/index.html'), 'utf8');
    expect(home).toContain('not available in this build');
    expect(existsSync(join(dist, 'current/site/en/reserves/gas/eu/index.html'))).toBe(false);
    expect(readFileSync(join(dist, 'current/site/de/index.html'), 'utf8')).toContain('in dieser Version nicht verfügbar');
  });
});
