import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOUNDS } from '../contract/bounds.ts';
import { SOURCES_DIR } from '../test/support.ts';
import { valueJumps, valueViolations } from './bounds.ts';
import { Db } from './db.ts';
import { SOURCES } from './sources/registry.ts';

/**
 * The value gates over the real mirror, every source loaded by its real adapter into DuckDB:
 * today's data pass every bound (the gates must not refuse real figures), and each kind of
 * bound catches a value broken the way issue 34 found (finding 2).
 */

const TABLES = SOURCES.flatMap((s) => s.tables);
let db: Db;

beforeAll(async () => {
  db = await Db.open();
  for (const s of SOURCES) await s.load(db, join(SOURCES_DIR, s.id));
});
afterAll(() => db.close());

/** Run `check` on copies of the real tables with `poison` applied to them, then put the real ones back. */
async function withPoison<T>(tables: string[], poison: string, check: () => Promise<T>): Promise<T> {
  for (const t of tables) await db.run(`CREATE OR REPLACE TABLE _keep_${t} AS SELECT * FROM ${t}`);
  try {
    await db.run(poison);
    return await check();
  } finally {
    for (const t of tables) await db.run(`CREATE OR REPLACE TABLE ${t} AS SELECT * FROM _keep_${t}; DROP TABLE _keep_${t}`);
  }
}

describe('value bounds', () => {
  it('declare rules for the tables that carry figures, every one of them a table a source loads', () => {
    expect(Object.keys(BOUNDS).filter((t) => !TABLES.includes(t))).toEqual([]);
    expect(Object.keys(BOUNDS).length).toBeGreaterThanOrEqual(18);
  });

  it("pass every value of today's real mirror", async () => {
    expect(await valueViolations(db, TABLES)).toEqual([]);
  });

  it("refuse the issue's poisoned AGSI+ row: a fill of −12 % and 2,463 TWh stored for 246 TWh", async () => {
    const found = await withPoison(
      ['agsi_storage'],
      `UPDATE agsi_storage SET fill_pct = -12, gas_in_storage_twh = 2463 WHERE country = 'de' AND date = DATE '2026-08-20'`,
      () => valueViolations(db, ['agsi_storage']),
    );
    expect(found).toEqual([
      'agsi_storage de 2026-08-20: fill_pct -12 is outside [0, 110] (a storage fill in %)',
      'agsi_storage de 2026-08-20: gas_in_storage_twh 2463 exceeds 1.1 × working_gas_volume_twh 246.489 (gas in storage within the working gas volume)',
    ]);
  });

  it('refuse a price at or below its floor, and a negative volume', async () => {
    const found = await withPoison(
      ['eia_henry_hub', 'eia_petroleum_weekly'],
      `UPDATE eia_henry_hub SET value = 0 WHERE frequency = 'daily' AND date = (SELECT max(date) FROM eia_henry_hub WHERE frequency = 'daily');
       UPDATE eia_petroleum_weekly SET value = -5
         WHERE series_id || date::VARCHAR = (SELECT series_id || date::VARCHAR FROM eia_petroleum_weekly ORDER BY date DESC, series_id LIMIT 1)`,
      () => valueViolations(db, ['eia_henry_hub', 'eia_petroleum_weekly']),
    );
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^eia_henry_hub daily \d{4}-\d\d-\d\d: value 0 is outside \(0, ∞\) \(a gas price\)$/);
    expect(found[1]).toMatch(/^eia_petroleum_weekly \S+ \d{4}-\d\d-\d\d: value -5 is outside \[0, ∞\)/);
  });

  it('refuse shares of a whole that no longer sum to 100 %', async () => {
    const found = await withPoison(
      ['usgs_us'],
      `UPDATE usgs_us SET value = 40 WHERE commodity = 'Bauxite' AND statistic = 'Import sources 2021-2024' AND country = 'Other countries'`,
      () => valueViolations(db, ['usgs_us']),
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^usgs_us BAUXITE AND ALUMINA Bauxite .*2021–24: value sums to \d+, not 100 ± 2 \(import sources, shares of all imports in %\)$/);
  });

  it('flag a jump among new rows only, never the history the last good load already held', async () => {
    const before = (t: string) => `_before_${t}`;
    await db.run(`CREATE OR REPLACE TABLE _before_agsi_storage AS SELECT * FROM agsi_storage`);
    // Unchanged data: nothing is new, nothing is flagged (2022's real jumps included).
    expect(await valueJumps(db, ['agsi_storage'], before)).toEqual([]);
    const flagged = await withPoison(
      ['agsi_storage'],
      `INSERT INTO agsi_storage SELECT country, date + 1, fill_pct + 25, gas_in_storage_twh + 61.6, working_gas_volume_twh,
         injection_gwh_d, withdrawal_gwh_d, net_withdrawal_gwh_d, status, file FROM agsi_storage WHERE country = 'de' AND date = DATE '2026-08-20'`,
      () => valueJumps(db, ['agsi_storage'], before),
    );
    expect(flagged).toHaveLength(1);
    expect(flagged[0]).toMatch(
      /^agsi_storage de 2026-08-21: fill_pct 75\.25 after 50\.25 \(\+25\), \d+ robust deviations from the series' usual change \(flagged at 10\)$/,
    );
    // Within the bounds: a jump is never a refusal.
    await db.run(`DROP TABLE _before_agsi_storage`);
  });
});
