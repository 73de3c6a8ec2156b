import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { cp, readdir, readFile, readlink, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BuildManifest } from '../contract/manifest.ts';
import { REPO, SOURCES_DIR, tempDir } from '../test/support.ts';

/**
 * Issue 20, finding 4: builds run as real processes (`node bin/build.ts`, so the
 * child's pid is the build's pid) into one temp DIST_DIR. The site stage is off: these builds
 * are about the folders, the lock and the snapshots, not the pages.
 */

interface Run {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>;
}

function startBuild(dist: string, args: string[] = [], sourcesDir = SOURCES_DIR): Run {
  const child = spawn(process.execPath, [join(REPO, 'bin/build.ts'), ...args], {
    cwd: REPO,
    env: { ...process.env, DIST_DIR: dist, SOURCES_DIR: sourcesDir, CHOKEPOINT_SITE: 'off' },
  });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, out }));
  });
  return { child, done };
}

/** The live build is whole: `current` resolves, its manifest parses, every file it lists is there with its hash. */
async function expectValidCurrent(dist: string): Promise<BuildManifest> {
  const dir = await realpath(join(dist, 'current'));
  const manifest = BuildManifest.parse(JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')));
  let bad = 0;
  for (const [path, f] of Object.entries(manifest.files)) {
    const bytes = await readFile(join(dir, path)).catch(() => null);
    if (!bytes || createHash('sha256').update(bytes).digest('hex') !== f.sha256) bad++;
  }
  expect(bad).toBe(0);
  expect(Object.keys(manifest.files).length).toBeGreaterThan(200);
  return manifest;
}

/** Nothing a build leaves only while it runs: temp build folders and links, staged snapshots, the lock. */
async function expectNoLeftovers(dist: string) {
  expect((await readdir(join(dist, 'builds'))).filter((n) => n.startsWith('.'))).toEqual([]);
  expect((await readdir(join(dist, 'snapshots'))).filter((n) => /\.(tmp|old)-/.test(n))).toEqual([]);
  expect((await readdir(dist)).filter((n) => n.startsWith('build.lock') || n.startsWith('current.'))).toEqual([]);
}

describe('two builds started at once into one DIST_DIR', () => {
  it('one publishes; the other publishes too or refuses with status 75 naming the holder pid; current is never broken', async () => {
    const dist = await tempDir('concurrent');
    const runs = [startBuild(dist), startBuild(dist)];
    const results = await Promise.all(runs.map((r) => r.done));
    const codes = results.map((r) => r.code);
    // Which one wins is up to the scheduler; a loser is told who holds the lock.
    expect(codes.every((c) => c === 0 || c === 75)).toBe(true);
    expect(codes).toContain(0);
    results.forEach((r, i) => {
      if (r.code !== 75) return;
      const holder = runs[1 - i]!.child.pid;
      expect(r.out).toMatch(new RegExp(`another build is running in .* \\(pid ${holder} on `));
    });
    const manifest = await expectValidCurrent(dist);
    const published = results.filter((r) => r.code === 0).map((r) => /published build (\S+):/.exec(r.out)![1]);
    expect(published).toContain(manifest.build);
    // Every build that said it published is still whole on disk (never removed by the other).
    expect(readdirSync(join(dist, 'builds')).sort()).toEqual([...new Set(published)].sort());
    await expectNoLeftovers(dist);
  });

  it('with --wait, the second waits for the first: both publish, under distinct ids, and both folders stay', async () => {
    const dist = await tempDir('concurrent-wait');
    const results = await Promise.all([startBuild(dist, ['--wait', '10m']), startBuild(dist, ['--wait', '10m'])].map((r) => r.done));
    expect(results.map((r) => r.code)).toEqual([0, 0]);
    const ids = results.map((r) => /published build (\S+):/.exec(r.out)![1]!);
    expect(new Set(ids).size).toBe(2);
    const manifest = await expectValidCurrent(dist);
    expect(ids).toContain(manifest.build);
    expect(readdirSync(join(dist, 'builds')).sort()).toEqual([...ids].sort());
    await expectNoLeftovers(dist);
  });
});

describe('a build killed with SIGKILL mid-way', () => {
  it('leaves the live build serving; the next build takes over its lock, clears its temp folders and publishes', async () => {
    const dist = await tempDir('killed');
    const mirror = await tempDir('killed-mirror');
    await cp(SOURCES_DIR, mirror, { recursive: true });
    const first = await startBuild(dist, [], mirror).done;
    expect(first.code).toBe(0);
    const live = await readlink(join(dist, 'current'));

    // A changed (but plausible) source, so the killed build has a snapshot staged as well.
    const brent = join(mirror, 'eia-oil-prices/brent-daily.csv');
    await writeFile(brent, (await readFile(brent, 'utf8')).replace('2026-08-18,95.29', '2026-08-18,95.31'));
    const doomed = startBuild(dist, [], mirror);
    // Killed once it writes its build folder: after ingest, before publish.
    const seen = await new Promise<{ builds: string[]; snapshots: string[] }>((resolve, reject) => {
      const poll = setInterval(() => {
        const builds = readdirSync(join(dist, 'builds')).filter((n) => n.startsWith('.tmp-'));
        if (builds.length) {
          clearInterval(poll);
          doomed.child.kill('SIGKILL');
          resolve({ builds, snapshots: readdirSync(join(dist, 'snapshots')).filter((n) => n.includes('.tmp-')) });
        }
      }, 10);
      void doomed.done.then((r) => {
        clearInterval(poll);
        if (r.signal !== 'SIGKILL') reject(new Error(`the build ended before it was killed:\n${r.out}`));
      });
    });
    const killed = await doomed.done;
    expect(killed.signal).toBe('SIGKILL');
    expect(seen.builds[0]).toMatch(new RegExp(`^\\.tmp-.*-${doomed.child.pid}-`));
    expect(seen.snapshots).toEqual([`eia-oil-prices.tmp-${doomed.child.pid}`]);
    // What it left: its lock (a dead pid) and its temp folder; the live build is untouched.
    expect(JSON.parse(await readFile(join(dist, 'build.lock'), 'utf8')).pid).toBe(doomed.child.pid);
    expect(existsSync(join(dist, 'builds', seen.builds[0]!))).toBe(true);
    expect(await readlink(join(dist, 'current'))).toBe(live);
    await expectValidCurrent(dist);

    const next = await startBuild(dist, [], mirror).done;
    expect(next.code).toBe(0);
    expect(next.out).toContain(`took over the lock of build pid ${doomed.child.pid}`);
    expect(next.out).toMatch(new RegExp(`removed what an interrupted build left: .*builds/${seen.builds[0]!.replaceAll('.', '\\.')}`));
    const manifest = await expectValidCurrent(dist);
    expect(manifest.sources.find((s) => s.id === 'eia-oil-prices')!.status).toBe('fresh');
    // The build it replaced is recent, so it is kept.
    expect(existsSync(join(dist, live))).toBe(true);
    await expectNoLeftovers(dist);
  });
});
