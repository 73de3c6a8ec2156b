import { appendFile, cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { healthOf } from '../api/health.ts';
import { DATA_DIR, FROZEN_NOW, NO_SITE, SOURCES_DIR, readJson, tempDir, testEffects } from '../test/support.ts';
import { runBuild } from './build.ts';
import { Db, sqlString } from './db.ts';
import { tablePath } from './snapshots.ts';

/**
 * Issue 34, finding 2, replayed over a temp copy of the real mirror with full builds: a new AGSI+
 * day for Germany with a fill of −12 % and 2,463 TWh stored for 246 TWh of capacity was
 * published as fresh; when the correct file came back, it was refused as "ends before the last
 * good load" and the poisoned snapshot stayed served.
 */

const ID = 'gie-agsi-gas-storage';
const FILE = 'agsi_de_eu_daily_2020_2026.csv';
const RESERVE = 'v1/reserves/gas/de.json';

/** A German row for 2026-08-21 after the file's last one (2026-08-20: 123.8547 TWh, 50.25 %). */
const day = (stored: number, fill: number) =>
  `DE,2026-08-21,Germany,DE,${stored},246.489,${fill},903.9,250.1,140,-110.1,4292.58,7067.36,0.06,C,${fill},77.9,GIE AGSI+ API v013\n`;

describe('a poisoned source value', () => {
  let mirror: string;
  let out: string;
  let good: Buffer;
  let first: { fill_pct: number; as_of: string };
  const fx = testEffects();
  const build = () => runBuild({ sourcesDir: mirror, dataDir: DATA_DIR, outDir: out, baseUrl: 'https://chokepoint.test', site: NO_SITE }, fx);
  const source = (r: Awaited<ReturnType<typeof build>>) => r.sources.find((s) => s.id === ID)!;

  beforeAll(async () => {
    mirror = await tempDir('mirror-poison');
    await cp(SOURCES_DIR, mirror, { recursive: true });
    out = await tempDir('out-poison');
    good = await readFile(join(mirror, ID, FILE));
    await build();
    first = readJson(join(out, 'current', RESERVE)).data;
  }, 300_000);

  it('is refused: the build publishes, the last good reserve is served, the source stale naming table, series, date, value and bound', async () => {
    await appendFile(join(mirror, ID, FILE), day(2463, -12));
    const r = await build();
    const s = source(r);
    expect(s.status).toBe('stale');
    expect(s.stale_reason).toBe(
      'implausible value, the load is refused: agsi_storage de 2026-08-21: fill_pct -12 is outside [0, 110] (a storage fill in %); ' +
        'agsi_storage de 2026-08-21: gas_in_storage_twh 2463 exceeds 1.1 × working_gas_volume_twh 246.489 (gas in storage within the working gas volume)',
    );
    expect(s.data_as_of).toBe('2026-08-20');
    const reserve = readJson(join(out, 'current', RESERVE)).data;
    expect(reserve).toEqual(first);
    expect([reserve.as_of, reserve.fill_pct]).toEqual(['2026-08-20', 50.25]);
    // The same reason in manifest.json and, said for the public, on /healthz.
    const manifest = readJson(join(out, 'current/manifest.json'));
    expect(manifest.sources.find((x: { id: string }) => x.id === ID).stale_reason).toBe(s.stale_reason);
    const health = healthOf(manifest, FROZEN_NOW, FROZEN_NOW);
    expect(health.status).toBe('degraded');
    expect(health.sources.find((x) => x.id === ID)!.stale_reason).toBe(s.stale_reason);
  }, 180_000);

  it('corrected by the publisher, the next build publishes the new day fresh', async () => {
    await writeFile(join(mirror, ID, FILE), Buffer.concat([good, Buffer.from(day(124.0074, 50.31))]));
    const s = source(await build());
    expect([s.status, s.stale_reason, s.data_as_of]).toEqual(['fresh', null, '2026-08-21']);
    expect(s.warnings).toBeUndefined();
    const reserve = readJson(join(out, 'current', RESERVE)).data;
    expect([reserve.as_of, reserve.fill_pct]).toEqual(['2026-08-21', 50.31]);
  }, 180_000);

  it('a jump within the bounds is accepted and flagged in the log and the status', async () => {
    await writeFile(join(mirror, ID, FILE), Buffer.concat([good, Buffer.from(day(186.6, 75.7))]));
    fx.lines.length = 0;
    const s = source(await build());
    expect([s.status, s.stale_reason]).toEqual(['fresh', null]);
    expect(s.warnings).toHaveLength(1);
    expect(s.warnings![0]).toMatch(
      /^agsi_storage de 2026-08-21: fill_pct 75\.7 after 50\.25 \(\+25\.45\), \d+ robust deviations from the series' usual change \(flagged at 10\)$/,
    );
    expect(fx.lines.filter((l) => l.startsWith(`WARN ${ID}: jump flagged`))).toHaveLength(1);
    expect(readJson(join(out, 'current', RESERVE)).data.fill_pct).toBe(75.7);
    // Still flagged while the load stays the one served.
    const again = source(await build());
    expect([again.status, again.warnings]).toEqual(['unchanged', s.warnings]);
    expect(healthOf(readJson(join(out, 'current/manifest.json')), FROZEN_NOW, FROZEN_NOW).sources.find((x) => x.id === ID)!.warnings).toEqual(s.warnings);
  }, 180_000);

  it('a poisoned snapshot an older version left does not lock itself in: the correct load replaces it', async () => {
    // As a version without value gates would have kept the poisoned day: a snapshot one day
    // longer than the correct file, with the issue's values, and another file's checksum.
    const snapDir = join(out, 'snapshots', ID);
    const db = await Db.open();
    try {
      const parquet = tablePath(snapDir, 'agsi_storage');
      await db.run(`CREATE TABLE t AS SELECT * FROM read_parquet(${sqlString(parquet)})`);
      await db.run(
        `INSERT INTO t SELECT country, DATE '2026-08-22', -12, 2463, working_gas_volume_twh, injection_gwh_d, withdrawal_gwh_d, net_withdrawal_gwh_d, status, file FROM t WHERE country = 'de' AND date = DATE '2026-08-21'`,
      );
      await db.run(`COPY t TO ${sqlString(parquet)} (FORMAT parquet)`);
    } finally {
      db.close();
    }
    const meta = readJson(join(snapDir, 'snapshot.json'));
    await writeFile(join(snapDir, 'snapshot.json'), JSON.stringify({ ...meta, sha256: 'f'.repeat(64), data_as_of: '2026-08-22', warnings: undefined }));
    await writeFile(join(mirror, ID, FILE), Buffer.concat([good, Buffer.from(day(124.0074, 50.31))]));
    fx.lines.length = 0;
    const s = source(await build());
    // Compared with the poisoned snapshot, this load "ends 2026-08-21, before the last good load's 2026-08-22".
    expect([s.status, s.stale_reason, s.data_as_of]).toEqual(['fresh', null, '2026-08-21']);
    expect(fx.lines.some((l) => l.startsWith(`WARN ${ID}: the last snapshot breaks the value bounds (agsi_storage de 2026-08-22: fill_pct -12`))).toBe(true);
    const reserve = readJson(join(out, 'current', RESERVE)).data;
    expect([reserve.as_of, reserve.fill_pct]).toEqual(['2026-08-21', 50.31]);
    expect(readJson(join(snapDir, 'snapshot.json')).data_as_of).toBe('2026-08-21');
  }, 180_000);
});
