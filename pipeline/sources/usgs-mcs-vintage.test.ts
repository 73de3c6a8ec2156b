import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOURCES_DIR } from '../../test/support.ts';
import { Db } from '../db.ts';
import { exposureAt, loadExposures } from '../steps/exposure.ts';
import { eiStatisticalReview2026Source, eiStatisticalReviewSource } from './ei-statistical-review.ts';
import { eiaChokepointsSource } from './eia-chokepoints.ts';
import { SourceError } from './types.ts';
import { usgsMcsSource } from './usgs-mcs.ts';
import { usgsMcsVintageSources } from './usgs-mcs-vintage.ts';

const vintage = (edition: number) => usgsMcsVintageSources.find((s) => s.id === `usgs-mcs-${edition}`)!;

describe('USGS MCS 2022–2024 vintages', () => {
  let db: Db;
  beforeAll(async () => {
    db = await Db.open();
    for (const s of [...usgsMcsVintageSources, usgsMcsSource, eiStatisticalReviewSource, eiStatisticalReview2026Source, eiaChokepointsSource])
      await s.load(db, join(SOURCES_DIR, s.id));
  }, 120_000);
  afterAll(() => db.close());

  const value = (edition: number, slug: string, country: string, year: number) =>
    db.one<{ value: number; estimated: boolean }>(`SELECT value, estimated FROM usgs_world_${edition} WHERE slug = ? AND country = ? AND year = ?`, [
      slug,
      country,
      year,
    ]);

  it('reads each edition as printed: one row per country and year, estimates flagged, footnote digits and separators dropped', async () => {
    // mcs2023-nitro: Qatar 3270 (2021), 3300 (2022 estimate); mcs2024-potas prints 'United States1'.
    expect(await value(2023, 'nitro', 'Qatar', 2022)).toEqual({ value: 3300, estimated: true });
    expect(await value(2023, 'nitro', 'Qatar', 2021)).toEqual({ value: 3270, estimated: false });
    expect(await value(2024, 'potas', 'United States', 2022)).toEqual({ value: 430, estimated: false });
    expect(await value(2023, 'phosp', 'Algeria', 2021)).toEqual({ value: 1400, estimated: false });
    // MCS 2022 writes 'Est' and has 12 tables only.
    expect(await value(2022, 'lithi', 'Chile', 2021)).toEqual({ value: 26000, estimated: true });
    expect(await db.one(`SELECT count(DISTINCT slug)::INTEGER AS n FROM usgs_world_2022`)).toEqual({ n: 12 });
  });

  it('keeps each edition its own vintage: Chile lithium 2022 was 39,000 t in MCS 2023, revised to 38,000 t in MCS 2024', async () => {
    expect((await value(2023, 'lithi', 'Chile', 2022))?.value).toBe(39000);
    expect((await value(2024, 'lithi', 'Chile', 2022))?.value).toBe(38000);
  });

  it('feeds the history the shares published by each date, never a later edition', async () => {
    const urea = (await loadExposures(db)).get('agri.urea')!;
    const at = (t: string) => exposureAt(urea, t)[0]!;
    // Mid-2025: MCS 2026 is not out; MCS 2024's 2023 estimate: Iran 4,400 + Qatar 3,100 + Saudi Arabia 4,000 of 150,000 kt.
    expect(at('2025-06-30')).toMatchObject({ source: 'usgs-mcs-2024', year: 2023, share: 0.0767, published: '2024-01-31', before_publication: false });
    expect(at('2024-01-30')).toMatchObject({ source: 'usgs-mcs-2023', year: 2022, before_publication: false });
    expect(at('2026-02-06')).toMatchObject({ source: 'usgs-mcs-2026', year: 2025, before_publication: false });
    // Before the oldest edition with an ammonia table (MCS 2023: MCS 2022's release has none), that edition, flagged.
    expect(at('2021-06-30')).toMatchObject({ source: 'usgs-mcs-2023', year: 2021, before_publication: true });
    expect(at('2021-06-30').basis).toBe(
      'USGS MCS 2023: ammonia production of Iran, Iraq, Kuwait, Saudi Arabia, Bahrain, Qatar, United Arab Emirates / world, 2021',
    );
  });

  it('refuses a folder without world tables, and has nothing to download', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'usgs-vintage-'));
    await expect(vintage(2024).load(db, empty)).rejects.toBeInstanceOf(SourceError);
    await expect(vintage(2024).download(empty, fetch)).rejects.toThrow(/closed edition/);
  });
});
