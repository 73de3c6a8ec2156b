/**
 * A chart as a page shows it: the spec (drawn, embedded as JSON, exported) and what goes around
 * it (caption, data links, table, legend extras, embed code). Built by chart-specs.ts, rendered
 * by components/Chart.astro. Build-time only.
 */
import type { Meta } from '../../../contract/common.ts';
import type { Lang } from '../../../contract/languages.ts';
import { pct } from '../../../lib/format.ts';
import { chartMessages } from '../i18n/chart-messages';
import { LOCALES, path } from '../i18n/lang';
import { t } from '../i18n/messages';
import { BAR } from './chart-render';
import type { ChartSpec, ChartUi, Credit } from './chart-model';
import { site } from './data';

export interface ChartTable {
  caption: string;
  headers: string[];
  rows: (string | number)[][];
  numeric?: boolean[];
  /** Rows of the whole series when the table shows only the newest. */
  total?: number;
}

export interface ChartView {
  spec: ChartSpec;
  lang: Lang;
  caption?: string;
  /** The caption in an embed, where what the page shows around the chart is not there. */
  embedCaption?: string;
  json?: string;
  csv?: string;
  table?: ChartTable;
  /** Legend entries besides the series: a swatch class of global.css and its words. */
  legend?: { swatch: string; label: string }[];
  /** The page the chart belongs to, in its language (relative). */
  page: string;
  /** The chart's height on its embed page, where it is drawn smaller here (the compact version). */
  embedChartHeight?: number;
}

/** The chart's key as a DOM id and file name stem: commodities/energy.oil/price → commodities-energy-oil-price. */
export const idOf = (key: string) => key.replace(/[^a-zA-Z0-9]+/g, '-').toLowerCase();

/** ' %' in English, a narrow no-break space in French, a no-break space in German and Spanish (lib/format.ts pct). */
export const pctSuffix = (lang: Lang) => pct(0, 0, lang).replace(/^0/, '');

/** What every spec carries: its key, the DOM id and file name made from it, the locale, the UI's words. */
export const specBase = (key: string, lang: Lang) => ({ key, id: idOf(key), locale: LOCALES[lang], ui: ui(lang) });

export function ui(lang: Lang): ChartUi {
  const m = chartMessages(lang);
  return {
    keys: m.keys,
    added: m.added,
    failed: m.failed,
    loading: m.loading,
    remove: m.remove,
    limit: m.limit,
    copied: m.copied,
    gap: t(lang).history.noIndex,
  };
}

/** The publishers of these sources of the payload, as a "Source:" line. */
export function sourcesText(meta: Meta, ids: readonly string[]): string {
  const named = meta.sources.filter((s) => ids.includes(s.id)).map((s) => `${s.publisher}, ${s.dataset}`);
  return [...new Set(named)].join('; ');
}

/** Source, licence and backlink of a chart on `page` (a path without the language). */
export function credit(lang: Lang, meta: Meta, source: string, page: string): Credit {
  const m = chartMessages(lang);
  const named = lang !== 'en' && meta.sources.some((s) => source.includes(s.dataset));
  return {
    source: m.sourceLine(source),
    ...(named ? { english: { label: m.sourceLine(''), names: source } } : {}),
    // English carries the attribution exactly as every API response publishes it.
    licence: lang === 'en' ? meta.attribution : m.licence(site.baseUrl),
    license: meta.license,
    licenseUrl: meta.license_url,
    page: `${site.baseUrl}${path(lang, page)}`,
  };
}

/** The range buttons worth offering: only the spans shorter than the series. */
export function rangesFor(first: string | undefined, last: string | undefined): number[] {
  if (!first || !last) return [];
  const years = (Date.parse(last) - Date.parse(first)) / (365.25 * 86_400_000);
  return [1, 5, 10].filter((n) => years > n);
}

const lines = (text: string | undefined, perLine: number) => (text ? Math.ceil(text.length / perLine) : 0);

/**
 * The height an iframe of the chart needs in a column about 640 px wide (an article's), so that
 * it shows whole: title, caption, controls, legend, chart, source and licence lines, estimated
 * from their lengths at the embed page's font sizes.
 */
export function embedHeight(view: ChartView): number {
  const { spec } = view;
  const series = spec.series.length + (spec.compare ? 1 : 0);
  const chart =
    spec.type === 'line' ? (view.embedChartHeight ?? spec.height) : spec.cats.length * (BAR.label + series * (BAR.bar + BAR.gap) - BAR.gap + BAR.row);
  const controls = (spec.type === 'line' && spec.ranges?.length) || spec.compare ? 40 : 0;
  const legendWidth = spec.series.reduce((w, s) => w + s.label.length * 7 + 40, 0) + (view.legend ?? []).reduce((w, x) => w + x.label.length * 7 + 40, 0);
  const legend = series > 1 || view.legend?.length ? Math.ceil(legendWidth / 600) * 24 : 0;
  const text =
    24 * lines(spec.title, 58) +
    21 * lines(view.embedCaption ?? view.caption, 88) +
    18 * lines(spec.credit.source, 100) +
    17 * lines(spec.credit.licence, 100) +
    20;
  // Rounded up, with room for a line more than the estimate.
  return Math.ceil((32 + text + controls + legend + chart + 16 + 30) / 10) * 10;
}

/** Where the embeddable version of a chart lives. */
export const embedPath = (lang: Lang, key: string) => `/${lang}/embed/${key}/`;
export const embedUrl = (lang: Lang, key: string) => `${site.baseUrl}${embedPath(lang, key)}`;

export type { ChartSpec };
