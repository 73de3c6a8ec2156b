/**
 * The parts of docs/methodology.md that quote a build: the worked examples and the backtest
 * table, rendered from the published payloads so the page never drifts from what the API serves.
 * pipeline/build.test.ts checks them against a real build; `UPDATE_DOCS=1` rewrites them.
 */
import type { CommoditySheet } from '../contract/commodities.ts';
import type { CountryProfile } from '../contract/countries.ts';
import type { BacktestResult } from '../contract/stress.ts';
import { backtestTable } from './steps/backtest.ts';

const fmt = (x: number | string | boolean | null | undefined) => (x === null || x === undefined ? '—' : String(x));

export function commodityExample(s: CommoditySheet): string {
  const rows = s.stress.components.map(
    (c) =>
      `| ${c.key} | ${fmt(c.raw)} | ${fmt(c.score)} | ${fmt(c.as_of)} | ${fmt(c.input_freshness)} | ${c.weight} × ${c.freshness_factor} | ${c.effective_weight} | ${fmt(c.contribution)} |`,
  );
  const used = s.stress.components
    .filter((c) => c.available)
    .map((c) => c.contribution)
    .join(' + ');
  return [
    `**\`${s.slug}\`**, reading of ${s.stress.as_of} (coverage ${s.stress.coverage}):`,
    '',
    '| Component | raw | score | input date | input age | weight × factor | effective weight | contribution |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    s.stress.index === null ? `No index: ${s.stress.reason}.` : `${used} = **${s.stress.index}**, band **${s.stress.band}**.`,
  ].join('\n');
}

export function countryExample(p: CountryProfile): string {
  const rows = p.stress.parts.map(
    (x) =>
      `| ${x.commodity} (${x.benchmark}) | ${x.energy_share} | ${x.material ? 'yes' : 'no'} | ${x.import_dependence} | ${fmt(x.supplier_hhi)} → ${x.concentration_score} | ${x.weight} | ${fmt(x.commodity_stress)} | ${x.contribution} |`,
  );
  return [
    `**\`${p.iso3}\`** (${p.name}), EI year ${fmt(p.stress.energy_year)}:`,
    '',
    '| Fuel (benchmark) | share of primary energy | material | import dependence | supplier HHI → score | weight | benchmark stress | contribution |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `Index **${fmt(p.stress_index)}**, band **${fmt(p.stress_band)}**.`,
  ].join('\n');
}

export const EXAMPLE_COMMODITIES = ['energy.gas', 'energy.oil', 'metals.cobalt', 'metals.germanium'] as const;
export const EXAMPLE_COUNTRIES = ['DEU', 'JPN', 'QAT'] as const;

/** The generated blocks, by marker name. */
export function methodologyBlocks(sheets: readonly CommoditySheet[], profiles: readonly CountryProfile[], backtest: BacktestResult): Record<string, string> {
  const sheet = (slug: string) => sheets.find((s) => s.slug === slug)!;
  const profile = (iso3: string) => profiles.find((p) => p.iso3 === iso3)!;
  return {
    'commodity-examples': EXAMPLE_COMMODITIES.map((s) => commodityExample(sheet(s))).join('\n\n'),
    'country-examples': EXAMPLE_COUNTRIES.map((c) => countryExample(profile(c))).join('\n\n'),
    backtest: backtestTable(backtest),
  };
}

/** Replace each `<!-- generated:name -->…<!-- /generated -->` block of `doc` with its rendering. */
export function fillBlocks(doc: string, blocks: Record<string, string>): string {
  return doc.replace(/<!-- generated:([a-z-]+) -->[\s\S]*?<!-- \/generated -->/g, (whole, name: string) =>
    blocks[name] === undefined ? whole : `<!-- generated:${name} -->\n${blocks[name]}\n<!-- /generated -->`,
  );
}
