import type { CountryProfile } from '../../contract/countries.ts';
import type { SourceId } from '../../contract/sources.ts';
import type { Db } from '../db.ts';
import { daysBetween } from '../freshness.ts';
import { CHOKEPOINT_NAMES, COUNTED_AS_LOSS } from './exposure.ts';
import { EI_TRADE_SOURCE, loadedEiEditions } from './ei-editions.ts';
import { clamp01, round } from './reserves.ts';
import { hhiScore } from './stress.ts';
import { EI_TRADE_YEAR, hhi } from './shares.ts';

/** The energy commodities whose production, consumption and imports EI records per country. */
export const ENERGY_BALANCES = [
  {
    slug: 'energy.oil',
    production: 'Oil Production - barrels',
    consumption: 'Oil Consumption - barrels',
    unit: 'kb/d',
    trade: [{ sheet: 'Oil - Inter-area movements', flow: 'crude oil' }],
  },
  {
    slug: 'energy.gas',
    production: 'Gas Production - Bcm',
    consumption: 'Gas Consumption - Bcm',
    unit: 'bcm',
    trade: [
      { sheet: 'Gas trade - pipeline', flow: 'natural gas (pipeline)' },
      { sheet: 'Gas trade - LNG', flow: 'natural gas (LNG)' },
    ],
  },
  {
    slug: 'energy.coal',
    production: 'Coal Production - EJ',
    consumption: 'Coal Consumption - EJ',
    unit: 'EJ',
    trade: [{ sheet: 'Coal trade movements 2023', flow: 'coal' }],
  },
] as const;
export const EI_SOURCE: SourceId = 'ei-statistical-review-2024';

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
      UNION SELECT country FROM ei_energy_2026 WHERE NOT is_aggregate
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

/** Each fuel's consumption in exajoules, over the edition's primary energy (ei-editions.ts): the energy mix that weights a country's exposures. */
export const FUEL_EJ_SHEETS: Record<string, string> = {
  'energy.oil': 'Oil Consumption - EJ',
  'energy.gas': 'Gas Consumption - EJ',
  'energy.coal': 'Coal Consumption - EJ',
};
/** A fuel below this share of a country's primary energy does not enter its index (Qatar's coal, Iceland's gas). */
export const MATERIALITY_FLOOR = 0.05;
/** The gas price and stress a country faces: TTF in Europe and Africa, LNG in Asia and Oceania, Henry Hub in the Americas. */
export function gasBenchmark(region: string | null): string {
  return region === 'Asia' || region === 'Oceania' ? 'energy.lng' : region === 'Americas' ? 'energy.usgas' : 'energy.gas';
}

export interface FuelYear {
  production: number | null;
  consumption: number | null;
  ej: number | null;
}
export type EnergyYears = Map<number, { primary: number | null; fuels: Map<string, FuelYear> }>;
/** One EI edition's balances of a country; `dataYear` is the edition's newest year, which dates its publication. */
export interface EditionYears {
  source: SourceId;
  dataYear: number;
  years: EnergyYears;
}
export interface CountryEnergy {
  iso3: string;
  region: string | null;
  /** Per EI data year: primary energy (EJ; total energy supply from the 2026 edition) and each fuel's balance, from the current edition. */
  years: EnergyYears;
  /** The edition `years` come from (the 2024 one when absent). */
  source?: SourceId;
  /** Every loaded edition listing the country, oldest first: a history reads the one out at each date. */
  editions?: EditionYears[];
  suppliers: Map<string, SupplierTable>;
}

/** Every year of every country's energy balances in each EI edition, and its 2023 import suppliers per fuel. */
export async function energyInputs(
  db: Db,
  regions: ReadonlyMap<string, string | null>,
  subregions?: ReadonlyMap<string, string | null>,
): Promise<Map<string, CountryEnergy>> {
  const out = new Map<string, CountryEnergy>();
  for (const edition of await loadedEiEditions(db)) {
    const sheets = [edition.primarySheet, ...Object.values(FUEL_EJ_SHEETS), ...ENERGY_BALANCES.flatMap((b) => [b.production, b.consumption])];
    const rows = await db.all<{ iso3: string; sheet: string; year: number; value: number }>(
      `SELECT n.iso3, e.sheet, e.year, e.value FROM ${edition.table} e JOIN country_names n ON n.name = lower(trim(e.country))
       WHERE e.sheet IN (${sheets.map(() => '?').join(', ')}) AND NOT e.is_aggregate AND e.value IS NOT NULL`,
      sheets,
    );
    const byCountry = new Map<string, EnergyYears>();
    for (const r of rows) {
      let years = byCountry.get(r.iso3);
      if (!years) byCountry.set(r.iso3, (years = new Map()));
      let y = years.get(r.year);
      if (!y) years.set(r.year, (y = { primary: null, fuels: new Map() }));
      if (r.sheet === edition.primarySheet) y.primary = r.value;
      for (const b of ENERGY_BALANCES) {
        const f = y.fuels.get(b.slug) ?? { production: null, consumption: null, ej: null };
        if (r.sheet === b.production) f.production = r.value;
        if (r.sheet === b.consumption) f.consumption = r.value;
        if (r.sheet === FUEL_EJ_SHEETS[b.slug]) f.ej = r.value;
        y.fuels.set(b.slug, f);
      }
    }
    // Editions come oldest first: the last one listing a country is its current edition.
    for (const [iso3, years] of byCountry) {
      let c = out.get(iso3);
      if (!c) out.set(iso3, (c = { iso3, region: regions.get(iso3) ?? null, years, editions: [], suppliers: new Map() }));
      c.years = years;
      c.source = edition.source;
      c.editions!.push({ source: edition.source, dataYear: edition.dataYear, years });
    }
  }
  for (const b of ENERGY_BALANCES) {
    // Net gas imports in bcm per country, for the pipeline attribution of EU and other European members.
    const net = new Map<string, number>();
    if (b.slug === 'energy.gas') {
      for (const c of out.values()) {
        // The trade matrices' own edition and year, so that net imports and recorded LNG agree.
        const year = (c.editions?.find((e) => e.source === EI_TRADE_SOURCE)?.years ?? c.years).get(EI_TRADE_YEAR)?.fuels.get(b.slug);
        if (year?.consumption) net.set(c.iso3, year.consumption - (year.production ?? 0));
      }
    }
    const tables = await supplierTables(db, b.trade, net, regions);
    for (const [iso3, t] of tables) out.get(iso3)?.suppliers.set(b.slug, t);
  }
  await oilAggregateSuppliers(db, out, subregions ?? new Map());
  return out;
}

/** The importing area of EI's inter-area oil matrix a country belongs to, when the matrix has no row of its own. */
export function oilArea(iso3: string, region: string | null, subregion: string | null): string | null {
  if (region === 'Europe') return 'Europe';
  if (region === 'Africa') return 'Africa';
  if (region === 'Americas') return subregion === 'Northern America' ? null : 'S. & Cent. America';
  if (region === 'Oceania') return iso3 === 'AUS' || iso3 === 'NZL' ? 'Australasia' : 'Other Asia Pacific';
  if (region === 'Asia') return subregion === 'Western Asia' ? 'Middle East' : subregion === 'Central Asia' ? 'Other CIS' : 'Other Asia Pacific';
  return null;
}

/**
 * EI's oil matrix is inter-area: Korea, Taiwan, Germany and most importers have no row of their
 * own. Such a country's oil suppliers are estimated as its area's mix (crude and products), and
 * the basis says so, as for EU members' pipeline gas.
 */
async function oilAggregateSuppliers(db: Db, out: Map<string, CountryEnergy>, subregions: ReadonlyMap<string, string | null>) {
  const oil = ENERGY_BALANCES.find((b) => b.slug === 'energy.oil')!;
  const rows = await db.all<{ importer: string; exporter: string; exporter_iso3: string | null; value: number; unit: string }>(
    `SELECT t.importer, t.exporter, ne.iso3 AS exporter_iso3, sum(t.value) AS value, any_value(t.unit) AS unit FROM ei_trade t
     LEFT JOIN country_names ne ON ne.name = lower(trim(t.exporter)) AND NOT t.exporter_is_aggregate
     WHERE t.sheet = ? AND t.value > 0 AND t.exporter <> t.importer AND t.exporter NOT LIKE 'Total%' GROUP BY 1, 2, 3`,
    [oil.trade[0].sheet],
  );
  for (const c of out.values()) {
    if (c.suppliers.has(oil.slug)) continue;
    const area = oilArea(c.iso3, c.region, subregions.get(c.iso3) ?? null);
    const mix = rows.filter((r) => r.importer === area);
    const total = mix.reduce((s, r) => s + r.value, 0);
    if (!area || total <= 0) continue;
    const entries = mix
      .map((r) => ({ iso3: r.exporter_iso3, name: r.exporter, value: round(r.value, 4), share: round(r.value / total, 4) }))
      .sort((a, b) => b.value - a.value || a.name.localeCompare(b.name));
    c.suppliers.set(oil.slug, {
      entries,
      hhi: hhi(mix.map((r) => r.value / total)),
      unit: mix[0]?.unit ?? '',
      basis: `the '${area}' area's supplier mix (EI inter-area oil movements ${EI_TRADE_YEAR} list no row for the country): values are the area's`,
    });
  }
}

/** Production and consumption in the newest year with consumption, import dependence, share of primary energy and suppliers. */
export function energyExposures(inputs: ReadonlyMap<string, CountryEnergy>): { exposures: Map<string, Exposure[]>; autonomy: Map<string, Autonomy[]> } {
  const exposures = new Map<string, Exposure[]>();
  const autonomy = new Map<string, Autonomy[]>();
  for (const c of inputs.values()) {
    for (const b of ENERGY_BALANCES) {
      const year = [...c.years.keys()].filter((y) => c.years.get(y)?.fuels.get(b.slug)?.consumption != null).sort((a, z) => z - a)[0];
      if (year === undefined) continue;
      const y = c.years.get(year)!;
      const f = y.fuels.get(b.slug)!;
      const consumption = f.consumption as number;
      const sup = c.suppliers.get(b.slug);
      // EI lists every sizeable producer; a consumer it does not list produces too little to
      // name, so it counts as 0 here, and production_listed says so.
      const dep = consumption > 0 ? round(clamp01(1 - (f.production ?? 0) / consumption), 4) : null;
      push(exposures, c.iso3, {
        commodity: b.slug,
        year,
        unit: b.unit,
        production: f.production,
        production_listed: f.production !== null,
        consumption,
        import_dependence: dep,
        energy_share: f.ej !== null && y.primary ? round(f.ej / y.primary, 4) : null,
        suppliers: sup?.entries.slice(0, 8) ?? [],
        suppliers_year: sup ? EI_TRADE_YEAR : null,
        suppliers_unit: sup?.unit ?? null,
        suppliers_basis: sup?.basis ?? null,
        supplier_hhi: sup ? sup.hhi : null,
        routes: [],
        source: c.source ?? EI_SOURCE,
      });
      if (f.production !== null && consumption > 0) {
        push(autonomy, c.iso3, {
          commodity: b.slug,
          year,
          ratio: round(f.production / consumption, 4),
          production: f.production,
          consumption,
          unit: b.unit,
          source: c.source ?? EI_SOURCE,
        });
      }
    }
  }
  return { exposures, autonomy };
}

/** EU member states (ISO3): EI gives their pipeline imports only as the 'EU' aggregate. */
export const EU27 = new Set([
  'AUT',
  'BEL',
  'BGR',
  'HRV',
  'CYP',
  'CZE',
  'DNK',
  'EST',
  'FIN',
  'FRA',
  'DEU',
  'GRC',
  'HUN',
  'IRL',
  'ITA',
  'LVA',
  'LTU',
  'LUX',
  'MLT',
  'NLD',
  'POL',
  'PRT',
  'ROU',
  'SVK',
  'SVN',
  'ESP',
  'SWE',
]);

type SupplierRow = { iso3: string; exporter: string; exporter_iso3: string | null; value: number; unit: string };
export type SupplierTable = {
  entries: { iso3: string | null; name: string; value: number; share: number }[];
  hhi: number;
  unit: string;
  basis: string;
  /** Per supplier name, the share of the country's imports that arrives by pipeline: no sea route, so no chokepoint. */
  overland?: ReadonlyMap<string, number>;
};

/**
 * Countries EI counts in its 'Europe' (so their pipeline imports only inside 'Rest of Europe') that
 * UN M49 places elsewhere: Türkiye is in Western Asia for the UN, in Europe for EI.
 */
export const EI_EUROPE_OUTSIDE_UN_EUROPE: ReadonlySet<string> = new Set(['TUR']);

/**
 * Import suppliers per importing country from EI's 2023 trade matrices; exporters may be regions.
 * EI gives the pipeline imports of EU members only as the 'EU' aggregate, and of other European
 * countries as 'Rest of Europe': a member's pipeline imports (its net imports less its recorded
 * LNG) are split like its aggregate's, and the basis says so.
 */
async function supplierTables(
  db: Db,
  trade: readonly { sheet: string; flow: string }[],
  netImports?: ReadonlyMap<string, number>,
  region?: ReadonlyMap<string, string | null>,
) {
  const query = (importerSql: string, flows: readonly { sheet: string; flow: string }[]) =>
    db.all<SupplierRow>(
      `SELECT ${importerSql} AS iso3, t.exporter, ne.iso3 AS exporter_iso3, sum(t.value) AS value, any_value(t.unit) AS unit
     FROM ei_trade t
     ${importerSql === 'ni.iso3' ? 'JOIN country_names ni ON ni.name = lower(trim(t.importer)) AND NOT t.importer_is_aggregate' : ''}
     LEFT JOIN country_names ne ON ne.name = lower(trim(t.exporter)) AND NOT t.exporter_is_aggregate
     WHERE (${flows.map(() => '(t.sheet = ? AND t.flow = ?)').join(' OR ')}) AND t.value > 0 AND t.exporter <> t.importer
       AND t.exporter NOT LIKE 'Total%' ${importerSql === 'ni.iso3' ? '' : `AND t.importer = ${importerSql}`}
     GROUP BY 1, 2, 3`,
      flows.flatMap((t) => [t.sheet, t.flow]),
    );
  const rows = await query('ni.iso3', trade);
  const pipeline = trade.find((t) => t.flow === 'natural gas (pipeline)');
  // Pipeline volume per importer and exporter: those imports pass no chokepoint.
  const piped = new Map<string, Map<string, number>>();
  const pipe = (iso3: string, exporter: string, value: number) => {
    const m = piped.get(iso3) ?? new Map<string, number>();
    m.set(exporter, (m.get(exporter) ?? 0) + value);
    piped.set(iso3, m);
  };
  const directRows = pipeline ? await query('ni.iso3', [pipeline]) : [];
  for (const r of directRows) pipe(r.iso3, r.exporter, r.value);
  const byImporter = new Map<string, SupplierRow[]>();
  for (const r of rows) push(byImporter, r.iso3, r);
  const basis = new Map<string, string>();
  for (const iso3 of byImporter.keys()) basis.set(iso3, `recorded imports (EI trade movements ${EI_TRADE_YEAR})`);
  if (pipeline && netImports && region) {
    const aggregates = { EU: await query(`'EU'`, [pipeline]), 'Rest of Europe': await query(`'Rest of Europe'`, [pipeline]) };
    const direct = new Set(directRows.map((r) => r.iso3));
    for (const [iso3, net] of netImports) {
      const agg = EU27.has(iso3) ? 'EU' : region.get(iso3) === 'Europe' || EI_EUROPE_OUTSIDE_UN_EUROPE.has(iso3) ? 'Rest of Europe' : null;
      if (!agg || net <= 0 || direct.has(iso3)) continue;
      // Not a direct pipeline importer: its own rows are LNG only.
      const own = byImporter.get(iso3) ?? [];
      const lng = own.reduce((s, r) => s + r.value, 0);
      const volume = net - lng;
      const mix = aggregates[agg].filter((r) => r.exporter_iso3 !== iso3);
      const total = mix.reduce((s, r) => s + r.value, 0);
      if (volume <= 0 || total <= 0) continue;
      const merged = new Map(own.map((r) => [r.exporter, { ...r }]));
      for (const r of mix) {
        const add = (r.value / total) * volume;
        pipe(iso3, r.exporter, add);
        const m = merged.get(r.exporter);
        if (m) m.value += add;
        else merged.set(r.exporter, { ...r, iso3, value: add });
      }
      byImporter.set(iso3, [...merged.values()]);
      basis.set(
        iso3,
        `LNG: recorded imports; pipeline: the '${agg}' aggregate's supplier mix applied to net imports less LNG (${round(volume, 1)} bcm), EI ${EI_TRADE_YEAR}`,
      );
    }
  }
  const out = new Map<string, SupplierTable>();
  for (const [iso3, list] of byImporter) {
    const total = list.reduce((s, r) => s + r.value, 0);
    if (total <= 0) continue;
    const entries = list
      .map((r) => ({ iso3: r.exporter_iso3, name: r.exporter, value: round(r.value, 4), share: round(r.value / total, 4) }))
      .sort((a, b) => b.value - a.value || a.name.localeCompare(b.name));
    const overland = new Map([...(piped.get(iso3) ?? [])].filter(([, v]) => v > 0).map(([name, v]) => [name, round(v / total, 4)]));
    out.set(iso3, {
      entries,
      hhi: hhi(list.map((r) => r.value / total)),
      unit: list[0]?.unit ?? '',
      basis: basis.get(iso3) ?? '',
      ...(overland.size ? { overland } : {}),
    });
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

type Part = CountryProfile['stress']['parts'][number];
type Route = Exposure['routes'][number];

/** EI exporters (countries and the oil matrix's 'Other Middle East') whose seaborne exports leave through Hormuz. */
export const HORMUZ_EXPORTERS = new Set(['Iraq', 'Kuwait', 'Saudi Arabia', 'UAE', 'United Arab Emirates', 'Qatar', 'Iran', 'Bahrain', 'Other Middle East']);
/** Subregions whose imports from the Gulf pass Malacca, and regions whose imports pass Bab el-Mandeb and Suez. */
const VIA_MALACCA = new Set(['Eastern Asia', 'South-eastern Asia']);
const VIA_RED_SEA = new Set(['Europe']);
/** Bands of the share of primary energy at risk (%): IEA collective action at 7 %; down-steps at 80 % of each threshold. */
export const COUNTRY_THRESHOLDS = [0.5, 2, 7] as const;
export const COUNTRY_DOWN = [0.4, 1.6, 5.6] as const;

/** The chokepoints on the route from an exporter to a country (only the Gulf's routes are measured). */
export function routeOf(exporter: string, region: string | null, subregion: string | null): string[] {
  if (!HORMUZ_EXPORTERS.has(exporter)) return [];
  return ['hormuz', ...(subregion && VIA_MALACCA.has(subregion) ? ['malacca'] : []), ...(region && VIA_RED_SEA.has(region) ? ['bab_el_mandeb', 'suez'] : [])];
}

/** Loss and level of a chokepoint at t for a vessel class, or null when not measured then. */
export type LossAt = (chokepoint: string, vessel: 'tanker' | 'cargo', t: string) => { loss: number; level: number } | null;
const VESSEL: Record<string, 'tanker' | 'cargo'> = { 'energy.oil': 'tanker', 'energy.gas': 'tanker', 'energy.coal': 'cargo' };

/** The part of a supplier's import share that comes by sea (pipeline gas passes no strait: Iran's to Türkiye). */
export function seaborne(sup: SupplierTable | undefined, e: SupplierTable['entries'][number]): number {
  return round(Math.max(0, e.share - (sup?.overland?.get(e.name) ?? 0)), 4);
}

/** Route exposure of a fuel's imports: the share of imports behind each measured chokepoint, with its level at t. */
export function routeExposure(
  sup: SupplierTable | undefined,
  fuel: string,
  region: string | null,
  subregion: string | null,
  t: string,
  lossAt: LossAt,
): Route[] {
  const shares = new Map<string, number>();
  for (const e of sup?.entries ?? []) for (const c of routeOf(e.name, region, subregion)) shares.set(c, (shares.get(c) ?? 0) + seaborne(sup, e));
  return [...shares].map(([c, share]) => {
    const l = lossAt(c, VESSEL[fuel] ?? 'tanker', t);
    return {
      chokepoint: c,
      name: CHOKEPOINT_NAMES[c] ?? c,
      import_share: round(share, 4),
      level_vs_normal: l ? l.level : null,
      loss: l ? l.loss : null,
      counted_as_loss: COUNTED_AS_LOSS.has(c),
    };
  });
}

/**
 * The balances of the EI edition out at t: the newest whose data year ended at least EI's lag
 * before t; before the oldest edition was out, the oldest (as the exposure tables do).
 */
export function editionAt(c: CountryEnergy, t: string, eiLagDays: number): EnergyYears {
  const editions = c.editions ?? [];
  const out = editions.filter((e) => daysBetween(`${e.dataYear}-12-31`, t) >= eiLagDays).at(-1) ?? editions[0];
  return out?.years ?? c.years;
}

/**
 * Country stress at t, methodology 3.0.0: the share of primary energy supply at risk, in percent,
 * A = 100 × Σ_f energy_share_f × import_dependence_f × Σ_s import_share_{f,s} × loss_s(t), where
 * loss_s is the transit loss at the chokepoint with no other sea route on s's route (Hormuz).
 * From the EI edition out at t (editionAt) and its newest year published by t; null when the chokepoint is not measured at t.
 */
export function countryStressAt(
  c: CountryEnergy & { subregion?: string | null },
  t: string,
  eiLagDays: number,
  lossAt: LossAt,
  stressOf: (slug: string) => number | null = () => null,
): { index: number | null; year: number | null; parts: Part[]; reason?: string } {
  const years = editionAt(c, t, eiLagDays);
  const year = [...years.keys()].filter((y) => years.get(y)?.primary && daysBetween(`${y}-12-31`, t) >= eiLagDays).sort((a, z) => z - a)[0];
  if (year === undefined) return { index: null, year: null, parts: [], reason: 'no energy balance for this country published by this date' };
  const y = years.get(year)!;
  const parts: Part[] = [];
  let unmeasured = false;
  for (const b of ENERGY_BALANCES) {
    const f = y.fuels.get(b.slug);
    if (!f?.consumption || f.ej === null) continue;
    const share = round(f.ej / (y.primary as number), 4);
    const dep = round(clamp01(1 - (f.production ?? 0) / f.consumption), 4);
    const sup = c.suppliers.get(b.slug);
    const weight = round(share * dep, 4);
    const atRisk: Part['suppliers_at_risk'] = [];
    for (const e of sup?.entries ?? []) {
      const bySea = seaborne(sup, e);
      if (bySea <= 0) continue;
      const counted = routeOf(e.name, c.region, c.subregion ?? null).filter((k) => COUNTED_AS_LOSS.has(k));
      for (const k of counted) {
        const l = lossAt(k, VESSEL[b.slug] ?? 'tanker', t);
        if (!l) {
          if (weight > 0) unmeasured = true;
          continue;
        }
        atRisk.push({
          supplier: e.name,
          iso3: e.iso3,
          import_share: bySea,
          chokepoint: k,
          loss: l.loss,
          contribution: round(100 * weight * e.share * l.loss, 2),
        });
      }
    }
    const benchmark = b.slug === 'energy.gas' ? gasBenchmark(c.region) : b.slug;
    parts.push({
      commodity: b.slug,
      benchmark,
      commodity_stress: stressOf(benchmark),
      energy_share: share,
      material: share >= MATERIALITY_FLOOR,
      import_dependence: dep,
      supplier_hhi: sup?.hhi ?? null,
      concentration_score: sup ? round(hhiScore(sup.hhi), 4) : 0.5,
      weight,
      share_at_risk: round(
        atRisk.reduce((s, a) => s + a.import_share * a.loss, 0),
        4,
      ),
      contribution: round(
        atRisk.reduce((s, a) => s + 100 * weight * a.import_share * a.loss, 0),
        2,
      ),
      suppliers_at_risk: atRisk.sort((p, q) => q.contribution - p.contribution),
    });
  }
  if (parts.length === 0) return { index: null, year, parts, reason: 'no fossil fuel balance for this country' };
  if (unmeasured) return { index: null, year, parts, reason: `the Strait of Hormuz, on the route of some of its imports, has no transit measurement at ${t}` };
  return {
    index: round(
      Math.min(
        100,
        parts.reduce((s, p) => s + p.contribution, 0),
      ),
      1,
    ),
    year,
    parts,
  };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
