import type { Db, SqlParam } from '../db.ts';
import type { Commodity } from '../catalogue.ts';

export type PriceFrequency = 'daily' | 'monthly' | 'annual';

/** EIA series are daily, World Bank and IMF monthly, EI's mineral prices annual. */
export function priceFrequency(source: NonNullable<Commodity['price']>['source']): PriceFrequency {
  return source === 'eia-oil-prices' || source === 'eia-henry-hub' ? 'daily' : source === 'ei-statistical-review-2024' ? 'annual' : 'monthly';
}

/** Which clean table holds each price source, and how its rows are selected. */
function selectFor(c: Commodity): { sql: string; params: SqlParam[] } | null {
  const p = c.price;
  if (!p) return null;
  const scale = p.scale ?? 1;
  switch (p.source) {
    case 'eia-oil-prices':
      return { sql: `SELECT date, value * ${scale} AS value FROM eia_oil_prices WHERE series = ? AND frequency = 'daily'`, params: [p.series ?? null] };
    case 'eia-henry-hub':
      return { sql: `SELECT date, value * ${scale} AS value FROM eia_henry_hub WHERE frequency = 'daily'`, params: [] };
    case 'worldbank-pink-sheet':
      return { sql: `SELECT date, value * ${scale} AS value FROM worldbank_prices WHERE series = ?`, params: [p.series ?? null] };
    case 'imf-commodity-prices':
      return { sql: `SELECT date, value * ${scale} AS value FROM imf_prices WHERE code = ?`, params: [p.series ?? null] };
    case 'ei-statistical-review-2024':
      // Annual averages are dated at the start of their year, like monthly ones at the start of their month.
      return { sql: `SELECT make_date(year, 1, 1) AS date, value * ${scale} AS value FROM ei_mineral_prices WHERE series = ?`, params: [p.series ?? null] };
  }
}

/** The tables buildPriceTables makes: the steps that read them take them as an input, by name. */
export const PRICE_TABLES = ['price_obs', 'price_series'] as const;
export type PriceTables = typeof PRICE_TABLES;

/**
 * price_obs(slug, date, value) and price_series(slug, source, frequency, currency, unit, benchmark):
 * one series per catalogued commodity, from the source the catalogue names.
 */
export async function buildPriceTables(db: Db, catalogue: readonly Commodity[]): Promise<PriceTables> {
  await db.run(`CREATE OR REPLACE TABLE price_obs (slug VARCHAR, date DATE, value DOUBLE)`);
  await db.run(`CREATE OR REPLACE TABLE price_series (slug VARCHAR, source VARCHAR, frequency VARCHAR, currency VARCHAR, unit VARCHAR, benchmark VARCHAR)`);
  for (const c of catalogue) {
    const sel = selectFor(c);
    if (!sel || !c.price) continue;
    await db.run(`INSERT INTO price_obs SELECT ?, date, value FROM (${sel.sql}) WHERE value IS NOT NULL`, [c.slug, ...sel.params]);
    await db.run(`INSERT INTO price_series VALUES (?, ?, ?, ?, ?, ?)`, [
      c.slug,
      c.price.source,
      priceFrequency(c.price.source),
      c.price.currency,
      c.price.unit,
      c.price.benchmark,
    ]);
  }
  return PRICE_TABLES;
}

export interface LatestPrice {
  slug: string;
  value: number;
  as_of: string;
  prior_value: number | null;
  change_1y_pct: number | null;
}

/** Newest observation per commodity, with the change against the newest observation at least a year older. */
export async function latestPrices(db: Db): Promise<Map<string, LatestPrice>> {
  const rows = await db.all<LatestPrice>(`
    WITH latest AS (SELECT slug, arg_max(value, date) AS value, max(date) AS as_of FROM price_obs GROUP BY slug),
    prior AS (
      SELECT l.slug, arg_max(o.value, o.date) AS prior_value
      FROM latest l JOIN price_obs o ON o.slug = l.slug AND o.date <= l.as_of - INTERVAL 1 YEAR
      GROUP BY l.slug)
    SELECT l.slug, l.value, strftime(l.as_of, '%Y-%m-%d') AS as_of, p.prior_value,
      CASE WHEN p.prior_value > 0 THEN round((l.value / p.prior_value - 1) * 100, 2) END AS change_1y_pct
    FROM latest l LEFT JOIN prior p USING (slug)`);
  return new Map(rows.map((r) => [r.slug, r]));
}

/** The last five years of a commodity's series, oldest first. */
export async function priceHistory(db: Db, slug: string): Promise<{ date: string; value: number }[]> {
  return db.all(
    `SELECT strftime(date, '%Y-%m-%d') AS date, value FROM price_obs
     WHERE slug = ? AND date > (SELECT max(date) FROM price_obs WHERE slug = ?) - INTERVAL 5 YEAR ORDER BY date`,
    [slug, slug],
  );
}

export interface PriceAnomaly {
  slug: string;
  as_of: string;
  latest: number;
  z: number | null;
  window_mean_log: number | null;
  window_std_log: number | null;
  window_periods: number;
  window_from: string | null;
  window_to: string | null;
  volatility_annualised: number | null;
}

/**
 * METHOD §price anomaly: z = (ln p − mean ln p over the trailing 60 months) / std. The trailing
 * window is made of monthly means (daily series averaged per month) strictly before the month
 * of the latest observation; annual series use the five preceding years. Needs ≥ 24 months
 * (3 years for annual series). Volatility: std of log returns over the last year × √252 (daily
 * series) or over the last five years × √12 (monthly series); none for annual series.
 */
export async function priceAnomalies(db: Db): Promise<Map<string, PriceAnomaly>> {
  const rows = await db.all<PriceAnomaly>(`
    WITH s AS (SELECT o.slug, o.date, o.value, ps.frequency FROM price_obs o JOIN price_series ps USING (slug) WHERE o.value > 0),
    latest AS (SELECT slug, frequency, max(date) AS as_of, arg_max(value, date) AS latest FROM s GROUP BY slug, frequency),
    periods AS (
      SELECT s.slug, date_trunc(CASE WHEN s.frequency = 'annual' THEN 'year' ELSE 'month' END, s.date) AS period, avg(ln(s.value)) AS lp
      FROM s JOIN latest l USING (slug)
      WHERE s.date < date_trunc(CASE WHEN s.frequency = 'annual' THEN 'year' ELSE 'month' END, l.as_of)
        AND s.date >= date_trunc(CASE WHEN s.frequency = 'annual' THEN 'year' ELSE 'month' END, l.as_of)
                      - CASE WHEN s.frequency = 'annual' THEN INTERVAL 5 YEAR ELSE INTERVAL 60 MONTH END
      GROUP BY 1, 2),
    win AS (SELECT slug, avg(lp) AS m, stddev_samp(lp) AS sd, count(*)::INTEGER AS n, min(period) AS wf, max(period) AS wt FROM periods GROUP BY slug),
    rets AS (
      SELECT slug, frequency, ln(value / lag(value) OVER (PARTITION BY slug ORDER BY date)) AS r, date
      FROM s),
    vol AS (
      SELECT r.slug, stddev_samp(r.r) * CASE r.frequency WHEN 'daily' THEN sqrt(252) WHEN 'monthly' THEN sqrt(12) ELSE 1 END AS v
      FROM rets r JOIN latest l USING (slug)
      WHERE r.r IS NOT NULL AND r.frequency IN ('daily', 'monthly')
        AND r.date > l.as_of - CASE r.frequency WHEN 'daily' THEN INTERVAL 1 YEAR ELSE INTERVAL 5 YEAR END
      GROUP BY r.slug, r.frequency)
    SELECT l.slug, strftime(l.as_of, '%Y-%m-%d') AS as_of, l.latest,
      CASE WHEN w.n >= (CASE WHEN l.frequency = 'annual' THEN 3 ELSE 24 END) AND w.sd > 0 THEN (ln(l.latest) - w.m) / w.sd END AS z,
      w.m AS window_mean_log, w.sd AS window_std_log, coalesce(w.n, 0) AS window_periods,
      strftime(w.wf, '%Y-%m-%d') AS window_from, strftime(w.wt, '%Y-%m-%d') AS window_to, v.v AS volatility_annualised
    FROM latest l LEFT JOIN win w USING (slug) LEFT JOIN vol v USING (slug)`);
  return new Map(rows.map((r) => [r.slug, r]));
}
