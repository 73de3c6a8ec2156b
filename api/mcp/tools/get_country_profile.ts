import { pct, share } from '../../../lib/format.ts';
import { getCountry } from '../../queries/countries.ts';
import { defineTool, httpLinks, resultMeta } from './common.ts';
import { BAND_WORDS } from '../../../lib/i18n/terms.ts';

const code = (slug: string) => slug.slice(slug.indexOf('.') + 1);
const suppliers = (xs: readonly { name: string; share: number }[]) =>
  xs
    .slice(0, 3)
    .map((s) => `${s.name} ${share(s.share, 0)}`)
    .join(', ') || 'n/a';

export default defineTool('get_country_profile', (b, args) => {
  const { data, meta } = getCountry(b, args).envelope();
  const top = [...data.stress.parts].sort((x, y) => y.contribution - x.contribution).slice(0, 3);
  const parts = [
    `${data.name} (${data.iso3}): supply stress ${data.stress_index ?? 'n/a'}${data.stress_band ? ` (${BAND_WORDS.en[data.stress_band]})` : ''}`,
    top.length ? `largest contributions from ${top.map((p) => `${p.commodity} (import dependence ${pct(p.import_dependence * 100, 0)})`).join(', ')}` : null,
    data.reserves.length
      ? `reserves: ${data.reserves.map((r) => `${r.commodity} ${r.fill_pct !== null ? pct(r.fill_pct) : ''} on ${r.as_of}`).join(', ')}`
      : null,
  ].filter(Boolean);
  const lines = [
    `${parts.join('; ')}.`,
    `Stress index: ${data.stress.parts.length ? 'the share of primary energy supply at risk, in %' : (data.stress.reason ?? 'n/a')}${data.stress.as_of ? `, as of ${data.stress.as_of}` : ''}.`,
    data.exposures.length
      ? `Energy imports: ${data.exposures.map((e) => `${code(e.commodity)} ${share(e.import_dependence, 0)} of consumption (${e.year}; main suppliers ${suppliers(e.suppliers)})`).join('; ')}.`
      : null,
    data.mineral_exposures.length
      ? `Minerals, net import reliance: ${data.mineral_exposures
          .slice(0, 5)
          .map((m) => `${code(m.commodity)} ${m.net_import_reliance_printed} (${m.year})`)
          .join(', ')}${data.mineral_exposures.length > 5 ? ', …' : ''}.`
      : null,
  ].filter(Boolean);
  return {
    structured: { ...resultMeta(meta), ...data },
    summary: lines.join('\n'),
    links: [
      { uri: `chokepoint://country/${data.iso3}`, name: `country-${data.iso3}`, title: `${data.name} profile, MCP resource`, mimeType: 'application/json' },
      ...httpLinks(b, data.url, `${data.name} profile`, false),
    ],
  };
});
