/** The charts of a country's page: import dependence, self-sufficiency, share of world production, Russian gas. */
import { pct, qty, share } from '../../../../lib/format.ts';
import { LOCALES, type Lang } from '../../i18n/lang';
import { t } from '../../i18n/messages';
import { pack, type BarSpec, type LineSpec } from '../chart-model';
import { credit, pctSuffix, sourcesText, specBase as base, type ChartView } from '../chart-view';
import { commodityName, countries, country, countryName } from '../data';

type Profile = ReturnType<typeof country>['data'];
const HAS: Record<'stress' | 'dependence' | 'autonomy', (p: Profile) => boolean> = {
  stress: (p) => p.stress_history.some((h) => h.index !== null),
  dependence: (p) => p.exposures.some((e) => e.import_dependence !== null),
  autonomy: (p) => p.autonomy.length > 0,
};
const optionCache = new Map<string, { id: string; name: string }[]>();
/** The other countries whose profile has the figures a chart compares, named in `lang`. */
export function profileOptions(self: string, lang: Lang, what: keyof typeof HAS): { id: string; name: string }[] {
  const k = `${lang}|${what}`;
  let all = optionCache.get(k);
  if (!all) {
    all = countries()
      .data.filter((c) => HAS[what](country(c.iso3).data))
      .map((c) => ({ id: c.iso3, name: countryName(c.iso3, lang) }))
      .sort((a, b) => a.name.localeCompare(b.name, LOCALES[lang]));
    optionCache.set(k, all);
  }
  return all.filter((o) => o.id !== self);
}

export function countryDependenceChart(iso3: string, lang: Lang): ChartView | null {
  const { data: p, meta } = country(iso3);
  const dep = p.exposures.filter((e) => e.import_dependence !== null);
  if (dep.length === 0) return null;
  const m = t(lang).country;
  const key = `countries/${iso3}/import-dependence`;
  const name = countryName(iso3, lang);
  const spec: BarSpec = {
    type: 'bar',
    ...base(key, lang),
    title: m.depTitle(name),
    desc: dep.map((e) => `${commodityName(e.commodity, lang)} ${share(e.import_dependence, 0, lang)}`).join(', '),
    credit: credit(lang, meta, sourcesText(meta, [dep[0]!.source]), `/countries/${iso3}/`),
    fmt: { d: 0, k: 100, s: pctSuffix(lang) },
    cats: dep.map((e) => ({ key: e.commodity, label: commodityName(e.commodity, lang) })),
    series: [{ label: name, kind: 'main', values: dep.map((e) => e.import_dependence) }],
    max: 1,
    compare: {
      from: 'profile',
      url: '/v1/countries/{id}',
      field: 'import_dependence',
      label: '{name}',
      options: profileOptions(iso3, lang, 'dependence'),
    },
  };
  return {
    spec,
    lang,
    json: `/v1/countries/${iso3}`,
    csv: `/countries/${iso3}/exposures.csv`,
    page: `/countries/${iso3}/`,
  };
}

export function countryAutonomyChart(iso3: string, lang: Lang): ChartView | null {
  const { data: p, meta } = country(iso3);
  if (p.autonomy.length === 0) return null;
  const m = t(lang).country;
  const key = `countries/${iso3}/self-sufficiency`;
  const name = countryName(iso3, lang);
  const pc = (r: number) => pct(r * 100, 0, lang);
  const spec: BarSpec = {
    type: 'bar',
    ...base(key, lang),
    title: m.autTitle(name),
    desc: p.autonomy.map((a) => `${commodityName(a.commodity, lang)} ${pc(a.ratio)}`).join(', '),
    credit: credit(lang, meta, sourcesText(meta, [p.autonomy[0]!.source]), `/countries/${iso3}/`),
    fmt: { d: 0, k: 100, s: pctSuffix(lang) },
    cats: p.autonomy.map((a) => ({ key: a.commodity, label: commodityName(a.commodity, lang) })),
    // Bars stop at 300 %; the printed value is the ratio itself.
    series: [{ label: name, kind: 'main', values: p.autonomy.map((a) => Math.min(a.ratio, 3)), display: p.autonomy.map((a) => pc(a.ratio)) }],
    max: Math.max(1, ...p.autonomy.map((a) => Math.min(a.ratio, 3))),
    compare: { from: 'profile', url: '/v1/countries/{id}', field: 'autonomy', cap: 3, label: '{name}', options: profileOptions(iso3, lang, 'autonomy') },
  };
  return {
    spec,
    lang,
    caption: m.autNote,
    json: `/v1/countries/${iso3}`,
    csv: `/countries/${iso3}/autonomy.csv`,
    page: `/countries/${iso3}/`,
  };
}

export function countryProductionChart(iso3: string, lang: Lang): ChartView | null {
  const { data: p, meta } = country(iso3);
  const top = p.production.slice(0, 12);
  if (top.length === 0) return null;
  const m = t(lang).country;
  const key = `countries/${iso3}/production`;
  const name = countryName(iso3, lang);
  const spec: BarSpec = {
    type: 'bar',
    ...base(key, lang),
    title: m.prodTitle(name),
    desc: top.map((x) => `${commodityName(x.commodity, lang)} ${share(x.share, 1, lang)} (${m.rank(x.rank)})`).join(', '),
    credit: credit(lang, meta, sourcesText(meta, [...new Set(top.map((x) => x.source))]), `/countries/${iso3}/`),
    fmt: { d: 1, k: 100, s: pctSuffix(lang) },
    cats: top.map((x) => ({ key: x.commodity, label: commodityName(x.commodity, lang) })),
    series: [{ label: name, kind: 'main', values: top.map((x) => x.share), display: top.map((x) => `${share(x.share, 1, lang)} · #${x.rank}`) }],
  };
  return {
    spec,
    lang,
    json: `/v1/countries/${iso3}`,
    csv: `/countries/${iso3}/production.csv`,
    table: {
      caption: m.prodTable(name),
      headers: [m.colCommodity, m.colProduction, m.colShare, m.colRank, m.colYear],
      rows: p.production.map((x) => [commodityName(x.commodity, lang), `${qty(x.value, lang)} ${x.unit}`, share(x.share, 2, lang), x.rank, x.year]),
      numeric: [false, true, true, true, true],
    },
    page: `/countries/${iso3}/`,
  };
}

export function countryRussiaChart(iso3: string, lang: Lang): ChartView | null {
  const { data: p, meta } = country(iso3);
  const ru = p.russian_gas_import_share;
  if (ru.length < 2) return null;
  const m = t(lang).country;
  const key = `countries/${iso3}/russian-gas`;
  const [a, b] = [ru[0]!.year, ru.at(-1)!.year];
  const spec: LineSpec = {
    type: 'line',
    ...base(key, lang),
    title: m.ruTitle(countryName(iso3, lang), a, b),
    desc: ru.map((r) => `${r.year}: ${share(r.share, 0, lang)}`).join(', '),
    credit: credit(lang, meta, sourcesText(meta, ['eurostat-gas-imports-by-partner']), `/countries/${iso3}/`),
    fmt: { d: 0, s: pctSuffix(lang) },
    height: 260,
    freq: 'annual',
    unit: '%',
    yMin: 0,
    yMax: 100,
    series: [{ label: m.ruSeries, kind: 'main', data: pack(ru.map((r) => ({ date: `${r.year}-07-01`, value: Math.round(r.share * 10000) / 100 }))) }],
  };
  return {
    spec,
    lang,
    caption: m.ruCaption(a, b, share(ru.at(-1)!.share, 0, lang)),
    json: `/v1/countries/${iso3}`,
    csv: `/countries/${iso3}/russian-gas.csv`,
    page: `/countries/${iso3}/`,
  };
}

/** The measured chokepoints a country's fuel imports pass: share of each fuel's imports behind them, and their transit level. */
export function countryRoutesChart(iso3: string, lang: Lang): ChartView | null {
  const { data: p, meta } = country(iso3);
  const rows = p.exposures.flatMap((e) => e.routes.map((r) => ({ ...r, commodity: e.commodity })));
  if (rows.length === 0) return null;
  const m = t(lang).country;
  const key = `countries/${iso3}/routes`;
  const name = countryName(iso3, lang);
  const label = (r: (typeof rows)[number]) => `${commodityName(r.commodity, lang)} · ${t(lang).chokepoint[r.chokepoint] ?? r.name}`;
  const spec: BarSpec = {
    type: 'bar',
    ...base(key, lang),
    title: m.routesTitle(name),
    desc: rows
      .map((r) => `${label(r)} ${share(r.import_share, 0, lang)}${r.level_vs_normal === null ? '' : ` (${share(r.level_vs_normal, 0, lang)})`}`)
      .join(', '),
    credit: credit(lang, meta, sourcesText(meta, ['ei-statistical-review-2024', 'imf-portwatch-chokepoints']), `/countries/${iso3}/`),
    fmt: { d: 0, k: 100, s: pctSuffix(lang) },
    cats: rows.map((r) => ({ key: `${r.commodity}/${r.chokepoint}`, label: label(r) })),
    series: [
      {
        label: name,
        kind: 'main',
        values: rows.map((r) => r.import_share),
        display: rows.map((r) => `${share(r.import_share, 0, lang)}${r.level_vs_normal === null ? '' : ` · ${share(r.level_vs_normal, 0, lang)}`}`),
      },
    ],
    max: 1,
  };
  return { spec, lang, caption: m.routesCaption, json: `/v1/countries/${iso3}`, page: `/countries/${iso3}/` };
}
