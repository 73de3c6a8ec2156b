/**
 * The dated inputs of the stress index, read once from DuckDB: a commodity's whole price series,
 * its supply stages' HHI per year, its reserve series and the tagged events. stress.ts then
 * reads any date from them without looking ahead.
 */
import type { Commodity } from '../catalogue.ts';
import type { Db } from '../db.ts';
import { loadTransits } from './disruption.ts';
import { eiFirstPublishedSql, isEiSource, loadedEiEditions } from './ei-editions.ts';
import { loadExposures } from './exposure.ts';
import { priceFrequency } from './prices.ts';
import { round } from './reserves.ts';
import { EI_TRADE_YEAR, EI_WORLD_ROWS, hhi } from './shares.ts';
import {
  type CommodityInputs,
  type ConcentrationStage,
  GOLD_PRICE_EXCLUDED,
  type HhiYear,
  type Point,
  PRECIOUS,
  type ReserveInput,
  SPR_SCALE,
  type TaggedEvent,
} from './stress.ts';

const EI = 'ei-statistical-review-2024';
const USGS = 'usgs-mcs-2026';

/** EI's mineral production history (1995/2013–2023) under USGS's 2024–2025 years, same stage. */
const EI_MINERAL_HISTORY: Record<string, string> = {
  'metals.cobalt': 'cobalt',
  'metals.lithium': 'lithium',
  'metals.graphite': 'graphite',
  'metals.rareearths': 'rare_earths',
  'metals.copper': 'copper',
  'metals.nickel': 'nickel',
  'metals.manganese': 'manganese',
  'metals.platinum': 'pgm',
  'metals.palladium': 'pgm',
};
/** Refining or smelting stages USGS tabulates by country, beyond the production basis in the catalogue. */
const USGS_REFINING: Record<string, { chapter: string; detail: string; basis: string }> = {
  'metals.copper': { chapter: 'COPPER', detail: 'Refinery production', basis: 'refined copper production (USGS)' },
};
/** Exporter concentration from EI's 2023 trade movements: who the world buys from. */
const EI_EXPORTS: Record<string, { sheet: string; flow: string }[]> = {
  'energy.oil': [{ sheet: 'Oil - Inter-area movements', flow: 'crude oil' }],
  'energy.wti': [{ sheet: 'Oil - Inter-area movements', flow: 'crude oil' }],
  'energy.gas': [
    { sheet: 'Gas trade - pipeline', flow: 'natural gas (pipeline)' },
    { sheet: 'Gas trade - LNG', flow: 'natural gas (LNG)' },
  ],
  'energy.lng': [{ sheet: 'Gas trade - LNG', flow: 'natural gas (LNG)' }],
  'energy.coal': [{ sheet: 'Coal trade movements 2023', flow: 'coal' }],
};

type Row = { year: number; iso3: string | null; name: string; value: number; is_total: boolean };

/** HHI per year of country shares against the publisher's world total; a year without its total row fails loudly. */
export function hhiByYear(rows: readonly Row[], what: string, requireTotal = true): HhiYear[] {
  const years = [...new Set(rows.map((r) => r.year))].sort((a, b) => a - b);
  const out: HhiYear[] = [];
  for (const y of years) {
    const inYear = rows.filter((r) => r.year === y);
    const countries = inYear.filter((r) => !r.is_total && r.iso3 && r.value > 0);
    if (countries.length === 0) continue;
    const total = inYear.find((r) => r.is_total)?.value;
    if (requireTotal && total === undefined) throw new Error(`${what}: no world total row for ${y}`);
    const listed = countries.reduce((s, r) => s + r.value, 0);
    const denominator = Math.max(total ?? 0, listed);
    const shares = countries.map((r) => ({ name: r.iso3 as string, share: Math.min(1, r.value / denominator) })).sort((a, b) => b.share - a.share);
    out.push({
      year: y,
      hhi: hhi(shares.map((s) => s.share)),
      countries: countries.length,
      top: shares[0]?.name ?? null,
      top_share: shares[0] ? round(shares[0].share, 4) : null,
    });
  }
  return out;
}

const ISO = `LEFT JOIN country_names n ON n.name = lower(trim(t.country))`;

/** HHI per year of an EI sheet, each year as its first edition published it (a history reads no later revision). */
async function eiSheetYears(db: Db, sheet: string): Promise<HhiYear[]> {
  const rows = await db.all<Row>(
    `SELECT t.year, n.iso3, t.country AS name, t.value, t.country IN (${EI_WORLD_ROWS.map(() => '?').join(', ')}) AS is_total
     FROM ${eiFirstPublishedSql(await loadedEiEditions(db))} t ${ISO} WHERE t.sheet = ? AND t.value IS NOT NULL AND (NOT t.is_aggregate OR t.country IN (${EI_WORLD_ROWS.map(() => '?').join(', ')}))`,
    [...EI_WORLD_ROWS, sheet, ...EI_WORLD_ROWS],
  );
  return hhiByYear(rows, `EI sheet '${sheet}'`);
}

async function usgsYears(db: Db, chapter: string, detail: string): Promise<HhiYear[]> {
  const rows = await db.all<Row>(
    `SELECT try_cast(t.year AS INTEGER) AS year, n.iso3, t.country AS name, t.value, t.is_world_total AS is_total
     FROM usgs_world t ${ISO}
     WHERE t.chapter = ? AND t.value IS NOT NULL AND try_cast(t.year AS INTEGER) IS NOT NULL
       AND ((t.detail = ? AND NOT t.is_aggregate) OR (t.is_world_total AND t.detail LIKE ? || '%rounded'))`,
    [chapter, detail, detail],
  );
  // USGS may print a world total as text ('>140,000,000'): the listed sum is then the denominator.
  return hhiByYear(rows, `USGS ${chapter} '${detail}'`, false);
}

async function eiMineralYears(db: Db, mineral: string): Promise<HhiYear[]> {
  const rows = await db.all<Row>(
    `SELECT t.year, n.iso3, t.country AS name, t.value, t.country = 'Total World' AS is_total
     FROM ei_mine_production t ${ISO} WHERE t.mineral = ? AND t.value IS NOT NULL AND (NOT t.is_aggregate OR t.country = 'Total World')`,
    [mineral],
  );
  return hhiByYear(rows, `EI mineral '${mineral}'`);
}

/** Exporter shares of recorded trade (regions count as one supplier; no world row: the sum is the total). */
async function exportYears(db: Db, trade: readonly { sheet: string; flow: string }[]): Promise<HhiYear[]> {
  // Each exporter's exports, summed over the importer columns. The gas matrices add regional
  // subtotals ('Europe' = 'EU' + 'Rest of Europe') beside their members, so there only countries,
  // 'EU' and the residual 'Other …'/'Rest of …' columns count; the oil and coal matrices are
  // inter-area, every column a distinct destination. Exporting regions count as one supplier.
  const rows = await db.all<{ exporter: string; iso3: string | null; value: number }>(
    `SELECT t.exporter, ne.iso3, sum(t.value) AS value FROM ei_trade t
     LEFT JOIN country_names ne ON ne.name = lower(trim(t.exporter)) AND NOT t.exporter_is_aggregate
     LEFT JOIN country_names ni ON ni.name = lower(trim(t.importer)) AND NOT t.importer_is_aggregate
     WHERE (${trade.map(() => '(t.sheet = ? AND t.flow = ?)').join(' OR ')}) AND t.value > 0 AND t.exporter <> t.importer
       AND (t.sheet NOT LIKE 'Gas trade%' OR ni.iso3 IS NOT NULL OR t.importer = 'EU' OR regexp_matches(t.importer, '^(Other|Rest of) '))
     GROUP BY 1, 2`,
    trade.flatMap((t) => [t.sheet, t.flow]),
  );
  return hhiByYear(
    rows.map((r) => ({ year: EI_TRADE_YEAR, iso3: r.iso3 ?? r.exporter, name: r.exporter, value: r.value, is_total: false })),
    'EI trade',
    false,
  );
}

/** Every commodity's inputs. `topSuppliers` gives the current top-3 producers used for event relevance. */
export async function loadStressInputs(
  db: Db,
  catalogue: readonly Commodity[],
  events: readonly TaggedEvent[],
  topSuppliers: (slug: string) => ReadonlySet<string>,
): Promise<Map<string, CommodityInputs>> {
  const euGas = await db.all<Point>(
    `SELECT strftime(date, '%Y-%m-%d') AS date, fill_pct AS value FROM agsi_storage WHERE country = 'eu' AND fill_pct IS NOT NULL ORDER BY date`,
  );
  const spr = await db.all<Point>(
    `SELECT strftime(date, '%Y-%m-%d') AS date, value FROM eia_petroleum_weekly WHERE series_id = 'WCSSTUS1' AND value IS NOT NULL ORDER BY date`,
  );
  const pricePoints = (slug: string) =>
    db.all<Point>(`SELECT strftime(date, '%Y-%m-%d') AS date, value FROM price_obs WHERE slug = ? AND value > 0 ORDER BY date`, [slug]);
  const gold = await pricePoints(PRECIOUS.numeraire);
  const exposures = await loadExposures(db);
  const transits = await loadTransits(db);
  const out = new Map<string, CommodityInputs>();
  for (const c of catalogue) {
    const points = c.price ? await pricePoints(c.slug) : [];
    const numeraire = (PRECIOUS.measured as readonly string[]).includes(c.slug) && gold.length ? { slug: PRECIOUS.numeraire, points: gold } : undefined;
    const stages: ConcentrationStage[] = [];
    if (c.production && 'sheet' in c.production && isEiSource(c.production.source))
      stages.push({ stage: 'production', basis: c.production.basis, source: c.production.source, years: await eiSheetYears(db, c.production.sheet) });
    if (c.production?.source === USGS) {
      const usgs = await usgsYears(db, c.production.chapter, c.production.detail);
      const mineral = EI_MINERAL_HISTORY[c.slug];
      const older = mineral ? (await eiMineralYears(db, mineral)).filter((y) => y.year < (usgs[0]?.year ?? Infinity)) : [];
      // One stage, two publishers: EI's history for the earlier years, USGS for the years it covers.
      if (older.length)
        stages.push({
          stage: 'production',
          basis: `${c.production.basis ?? 'production'} (EI to ${older.at(-1)?.year}, USGS after)`,
          source: EI,
          years: older,
        });
      if (usgs.length) stages.push({ stage: 'production', basis: c.production.basis ?? 'production', source: USGS, years: usgs });
    }
    const refining = USGS_REFINING[c.slug];
    if (refining) stages.push({ stage: 'refining', basis: refining.basis, source: USGS, years: await usgsYears(db, refining.chapter, refining.detail) });
    const exports = EI_EXPORTS[c.slug];
    if (exports)
      stages.push({
        stage: 'exports',
        basis: `exporter shares of ${exports.map((e) => e.flow).join(' and ')} trade (EI ${EI_TRADE_YEAR})`,
        source: EI,
        years: await exportYears(db, exports),
      });
    let reserve: ReserveInput | null = null;
    if (c.code === 'gas' && euGas.length)
      reserve = { kind: 'gas_storage', source: 'gie-agsi-gas-storage', scope: 'EU aggregate gas storage (AGSI+)', scale: 1, points: euGas };
    if ((c.code === 'oil' || c.code === 'wti') && spr.length)
      reserve = {
        kind: 'spr',
        source: 'eia-weekly-petroleum',
        scope: 'US Strategic Petroleum Reserve only: no other country’s stocks are in our sources',
        scale: SPR_SCALE,
        points: spr,
      };
    out.set(c.slug, {
      slug: c.slug,
      price:
        c.price && points.length
          ? { source: c.price.source, series: c.price.series ?? null, frequency: priceFrequency(c.price.source), points, numeraire }
          : null,
      priceExcluded: c.slug === PRECIOUS.numeraire ? GOLD_PRICE_EXCLUDED : undefined,
      stages: stages.filter((s) => s.years.length > 0),
      reserve,
      disruption: exposures.has(c.slug) ? { table: exposures.get(c.slug)!, transits } : null,
      events: events.filter((e) => e.commodities.includes(c.slug)),
      topSuppliers: topSuppliers(c.slug),
    });
  }
  return out;
}
