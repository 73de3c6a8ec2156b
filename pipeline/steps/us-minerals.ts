/**
 * The United States' mineral import exposure (methodology §country, minerals): USGS publishes, for
 * the US alone, each mineral's net import reliance and its import sources. Exposure follows the
 * energy rule without the energy share, which has no mineral counterpart: reliance × (0.5 + 0.5 ×
 * import-source concentration score) × the mineral's stress index.
 */
import type { MineralExposure } from '../../contract/countries.ts';
import type { Commodity } from '../catalogue.ts';
import type { Db } from '../db.ts';
import { clamp01, round } from './reserves.ts';
import { hhi } from './shares.ts';
import { hhiScore } from './stress.ts';

export const USGS_SOURCE = 'usgs-mcs-2026';

type Row = {
  chapter: string;
  statistic: string;
  detail: string;
  section: string;
  country: string;
  iso3: string | null;
  year: string;
  value: number | null;
  value_low: number | null;
  value_code: string | null;
};

/** Every catalogued mineral with a US net import reliance row, largest exposure first. */
export async function usMineralExposures(db: Db, catalogue: readonly Commodity[], stressOf: (slug: string) => number | null): Promise<MineralExposure[]> {
  const rows = await db.all<Row>(
    `SELECT t.chapter, t.statistic, t.detail, t.section, t.country, n.iso3, t.year, t.value, t.value_low, t.value_code
     FROM usgs_us t LEFT JOIN country_names n ON n.name = lower(trim(t.country)) AND NOT t.is_aggregate`,
  );
  const out: MineralExposure[] = [];
  for (const c of catalogue) {
    if (!c.us_imports) continue;
    const { chapter, reliance, sources } = c.us_imports;
    const nir = rows
      .filter((r) => r.chapter === chapter && r.statistic === 'Net import reliance' && r.detail === reliance && /^\d{4}$/.test(r.year))
      .sort((a, b) => Number(b.year) - Number(a.year))[0];
    if (!nir) continue;
    const printed = nir.value_code ?? String(nir.value);
    // 'E' is a net exporter; a bound ('>50') counts at its bound; 'W' (withheld) and the rest are unknown.
    const share = printed === 'E' ? 0 : (nir.value ?? nir.value_low);
    const relianceShare = share === null ? null : round(clamp01(share / 100), 4);
    // A bound ('>99', '<1') counts at its lower end, as the reliance does.
    const listed = rows.filter((r) => r.chapter === chapter && r.section === 'Import Sources' && r.detail === sources && (r.value ?? r.value_low ?? 0) > 0);
    const suppliers = listed
      .map((r) => ({ iso3: r.iso3, name: r.country, value: (r.value ?? r.value_low) as number, share: round((r.value ?? (r.value_low as number)) / 100, 4) }))
      .sort((a, b) => b.value - a.value);
    const named = suppliers.filter((s) => s.iso3 !== null && s.name !== 'Other countries');
    const supplierHhi = named.length ? hhi(named.map((s) => s.share)) : null;
    const stress = stressOf(c.slug);
    const weight = relianceShare === null ? null : round(relianceShare * (0.5 + 0.5 * (supplierHhi === null ? 0.5 : hhiScore(supplierHhi))), 4);
    out.push({
      commodity: c.slug,
      year: Number(nir.year),
      net_import_reliance: relianceShare,
      net_import_reliance_printed: printed,
      suppliers,
      suppliers_period: listed[0]?.year ?? null,
      supplier_hhi: supplierHhi,
      commodity_stress: stress,
      weight,
      points: weight === null || stress === null ? null : round(weight * stress, 2),
      source: USGS_SOURCE,
    });
  }
  return out.sort((a, b) => (b.points ?? -1) - (a.points ?? -1));
}
