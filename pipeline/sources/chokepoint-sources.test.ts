import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Db } from '../db.ts';
import { eiaChokepointsSource } from './eia-chokepoints.ts';
import { imfPortwatchSource } from './imf-portwatch.ts';
import { nyfedGscpiSource } from './nyfed-gscpi.ts';
import { SourceError } from './types.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const mirror = (id: string) => join(process.env.SOURCES_DIR ?? resolve(repoRoot, '../shared/sources'), id);

async function dirWith(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cp-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

describe('chokepoint sources', () => {
  let db: Db;
  beforeAll(async () => (db = await Db.open()));
  afterAll(() => db.close());

  it('PortWatch: the mirror loads seven chokepoints; the newer pull wins where both files cover a day', async () => {
    await imfPortwatchSource.load(db, mirror('imf-portwatch-chokepoints'));
    const rows = await db.all<{ chokepoint: string; first: string; last: string; n: number }>(
      `SELECT chokepoint, strftime(min(date), '%Y-%m-%d') AS first, strftime(max(date), '%Y-%m-%d') AS last, count(*)::INTEGER AS n
       FROM portwatch_transits GROUP BY 1 ORDER BY 1`,
    );
    expect(rows.map((r) => [r.chokepoint, r.first, r.last])).toEqual([
      ['bab_el_mandeb', '2019-01-01', '2026-08-16'],
      ['dover', '2019-01-01', '2025-11-02'],
      ['gibraltar', '2019-01-01', '2025-11-02'],
      ['hormuz', '2019-01-01', '2026-08-16'],
      ['malacca', '2019-01-01', '2026-08-16'],
      ['suez', '2019-01-01', '2026-08-16'],
      ['taiwan', '2019-01-01', '2025-11-02'],
    ]);
    // One row per chokepoint and day: no double counting from the overlap.
    expect(rows.every((r) => r.n === 1 + (Date.parse(r.last) - Date.parse(r.first)) / 86_400_000)).toBe(true);
    expect(await db.one(`SELECT n_total, file FROM portwatch_transits WHERE chokepoint = 'hormuz' AND date = DATE '2026-08-16'`)).toEqual({
      n_total: 1,
      file: 'portwatch_daily_4cp_incl_hormuz_2019-2026-08.csv',
    });
  });

  it('PortWatch: a file without its columns or an unknown chokepoint is a SourceError; download names the service', async () => {
    const four = 'date,chokepoint,n_total,n_tanker,n_cargo,capacity\n2019-01-01,atlantis,1,1,0,5\n';
    const six = '\uFEFFdate,portid,n_total,n_tanker,n_cargo\n2019/01/01 00:00:00+00,chokepoint8,3,1,2\n';
    const files = { 'portwatch_daily_4cp_incl_hormuz_2019-2026-08.csv': four, 'portwatch_daily_chokepoints_6cp_2019-2025-11.csv': six };
    await expect(imfPortwatchSource.load(db, await dirWith(files))).rejects.toThrow(/unknown chokepoint atlantis/);
    await expect(
      imfPortwatchSource.load(db, await dirWith({ ...files, 'portwatch_daily_4cp_incl_hormuz_2019-2026-08.csv': 'date,value\n2019-01-01,1\n' })),
    ).rejects.toBeInstanceOf(SourceError);
    await expect(imfPortwatchSource.download('/tmp', fetch)).rejects.toThrow(/FeatureServer/);
  });

  it('EIA chokepoints: years and the 1H2025 half, in million b/d', async () => {
    await eiaChokepointsSource.load(db, mirror('eia-chokepoints'));
    expect(await db.all(`SELECT period, year, full_year, mbd FROM eia_chokepoint_oil WHERE chokepoint = 'hormuz' AND year >= 2023 ORDER BY period`)).toEqual([
      { period: '1H2025', year: 2025, full_year: false, mbd: 20.9 },
      { period: '2023', year: 2023, full_year: true, mbd: 21.8 },
      { period: '2024', year: 2024, full_year: true, mbd: 20.7 },
    ]);
    const bad = await dirWith({ 'eia_chokepoints_table1_oil_mbd.csv': 'date,periodo_original,chokepoint,value\n2024-07-01,2024,Strait of Atlantis,1.0\n' });
    await expect(eiaChokepointsSource.load(db, bad)).rejects.toThrow(/unknown chokepoint Strait of Atlantis/);
    await expect(eiaChokepointsSource.download('/tmp', fetch)).rejects.toThrow(/no download endpoint/);
  });

  it('GSCPI: 1998-01 to 2026-07, one value a month', async () => {
    await nyfedGscpiSource.load(db, mirror('nyfed-gscpi'));
    expect(await db.one(`SELECT strftime(min(date), '%Y-%m') AS first, strftime(max(date), '%Y-%m') AS last, count(*)::INTEGER AS n FROM gscpi`)).toEqual({
      first: '1998-01',
      last: '2026-07',
      n: 343,
    });
    await expect(nyfedGscpiSource.load(db, await dirWith({ 'gscpi_monthly.csv': 'month,gscpi\n' }))).rejects.toBeInstanceOf(SourceError);
    await expect(nyfedGscpiSource.download('/tmp', fetch)).rejects.toBeInstanceOf(SourceError);
  });
});
