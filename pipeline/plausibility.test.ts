import { existsSync } from 'node:fs';
import { cp, readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DATA_DIR, NO_SITE, SOURCES_DIR, readJson, tempDir, testEffects } from '../test/support.ts';
import { runBuild } from './build.ts';
import { BuildValidationError } from './publish.ts';
import { SOURCES } from './sources/registry.ts';
import type { SourceAdapter } from './sources/types.ts';
import { eiaOilPricesSource } from './sources/eia-oil-prices.ts';

/**
 * Issue 20, finding 5: a source cut short must not be published as fresh, and must not replace
 * the last good snapshot. Real files: the shared mirror copied to a temp SOURCES_DIR, rows cut
 * from its CSVs, full builds into a temp DIST_DIR.
 */

const build = (sourcesDir: string, outDir: string, sources?: readonly SourceAdapter[]) =>
  runBuild({ sourcesDir, dataDir: DATA_DIR, outDir, baseUrl: 'https://chokepoint.test', sources, site: NO_SITE }, testEffects());

/** Rewrite a CSV keeping the header and the data rows `keep` accepts (row index from 0, the row's cells). */
async function cutRows(file: string, keep: (cells: string[], i: number, rows: number) => boolean): Promise<{ before: number; after: number }> {
  const [header, ...rows] = (await readFile(file, 'utf8')).split('\n').filter((l) => l !== '');
  const kept = rows.filter((r, i) => keep(r.split(','), i, rows.length));
  await writeFile(file, [header, ...kept, ''].join('\n'));
  return { before: rows.length, after: kept.length };
}

/** Everything of a snapshot (snapshot.json, tables, raw files), to compare byte for byte. */
async function snapshotBytes(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      if (e.isDirectory()) await walk(join(d, e.name));
      else out.set(join(d, e.name).slice(dir.length), (await readFile(join(d, e.name))).toString('base64'));
    }
  };
  await walk(dir);
  return out;
}

const snapshotJson = (files: Map<string, string>) => JSON.parse(Buffer.from(files.get('/snapshot.json')!, 'base64').toString()) as { sha256: string };
/** Same files with the same bytes, snapshot.json aside (compared on its own); a boolean, to keep a failure's output short. */
const sameBytes = (a: Map<string, string>, b: Map<string, string>) =>
  [...a.keys(), ...b.keys()].filter((k) => k !== '/snapshot.json').every((k) => a.get(k) === b.get(k));

describe('a source cut short', () => {
  let mirror: string;
  let out: string;

  beforeAll(async () => {
    mirror = await tempDir('mirror-cut');
    await cp(SOURCES_DIR, mirror, { recursive: true });
    out = await tempDir('out-cut');
    await build(mirror, out);
  });

  /** Cut a source, build, check it is stale with `reason`, its snapshot and `payload` unchanged; then restore it. */
  async function expectRefused(id: string, file: string, keep: Parameters<typeof cutRows>[1], reason: RegExp, payload: string) {
    const path = join(mirror, id, file);
    const good = await readFile(path);
    const snapDir = join(out, 'snapshots', id);
    const snapBefore = await snapshotBytes(snapDir);
    const before = readJson(join(out, 'current', payload));
    const cut = await cutRows(path, keep);
    try {
      const r = await build(mirror, out);
      const status = r.sources.find((s) => s.id === id)!;
      expect(status.status).toBe('stale');
      expect(status.stale_reason).toMatch(/^implausible load, the last good snapshot is kept: /);
      expect(status.stale_reason).toMatch(reason);
      expect(status.data_as_of).toBe(readJson(join(snapDir, 'snapshot.json')).data_as_of);
      // The last good snapshot, byte for byte (snapshot.json only notes since when loads fail), and the figures it gives.
      const snapAfter = await snapshotBytes(snapDir);
      expect(readJson(join(snapDir, 'snapshot.json'))).toEqual({ ...snapshotJson(snapBefore), failing_since: '2026-11-22T00:00:00.000Z' });
      expect(sameBytes(snapAfter, snapBefore)).toBe(true);
      const after = readJson(join(out, 'current', payload));
      expect(after.data).toEqual(before.data);
      expect(after.meta.as_of).toBe(before.meta.as_of);
      expect(after.meta.sources.find((s: { id: string }) => s.id === id).stale).toBe(true);
      expect((await readdir(join(out, 'snapshots'))).filter((n) => n.includes('.tmp-'))).toEqual([]);
      return { cut, status };
    } finally {
      await writeFile(path, good);
    }
  }

  it('AGSI rows after 2026-06-30 dropped: stale, naming the series that went back; storage figures unchanged', async () => {
    const { cut, status } = await expectRefused(
      'gie-agsi-gas-storage',
      'agsi_de_eu_daily_2020_2026.csv',
      (c) => c[1]! <= '2026-06-30',
      /agsi_storage de \/ agsi_de_eu_daily_2020_2026\.csv ends 2026-06-30, before the last good load's 2026-08-20/,
      'v1/reserves/gas/de.json',
    );
    expect(cut.before - cut.after).toBe(102);
    expect(status.stale_reason).toMatch(/agsi_storage eu \/ agsi_de_eu_daily_2020_2026\.csv ends 2026-06-30/);
  });

  it('EIA weekly rows after 2025-06-30 dropped: stale; the US SPR reading unchanged', async () => {
    const { cut } = await expectRefused(
      'eia-weekly-petroleum',
      'eia-wpsr-us-weekly.csv',
      (c) => c[0]! <= '2025-06-30',
      /eia_petroleum_weekly \S+ \/ eia-wpsr-us-weekly\.csv ends 2025-06-27, before the last good load's 2026-02-27/,
      'v1/reserves/oil/us.json',
    );
    expect(cut.after).toBeLessThan(cut.before);
  });

  it('half the Brent and WTI daily rows gone, newest day kept: stale on the row count; prices unchanged', async () => {
    const keep = (_c: string[], i: number, n: number) => i % 2 === 0 || i === n - 1;
    await cutRows(join(mirror, 'eia-oil-prices/wti-daily.csv'), keep);
    try {
      await expectRefused(
        'eia-oil-prices',
        'brent-daily.csv',
        keep,
        /eia_oil_prices has \d+ rows, \d+ % of the last good load's \d+ \(below 90 %\)/,
        'v1/commodities/energy.oil.json',
      );
    } finally {
      await cp(join(SOURCES_DIR, 'eia-oil-prices/wti-daily.csv'), join(mirror, 'eia-oil-prices/wti-daily.csv'));
    }
  });

  it('restored, the source loads again as unchanged from its snapshot', async () => {
    const r = await build(mirror, out);
    for (const id of ['gie-agsi-gas-storage', 'eia-weekly-petroleum', 'eia-oil-prices']) {
      const s = r.sources.find((x) => x.id === id)!;
      expect([s.id, s.status, s.stale_reason]).toEqual([id, 'unchanged', null]);
    }
    const manifest = readJson(join(out, 'current/manifest.json'));
    expect(manifest.sources.filter((s: { status: string }) => s.status === 'stale')).toEqual([]);
  });
});

describe('snapshots', () => {
  it('are promoted only when the build publishes: a new load in a build that fails validation leaves the last good one', async () => {
    const mirror = await tempDir('mirror-reject');
    await cp(SOURCES_DIR, mirror, { recursive: true });
    const out = await tempDir('out-reject');
    const first = await build(mirror, out);
    const snapDir = join(out, 'snapshots', eiaOilPricesSource.id);
    const snapBefore = await snapshotBytes(snapDir);
    // A new, plausible file (one price changed), through an adapter whose output breaks the contract.
    const brent = join(mirror, 'eia-oil-prices/brent-daily.csv');
    await writeFile(brent, (await readFile(brent, 'utf8')).replace('2026-08-18,95.29', '2026-08-18,95.31'));
    const poisoned: SourceAdapter = {
      ...eiaOilPricesSource,
      async load(db, dir) {
        await eiaOilPricesSource.load(db, dir);
        await db.run(`UPDATE eia_oil_prices SET date = date + INTERVAL 10000 YEAR WHERE series = 'brent' AND date = (SELECT max(date) FROM eia_oil_prices)`);
      },
    };
    const failed = await build(
      mirror,
      out,
      SOURCES.map((s) => (s.id === poisoned.id ? poisoned : s)),
    ).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(BuildValidationError);
    const snapAfter = await snapshotBytes(snapDir);
    expect(snapshotJson(snapAfter)).toEqual(snapshotJson(snapBefore));
    expect(sameBytes(snapAfter, snapBefore)).toBe(true);
    expect((await readdir(join(out, 'snapshots'))).filter((n) => /\.(tmp|old)-/.test(n))).toEqual([]);
    expect(await readlink(join(out, 'current'))).toBe(join('builds', first.build));

    // The same file with the real adapter: the build publishes, and only then is the snapshot replaced.
    const ok = await build(mirror, out);
    expect(ok.sources.find((s) => s.id === eiaOilPricesSource.id)!.status).toBe('fresh');
    expect(readJson(join(snapDir, 'snapshot.json')).sha256).toBe(ok.sources.find((s) => s.id === eiaOilPricesSource.id)!.sha256);
    expect(readJson(join(snapDir, 'snapshot.json')).sha256).not.toBe(snapshotJson(snapBefore).sha256);
    expect(existsSync(join(out, 'builds', ok.build))).toBe(true);
  });
});
