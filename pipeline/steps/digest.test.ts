import { describe, expect, it } from 'vitest';
import type { CommoditySheet } from '../../contract/commodities.ts';
import { Db } from '../db.ts';
import { weeklyDigest } from './digest.ts';

/**
 * The weekly digest lists only what changed within its week (issue 35: the 2026-W48 digest listed
 * a 2025-08 → 2025-09 vanadium change among the week's price moves). Real DuckDB, tables of the
 * shape the build's steps make.
 */
async function dbWith(prices: [slug: string, frequency: string, date: string, value: number][], storage: [string, string, number][]): Promise<Db> {
  const db = await Db.open();
  await db.run(`CREATE TABLE price_obs (slug VARCHAR, date DATE, value DOUBLE)`);
  await db.run(`CREATE TABLE price_series (slug VARCHAR, frequency VARCHAR)`);
  await db.run(`CREATE TABLE agsi_storage (country VARCHAR, date DATE, fill_pct DOUBLE)`);
  for (const slug of new Set(prices.map((p) => p[0]))) await db.run(`INSERT INTO price_series VALUES (?, ?)`, [slug, prices.find((p) => p[0] === slug)![1]]);
  for (const [slug, , date, value] of prices) await db.run(`INSERT INTO price_obs VALUES (?, ?::DATE, ?)`, [slug, date, value]);
  for (const [country, date, fill] of storage) await db.run(`INSERT INTO agsi_storage VALUES (?, ?::DATE, ?)`, [country, date, fill]);
  return db;
}
const sheet = (slug: string, en: string) =>
  ({ slug, names: { en, fr: en, de: en, es: en }, stress_index: null, stress_band: null }) as unknown as CommoditySheet;
const sheets = [sheet('metals.vanadium', 'Vanadium'), sheet('energy.oil', 'Brent crude oil')];

describe('the weekly digest', () => {
  it('lists a price move only when its newest observation falls within the week', async () => {
    const db = await dbWith(
      [
        // A monthly series that ended a year before: its last move (+50 %) is not this week's news.
        ['metals.vanadium', 'monthly', '2025-08-01', 10],
        ['metals.vanadium', 'monthly', '2025-09-01', 15],
        // A daily series observed this week: +10 % on the week.
        ['energy.oil', 'daily', '2026-11-16', 60],
        ['energy.oil', 'daily', '2026-11-25', 66],
      ],
      [
        ['eu', '2026-11-18', 80],
        ['eu', '2026-11-25', 78],
      ],
    );
    const [en] = await weeklyDigest(db, { today: '2026-11-27', sheets, events: [], previousStress: new Map() });
    expect(en!.title).toBe('Weekly data digest, week 2026-W48');
    expect(en!.body).toContain('- **Brent crude oil**: +10.0 % on the week (2026-11-16 → 2026-11-25)');
    expect(en!.body).not.toContain('Vanadium');
    expect(en!.body).toContain('- EU: 78.0 % full on 2026-11-25, against 80.0 % on 2026-11-18.');
    expect(en!.series.map((s) => s.commodity)).not.toContain('metals.vanadium');
    db.close();
  });

  it('says so when no price and no storage reading is new this week, and names the newest', async () => {
    const db = await dbWith(
      [
        ['metals.vanadium', 'monthly', '2025-08-01', 10],
        ['metals.vanadium', 'monthly', '2025-09-01', 15],
      ],
      [
        ['eu', '2026-08-13', 75],
        ['eu', '2026-08-20', 76],
      ],
    );
    const digests = await weeklyDigest(db, { today: '2026-11-27', sheets, events: [], previousStress: new Map() });
    const en = digests.find((d) => d.lang === 'en')!.body;
    expect(en).toContain('No price in the published data has a new observation this week; the newest is from 2025-09-01.');
    expect(en).toContain('No new gas storage reading this week; the newest is from 2026-08-20.');
    expect(en).not.toMatch(/Vanadium|% full on/);
    expect(digests.find((d) => d.lang === 'de')!.body).toContain('Kein Preis in den veröffentlichten Daten hat diese Woche eine neue Beobachtung');
    db.close();
  });
});
