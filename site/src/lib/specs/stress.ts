/** The stress index month by month, of a commodity (with the backtest's crises shaded) or of a country. */
import type { BacktestWindowResult } from '../../../../contract/stress.ts';
import { month, num, pct, share } from '../../../../lib/format.ts';
import { chartMessages } from '../../i18n/chart-messages';
import type { Lang } from '../../i18n/lang';
import { t } from '../../i18n/messages';
import { pack, type CompareSpec, type LineSpec } from '../chart-model';
import { credit, rangesFor, specBase as base, type ChartView } from '../chart-view';
import { backtest, commodityName, country, countryName, sheet } from '../data';
import { profileOptions } from './countries';

type Band = 'low' | 'moderate' | 'high' | 'severe';
const BANDS: readonly { band: Band; from: number; to: number }[] = [
  { band: 'low', from: 0, to: 25 },
  { band: 'moderate', from: 25, to: 50 },
  { band: 'high', from: 50, to: 75 },
  { band: 'severe', from: 75, to: 100 },
];
const COUNTRY_BANDS: readonly { band: Band; from: number; to: number }[] = [
  { band: 'low', from: 0, to: 0.5 },
  { band: 'moderate', from: 0.5, to: 2 },
  { band: 'high', from: 2, to: 7 },
  { band: 'severe', from: 7, to: 100 },
];
const lastDay = (ym: string) => {
  const [y, m] = ym.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
};

/** A backtest window's label in the page's language (data/backtest-labels.yaml gives the translations). */
export const windowLabel = (w: Pick<BacktestWindowResult, 'label' | 'translations'>, lang: Lang): string =>
  lang === 'en' ? w.label : w.translations[lang].label;

export function crisesOf(slug: string): (BacktestWindowResult & { key: string })[] {
  return backtest()
    .data.crises.filter((w) => w.commodity === slug)
    .sort((a, b) => a.from.localeCompare(b.from))
    .map((w, i) => ({ ...w, key: String(i + 1) }));
}

/** The monthly stress index of a commodity or a country over the four bands; null when no month has one. */
export function stressHistoryChart(kind: 'commodity' | 'country', code: string, lang: Lang): ChartView | null {
  const isCommodity = kind === 'commodity';
  const { data: entity, meta } = isCommodity ? sheet(code) : country(code);
  const history = entity.stress_history;
  const scored = history.filter((p) => p.index !== null);
  if (scored.length === 0) return null;
  const T = t(lang);
  const m = T.history;
  const section = isCommodity ? 'commodities' : 'countries';
  const key = `${section}/${code}/stress-history`;
  const name = isCommodity ? commodityName(code, lang) : countryName(code, lang);
  const mo = (d: string | null | undefined) => month(d, lang);
  const span = (a: string, b: string) => (a.slice(0, 7) === b.slice(0, 7) ? mo(a) : `${mo(a)} – ${mo(b)}`);
  const crises = isCommodity ? crisesOf(code) : [];
  const first = history[0]!;
  const last = history.at(-1)!;
  const latest = scored.at(-1)!;
  const peak = scored.reduce((a, p) => (p.index! > a.index! ? p : a));
  const missing = history.length - scored.length;
  const bandWord = (b: Band | null) => (b ? T.band[b] : T.band.none).toLowerCase();
  const counts = BANDS.map((z) => `${bandWord(z.band)} ${history.filter((p) => p.band === z.band).length}`).join(', ');
  const desc = [
    m.descIntro(mo(first.date), mo(last.date)),
    m.descLatest(num(latest.index, 1, lang), bandWord(latest.band), mo(latest.date), num(peak.index, 1, lang), bandWord(peak.band), mo(peak.date)),
    m.descCounts(counts, missing),
    ...crises.map((w) => m.descWindow(w.key, windowLabel(w, lang), span(w.from, w.to))),
  ].join(' ');
  // Commodities read 0–100; a country reads the percent of its primary energy at risk, banded at 0.5 / 2 / 7 % (methodology 3.0.0).
  const top = isCommodity ? 100 : Math.max(10, Math.ceil(peak.index!));
  const bands = isCommodity ? BANDS : COUNTRY_BANDS.map((z) => (z.band === 'severe' ? { ...z, to: top } : z));
  // A band's bound as the page's language writes it ("0,5 %" in French): a whole number without decimals, the country's with its % sign.
  const bound = (x: number, withUnit: boolean) => {
    const digits = Number.isInteger(x) ? 0 : 1;
    return withUnit && !isCommodity ? pct(x, digits, lang) : num(x, digits, lang);
  };
  const scale = {
    yMax: top,
    yTicks: isCommodity ? [0, 25, 50, 75, 100] : [0, 2, 7, top],
    thresholds: bands.slice(1).map((z) => z.from),
    zones: bands.map((z) => ({
      ...z,
      label: `${T.band[z.band]} ${z.band === 'low' ? `< ${bound(z.to, true)}` : z.band === 'severe' ? `≥ ${bound(z.from, true)}` : `${bound(z.from, false)}–${bound(z.to, true)}`}`,
    })),
  };
  const compare: CompareSpec | undefined = isCommodity
    ? undefined
    : { from: 'profile', url: '/v1/countries/{id}', field: 'stress_history', label: '{name}', options: profileOptions(code, lang, 'stress') };
  const spec: LineSpec = {
    type: 'line',
    ...base(key, lang),
    title: m.title(name, mo(first.date), mo(last.date)),
    desc,
    credit: credit(lang, meta, chartMessages(lang).stressSource(entity.stress.methodology_version), `/${section}/${code}/`),
    fmt: { d: 1 },
    height: 260,
    freq: 'monthly',
    yMin: 0,
    ...scale,
    windows: crises.map((w) => ({ from: `${w.from}-01`, to: lastDay(w.to), key: w.key, title: `${w.key}. ${windowLabel(w, lang)} (${w.from} – ${w.to})` })),
    series: [{ label: m.legendLine, kind: 'main', data: pack(history.map((p) => ({ date: p.date, value: p.index }))) }],
    ranges: rangesFor(first.date, last.date),
    ...(compare && compare.options.length ? { compare } : {}),
  };
  const inWindow = (d: string) =>
    crises
      .filter((w) => d.slice(0, 7) >= w.from && d.slice(0, 7) <= w.to)
      .map((w) => w.key)
      .join(', ');
  return {
    spec,
    lang,
    caption: m.caption(isCommodity, crises.length > 0),
    embedCaption: m.caption(isCommodity, false),
    json: `/v1/${section}/${code}`,
    csv: `/${section}/${code}/stress-history.csv`,
    table: {
      caption: m.tableCaption(name, crises.length > 0),
      headers: [m.colMonthEnd, m.colIndex, m.colBand, ...(isCommodity ? [m.colCoverage] : []), ...(crises.length ? [m.colWindow] : [])],
      rows: [...history]
        .reverse()
        .map((p) => [
          p.date,
          p.index === null ? '—' : num(p.index, 1, lang),
          p.band ? T.band[p.band] : m.noIndex,
          ...(isCommodity ? [share(p.coverage, 0, lang)] : []),
          ...(crises.length ? [inWindow(p.date)] : []),
        ]),
      numeric: [false, true, false, ...(isCommodity ? [true] : []), ...(crises.length ? [false] : [])],
    },
    legend: [
      ...(crises.length ? [{ swatch: 'sw-window', label: m.legendWindow }] : []),
      ...(missing ? [{ swatch: 'sw-nodata', label: m.legendNoIndex(isCommodity) }] : []),
    ],
    page: `/${section}/${code}/`,
  };
}
