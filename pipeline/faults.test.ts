import { execFile } from 'node:child_process';
import { existsSync, readlinkSync } from 'node:fs';
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { BuildManifest } from '../contract/manifest.ts';
import { DATA_DIR, NO_SITE, REPO, SOURCES_DIR, readJson, tempDir, testEffects } from '../test/support.ts';
import { runBuild } from './build.ts';
import { BuildValidationError, BuildWriter } from './publish.ts';
import { SOURCES } from './sources/registry.ts';
import type { SourceAdapter } from './sources/types.ts';
import { eiaOilPricesSource } from './sources/eia-oil-prices.ts';
import { z } from 'zod';

const run = promisify(execFile);

// These builds never serve pages: the site stage (Astro, ~15 s) runs once, in the shared test build.
const build = (sourcesDir: string, outDir: string, extra: { sources?: readonly SourceAdapter[]; dataDir?: string } = {}) =>
  runBuild(
    { sourcesDir, dataDir: extra.dataDir ?? DATA_DIR, outDir, baseUrl: 'https://chokepoint.test', sources: extra.sources, site: NO_SITE },
    testEffects(),
  );

describe('a source that breaks', () => {
  let mirror: string;
  let out: string;

  beforeAll(async () => {
    mirror = await tempDir('mirror');
    await cp(SOURCES_DIR, mirror, { recursive: true });
    out = await tempDir('out');
    await build(mirror, out);
  });

  it('keeps its last good snapshot, marks it stale with the reason, and the build goes on', async () => {
    const file = join(mirror, 'gie-agsi-gas-storage/agsi_de_eu_daily_2020_2026.csv');
    const good = await readFile(file);
    const before = readJson(join(out, 'current/v1/reserves/gas/de.json'));
    await writeFile(file, 'this is not the AGSI file\n1,2\n');
    try {
      const r = await build(mirror, out);
      const status = r.sources.find((s) => s.id === 'gie-agsi-gas-storage')!;
      expect(status).toMatchObject({ status: 'stale', stale_since: '2026-11-22T00:00:00.000Z' });
      expect(status.stale_reason).toMatch(/header lacks/);
      const after = readJson(join(out, 'current/v1/reserves/gas/de.json'));
      expect(after.data).toEqual(before.data);
      expect(after.meta.sources.find((s: { id: string }) => s.id === 'gie-agsi-gas-storage').stale).toBe(true);
      expect(after.meta.notes.join(' ')).toMatch(/gie-agsi-gas-storage could not be refreshed/);
      const manifest = BuildManifest.parse(readJson(join(out, 'current/manifest.json')));
      expect(manifest.sources.find((s) => s.id === 'gie-agsi-gas-storage')!.status).toBe('stale');
    } finally {
      await writeFile(file, good);
    }
    const healed = await build(mirror, out);
    expect(healed.sources.find((s) => s.id === 'gie-agsi-gas-storage')!.status).toBe('unchanged');
  });

  it('with no snapshot to fall back on, leaves its outputs out and says so in the manifest', async () => {
    const fresh = await tempDir('out-fresh');
    const broken = await tempDir('mirror-missing');
    await cp(mirror, broken, { recursive: true });
    await rm(join(broken, 'eia-weekly-petroleum'), { recursive: true });
    const r = await build(broken, fresh);
    expect(r.sources.find((s) => s.id === 'eia-weekly-petroleum')).toMatchObject({ status: 'unavailable', sha256: null });
    expect(existsSync(join(fresh, 'current/v1/reserves/oil/us.json'))).toBe(false);
    expect(existsSync(join(fresh, 'current/v1/reserves/gas/de.json'))).toBe(true);
    const manifest = BuildManifest.parse(readJson(join(fresh, 'current/manifest.json')));
    expect(manifest.omitted.map((o) => o.output)).toContain('v1/reserves/oil/us.json');
    // Briefings that quote the SPR are left out too, in every language, and the others stay.
    const spr = manifest.omitted.filter((o) => o.output.includes('us-spr'));
    expect(spr.map((o) => o.output.split('/')[2]).sort()).toEqual(['de', 'en', 'es', 'fr']);
    expect(spr[0]!.reason).toMatch(/eia-weekly-petroleum, unavailable/);
    const en = readJson(join(fresh, 'current/data/briefings/en.json')).data as { id: string }[];
    expect(en.filter((b) => !b.id.startsWith('weekly-digest-')).length).toBe(9);
    expect(en.some((b) => b.id.includes('us-spr'))).toBe(false);
    const oil = readJson(join(fresh, 'current/v1/commodities/energy.oil.json')).data;
    expect(oil.stress.components.find((c: { key: string }) => c.key === 'reserves').available).toBe(false);
  });
});

describe('a build that fails validation', () => {
  it('is not published: it names the file and the field, and the previous build keeps serving', async () => {
    const out = await tempDir('out-invalid');
    const first = await build(SOURCES_DIR, out);
    // An adapter whose figures break the contract: a date no client can parse as YYYY-MM-DD.
    const poisoned: SourceAdapter = {
      ...eiaOilPricesSource,
      async load(db, dir) {
        await eiaOilPricesSource.load(db, dir);
        await db.run(`UPDATE eia_oil_prices SET date = date + INTERVAL 10000 YEAR WHERE series = 'brent' AND date = (SELECT max(date) FROM eia_oil_prices)`);
      },
    };
    const sources = SOURCES.map((s) => (s.id === poisoned.id ? poisoned : s));
    // Its files did not change, so drop its snapshot to make the build load it again.
    await rm(join(out, 'snapshots', poisoned.id), { recursive: true });
    const failed = await build(SOURCES_DIR, out, { sources }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(BuildValidationError);
    expect((failed as Error).message).toMatch(/v1\/commodities\/energy\.oil\.json: data\.price\.as_of/);
    expect(readlinkSync(join(out, 'current'))).toBe(join('builds', first.build));
    expect((await readdir(join(out, 'builds'))).filter((n) => n.startsWith('.tmp'))).toEqual([]);
  });

  it('makes `npm run build` exit non-zero and leaves the live build alone', async () => {
    const out = await tempDir('out-cli');
    const first = await build(SOURCES_DIR, out);
    const data = await tempDir('data-bad');
    await cp(DATA_DIR, data, { recursive: true });
    await writeFile(
      join(data, 'commodities.yaml'),
      (await readFile(join(DATA_DIR, 'commodities.yaml'), 'utf8')).replace('slug: energy.oil', 'slug: energy.Oil!'),
    );
    const res = await run(process.execPath, [join(REPO, 'bin/build.ts')], {
      env: { ...process.env, DIST_DIR: out, DATA_DIR: data, SOURCES_DIR },
    }).catch((e: { code: number; stderr: string }) => e);
    expect('code' in res && res.code).toBe(1);
    expect(res.stderr).toMatch(/commodities\.yaml \[0\.slug\]/);
    expect(readlinkSync(join(out, 'current'))).toBe(join('builds', first.build));
  });
});

describe('ingest', () => {
  it('rejects a source with NaN figures and keeps its last good snapshot', async () => {
    const out = await tempDir('out-nan');
    await build(SOURCES_DIR, out);
    const good = readJson(join(out, 'snapshots', eiaOilPricesSource.id, 'snapshot.json'));
    const nan: SourceAdapter = {
      ...eiaOilPricesSource,
      async load(db, dir) {
        await eiaOilPricesSource.load(db, dir);
        await db.run(`UPDATE eia_oil_prices SET value = 'NaN'::DOUBLE WHERE series = 'wti'`);
      },
    };
    await rm(join(out, 'snapshots', nan.id, 'snapshot.json'));
    await writeFile(join(out, 'snapshots', nan.id, 'snapshot.json'), JSON.stringify({ ...good, sha256: 'changed upstream' }));
    const r = await build(SOURCES_DIR, out, { sources: SOURCES.map((s) => (s.id === nan.id ? nan : s)) });
    const status = r.sources.find((s) => s.id === nan.id)!;
    expect(status.status).toBe('stale');
    expect(status.stale_reason).toMatch(/eia_oil_prices has \d+ row\(s\) with NaN/);
  });
});

describe('BuildWriter', () => {
  it('refuses two outputs at one path', async () => {
    const w = new BuildWriter(await tempDir('writer'));
    await w.raw('v1/x.json', '{}', 'application/json');
    await expect(w.raw('v1/x.json', '{}', 'application/json')).rejects.toThrow(/two outputs claim v1\/x\.json/);
  });

  it('records every field that breaks the schema instead of writing the file', async () => {
    const w = new BuildWriter(await tempDir('writer'));
    await w.json('v1/y.json', z.strictObject({ n: z.number() }), { n: 'one' } as never);
    expect(w.problems).toEqual(['v1/y.json: n: Invalid input: expected number, received string']);
    expect(w.files).toEqual({});
  });
});
