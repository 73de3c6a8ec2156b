import type { Db } from '../db.ts';
import type { Commodity } from '../catalogue.ts';
import { eiEdition } from './ei-editions.ts';

type Ref = NonNullable<Commodity['production']> | NonNullable<Commodity['reserves_in_ground']>;

export interface ShareRow {
  iso3: string;
  name: string;
  value: number;
  share: number;
}

export interface ShareTableData {
  year: number;
  unit: string;
  basis: string;
  source: string;
  world_total: number | null;
  entries: ShareRow[];
}

/** Country name as the source spells it → ISO3, through the country-codes adapter's name table. */
const ISO_JOIN = `LEFT JOIN country_names n ON n.name = lower(trim(t.country))`;
/** EI names its world row 'Total World', except the LNG export sheet ('Total LNG exports'). */
export const EI_WORLD_ROWS = ['Total World', 'Total LNG exports'] as const;
const EI_WORLD_IN = EI_WORLD_ROWS.map((r) => `'${r}'`).join(', ');

/**
 * Countries' shares of the world total in the newest year the table has. The denominator is the
 * publisher's own world total where it gives one (EI 'Total World', USGS 'World total'), so
 * countries the publisher lumps into 'Other countries' still count in the total.
 * Shares therefore need not sum to 1.
 */
export async function shareTable(db: Db, ref: Ref, basis: string): Promise<ShareTableData | null> {
  let rows: { country: string; iso3: string | null; value: number; is_total: boolean; unit: string; year: number }[];
  if ('sheet' in ref) {
    const table = eiEdition(ref.source).table;
    rows = await db.all(
      `WITH y AS (SELECT max(year) AS year FROM ${table} WHERE sheet = ? AND value IS NOT NULL)
       SELECT t.country, n.iso3, t.value, (t.country IN (${EI_WORLD_IN})) AS is_total, t.unit, t.year
       FROM ${table} t ${ISO_JOIN}, y
       WHERE t.sheet = ? AND t.year = y.year AND t.value IS NOT NULL AND (NOT t.is_aggregate OR t.country IN (${EI_WORLD_IN}))`,
      [ref.sheet, ref.sheet],
    );
  } else {
    rows = await db.all(
      `WITH y AS (
         SELECT max(try_cast(year AS INTEGER)) AS year FROM usgs_world
         WHERE chapter = ? AND (detail = ? OR detail LIKE ? || '%rounded') AND value IS NOT NULL)
       SELECT t.country, n.iso3, t.value, t.is_world_total AS is_total, t.unit, try_cast(t.year AS INTEGER) AS year
       FROM usgs_world t ${ISO_JOIN}, y
       WHERE t.chapter = ? AND try_cast(t.year AS INTEGER) = y.year AND t.value IS NOT NULL
         AND ((t.detail = ? AND NOT t.is_aggregate) OR (t.is_world_total AND t.detail LIKE ? || '%rounded'))`,
      [ref.chapter, ref.detail, ref.detail, ref.chapter, ref.detail, ref.detail],
    );
  }
  const countries = rows.filter((r) => !r.is_total && r.iso3 && r.value > 0);
  if (countries.length === 0) return null;
  const total = rows.find((r) => r.is_total)?.value ?? null;
  // An EI sheet whose world row we cannot find would silently take the listed countries as the
  // world. (USGS may print its world total as text such as '>140,000,000'; then the listed sum is used.)
  if (total === null && 'sheet' in ref) throw new Error(`EI sheet '${ref.sheet}': no world total row (${EI_WORLD_ROWS.join(' or ')}) for ${rows[0]?.year}`);
  // USGS rounds its world total; where the rounding falls below the listed countries' sum
  // (gallium 2025: 900,000 kg against 909,000), the sum is the smallest honest denominator.
  const listed = countries.reduce((s, r) => s + r.value, 0);
  const denominator = Math.max(total ?? 0, listed);
  const entries = countries
    .map((r) => ({ iso3: r.iso3 as string, name: r.country, value: r.value, share: Math.min(1, r.value / denominator) }))
    .sort((a, b) => b.value - a.value || a.iso3.localeCompare(b.iso3));
  const first = rows[0] as { unit: string; year: number };
  return { year: first.year, unit: first.unit, basis, source: ref.source, world_total: total, entries };
}

export type HhiBand = 'unconcentrated' | 'moderately concentrated' | 'highly concentrated';
export const HHI_THRESHOLDS = 'US DOJ/FTC Merger Guidelines 2023: < 1,000 unconcentrated, 1,000–1,800 moderately, > 1,800 highly concentrated';

/** HHI = Σ (share in %)², 0–10,000, over the countries with a recorded share. */
export function hhi(shares: readonly number[]): number {
  return Math.round(shares.reduce((s, x) => s + (x * 100) ** 2, 0) * 10) / 10;
}

export function hhiBand(value: number): HhiBand {
  return value < 1000 ? 'unconcentrated' : value <= 1800 ? 'moderately concentrated' : 'highly concentrated';
}

export interface FlowRow {
  exporter: string;
  exporter_iso3: string | null;
  importer: string;
  importer_iso3: string | null;
  value: number;
  unit: string;
  route: string;
}

/** The one year EI's bilateral trade matrices cover in the 2024 edition (the 2026 mirror has none: trade stays on 2024, EI_TRADE_SOURCE). */
export const EI_TRADE_YEAR = 2023;

/** Largest exporter → importer flows of one EI trade matrix. */
export async function topFlows(db: Db, sheet: string, flow: string, limit = 15): Promise<FlowRow[]> {
  return db.all(
    `SELECT t.exporter, ne.iso3 AS exporter_iso3, t.importer, ni.iso3 AS importer_iso3, t.value, t.unit, t.flow AS route
     FROM ei_trade t
     LEFT JOIN country_names ne ON ne.name = lower(trim(t.exporter)) AND NOT t.exporter_is_aggregate
     LEFT JOIN country_names ni ON ni.name = lower(trim(t.importer)) AND NOT t.importer_is_aggregate
     WHERE t.sheet = ? AND t.flow = ? AND t.value > 0 AND t.exporter <> t.importer
     ORDER BY t.value DESC, t.exporter, t.importer LIMIT ${limit}`,
    [sheet, flow],
  );
}
