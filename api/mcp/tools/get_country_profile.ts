import { getCountry } from '../../queries/countries.ts';
import { defineTool, footer, pct, resultMeta } from './common.ts';

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
  return { structured: { ...resultMeta(meta), ...data }, summary: `${parts.join('; ')}. ${footer(b, meta.as_of)}` };
});
