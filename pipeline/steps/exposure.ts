/**
 * What a commodity's world supply has at stake on each chokepoint (methodology 3.0.0 §measured
 * disruption): the share e_c of world supply (or seaborne trade) whose route passes chokepoint c.
 *
 * THE EDITION SEAM. Every share enters the index through `exposureAt(table, t)`, which picks, per
 * chokepoint, the newest row published by t. USGS rows carry their edition's publication day (MCS
 * 2023 and 2024 as vintages, MCS 2026 as the current release: pipeline/sources/usgs-mcs-vintage.ts),
 * so a month reads the production shares known then; EI rows the end of their data year plus EI's
 * lag, each year from the first EI edition that published it (2024 edition to 2023, 2026 after). A month before any row's publication falls back to the oldest row and says so
 * (`before_publication`).
 */
import type { SourceId } from '../../contract/sources.ts';
import type { Db } from '../db.ts';
import { eiFirstPublishedSql, loadedEiEditions } from './ei-editions.ts';
import { USGS_CURRENT_PUBLISHED, USGS_VINTAGES, vintageTable } from '../sources/usgs-mcs-vintage.ts';
import { round } from './reserves.ts';

export const CHOKEPOINT_NAMES: Record<string, string> = {
  hormuz: 'Strait of Hormuz',
  bab_el_mandeb: 'Bab el-Mandeb Strait',
  suez: 'Suez Canal',
  malacca: 'Strait of Malacca',
  gibraltar: 'Strait of Gibraltar',
  dover: 'Dover Strait',
  taiwan: 'Taiwan Strait',
  danish: 'Danish Straits',
  turkish: 'Turkish Straits',
  panama: 'Panama Canal',
  cape: 'Cape of Good Hope',
};

/** Chokepoints one cargo passes in sequence: the route counts its largest loss, not the sum. */
export const ROUTES: readonly (readonly string[])[] = [['hormuz', 'malacca'], ['bab_el_mandeb', 'suez'], ['gibraltar'], ['dover'], ['taiwan']];

/**
 * A loss at a chokepoint with no other sea route is supply lost; a detour (Red Sea → Cape,
 * Malacca → Lombok) delivers late. The country scale and the commodities' physical floor count
 * only these.
 */
export const COUNTED_AS_LOSS: ReadonlySet<string> = new Set(['hormuz']);

/** States whose seaborne exports leave through the Strait of Hormuz (EI and USGS spellings). */
export const GULF = ['Iran', 'Iraq', 'Kuwait', 'Saudi Arabia', 'Bahrain', 'Qatar', 'United Arab Emirates'] as const;

/** Which vessels carry the commodity: tankers for liquids and gases, every other cargo vessel for dry goods. */
export type VesselClass = 'tanker' | 'cargo';

export interface ExposureRow {
  chokepoint: string;
  /** Share of world supply or seaborne trade, 0–1. */
  share: number;
  year: number;
  /** First day the row could be known (end of its period + the publisher's lag). */
  published: string;
  basis: string;
  source: SourceId;
}

export interface ExposureTable {
  vessel: VesselClass;
  rows: readonly ExposureRow[];
}

export interface Exposure extends ExposureRow {
  before_publication: boolean;
}

/** The newest row per chokepoint published by t; the oldest one, flagged, when none was yet. */
export function exposureAt(table: ExposureTable, t: string): Exposure[] {
  const by = new Map<string, ExposureRow[]>();
  for (const r of table.rows) by.set(r.chokepoint, [...(by.get(r.chokepoint) ?? []), r]);
  return [...by.values()].map((rows) => {
    // Within one edition (same day) the newer data year wins.
    const sorted = [...rows].sort((a, b) => a.published.localeCompare(b.published) || a.year - b.year);
    const known = sorted.filter((r) => r.published <= t).at(-1);
    return known ? { ...known, before_publication: false } : { ...(sorted[0] as ExposureRow), before_publication: true };
  });
}

const addDays = (date: string, days: number) => new Date(Date.parse(date) + days * 86_400_000).toISOString().slice(0, 10);
const LAG = { ei: 172, eia: 180 } as const;

/** Oil: EIA chokepoint volume (largest of the last five published periods: what the route carries when open) / EI world oil production. */
async function oilRows(db: Db): Promise<ExposureRow[]> {
  const volumes = await db.all<{ chokepoint: string; year: number; full_year: boolean; mbd: number }>(
    `SELECT chokepoint, year, full_year, mbd FROM eia_chokepoint_oil ORDER BY chokepoint, year`,
  );
  const world = await db.all<{ year: number; value: number }>(
    `SELECT year, value FROM ${eiFirstPublishedSql(await loadedEiEditions(db))} WHERE sheet = 'Oil Production - barrels' AND country = 'Total World' AND value IS NOT NULL ORDER BY year`,
  );
  if (!world.length) return [];
  const worldAt = (y: number) => world.filter((w) => w.year <= y).at(-1) ?? (world[0] as { year: number; value: number });
  return volumes.map((v) => {
    const window = volumes.filter((o) => o.chokepoint === v.chokepoint && o.year <= v.year && o.year > v.year - 5);
    const open = Math.max(...window.map((o) => o.mbd));
    const w = worldAt(v.year);
    return {
      chokepoint: v.chokepoint,
      share: round((open * 1000) / w.value, 4),
      year: v.year,
      published: addDays(v.full_year ? `${v.year}-12-31` : `${v.year}-06-30`, LAG.eia),
      basis: `EIA: ${open} mb/d through the chokepoint (largest of ${window.map((o) => o.year).join(', ')}) / EI world oil production ${w.year} (${round(w.value / 1000, 1)} mb/d)`,
      source: 'eia-chokepoints',
    };
  });
}

/** LNG: the Gulf states' share of world LNG exports (Hormuz, every year EI gives); Gulf LNG to Europe (Red Sea, 2023 trade). */
async function lngRows(db: Db): Promise<ExposureRow[]> {
  // Each year as its first edition published it (2024 edition to 2023, 2026 edition after).
  const years = await db.all<{ year: number; gulf: number; world: number; source: SourceId }>(
    `SELECT year, sum(value) FILTER (WHERE country IN (${GULF.map(() => '?').join(', ')})) AS gulf,
            max(value) FILTER (WHERE country = 'Total LNG exports') AS world, any_value(source) AS source
     FROM ${eiFirstPublishedSql(await loadedEiEditions(db))} WHERE sheet = 'Gas - LNG exports bcm' AND value IS NOT NULL GROUP BY year HAVING world > 0 ORDER BY year`,
    [...GULF],
  );
  const rows: ExposureRow[] = years.map((y) => ({
    chokepoint: 'hormuz',
    share: round((y.gulf ?? 0) / y.world, 4),
    year: y.year,
    published: addDays(`${y.year}-12-31`, LAG.ei),
    basis: `EI: LNG exports of the Gulf states ${round(y.gulf ?? 0, 1)} bcm / world LNG exports ${round(y.world, 1)} bcm, ${y.year}`,
    source: y.source,
  }));
  const europe = await gulfLngToEurope(db);
  const world = years.find((y) => y.year === europe?.year)?.world;
  // The Red Sea rows stay on the 2024 edition: its trade matrices (2023) are the only ones in the mirror.
  if (europe && world)
    for (const chokepoint of ['bab_el_mandeb', 'suez'])
      rows.push({
        chokepoint,
        share: round(europe.bcm / world, 4),
        year: europe.year,
        published: addDays(`${europe.year}-12-31`, LAG.ei),
        basis: `EI: Gulf LNG delivered to Europe ${round(europe.bcm, 1)} bcm / world LNG exports ${round(world, 1)} bcm, ${europe.year}`,
        source: 'ei-statistical-review-2024',
      });
  return rows;
}

async function gulfLngToEurope(db: Db): Promise<{ year: number; bcm: number } | null> {
  const r = await db.one<{ bcm: number | null }>(
    `SELECT sum(value) AS bcm FROM ei_trade WHERE sheet = 'Gas trade - LNG' AND importer = 'Europe' AND exporter IN (${GULF.map(() => '?').join(', ')})`,
    [...GULF],
  );
  return r?.bcm ? { year: 2023, bcm: r.bcm } : null;
}

/** European gas (TTF): Gulf LNG delivered to Europe / European gas consumption, on every route it takes. */
async function europeGasRows(db: Db): Promise<ExposureRow[]> {
  const europe = await gulfLngToEurope(db);
  const cons = await db.one<{ value: number | null }>(
    `SELECT value FROM ei_energy WHERE sheet = 'Gas Consumption - Bcm' AND country = 'Total Europe' AND year = ?`,
    [europe?.year ?? 0],
  );
  if (!europe || !cons?.value) return [];
  return ['hormuz', 'bab_el_mandeb', 'suez'].map((chokepoint) => ({
    chokepoint,
    share: round(europe.bcm / (cons.value as number), 4),
    year: europe.year,
    published: addDays(`${europe.year}-12-31`, LAG.ei),
    basis: `EI: Gulf LNG delivered to Europe ${round(europe.bcm, 1)} bcm / European gas consumption ${round(cons.value as number, 1)} bcm, ${europe.year}`,
    source: 'ei-statistical-review-2024',
  }));
}

/** Where an earlier USGS release (pipeline/sources/usgs-mcs-vintage.ts) tabulates the same stage: its file slug and the start of its Type. */
interface VintageRef {
  slug: string;
  type: string;
}

/**
 * A USGS world table: the named producers' share of world production, per edition and year. Each
 * row is known from its edition's publication day (no look-ahead: a month of 2025 reads MCS 2024's
 * 2023 estimate, not MCS 2026's revised 2024 figure); editions before MCS 2026 are the vintages.
 */
async function usgsRows(
  db: Db,
  chapter: string,
  detail: string,
  vintage: VintageRef,
  countries: readonly string[],
  chokepoints: readonly string[],
  what: string,
): Promise<ExposureRow[]> {
  const inList = countries.map(() => '?').join(', ');
  const current = await db.all<{ year: number; part: number | null; world: number | null }>(
    `SELECT try_cast(year AS INTEGER) AS year,
            sum(value) FILTER (WHERE country IN (${inList}) AND detail = ?) AS part,
            max(value) FILTER (WHERE is_world_total) AS world
     FROM usgs_world WHERE chapter = ? AND (detail = ? OR detail = ? || ': rounded') AND value IS NOT NULL AND try_cast(year AS INTEGER) IS NOT NULL
     GROUP BY 1 HAVING world > 0 ORDER BY 1`,
    [...countries, detail, chapter, detail, detail],
  );
  const editions: { source: SourceId; edition: number; published: string; years: typeof current }[] = [
    { source: 'usgs-mcs-2026', edition: 2026, published: USGS_CURRENT_PUBLISHED, years: current },
  ];
  for (const v of USGS_VINTAGES) {
    const years = await db.all<{ year: number; part: number | null; world: number | null }>(
      `SELECT year, sum(value) FILTER (WHERE country IN (${inList}) AND NOT is_world_total) AS part,
              max(value) FILTER (WHERE is_world_total) AS world
       FROM ${vintageTable(v.edition)} WHERE slug = ? AND starts_with(type, ?) AND value IS NOT NULL
       GROUP BY 1 HAVING world > 0 ORDER BY 1`,
      [...countries, vintage.slug, vintage.type],
    );
    editions.push({ source: `usgs-mcs-${v.edition}` as SourceId, edition: v.edition, published: v.published, years });
  }
  return editions.flatMap((e) =>
    e.years.flatMap((y) =>
      chokepoints.map((chokepoint) => ({
        chokepoint,
        share: round((y.part ?? 0) / (y.world as number), 4),
        year: y.year,
        published: e.published,
        basis: `USGS MCS ${e.edition}: ${what} of ${countries.join(', ')} / world, ${y.year}`,
        source: e.source,
      })),
    ),
  );
}

const PHOSPHATE: VintageRef = { slug: 'phosp', type: 'Mine production' };

/** Every commodity's exposure table, by slug (commodities with no measured route are absent). */
export async function loadExposures(db: Db): Promise<Map<string, ExposureTable>> {
  const oil = await oilRows(db);
  const out = new Map<string, ExposureTable>([
    ['energy.oil', { vessel: 'tanker', rows: oil }],
    ['energy.wti', { vessel: 'tanker', rows: oil }],
    ['energy.lng', { vessel: 'tanker', rows: await lngRows(db) }],
    ['energy.gas', { vessel: 'tanker', rows: await europeGasRows(db) }],
    [
      'agri.urea',
      {
        vessel: 'cargo',
        rows: await usgsRows(
          db,
          'NITROGEN (FIXED)—AMMONIA',
          'Plant production',
          { slug: 'nitro', type: 'Plant production' },
          GULF,
          ['hormuz'],
          'ammonia production',
        ),
      },
    ],
    [
      'agri.phosphate',
      {
        vessel: 'cargo',
        rows: [
          ...(await usgsRows(db, 'PHOSPHATE ROCK', 'Mine production', PHOSPHATE, GULF, ['hormuz'], 'phosphate rock production')),
          ...(await usgsRows(db, 'PHOSPHATE ROCK', 'Mine production', PHOSPHATE, ['Jordan', 'Egypt'], ['bab_el_mandeb', 'suez'], 'phosphate rock production')),
        ],
      },
    ],
    [
      'agri.potash',
      {
        vessel: 'cargo',
        rows: await usgsRows(
          db,
          'POTASH',
          'Mine production',
          { slug: 'potas', type: 'Mine production' },
          ['Jordan'],
          ['bab_el_mandeb', 'suez'],
          'potash production',
        ),
      },
    ],
    [
      'metals.aluminium',
      {
        vessel: 'cargo',
        rows: await usgsRows(db, 'ALUMINUM', 'Smelter production', { slug: 'alumi', type: 'Smelter production' }, GULF, ['hormuz'], 'smelter production'),
      },
    ],
  ]);
  for (const [slug, t] of out) if (t.rows.length === 0) out.delete(slug);
  return out;
}
