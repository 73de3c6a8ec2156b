/**
 * The rows of each bulk resource (contract/bulk.ts), taken from what the build publishes. Only
 * open sources' full series go in: a derived-only source (IMF, EI, AGSI+) contributes the
 * figures and indicators the API shows, never its whole table.
 */
import type { CommoditySheet } from '../../contract/commodities.ts';
import type { Event, Scenario } from '../../contract/content.ts';
import type { CountryProfile } from '../../contract/countries.ts';
import type { Commodity } from '../catalogue.ts';
import type { Db } from '../db.ts';
import type { ReserveReading } from '../steps/reserves.ts';

export type Cell = string | number | boolean | null;
export type Row = Record<string, Cell>;

export interface BulkInputs {
  db: Db;
  catalogue: readonly Commodity[];
  sheets: readonly CommoditySheet[];
  profiles: readonly CountryProfile[];
  readings: ReadonlyMap<string, ReserveReading>;
  events: readonly Event[];
  scenarios: readonly Scenario[];
  /** Source id → may its full tables be redistributed. */
  open: (source: string) => boolean;
}

const list = (xs: readonly string[]) => xs.join(';');

export async function bulkRows(x: BulkInputs): Promise<Record<string, Row[]>> {
  const openPriced = x.catalogue.filter((c) => c.price && x.open(c.price.source));
  const prices = await x.db.all<{ slug: string; date: string; value: number }>(
    `SELECT slug, strftime(date, '%Y-%m-%d') AS date, value FROM price_obs WHERE slug IN (${openPriced.map(() => '?').join(', ') || 'NULL'}) ORDER BY slug, date`,
    openPriced.map((c) => c.slug),
  );
  const sheetOf = new Map(x.sheets.map((s) => [s.slug, s]));
  return {
    commodities: x.sheets.map((s) => ({
      slug: s.slug,
      group: s.group,
      name: s.name,
      unit: s.unit,
      price_benchmark: s.price?.benchmark ?? null,
      price_value: s.price?.value ?? null,
      price_currency: s.price?.currency ?? null,
      price_unit: s.price?.unit ?? null,
      price_as_of: s.price?.as_of ?? null,
      price_frequency: s.price?.frequency ?? null,
      price_source: s.price?.source ?? null,
      stress_index: s.stress_index,
      stress_band: s.stress_band,
      stress_as_of: s.stress.as_of,
      stress_coverage: s.stress.coverage,
      methodology_version: s.stress.methodology_version,
    })),
    stress_components: x.sheets.flatMap((s) =>
      s.stress.components.map((c) => ({
        slug: s.slug,
        component: c.key,
        weight: c.weight,
        effective_weight: c.effective_weight,
        available: c.available,
        raw: c.raw,
        score: c.score,
        contribution: c.contribution,
        as_of: c.as_of,
        input_freshness: c.input_freshness,
        source: c.source,
        reason: c.reason ?? null,
      })),
    ),
    stress_history: [
      ...x.sheets.flatMap((s) =>
        s.stress_history.map((h) => ({ kind: 'commodity', id: s.slug, date: h.date, index: h.index, band: h.band, coverage: h.coverage })),
      ),
      ...x.profiles.flatMap((p) =>
        p.stress_history.map((h) => ({ kind: 'country', id: p.iso3, date: h.date, index: h.index, band: h.band, coverage: h.coverage })),
      ),
    ],
    prices: prices.map((p) => {
      const s = sheetOf.get(p.slug);
      return {
        slug: p.slug,
        date: p.date,
        value: p.value,
        currency: s?.price?.currency ?? null,
        unit: s?.price?.unit ?? null,
        frequency: s?.price?.frequency ?? null,
        source: s?.price?.source ?? null,
      };
    }),
    producers: x.sheets.flatMap((s) =>
      (['producers', 'consumers'] as const).flatMap((role) => {
        const t = s[role];
        if (!t) return [];
        const volumes = x.open(t.source);
        return t.entries.map((e, i) => ({
          slug: s.slug,
          role: role.slice(0, -1),
          country: e.iso3 ?? e.name,
          name: e.name,
          rank: i + 1,
          share: e.share,
          value: volumes ? e.value : null,
          unit: volumes ? t.unit : null,
          year: t.year,
          source: t.source,
        }));
      }),
    ),
    countries: x.profiles.map((p) => ({
      iso3: p.iso3,
      iso2: p.iso2,
      name: p.name,
      region: p.region,
      stress_index: p.stress_index,
      stress_band: p.stress_band,
      stress_as_of: p.stress.as_of,
      energy_year: p.stress.energy_year,
    })),
    country_stress_parts: x.profiles.flatMap((p) =>
      p.stress.parts.map((s) => ({
        iso3: p.iso3,
        commodity: s.commodity,
        benchmark: s.benchmark,
        energy_share: s.energy_share,
        material: s.material,
        import_dependence: s.import_dependence,
        supplier_hhi: s.supplier_hhi,
        concentration_score: s.concentration_score,
        weight: s.weight,
        commodity_stress: s.commodity_stress,
        contribution: s.contribution,
      })),
    ),
    mineral_exposures: x.profiles.flatMap((p) =>
      p.mineral_exposures.map((m) => {
        const top = m.suppliers.find((s) => s.iso3 !== null);
        return {
          iso3: p.iso3,
          commodity: m.commodity,
          year: m.year,
          net_import_reliance: m.net_import_reliance,
          net_import_reliance_printed: m.net_import_reliance_printed,
          top_supplier: top?.iso3 ?? null,
          top_supplier_share: top?.share ?? null,
          supplier_hhi: m.supplier_hhi,
          commodity_stress: m.commodity_stress,
          points: m.points,
        };
      }),
    ),
    reserves: [...x.readings.values()].map(({ reserve: r }) => ({
      commodity: r.commodity,
      country: r.country,
      name: r.name,
      as_of: r.as_of,
      fill_pct: r.fill_pct,
      volume: r.volume?.value ?? null,
      volume_unit: r.volume?.unit ?? null,
      coverage_days: r.coverage_days,
      seasonal_norm_pct: r.seasonal_norm_pct,
      gap_to_norm_pct: r.gap_to_norm_pct,
      target_fill_pct: r.target?.fill_pct ?? null,
      target_date: r.target?.date ?? null,
    })),
    reserve_series: [...x.readings.values()]
      .filter((r) => r.reserve.commodity === 'oil' && x.open('eia-weekly-petroleum'))
      .flatMap(({ series }) =>
        Object.entries(series.metrics).flatMap(([metric, m]) =>
          (m?.points ?? []).map((p) => ({
            commodity: series.commodity,
            country: series.country,
            metric,
            date: p.date,
            value: p.value,
            unit: m?.unit ?? null,
          })),
        ),
      ),
    events: x.events.map((e) => ({
      id: e.id,
      date: e.date,
      category: e.category,
      effect: e.effect,
      kind: e.kind,
      title: e.title,
      commodities: list(e.commodities),
      countries: list(e.countries),
      source_url: e.source_url,
    })),
    scenarios: x.scenarios.map((s) => ({
      id: s.id,
      title: s.title,
      status: s.status,
      probability: s.probability,
      severity: s.severity,
      commodities: list(s.commodities),
      countries: list(s.countries),
      updated_at: s.updated_at,
    })),
  };
}
