import type { CountryProfile } from '../../contract/countries.ts';
import type { Db } from '../db.ts';
import { clamp01, round } from './reserves.ts';
import { EI_TRADE_YEAR, hhi } from './shares.ts';

/** The energy commodities whose production, consumption and imports EI records per country. */
export const ENERGY_BALANCES = [
  { slug: 'energy.oil', production: 'Oil Production - barrels', consumption: 'Oil Consumption - barrels', unit: 'kb/d', trade: [{ sheet: 'Oil - Inter-area movements', flow: 'crude oil' }] },
  { slug: 'energy.gas', production: 'Gas Production - Bcm', consumption: 'Gas Consumption - Bcm', unit: 'bcm', trade: [{ sheet: 'Gas trade - pipeline', flow: 'natural gas (pipeline)' }, { sheet: 'Gas trade - LNG', flow: 'natural gas (LNG)' }] },
  { slug: 'energy.coal', production: 'Coal Production - EJ', consumption: 'Coal Consumption - EJ', unit: 'EJ', trade: [{ sheet: 'Coal trade movements 2023', flow: 'coal' }] },
] as const;
export const EI_SOURCE = 'ei-statistical-review-2024';

export interface CountryRef {
  iso3: string;
  iso2: string;
  name_en: string;
  region: string | null;
  subregion: string | null;
}

/** Every country at least one source covers (by name or code), with its ISO codes. */
export async function coveredCountries(db: Db): Promise<CountryRef[]> {
  return db.all<CountryRef>(`
    WITH named AS (
      SELECT country AS name FROM ei_energy WHERE NOT is_aggregate
      UNION SELECT country FROM usgs_world WHERE NOT is_aggregate
      UNION SELECT geo FROM eurostat_gas_imports WHERE NOT is_aggregate
      UNION SELECT importer FROM ei_trade WHERE NOT importer_is_aggregate
      UNION SELECT exporter FROM ei_trade WHERE NOT exporter_is_aggregate),
    isos AS (
      SELECT n.iso3 FROM named JOIN country_names n ON n.name = lower(trim(named.name))
      UNION SELECT c.iso3 FROM agsi_storage a JOIN country_codes c ON lower(c.iso2) = a.country)
    SELECT c.iso3, c.iso2, c.name_en, c.region, c.subregion FROM country_codes c JOIN isos USING (iso3)
    WHERE c.iso2 IS NOT NULL ORDER BY c.iso3`);
}

type Exposure = CountryProfile['exposures'][number];
type Autonomy = CountryProfile['autonomy'][number];

/** Production and consumption in the newest year with consumption, import dependence and suppliers. */
export async function energyExposures(db: Db): Promise<{ exposures: Map<string, Exposure[]>; autonomy: Map<string, Autonomy[]> }> {
  const exposures = new Map<string, Exposure[]>();
  const autonomy = new Map<string, Autonomy[]>();
  for (const b of ENERGY_BALANCES) {
    const balance = await db.all<{ iso3: string; year: number; production: number | null; consumption: number }>(
      `WITH c AS (
         SELECT n.iso3, e.year, e.value FROM ei_energy e JOIN country_names n ON n.name = lower(trim(e.country))
         WHERE e.sheet = ? AND NOT e.is_aggregate AND e.value IS NOT NULL),
       p AS (
         SELECT n.iso3, e.year, e.value FROM ei_energy e JOIN country_names n ON n.name = lower(trim(e.country))
         WHERE e.sheet = ? AND NOT e.is_aggregate AND e.value IS NOT NULL),
       latest AS (SELECT iso3, max(year) AS year FROM c GROUP BY iso3)
       SELECT l.iso3, l.year, p.value AS production, c.value AS consumption
       FROM latest l JOIN c USING (iso3, year) LEFT JOIN p USING (iso3, year)`,
      [b.consumption, b.production],
    );
    const suppliers = await supplierTables(db, b.trade);
    for (const row of balance) {
      const sup = suppliers.get(row.iso3);
      // EI lists every sizeable producer; a consumer it does not list produces too little to
      // name, so it counts as 0 here, and production_listed says so.
      const dep = row.consumption > 0 ? round(clamp01(1 - (row.production ?? 0) / row.consumption), 4) : null;
      push(exposures, row.iso3, {
        commodity: b.slug, year: row.year, unit: b.unit, production: row.production, production_listed: row.production !== null, consumption: row.consumption,
        import_dependence: dep,
        suppliers: sup?.entries.slice(0, 8) ?? [], suppliers_year: sup ? EI_TRADE_YEAR : null, suppliers_unit: sup?.unit ?? null,
        supplier_hhi: sup ? sup.hhi : null, source: EI_SOURCE,
      });
      if (row.production !== null && row.consumption > 0) {
        push(autonomy, row.iso3, { commodity: b.slug, year: row.year, ratio: round(row.production / row.consumption, 4), production: row.production, consumption: row.consumption, unit: b.unit, source: EI_SOURCE });
      }
    }
  }
  return { exposures, autonomy };
}

/** Import suppliers per importing country from EI's 2023 trade matrices; exporters may be regions. */
async function supplierTables(db: Db, trade: readonly { sheet: string; flow: string }[]) {
  const rows = await db.all<{ iso3: string; exporter: string; exporter_iso3: string | null; value: number; unit: string }>(
    `SELECT ni.iso3, t.exporter, ne.iso3 AS exporter_iso3, sum(t.value) AS value, any_value(t.unit) AS unit
     FROM ei_trade t
     JOIN country_names ni ON ni.name = lower(trim(t.importer)) AND NOT t.importer_is_aggregate
     LEFT JOIN country_names ne ON ne.name = lower(trim(t.exporter)) AND NOT t.exporter_is_aggregate
     WHERE (${trade.map(() => '(t.sheet = ? AND t.flow = ?)').join(' OR ')}) AND t.value > 0 AND t.exporter <> t.importer
     GROUP BY 1, 2, 3`,
    trade.flatMap((t) => [t.sheet, t.flow]),
  );
  const byImporter = new Map<string, typeof rows>();
  for (const r of rows) push(byImporter, r.iso3, r);
  const out = new Map<string, { entries: { iso3: string | null; name: string; value: number; share: number }[]; hhi: number; unit: string }>();
  for (const [iso3, list] of byImporter) {
    const total = list.reduce((s, r) => s + r.value, 0);
    if (total <= 0) continue;
    const entries = list
      .map((r) => ({ iso3: r.exporter_iso3, name: r.exporter, value: round(r.value, 4), share: round(r.value / total, 4) }))
      .sort((a, b) => b.value - a.value || a.name.localeCompare(b.name));
    out.set(iso3, { entries, hhi: hhi(list.map((r) => r.value / total)), unit: list[0]?.unit ?? '' });
  }
  return out;
}

/** Share of Russia in each country's natural gas imports, 2011–2020 (Eurostat NRG_TI_GAS, terajoules). */
export async function russianGasShares(db: Db): Promise<Map<string, { year: number; share: number }[]>> {
  const rows = await db.all<{ iso3: string; year: number; share: number }>(`
    WITH g AS (
      SELECT n.iso3, e.year, max(e.value) FILTER (WHERE e.partner = 'Russia') AS ru, max(e.value) FILTER (WHERE e.partner = 'Total') AS total
      FROM eurostat_gas_imports e JOIN country_names n ON n.name = lower(trim(e.geo))
      WHERE NOT e.is_aggregate AND e.siec = 'Natural gas' GROUP BY 1, 2)
    SELECT iso3, year, round(ru / total, 4) AS share FROM g WHERE total > 0 AND ru IS NOT NULL ORDER BY iso3, year`);
  const out = new Map<string, { year: number; share: number }[]>();
  for (const r of rows) push(out, r.iso3, { year: r.year, share: Math.min(1, r.share) });
  return out;
}

/**
 * Country stress (methodology §country): the mean over the energy commodities the country
 * consumes of w_c × S_c, where S_c is the commodity's stress index and
 * w_c = import dependence × (0.5 + 0.5 × concentration score of its suppliers); a neutral 0.5
 * concentration score stands in where the suppliers are not recorded. A self-sufficient country
 * scores 0; one that imports everything from one supplier carries the commodities' full stress.
 */
export function countryStress(exposures: readonly Exposure[], commodityIndex: ReadonlyMap<string, number | null>) {
  const parts = exposures
    .filter((e) => e.import_dependence !== null)
    .map((e) => {
      const conc = e.supplier_hhi === null ? 0.5 : clamp01(Math.log10(Math.max(e.supplier_hhi, 1) / 1000));
      const weight = round((e.import_dependence as number) * (0.5 + 0.5 * conc), 4);
      const s = commodityIndex.get(e.commodity) ?? null;
      return { commodity: e.commodity, commodity_stress: s, import_dependence: e.import_dependence as number, supplier_hhi: e.supplier_hhi, weight, contribution: 0 };
    });
  const scored = parts.filter((p) => p.commodity_stress !== null);
  if (scored.length === 0) return { index: null, parts };
  for (const p of scored) p.contribution = round((p.weight * (p.commodity_stress as number)) / scored.length, 2);
  return { index: round(scored.reduce((s, p) => s + p.contribution, 0), 1), parts };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
