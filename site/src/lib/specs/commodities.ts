/** The charts of a commodity's page: its price, what makes up its stress index, its producers and consumers. */
import { num, priceUnit, qty, date, share, signedPct } from '../../../../lib/format.ts';
import { chartMessages } from '../../i18n/chart-messages';
import type { Lang } from '../../i18n/lang';
import { t } from '../../i18n/messages';
import { pack, type BarSpec, type LineSpec } from '../chart-model';
import { credit, pctSuffix, rangesFor, sourcesText, specBase as base, type ChartView } from '../chart-view';
import { commodityName, placeName, sheet } from '../data';

export function commodityPriceChart(slug: string, lang: Lang): ChartView | null {
  const { data: c, meta } = sheet(slug);
  const ph = c.price_history;
  if (!ph || ph.points.length < 2) return null;
  const m = t(lang).commodity;
  const key = `commodities/${slug}/price`;
  const unit = priceUnit(ph, t(lang).common.quantityUnstated);
  const values = ph.points.map((p) => p.value);
  const benchmark = c.price?.benchmark ?? m.price;
  // The benchmark is named in English by its publisher: in the other languages the chart's text
  // (description, line, caption) names the commodity; the page shows the benchmark, marked as English.
  const line = lang === 'en' ? benchmark : commodityName(slug, lang);
  const change = c.price?.change_1y_pct;
  const spec: LineSpec = {
    type: 'line',
    ...base(key, lang),
    title: m.priceTitle(commodityName(slug, lang), ph.points[0]!.date.slice(0, 4), ph.points.at(-1)!.date.slice(0, 4)),
    desc: m.priceDesc(
      line,
      `${qty(c.price?.value, lang)} ${ph.unit ? `${ph.currency}${m.per(ph.unit)}` : unit}`,
      date(c.price?.as_of, lang),
      change === null || change === undefined ? null : signedPct(change, 1, lang),
      qty(Math.min(...values), lang),
      qty(Math.max(...values), lang),
    ),
    credit: credit(lang, meta, sourcesText(meta, c.price ? [c.price.source] : []), `/commodities/${slug}/`),
    fmt: { d: 'q' },
    height: 280,
    freq: ph.frequency,
    unit,
    series: [{ label: line, kind: 'main', data: pack(ph.points) }],
    ranges: rangesFor(ph.points[0]?.date, ph.points.at(-1)?.date),
  };
  return {
    spec,
    lang,
    caption: m.priceCaption(line, t(lang).frequency[ph.frequency] ?? ph.frequency, c.price?.source ?? ''),
    json: `/v1/commodities/${slug}`,
    csv: `/commodities/${slug}/price.csv`,
    table: {
      caption: m.priceTable(commodityName(slug, lang), unit),
      headers: [m.colDate, m.price],
      rows: ph.points
        .slice(-36)
        .reverse()
        .map((p) => [p.date, qty(p.value, lang)]),
      numeric: [false, true],
      total: ph.points.length,
    },
    page: `/commodities/${slug}/`,
  };
}

export function commodityComponentsChart(slug: string, lang: Lang): ChartView {
  const { data: c, meta } = sheet(slug);
  const T = t(lang);
  const key = `commodities/${slug}/stress-components`;
  const comps = c.stress.components;
  const label = (k: (typeof comps)[number]) => (lang === 'en' ? k.name : ((T.component as Record<string, string>)[k.key] ?? k.name));
  const spec: BarSpec = {
    type: 'bar',
    ...base(key, lang),
    title: T.commodity.partsTitle(commodityName(slug, lang)),
    desc: comps.map((k) => `${label(k)}: ${k.available ? T.units.points(num(k.contribution, 1, lang)) : T.common.unavailable}`).join('; '),
    credit: credit(lang, meta, chartMessages(lang).stressSource(c.stress.methodology_version), `/commodities/${slug}/`),
    fmt: { d: 1 },
    cats: comps.map((k) => ({ key: k.key, label: label(k) })),
    series: [
      {
        label: T.commodity.colPoints,
        kind: 'main',
        values: comps.map((k) => k.contribution ?? 0),
        display: comps.map((k) => (k.available ? T.units.pts(num(k.contribution, 1, lang)) : T.common.na)),
      },
    ],
    max: Math.max(25, ...comps.map((k) => k.contribution ?? 0)),
  };
  return {
    spec,
    lang,
    caption: T.commodity.partsCaption(num(c.stress_index, 1, lang), c.stress.methodology_version),
    json: `/v1/commodities/${slug}`,
    page: `/commodities/${slug}/`,
  };
}

export type ShareKind = 'producers' | 'consumers' | 'reserves';

export function commodityShareChart(slug: string, which: ShareKind, lang: Lang): ChartView | null {
  const { data: c, meta } = sheet(slug);
  const table = which === 'reserves' ? c.reserves_in_ground : c[which];
  if (!table || table.entries.length === 0) return null;
  const m = t(lang).commodity;
  const key = `commodities/${slug}/${which}`;
  const top = table.entries.slice(0, 10);
  const names = top.map((e) => placeName(e.iso3, e.name, lang));
  const spec: BarSpec = {
    type: 'bar',
    ...base(key, lang),
    title: m.shareTitle(commodityName(slug, lang), { producers: m.producers, consumers: m.consumers, reserves: m.reservesInGround }[which], table.year),
    desc: top.map((e, i) => `${names[i]} ${share(e.share, 1, lang)}`).join(', '),
    credit: credit(lang, meta, sourcesText(meta, [table.source]) || table.source, `/commodities/${slug}/`),
    fmt: { d: 1, k: 100, s: pctSuffix(lang) },
    cats: top.map((e, i) => ({ key: e.iso3 ?? e.name, label: names[i]! })),
    series: [{ label: commodityName(slug, lang), kind: which === 'consumers' ? 'alt' : 'main', values: top.map((e) => e.share) }],
    max: Math.max(...table.entries.map((e) => e.share)),
  };
  return {
    spec,
    lang,
    json: `/v1/commodities/${slug}`,
    csv: `/commodities/${slug}/${which}.csv`,
    page: `/commodities/${slug}/`,
  };
}

/** The backtest's documented crises of a commodity, oldest first, numbered for the legend. */

/** The measured chokepoints on a commodity's trade routes: transits against their seasonal normal (IMF PortWatch). */
export function commodityChokepointsChart(slug: string, lang: Lang): ChartView | null {
  const { data: c, meta } = sheet(slug);
  const cps = c.chokepoints.filter((k) => k.level_vs_normal !== null);
  if (cps.length === 0) return null;
  const m = t(lang).commodity;
  const cpName = (k: { chokepoint: string; name: string }) => t(lang).chokepoint[k.chokepoint] ?? k.name;
  const key = `commodities/${slug}/chokepoints`;
  const asOf =
    cps
      .map((k) => k.as_of ?? '')
      .sort()
      .at(-1) ?? '';
  const spec: BarSpec = {
    type: 'bar',
    ...base(key, lang),
    title: m.chokepointsTitle(commodityName(slug, lang)),
    desc: cps.map((k) => `${cpName(k)} ${share(k.level_vs_normal, 0, lang)} (${m.chokepointShare} ${share(k.exposure_share, 1, lang)})`).join('; '),
    credit: credit(lang, meta, sourcesText(meta, ['imf-portwatch-chokepoints', ...new Set(cps.map((k) => k.exposure_source))]), `/commodities/${slug}/`),
    fmt: { d: 0, k: 100, s: pctSuffix(lang) },
    cats: cps.map((k) => ({ key: k.chokepoint, label: cpName(k) })),
    series: [
      {
        label: m.chokepointLevel,
        kind: 'main',
        values: cps.map((k) => k.level_vs_normal),
        display: cps.map((k) => `${share(k.level_vs_normal, 0, lang)} · ${share(k.exposure_share, 1, lang)}`),
      },
    ],
    max: Math.max(1, ...cps.map((k) => k.level_vs_normal ?? 0)),
  };
  return { spec, lang, caption: m.chokepointsCaption(date(asOf, lang)), json: `/v1/commodities/${slug}`, page: `/commodities/${slug}/` };
}
