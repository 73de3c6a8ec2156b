import type { CommodityListEntry, CommoditySheet } from '../../contract/commodities.ts';
import { EDITORIAL_SOURCE, citedSource, type CitedSource } from '../../contract/sources.ts';
import type { Commodity } from '../catalogue.ts';
import type { ContentBundle } from '../content-stage.ts';
import type { Db } from '../db.ts';
import { maxDate } from './dates.ts';
import { publishedPrice, publishedShare } from './precision.ts';
import { latestPrices, priceAnomalies, priceFrequency, priceHistory } from './prices.ts';
import type { ReserveReading } from './reserves.ts';
import { EI_TRADE_YEAR, HHI_THRESHOLDS, hhi, hhiBand, topFlows, type ShareTableData } from './shares.ts';
import type { ChokepointExposure, CommodityStress } from '../../contract/stress.ts';
import { disruptionAt } from './disruption.ts';
import { type Cadences, type CommodityInputs, bandBefore, readingDate, stressAt, stressHistory, structuralRisk } from './stress.ts';

/** The producer, consumer and in-ground share tables of each commodity, by slug. */
export type Shares = Map<string, { producers: ShareTableData | null; consumers: ShareTableData | null; inGround: ShareTableData | null }>;

export interface SheetContext {
  latest: Awaited<ReturnType<typeof latestPrices>>;
  anomalies: Awaited<ReturnType<typeof priceAnomalies>>;
  shares: Shares;
  readings: Map<string, ReserveReading>;
  content: ContentBundle;
  today: string;
  inputs: CommodityInputs;
  cadenceOf: Cadences;
}

/** One commodity's sheet (GET /v1/commodities/{slug}): price, shares, concentration, stress and its history. */
export async function commoditySheet(db: Db, c: Commodity, x: SheetContext): Promise<CommoditySheet> {
  const sh = x.shares.get(c.slug)!;
  const lp = x.latest.get(c.slug);
  const producers = sh.producers;
  const concentration = producers
    ? { hhi: hhi(producers.entries.map((e) => e.share)), year: producers.year, source: producers.source, countries: producers.entries.length }
    : null;
  // The reserve behind the commodity's buffer score: EU storage for European gas, the US SPR for
  // crude (both benchmarks); its code names the reserves in /v1/reserves.
  const reserveCode = c.code === 'gas' ? 'gas' : c.code === 'oil' || c.code === 'wti' ? 'oil' : null;
  const reserveKey = reserveCode === 'gas' ? 'gas/eu' : reserveCode === 'oil' ? 'oil/us' : null;
  const reading = reserveKey ? x.readings.get(reserveKey) : undefined;
  // The reading describes the newest market observation behind it, not the build date.
  const asOf = readingDate(x.inputs, x.today);
  const stressHist = stressHistory(x.inputs, asOf, x.today, x.cadenceOf);
  // The current reading continues the band of the month-end before it (hysteresis).
  const stress = stressAt(x.inputs, asOf, x.today, x.cadenceOf, bandBefore(stressHist, asOf));
  const history = lp ? await priceHistory(db, c.slug) : [];
  const dates = [lp?.as_of, reading?.reserve.as_of, producers ? `${producers.year}-12-31` : undefined, maxDate(stress.events.map((e) => e.date))];
  const flows = c.trade ? await topFlows(db, c.trade.sheet, c.trade.flow) : [];
  const critical =
    c.production?.source === 'usgs-mcs-2026'
      ? ((await db.one<{ c: boolean | null }>(`SELECT bool_or(is_critical) AS c FROM usgs_world WHERE chapter = ?`, [c.production.chapter]))?.c ?? null)
      : null;
  return {
    slug: c.slug,
    code: c.code,
    group: c.group,
    name: c.names.en,
    names: c.names,
    unit: c.unit,
    price:
      lp && c.price
        ? {
            value: publishedPrice(lp.value),
            currency: c.price.currency,
            unit: c.price.unit,
            ...(c.price.unit_note ? { unit_note: c.price.unit_note } : {}),
            as_of: lp.as_of,
            frequency: priceFrequency(c.price.source),
            benchmark: c.price.benchmark,
            source: c.price.source,
            change_1y_pct: lp.change_1y_pct,
          }
        : null,
    stress_index: stress.index,
    stress_band: stress.band,
    // With no observation at all (a commodity we only track through events), the build date.
    updated_at: maxDate(dates) ?? x.today,
    url: `/v1/commodities/${c.slug}`,
    aliases: c.aliases,
    critical_mineral_us: critical,
    producers: published(producers),
    consumers: published(sh.consumers),
    reserves_in_ground: published(sh.inGround),
    concentration: concentration
      ? {
          hhi: concentration.hhi,
          band: hhiBand(concentration.hhi),
          thresholds: HHI_THRESHOLDS,
          basis: producers!.basis,
          year: concentration.year,
          countries: concentration.countries,
          source: concentration.source,
        }
      : null,
    flows: flows.map((f) => ({ ...f, year: EI_TRADE_YEAR, source: 'ei-statistical-review-2024' })),
    chokepoints: chokepointLevels(x.inputs, stress),
    structural_risk: structuralRisk(x.inputs, asOf, x.cadenceOf),
    stress,
    stress_history: stressHist,
    price_history:
      lp && c.price
        ? {
            frequency: priceFrequency(c.price.source),
            currency: c.price.currency,
            unit: c.price.unit,
            points: history.map((p) => ({ date: p.date, value: publishedPrice(p.value) })),
          }
        : null,
    reserves: [...x.readings.keys()]
      .filter((k) => reserveCode !== null && k.startsWith(`${reserveCode}/`))
      .map((k) => k.split('/')[1] as string)
      .map((country) => ({ country, url: `/v1/reserves?commodity=${reserveCode}&country=${country}` })),
  };
}

/** The chokepoints a commodity's trade passes, with their transit level against normal at the reading date. */
function chokepointLevels(x: CommodityInputs, stress: CommodityStress): ChokepointExposure[] {
  if (!x.disruption) return [];
  const d = disruptionAt(x.disruption.table, x.disruption.transits, stress.as_of);
  return d.parts
    .sort((a, b) => b.exposure.share - a.exposure.share)
    .map((p) => ({
      chokepoint: p.chokepoint,
      name: p.name,
      exposure_share: p.exposure.share,
      exposure_basis: p.exposure.basis,
      exposure_year: p.exposure.year,
      exposure_source: p.exposure.source,
      vessels: x.disruption!.table.vessel,
      transits_per_day: p.route?.transits ?? null,
      normal_per_day: p.route?.normal ?? null,
      level_vs_normal: p.route?.level ?? null,
      loss: p.route?.loss ?? null,
      as_of: p.route?.to ?? null,
      ...(p.reason ? { reason: p.reason } : {}),
    }));
}

/** A share table as a sheet shows it: the 15 largest countries, shares at their published precision (the concentration above uses them unrounded). */
function published(t: ShareTableData | null): ShareTableData | null {
  return t && { ...t, entries: t.entries.slice(0, 15).map((e) => ({ ...e, share: publishedShare(e.share) })) };
}

/** The sources a sheet cites. */
export function commoditySources(c: Commodity, s: CommoditySheet): CitedSource[] {
  const reserves = s.stress.components.find((k) => k.key === 'reserves')?.source;
  return [
    ...(s.price ? [citedSource(s.price.source)] : []),
    ...(c.production ? [citedSource(c.production.source)] : []),
    ...(c.consumption ? [citedSource(c.consumption.source)] : []),
    ...(c.trade ? (['ei-statistical-review-2024'] as const) : []),
    ...(reserves ? [citedSource(reserves)] : []),
    ...(s.chokepoints.length ? (['imf-portwatch-chokepoints'] as const) : []),
    ...(s.chokepoints.some((c) => c.exposure_source === 'eia-chokepoints') ? (['eia-chokepoints'] as const) : []),
    ...(s.chokepoints.some((c) => c.exposure_source === 'usgs-mcs-2026') && c.production?.source !== 'usgs-mcs-2026' ? (['usgs-mcs-2026'] as const) : []),
    // The history's exposure to a USGS-measured route reads the release out at each month (MCS 2023, 2024 before MCS 2026).
    ...(s.chokepoints.some((c) => c.exposure_source.startsWith('usgs-mcs-')) ? (['usgs-mcs-2023', 'usgs-mcs-2024'] as const) : []),
    EDITORIAL_SOURCE,
  ];
}

/** Per source, the newest observation a sheet uses where it can end before its source: the price series, the reserve. */
export function sheetDataAsOf(s: CommoditySheet): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  const reserve = s.stress.components.find((k) => k.key === 'reserves');
  if (reserve?.source && reserve.as_of) out[reserve.source] = reserve.as_of;
  if (s.price) out[s.price.source] = s.price.as_of;
  return out;
}

export function toListEntry(s: CommoditySheet): CommodityListEntry {
  return {
    slug: s.slug,
    code: s.code,
    group: s.group,
    name: s.name,
    names: s.names,
    unit: s.unit,
    price: s.price,
    stress_index: s.stress_index,
    stress_band: s.stress_band,
    updated_at: s.updated_at,
    url: s.url,
  };
}
