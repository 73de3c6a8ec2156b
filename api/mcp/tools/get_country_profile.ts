import { getCountry } from '../../queries/countries.ts';
import { defineTool, httpLinks, num, pct, resultMeta, seriesText, share, table } from './common.ts';

const code = (slug: string) => slug.slice(slug.indexOf('.') + 1);
const suppliers = (xs: readonly { name: string; share: number }[]) =>
  xs
    .slice(0, 3)
    .map((s) => `${s.name} ${share(s.share)}`)
    .join(', ') || 'n/a';

export default defineTool('get_country_profile', (b, args) => {
  const { data, meta } = getCountry(b, args).envelope();
  const top = [...data.stress.parts].sort((x, y) => y.contribution - x.contribution).slice(0, 3);
  const parts = [
    `${data.name} (${data.iso3}): supply stress ${data.stress_index ?? 'n/a'}${data.stress_band ? ` (${data.stress_band})` : ''}`,
    top.length ? `largest contributions from ${top.map((p) => `${p.commodity} (import dependence ${pct(p.import_dependence * 100, 0)})`).join(', ')}` : null,
    data.reserves.length
      ? `reserves: ${data.reserves.map((r) => `${r.commodity} ${r.fill_pct !== null ? pct(r.fill_pct) : ''} on ${r.as_of}`).join(', ')}`
      : null,
  ].filter(Boolean);
  const figures = [
    data.stress.parts.length
      ? `Stress index parts (${data.stress.method}):\n${table(
          ['commodity', 'benchmark', 'commodity_stress', 'energy_share', 'import_dependence', 'supplier_hhi', 'weight', 'contribution'],
          data.stress.parts.map((p) => [
            code(p.commodity),
            code(p.benchmark),
            p.commodity_stress,
            share(p.energy_share),
            share(p.import_dependence),
            p.supplier_hhi,
            num(p.weight),
            p.contribution,
          ]),
        )}`
      : `Stress index: ${data.stress.reason ?? 'n/a'}`,
    data.exposures.length
      ? `Energy exposures:\n${table(
          ['commodity', 'year', 'import_dependence', 'energy_share', 'consumption', 'production', 'supplier_hhi', 'main suppliers'],
          data.exposures.map((e) => [
            code(e.commodity),
            e.year,
            share(e.import_dependence),
            share(e.energy_share),
            `${num(e.consumption)} ${e.unit}`,
            e.production === null ? null : `${num(e.production)} ${e.unit}`,
            e.supplier_hhi,
            suppliers(e.suppliers),
          ]),
        )}`
      : null,
    data.mineral_exposures.length
      ? `Mineral exposures (net import reliance):\n${table(
          ['commodity', 'year', 'net_import_reliance', 'commodity_stress', 'points', 'main suppliers'],
          data.mineral_exposures.map((m) => [code(m.commodity), m.year, m.net_import_reliance_printed, m.commodity_stress, m.points, suppliers(m.suppliers)]),
        )}`
      : null,
    data.autonomy.length
      ? `Autonomy (production / consumption): ${data.autonomy.map((a) => `${code(a.commodity)} ${share(a.ratio)} (${a.year})`).join(', ')}`
      : null,
    data.supplier_concentration.length
      ? `Supplier concentration (HHI): ${data.supplier_concentration.map((s) => `${code(s.commodity)} ${num(s.hhi)} (${s.year})`).join(', ')}`
      : null,
    data.production.length
      ? `Share of world production: ${data.production
          .slice(0, 10)
          .map((p) => `${code(p.commodity)} ${share(p.share, 1)} (rank ${p.rank}, ${p.year})`)
          .join(', ')}${data.production.length > 10 ? ', …' : ''}`
      : null,
    data.reserves.length
      ? `Reserves: ${data.reserves.map((r) => `${r.commodity}/${r.country} ${r.fill_pct !== null ? pct(r.fill_pct) : 'n/a'} on ${r.as_of}`).join(', ')}`
      : 'Reserves: none published',
    seriesText(
      'Stress index history, monthly',
      data.stress_history.map((p) => ({ date: p.date, value: p.index ?? Number.NaN })).filter((p) => Number.isFinite(p.value)),
      '0–100',
    ),
  ].filter((x): x is string => !!x);
  return {
    structured: { ...resultMeta(meta), ...data },
    summary: `${parts.join('; ')}.`,
    figures: figures.join('\n\n'),
    links: [
      { uri: `chokepoint://country/${data.iso3}`, name: `country-${data.iso3}`, title: `${data.name} profile, MCP resource`, mimeType: 'application/json' },
      ...httpLinks(b, data.url, `${data.name} profile`, false),
    ],
  };
});
