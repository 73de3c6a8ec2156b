import type { Reserve, ReserveSeries } from '../../contract/reserves.ts';
import type { Db } from '../db.ts';
import { currentEiEdition } from './ei-editions.ts';

/** EI counts gas in bcm at a standard GCV of 40 MJ/m³; AGSI in TWh (GCV): 1 bcm = 40 PJ = 11.11 TWh. */
export const TWH_PER_BCM = 40 / 3.6;
export const GAS_TARGET = {
  fill_pct: 90,
  basis:
    'Regulation (EU) 2022/1032: storage 90 % full by 1 November (80 % in 2022); since the 2025 amendment the 90 % may be reached any time between 1 October and 1 December',
  url: 'https://eur-lex.europa.eu/eli/reg/2022/1032/oj',
};
/** IEA members hold 90 days of net imports; we measure the US SPR (on crude net imports) against the same yardstick. */
export const OIL_COVER_TARGET_DAYS = 90;

export interface ReserveReading {
  reserve: Reserve;
  series: ReserveSeries;
  /** Relative shortfall used by the stress index: gas against the seasonal norm, oil against 90 days. */
  shortfall: number | null;
  shortfall_inputs: Record<string, number | string | null>;
}

const d = (col: string) => `strftime(${col}, '%Y-%m-%d')`;

function nextNovemberFirst(asOf: string): string {
  const year = Number(asOf.slice(0, 4));
  return asOf <= `${year}-11-01` ? `${year}-11-01` : `${year + 1}-11-01`;
}

/** Annual consumption in TWh: AGSI's own reference where it gives one, else EI's newest year in bcm. */
async function annualGasConsumption(db: Db, country: string): Promise<{ twh: number; basis: string } | null> {
  const ref = await db.one<{ twh: number | null }>(`SELECT annual_consumption_twh AS twh FROM agsi_reference WHERE country = ?`, [country]);
  if (ref?.twh) return { twh: ref.twh, basis: `AGSI+ reference annual consumption (${ref.twh} TWh)` };
  const ei = await db.one<{ bcm: number; year: number }>(
    `SELECT e.value AS bcm, e.year FROM ${(await currentEiEdition(db)).table} e
     JOIN country_names n ON n.name = lower(trim(e.country)) JOIN country_codes c ON c.iso3 = n.iso3
     WHERE e.sheet = 'Gas Consumption - Bcm' AND lower(c.iso2) = ? AND e.value IS NOT NULL ORDER BY e.year DESC LIMIT 1`,
    [country],
  );
  if (!ei) return null;
  const twh = ei.bcm * TWH_PER_BCM;
  return { twh, basis: `Energy Institute gas consumption ${ei.year} (${ei.bcm.toFixed(2)} bcm × ${TWH_PER_BCM.toFixed(3)} TWh/bcm)` };
}

export async function gasStorageReading(db: Db, country: string, name: string): Promise<ReserveReading | null> {
  const latest = await db.one<{
    date: string;
    fill_pct: number;
    gas_in_storage_twh: number | null;
    working_gas_volume_twh: number | null;
    injection_gwh_d: number | null;
    withdrawal_gwh_d: number | null;
    net_withdrawal_gwh_d: number | null;
    status: string | null;
  }>(
    `SELECT ${d('date')} AS date, fill_pct, gas_in_storage_twh, working_gas_volume_twh, injection_gwh_d, withdrawal_gwh_d,
        net_withdrawal_gwh_d, status FROM agsi_storage WHERE country = ? ORDER BY date DESC LIMIT 1`,
    [country],
  );
  if (!latest) return null;
  const ref = await db.one<{ wgv: number | null }>(`SELECT working_gas_volume_twh AS wgv FROM agsi_reference WHERE country = ?`, [country]);
  const capacity = latest.working_gas_volume_twh ?? ref?.wgv ?? null;
  const volume = latest.gas_in_storage_twh ?? (capacity ? (latest.fill_pct / 100) * capacity : null);
  const consumption = await annualGasConsumption(db, country);
  const dailyUse = consumption ? consumption.twh / 365 : null;

  // Seasonal norm: mean fill on the same calendar day in up to five earlier years.
  const norm = await db.one<{ norm: number | null; years: number[] | null }>(
    `SELECT avg(fill_pct) AS norm, list(DISTINCT year(date) ORDER BY year(date)) AS years FROM agsi_storage
     WHERE country = ? AND month(date) = month(?::DATE) AND day(date) = day(?::DATE)
       AND year(date) BETWEEN year(?::DATE) - 5 AND year(?::DATE) - 1`,
    [country, latest.date, latest.date, latest.date, latest.date],
  );
  const normPct = norm?.norm ?? null;
  const normYears = (norm?.years ?? []).map(Number);
  const first = await db.one<{ d: string }>(`SELECT ${d('min(date)')} AS d FROM agsi_storage WHERE country = ?`, [country]);

  const points = await db.all<{ date: string; fill: number; vol: number | null }>(
    `SELECT ${d('date')} AS date, fill_pct AS fill, gas_in_storage_twh AS vol FROM agsi_storage WHERE country = ? ORDER BY date`,
    [country],
  );
  const metrics: ReserveSeries['metrics'] = { fill_pct: { unit: '%', points: points.map((p) => ({ date: p.date, value: p.fill })) } };
  const vols = points.filter((p) => p.vol !== null);
  if (vols.length > 0) {
    metrics.volume = { unit: 'TWh', points: vols.map((p) => ({ date: p.date, value: p.vol as number })) };
    if (dailyUse) metrics.days_of_cover = { unit: 'days', points: vols.map((p) => ({ date: p.date, value: round((p.vol as number) / dailyUse, 1) })) };
  }

  const reserve: Reserve = {
    commodity: 'gas',
    country,
    name: `Gas in underground storage, ${name}`,
    kind: 'gas_storage',
    as_of: latest.date,
    fill_pct: latest.fill_pct,
    // AGSI+'s own figure as it publishes it (up to 4 decimals), as in the series; derived from fill × capacity only where it gives none.
    volume: { value: latest.gas_in_storage_twh ?? round(volume ?? 0, 4), unit: 'TWh' },
    capacity: capacity ? { value: capacity, unit: 'TWh' } : null,
    coverage_days: volume !== null && dailyUse ? round(volume / dailyUse, 1) : null,
    coverage_method: consumption
      ? `static: gas in storage / (annual consumption / 365); annual consumption from ${consumption.basis}`
      : 'not available: no annual consumption figure for this country',
    target: { fill_pct: GAS_TARGET.fill_pct, date: nextNovemberFirst(latest.date), basis: GAS_TARGET.basis, url: GAS_TARGET.url },
    seasonal_norm_pct: normPct === null ? null : round(normPct, 2),
    seasonal_norm_years: normYears,
    gap_to_norm_pct: normPct === null ? null : round(latest.fill_pct - normPct, 2),
    flows:
      latest.injection_gwh_d === null && latest.withdrawal_gwh_d === null
        ? null
        : { injection: latest.injection_gwh_d, withdrawal: latest.withdrawal_gwh_d, net_withdrawal: latest.net_withdrawal_gwh_d, unit: 'GWh/d' },
    commercial_stocks: null,
    status: latest.status,
    metrics: Object.keys(metrics) as Reserve['metrics'],
    first_date: first?.d ?? latest.date,
    timeseries_url: `/v1/reserves/timeseries?commodity=gas&country=${country}&from=${first?.d ?? latest.date}`,
  };
  const shortfall = normPct && normPct > 0 ? clamp01((normPct - latest.fill_pct) / normPct) : null;
  return {
    reserve,
    series: { commodity: 'gas', country, native_frequency: 'daily', metrics },
    shortfall,
    shortfall_inputs: {
      fill_pct: latest.fill_pct,
      seasonal_norm_pct: normPct === null ? null : round(normPct, 2),
      norm_years: normYears.join(','),
      gas_day: latest.date,
    },
  };
}

/** The US Strategic Petroleum Reserve (EIA WCSSTUS1), with commercial crude stocks beside it. */
export async function usOilReading(db: Db): Promise<ReserveReading | null> {
  const series = (id: string) =>
    db.all<{ date: string; value: number }>(`SELECT ${d('date')} AS date, value FROM eia_petroleum_weekly WHERE series_id = ? ORDER BY date`, [id]);
  const spr = await series('WCSSTUS1');
  const last = spr.at(-1);
  if (!last) return null;
  const commercial = (await series('WCESTUS1')).at(-1);
  // Net crude imports, 4-week mean: the denominator of days of cover (IEA counts days of net imports).
  const cover = await db.all<{ date: string; days: number; net: number }>(`
    WITH w AS (
      SELECT date,
        max(value) FILTER (WHERE series_id = 'WCEIMUS2') - max(value) FILTER (WHERE series_id = 'WCREXUS2') AS net,
        max(value) FILTER (WHERE series_id = 'WCSSTUS1') AS spr
      FROM eia_petroleum_weekly WHERE series_id IN ('WCEIMUS2', 'WCREXUS2', 'WCSSTUS1') GROUP BY date),
    m AS (SELECT date, spr, avg(net) OVER (ORDER BY date ROWS BETWEEN 3 PRECEDING AND CURRENT ROW) AS net4 FROM w WHERE net IS NOT NULL)
    SELECT ${d('date')} AS date, round(spr / net4, 1) AS days, net4 AS net FROM m WHERE spr IS NOT NULL AND net4 > 0 ORDER BY date`);
  const lastCover = cover.at(-1);
  const coverDays = lastCover && lastCover.date === last.date ? lastCover.days : null;
  const metrics: ReserveSeries['metrics'] = { volume: { unit: 'thousand barrels', points: spr } };
  if (cover.length > 0) metrics.days_of_cover = { unit: 'days', points: cover.map((c) => ({ date: c.date, value: c.days })) };
  const reserve: Reserve = {
    commodity: 'oil',
    country: 'us',
    name: 'Strategic Petroleum Reserve, United States',
    kind: 'strategic_petroleum_reserve',
    as_of: last.date,
    fill_pct: null,
    volume: { value: last.value, unit: 'thousand barrels' },
    capacity: null,
    coverage_days: coverDays,
    coverage_method:
      'SPR stock / net crude imports (EIA WCEIMUS2 − WCREXUS2, mean of the last 4 weeks, thousand b/d). Crude only: the IEA counts days of total petroleum net imports, on which basis the US is a net exporter',
    target: null,
    seasonal_norm_pct: null,
    seasonal_norm_years: [],
    gap_to_norm_pct: null,
    flows: null,
    commercial_stocks: commercial ? { value: commercial.value, unit: 'thousand barrels' } : null,
    status: null,
    metrics: Object.keys(metrics) as Reserve['metrics'],
    first_date: spr[0]?.date ?? last.date,
    timeseries_url: `/v1/reserves/timeseries?commodity=oil&country=us&from=${spr[0]?.date ?? last.date}`,
  };
  return {
    reserve,
    series: { commodity: 'oil', country: 'us', native_frequency: 'weekly', metrics },
    shortfall: coverDays === null ? null : clamp01((OIL_COVER_TARGET_DAYS - coverDays) / OIL_COVER_TARGET_DAYS),
    shortfall_inputs: { days_of_cover: coverDays, target_days: OIL_COVER_TARGET_DAYS, net_imports_kbd: lastCover?.net ?? null, week: last.date },
  };
}

export const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
export const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
