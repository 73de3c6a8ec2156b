/**
 * The parts of docs/methodology.md that quote a build: the worked examples and the backtest
 * table, rendered from the published payloads so the page never drifts from what the API serves.
 * pipeline/build.test.ts checks them against a real build; `UPDATE_DOCS=1` rewrites them.
 */
import type { CommoditySheet } from '../contract/commodities.ts';
import type { CountryProfile } from '../contract/countries.ts';
import type { BacktestResult } from '../contract/stress.ts';
import { backtestTable } from './steps/backtest.ts';
import { CATEGORY_WEIGHTS, HALF_LIFE_DAYS } from './steps/stress.ts';

const fmt = (x: number | string | boolean | null | undefined) => (x === null || x === undefined ? '—' : String(x));

export function commodityExample(s: CommoditySheet): string {
  const rows = s.stress.components.map(
    (c) =>
      `| ${c.key} | ${fmt(c.raw)} | ${fmt(c.score)} | ${fmt(c.as_of)} | ${fmt(c.input_freshness)} | ${c.weight} × ${c.freshness_factor} | ${c.effective_weight} | ${fmt(c.contribution)} |`,
  );
  const available = s.stress.components.filter((c) => c.available);
  const sum = Math.round(available.reduce((t, c) => t + (c.contribution ?? 0), 0) * 100) / 100;
  const used = available.map((c) => c.contribution).join(' + ') + (available.length > 1 ? ` = ${sum}` : '');
  const floor = s.stress.physical_floor;
  const dis = available.find((c) => c.key === 'disruption');
  // 3.1.0: say which term gave the index, and how the floor was computed.
  const reading =
    floor !== null && dis && floor > sum
      ? `${used}; physical floor 75 × ${dis.freshness_factor} × clip(${fmt(dis.inputs.share_lost ?? null)} / 0.07, 0, 1) = ${floor} is larger: **${s.stress.index}**, band **${s.stress.band}**.`
      : `${used}${floor !== null ? ` (physical floor ${floor})` : ''}: **${s.stress.index}**, band **${s.stress.band}**.`;
  return [
    `**\`${s.slug}\`**, reading of ${s.stress.as_of} (coverage ${s.stress.coverage}):`,
    '',
    '| Component | raw | score | input date | input age | weight × factor | effective weight | contribution |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    s.stress.index === null ? `No index: ${s.stress.reason}.` : reading,
    '',
    s.structural_risk
      ? `Structural risk (apart): **${s.structural_risk.index}** from HHI ${s.structural_risk.hhi} (${s.structural_risk.concentration}) of the ${s.structural_risk.stage} stage, ${s.structural_risk.year}; top supplier ${fmt(s.structural_risk.top_supplier)}.`
      : 'Structural risk: none (no production or trade table by country).',
  ].join('\n');
}

export function countryExample(p: CountryProfile): string {
  const rows = p.stress.parts.map(
    (x) =>
      `| ${x.commodity} | ${x.energy_share} | ${x.import_dependence} | ${x.weight} | ${x.suppliers_at_risk.map((s) => `${s.supplier} ${s.import_share} × ${s.loss} (${s.chokepoint})`).join('; ') || '—'} | ${x.share_at_risk} | ${x.contribution} |`,
  );
  return [
    `**\`${p.iso3}\`** (${p.name}), EI year ${fmt(p.stress.energy_year)}, transits to ${fmt(p.stress.as_of)}:`,
    '',
    '| Fuel | share of primary energy | import dependence | weight | suppliers × loss (route) | share of imports at risk | contribution (% of primary energy) |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
    p.stress_index === null ? `No index: ${p.stress.reason}.` : `Share of primary energy at risk **${fmt(p.stress_index)} %**, band **${fmt(p.stress_band)}**.`,
  ].join('\n');
}

/** The event categories' weights and half-lives, as pipeline/steps/stress.ts holds them, heaviest first. */
export function eventWeightsTable(): string {
  const rows = (Object.entries(CATEGORY_WEIGHTS) as [keyof typeof CATEGORY_WEIGHTS, number][])
    .sort((a, b) => b[1] - a[1])
    .map(([category, weight]) => `| ${category} | ${weight.toFixed(1)} | ${HALF_LIFE_DAYS[category]} |`);
  return ['| Category | Weight | h: half-life (days) |', '|---|---|---|', ...rows].join('\n');
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
    'event-weights': eventWeightsTable(),
  };
}

/** Replace each `<!-- generated:name -->…<!-- /generated -->` block of `doc` with its rendering. */
export function fillBlocks(doc: string, blocks: Record<string, string>): string {
  return doc.replace(/<!-- generated:([a-z-]+) -->[\s\S]*?<!-- \/generated -->/g, (whole, name: string) =>
    blocks[name] === undefined ? whole : `<!-- generated:${name} -->\n${blocks[name]}\n<!-- /generated -->`,
  );
}
