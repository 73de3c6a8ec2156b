import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { NO_SITE, DATA_DIR, SOURCES_DIR, readJson, tempDir, testEffects } from '../test/support.ts';
import { runBuild } from './build.ts';
import { BuildWriter } from './publish.ts';

/** The shared test build (2026-11-22T00:00Z), copied as the live build of a dist folder of our own. */
async function distCopy() {
  const dist = await tempDir('stable');
  await cp(inject('distDir'), dist, { recursive: true, verbatimSymlinks: true });
  return dist;
}

type Manifest = { build: string; generated_at: string; files: Record<string, { sha256: string }> };
/** The API's payloads: the bodies of the data routes and the files they are cut from. */
const payloads = (m: Manifest) =>
  Object.keys(m.files)
    .filter((p) => (p.startsWith('v1/') || p.startsWith('data/')) && !/\.(br|gz)$/.test(p))
    .sort();
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('a rebuild that changes no figure', () => {
  it('serves byte-identical bodies under the same checksums (ETags), stamped with the build that made them', async () => {
    const dist = await distCopy();
    const before = readJson<Manifest>(join(dist, 'current/manifest.json'));
    const r = await runBuild(
      { sourcesDir: SOURCES_DIR, dataDir: DATA_DIR, outDir: dist, baseUrl: 'https://chokepoint.test', site: NO_SITE },
      testEffects(new Date('2026-11-22T00:15:00Z')),
    );
    const after = readJson<Manifest>(join(dist, 'current/manifest.json'));
    expect(after.build).toBe(r.build);
    expect(after.build).not.toBe(before.build);
    expect(after.generated_at).toBe('2026-11-22T00:15:00.000Z');
    const paths = payloads(after);
    expect(paths).toEqual(payloads(before));
    expect(paths.length).toBeGreaterThan(200);
    for (const p of paths) {
      expect(after.files[p]!.sha256, p).toBe(before.files[p]!.sha256);
      const bytes = await readFile(join(dist, 'current', p));
      expect(sha(bytes), p).toBe(before.files[p]!.sha256);
      expect(bytes.equals(await readFile(join(dist, 'builds', before.build, p))), p).toBe(true);
    }
    // The stamps name the build in which the content last changed; the build serving it is in the manifest (and /healthz).
    const { meta } = readJson(join(dist, 'current/v1/commodities.json'));
    expect(meta).toMatchObject({ build: before.build, generated_at: before.generated_at });
  });
});

describe('a changed figure', () => {
  it('changes exactly the files that carry it, and stamps them with the new build', async () => {
    const dist = await distCopy();
    const before = readJson<Manifest>(join(dist, 'current/manifest.json'));
    // A publisher's revision of one old day of Latvia's storage fill: a copy of the mirror where
    // only that row differs (every other source folder linked as it is).
    const sources = await tempDir('sources-revised');
    for (const e of await readdir(SOURCES_DIR, { withFileTypes: true }))
      if (e.isDirectory() && e.name !== 'gie-agsi-gas-storage') await symlink(join(SOURCES_DIR, e.name), join(sources, e.name));
    await mkdir(join(sources, 'gie-agsi-gas-storage'));
    await cp(join(SOURCES_DIR, 'gie-agsi-gas-storage'), join(sources, 'gie-agsi-gas-storage'), { recursive: true });
    const file = join(sources, 'gie-agsi-gas-storage/agsi_country_fill_daily_2023_2026.csv');
    const csv = await readFile(file, 'utf8');
    const row = /^LV,Latvia,2024-01-15,([\d.]+),/m.exec(csv)!;
    const revised = Math.round((Number(row[1]) + 0.1) * 100) / 100;
    await writeFile(file, csv.replace(row[0], `LV,Latvia,2024-01-15,${revised},`));

    const r = await runBuild(
      { sourcesDir: sources, dataDir: DATA_DIR, outDir: dist, baseUrl: 'https://chokepoint.test', site: NO_SITE },
      testEffects(new Date('2026-11-22T00:15:00Z')),
    );
    const after = readJson<Manifest>(join(dist, 'current/manifest.json'));
    const changed = payloads(after).filter((p) => after.files[p]!.sha256 !== before.files[p]?.sha256);
    // Latvia's daily series carries the day; its current reading, its profile and the EU figures do not.
    expect(changed).toEqual(['data/reserves/gas/lv.json']);
    const lv = readJson(join(dist, 'current/data/reserves/gas/lv.json'));
    expect(lv.data.metrics.fill_pct.points.find((p: { date: string }) => p.date === '2024-01-15').value).toBe(revised);
    expect(lv.meta).toMatchObject({ build: r.build, generated_at: '2026-11-22T00:15:00.000Z' });
    expect(lv.meta.sources.find((s: { id: string }) => s.id === 'gie-agsi-gas-storage').retrieved_at).toBe('2026-11-22T00:15:00.000Z');
    // A payload citing the re-retrieved source whose content did not change keeps the version it was made from.
    const reading = readJson(join(dist, 'current/v1/reserves/gas/lv.json'));
    expect(reading.meta).toMatchObject({ build: before.build, generated_at: before.generated_at });
    expect(reading.meta.sources.find((s: { id: string }) => s.id === 'gie-agsi-gas-storage').retrieved_at).toBe(before.generated_at);
  }, 120_000);
});

describe('BuildWriter against the live build', () => {
  const Body = z.strictObject({
    data: z.strictObject({ value: z.number() }),
    meta: z.strictObject({
      generated_at: z.string(),
      build: z.string(),
      sources: z.array(z.strictObject({ id: z.string(), retrieved_at: z.string() })),
    }),
  });
  const body = (value: number, at: string, build: string) => ({ data: { value }, meta: { generated_at: at, build, sources: [{ id: 'x', retrieved_at: at }] } });

  /** A live build folder behind a `current` link, holding one payload as a first build wrote it. */
  async function live() {
    const out = await tempDir('writer-live');
    const first = new BuildWriter(join(out, 'builds/b1'));
    await mkdir(first.dir, { recursive: true });
    await first.json('v1/x.json', Body, body(1.5, '2026-11-22T00:00:00.000Z', 'b1'));
    await writeFile(join(first.dir, 'manifest.json'), JSON.stringify({ build: 'b1', files: first.files }));
    await symlink('builds/b1', join(out, 'current'));
    return out;
  }
  const second = async (out: string, value: number) => {
    const w = new BuildWriter(join(out, 'builds/b2'), join(out, 'current'));
    await w.json('v1/x.json', Body, body(value, '2026-11-22T00:15:00.000Z', 'b2'));
    return { w, text: await readFile(join(w.dir, 'v1/x.json'), 'utf8') };
  };

  it('keeps the live bytes, stamps included, when only the stamps differ', async () => {
    const out = await live();
    const { w, text } = await second(out, 1.5);
    expect(text).toBe(await readFile(join(out, 'builds/b1/v1/x.json'), 'utf8'));
    expect(JSON.parse(text).meta).toEqual({
      generated_at: '2026-11-22T00:00:00.000Z',
      build: 'b1',
      sources: [{ id: 'x', retrieved_at: '2026-11-22T00:00:00.000Z' }],
    });
    expect(w.carried).toEqual(['v1/x.json']);
  });

  it('writes its own body and stamps when a figure changed', async () => {
    const out = await live();
    const { w, text } = await second(out, 1.6);
    expect(JSON.parse(text)).toEqual(body(1.6, '2026-11-22T00:15:00.000Z', 'b2'));
    expect(w.carried).toEqual([]);
  });

  it('does not trust a live file that does not match its manifest', async () => {
    const out = await live();
    const target = join(await realpath(join(out, 'current')), 'v1/x.json');
    await writeFile(target, (await readFile(target, 'utf8')).replace('"b1"', '"bX"'));
    const { w, text } = await second(out, 1.5);
    expect(JSON.parse(text).meta.build).toBe('b2');
    expect(w.carried).toEqual([]);
  });
});
