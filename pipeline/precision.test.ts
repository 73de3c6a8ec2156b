import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { SOURCES_DIR, readCsv, readJson } from '../test/support.ts';

/**
 * The precision rules of docs/api.md (Precision), field by field: every number in the build's
 * v1/ and data/ JSON files is either a publisher's figure exactly as its file gives it
 * (SOURCE), or rounded to at most the decimals its rule allows. A field with no rule fails the
 * test: a new figure needs a rule before it is published.
 *
 * Paths are the field's path inside `data` (`[]` for an array element) or from `meta`, matched in order.
 */
const SOURCE = 'as the publisher gives it' as const;
const RULES: readonly [RegExp, number | typeof SOURCE][] = [
  // Counts, years, ranks, days, weeks, and the parameters a list echoes in meta.query: integers.
  [/^meta\.query\.\w+$/, 0],
  [
    /(^|\.)(count|year|years|rank|countries|months|scored|flagged|calm_months|calm_flagged|severity|lag_days|age_days|half_life_days|horizon_months|events_counted|norm_weeks|norm_kb|changes_\d+m|\w+_year|seasonal_norm_years\[\]|hits|misses|crises|false_alarms|calm_windows_flagged|lead_months)$/,
    0,
  ],
  // A publisher's own figures: production, consumption, reserves, trade, world totals, stocks, storage.
  [
    /^((producers|consumers|reserves_in_ground)\.(entries\[\]\.value|world_total)|flows\[\]\.value|(autonomy|exposures)\[\]\.(production|consumption)|production\[\]\.value|mineral_exposures\[\]\.suppliers\[\]\.value)$/,
    SOURCE,
  ],
  [
    /^(volume\.value|capacity\.value|commercial_stocks\.value|flows\.(injection|withdrawal|net_withdrawal)|metrics\.volume\.points\[\]\.value|stress\.components\[\]\.inputs\.stock_kb)$/,
    SOURCE,
  ],
  [/^target\.fill_pct$/, 0],
  // Prices: the cent.
  [/^(price\.value|price_history\.points\[\]\.value|stress\.components\[\]\.inputs\.latest_price)$/, 2],
  // Percentages (fills, norms, gaps, changes): 2 decimals.
  [/(^|\.)(\w+_pct|metrics\.fill_pct\.points\[\]\.value)$/, 2],
  // Stress indices: 1 decimal; contributions, points and the physical floor: 2.
  [/(^|\.)(stress_index|index|commodity_stress|peak)$/, 1],
  [/(^|\.)(contribution|points|physical_floor)$/, 2],
  // HHI: 1 decimal.
  [/(^|\.)(\w*hhi)$/, 1],
  // A median of lead times (months): 1 decimal. Transits per day: 2.
  [/(^|\.)median_lead_months$/, 1],
  [/(^|\.)(transits_per_day|normal_per_day|mean_index)$/, 2],
  // Measured disruption and the backtest's rates: shares of supply, levels against normal, losses, intervals, the GSCPI.
  [
    /(^|\.)(exposure_share|level_vs_normal|loss|\w+_exposure|\w+_level_vs_normal|\w+_loss|\w*at_risk|share_lost|full_score_\w+|scale|import_share|base_rate|precision|correlation|gscpi|(hit_rate|calm_window_rate|precision)_ci\[\])$/,
    4,
  ],
  // Days of cover: 1 decimal.
  [/^(coverage_days|metrics\.days_of_cover\.points\[\]\.value)$/, 1],
  // Supplier volumes summed from EI's trade matrices: 4 decimals.
  [/^exposures\[\]\.suppliers\[\]\.value$/, 4],
  // Shares, ratios, weights, scores, coverage (0–1), z-scores and other 4-decimal inputs.
  [
    /(^|\.)(share|top_share|ratio|energy_share|import_dependence|net_import_reliance|concentration_score|weight|freshness_factor|raw|score|coverage|hit_rate|false_alarm_rate|category_weight|relevance|probability|tightening|easing|z_\d+m|median_level_60m)$/,
    4,
  ],
  // Log changes, their medians and MADs, ratios to a numeraire, effective weights, event decay and pressure: 6.
  [/(^|\.)(effective_weight|level_log|latest_ratio|change_\d+m_log|median_\d+m|mad_\d+m|dispersion_\d+m|decay|pressure)$/, 6],
];

/** The rule of a field; a list's elements are matched as the objects they are (`[].price.value` as `price.value`). */
const ruleOf = (path: string) => RULES.find(([re]) => re.test(path.replace(/^\[\]\./, '')))?.[1];

/** Decimal places of a number as JSON writes it (the shortest round-trip form, exponent included). */
function decimals(x: number): number {
  const m = /^-?\d+(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(x));
  if (!m) throw new Error(`not a finite number: ${x}`);
  return Math.max(0, (m[1]?.length ?? 0) - Number(m[2] ?? 0));
}

/** Every number written in the mirror's CSV files (thousands separators dropped, ranges split). */
function sourceNumbers(): Set<number> {
  const out = new Set<number>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith('.csv'))
        for (const row of readCsv(full))
          for (const cell of Object.values(row))
            for (const t of cell.replace(/(\d),(?=\d{3}\b)/g, '$1').match(/-?\d+(?:\.\d+)?(?:e[+-]?\d+)?/gi) ?? []) out.add(Number(t));
    }
  };
  walk(SOURCES_DIR);
  return out;
}

function numbers(value: unknown, path: string, out: [string, number][]): void {
  if (typeof value === 'number') out.push([path, value]);
  else if (Array.isArray(value)) for (const v of value) numbers(v, `${path}[]`, out);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) numbers(v, path ? `${path}.${k}` : k, out);
}

function jsonFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((p) => p.endsWith('.json'))
    .map((p) => join(dir, p));
}

describe('precision of the published figures', () => {
  const root = join(inject('distDir'), 'current');
  const files = [...jsonFiles(join(root, 'v1')), ...jsonFiles(join(root, 'data'))];

  it('every number in v1/ and data/ has a rule, and keeps to it', () => {
    expect(files.length).toBeGreaterThan(200);
    const published = sourceNumbers();
    const problems: string[] = [];
    let checked = 0;
    for (const file of files) {
      const body = readJson(file) as { data: unknown; meta: unknown };
      const found: [string, number][] = [];
      numbers(body.data, '', found);
      numbers(body.meta, 'meta', found);
      for (const [path, x] of found) {
        const rule = ruleOf(path);
        checked++;
        if (rule === undefined) problems.push(`${relative(root, file)}: ${path}: no precision rule`);
        else if (rule === SOURCE) {
          if (!published.has(x)) problems.push(`${relative(root, file)}: ${path}: ${x} is not a figure of a source file`);
        } else if (decimals(x) > rule) problems.push(`${relative(root, file)}: ${path}: ${x} has more than ${rule} decimals`);
      }
    }
    expect(checked).toBeGreaterThan(100_000);
    expect([...new Set(problems)].slice(0, 20)).toEqual([]);
  });

  it('rounds what the issue found: IMF monthly averages to the cent, shares to 4 decimals', () => {
    const list = readJson(join(root, 'v1/commodities.json')).data as {
      slug: string;
      price: { value: number; unit: string | null; unit_note?: string } | null;
    }[];
    const imf = readCsv(join(SOURCES_DIR, 'imf-commodity-prices/imf-pcps-monthly.csv'));
    const uranium = Number(imf.filter((r) => r.PURAN).at(-1)!.PURAN);
    expect(list.find((c) => c.slug === 'energy.uranium')!.price!.value).toBe(Math.round(uranium * 100) / 100);
    const cobalt = readJson(join(root, 'v1/commodities/metals.cobalt.json')).data;
    for (const e of cobalt.producers.entries) expect(decimals(e.share)).toBeLessThanOrEqual(4);
  });

  it('gives every price a unit, or says what its publisher states instead', () => {
    const list = readJson(join(root, 'v1/commodities.json')).data as { slug: string; price: { unit: string | null; unit_note?: string } | null }[];
    const priced = list.filter((c) => c.price);
    expect(priced.length).toBeGreaterThan(25);
    for (const c of priced) {
      if (c.price!.unit !== null) expect(c.price!.unit_note, c.slug).toBeUndefined();
      else expect(c.price!.unit_note, c.slug).toMatch(/US dollars/);
    }
    // The IMF's series list states the currency (data type USD) and no quantity for these four.
    const series = readCsv(join(SOURCES_DIR, 'imf-commodity-prices/imf-pcps-series.csv'));
    for (const slug of ['metals.lithium', 'metals.rareearths', 'metals.vanadium', 'metals.chromium']) {
      const c = list.find((x) => x.slug === slug)!;
      expect(c.price!.unit, slug).toBeNull();
      const described = series.find((s) => c.price!.unit_note!.includes(`"${s.description}"`));
      expect(described, slug).toMatchObject({ imf_code: '', data_type: 'USD' });
      expect(described!.description).not.toMatch(/\$\/|per |= 100|MT\)/i);
    }
  });
});
