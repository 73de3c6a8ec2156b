/** The charts of a reserve: gas storage this year and since its series starts, a stock and its days of cover. */
import { deadlineStatus } from '../../../../contract/freshness.ts';
import { date, num, pct, qty } from '../../../../lib/format.ts';
import type { Lang } from '../../i18n/lang';
import { t } from '../../i18n/messages';
import { pack, type LineSeriesSpec, type LineSpec } from '../chart-model';
import { credit, pctSuffix, rangesFor, sourcesText, specBase as base, type ChartView } from '../chart-view';
import { reserve, reserveSeries, reserves, site } from '../data';
import { reserveName, reservePlace } from '../names';
import { between, seasonalMean, shiftYear, weekly } from '../series';

/** The other reserves of the same commodity one can draw beside this one, named in `lang`. */
function reserveOptions(code: string, iso2: string, lang: Lang) {
  return reserves()
    .data.filter((x) => x.commodity === code && x.country !== iso2)
    .map((x) => ({ id: x.country, name: reservePlace(x.country, x.name, lang) }));
}
const seriesApi = (code: string, iso2: string, q: string) => `/v1/reserves/timeseries?commodity=${code}&country=${iso2}${q}`;

/** Gas storage: fill this year against last year, the seasonal norm and the path to the target. */
export function reserveFillChart(code: string, iso2: string, lang: Lang, compact = false): ChartView | null {
  const { data: r, meta } = reserve(code, iso2);
  const fill = reserveSeries(code, iso2).data.metrics.fill_pct?.points;
  if (r.kind !== 'gas_storage' || !fill) return null;
  const m = t(lang).reserveChart;
  const key = `reserves/${code}/${iso2}/fill`;
  const P = (x: number | null | undefined, digits: number) => pct(x, digits, lang);
  const d = (x: string) => date(x, lang);
  const Y = Number(r.as_of.slice(0, 4));
  const cur = between(fill, `${Y}-01-01`);
  const norm = r.seasonal_norm_years.length ? seasonalMean(fill, r.seasonal_norm_years, Y) : [];
  const years = `${r.seasonal_norm_years[0]}–${r.seasonal_norm_years.at(-1)}`;
  const series: LineSeriesSpec[] = [
    ...(norm.length ? [{ label: m.normSeries(years), kind: 'ref' as const, data: pack(norm) }] : []),
    { label: `${Y - 1}`, kind: 'alt', data: pack(shiftYear(fill, Y - 1, Y)) },
    { label: m.fillSeries(Y), kind: 'main', data: pack(cur) },
  ];
  const tg = r.target;
  // Counted from today (the build date): a deadline already past gets no path.
  const dl = tg ? deadlineStatus({ target: tg.fill_pct, by: tg.date, value: r.fill_pct, as_of: r.as_of, today: site.today }) : null;
  if (tg && dl && r.fill_pct !== null && !dl.passed)
    series.push({
      label: m.pathSeries(P(tg.fill_pct, 0), d(tg.date)),
      kind: 'target',
      data: pack([
        { date: r.as_of, value: r.fill_pct },
        { date: tg.date, value: tg.fill_pct },
      ]),
    });
  const spec: LineSpec = {
    type: 'line',
    ...base(key, lang),
    title: m.gasTitle(reserveName(code, iso2, r.name, lang), Y),
    desc: m.gasDesc(Y, d(r.as_of), P(r.fill_pct, 1), P(r.seasonal_norm_pct, 1), tg ? m.gasDescTarget(P(tg.fill_pct, 0), d(tg.date)) : ''),
    credit: credit(lang, meta, sourcesText(meta, ['gie-agsi-gas-storage']), `/reserves/${code}/${iso2}/`),
    fmt: { d: 2, s: pctSuffix(lang) },
    height: compact ? 260 : 300,
    freq: 'daily',
    unit: m.unitFull,
    yMin: 0,
    yMax: 100,
    series,
    hlines: tg ? [{ value: tg.fill_pct, label: m.targetLine(P(tg.fill_pct, 0)) }] : [],
    markers: tg ? [{ date: tg.date, value: tg.fill_pct, label: m.targetMarker(P(tg.fill_pct, 0), d(tg.date)) }] : [],
    compare: { from: 'reserve', url: seriesApi(code, '{id}', `&from=${Y}-01-01`), label: `{name} ${Y}`, options: reserveOptions(code, iso2, lang) },
  };
  const normBy = new Map(norm.map((x) => [x.date, x.value]));
  const n = (x: number | null | undefined, digits: number) => num(x, digits, lang);
  const need = tg && r.fill_pct !== null ? tg.fill_pct - r.fill_pct : null;
  /** The target sentence: days to go from today, or passed with the newest day's value. */
  function target(): string {
    if (!tg || !dl || need === null) return '';
    const head = m.targetBy(P(tg.fill_pct, 0), d(tg.date));
    if (dl.passed) return m.targetPassed(head, d(r.as_of), P(r.fill_pct, 1), need > 0 ? n(need, 1) : null);
    if (need <= 0) return m.targetReached(head, d(r.as_of));
    const days = dl.days_left;
    const behind = dl.data_behind_days > 0 ? d(r.as_of) : null;
    return days > 0 ? m.targetToGo(head, n(need, 1), n(days, 0), behind, n(need / days, 2)) : m.targetDueToday(head, n(need, 1));
  }
  return {
    spec,
    lang,
    caption: [m.gasCaption(P(r.fill_pct, 1), d(r.as_of), P(r.seasonal_norm_pct, 1), n(r.gap_to_norm_pct, 1)), target()].filter(Boolean).join(' '),
    json: seriesApi(code, iso2, `&from=${Y - 1}-01-01`),
    csv: seriesApi(code, iso2, `&from=${Y - 1}-01-01&format=csv`),
    table: {
      caption: m.gasTable(Y),
      headers: [m.colDate, m.colFill, m.colNorm],
      rows: weekly(cur).map((x) => [x.date, num(x.value, 2, lang), num(normBy.get(x.date), 2, lang)]),
      numeric: [false, true, true],
    },
    page: `/reserves/${code}/${iso2}/`,
    embedChartHeight: 300,
  };
}

const firstOfYears = <T extends { date: string }>(pts: readonly T[]) => pts.filter((p, i) => i === 0 || p.date.slice(0, 4) !== pts[i - 1]!.date.slice(0, 4));

/** A stock since 2000 (the US SPR). */
export function reserveStockChart(code: string, iso2: string, lang: Lang): ChartView | null {
  const { data: r, meta } = reserve(code, iso2);
  const vol = reserveSeries(code, iso2).data.metrics.volume;
  if (!vol) return null;
  const m = t(lang).reserveChart;
  const key = `reserves/${code}/${iso2}/stock`;
  const pts = between(vol.points, '2000-01-01');
  const spec: LineSpec = {
    type: 'line',
    ...base(key, lang),
    title: m.stockTitle(reserveName(code, iso2, r.name, lang)),
    desc: m.stockDesc(qty(r.volume.value, lang), r.volume.unit, date(r.as_of, lang)),
    credit: credit(lang, meta, sourcesText(meta, [r.kind === 'gas_storage' ? 'gie-agsi-gas-storage' : 'eia-weekly-petroleum']), `/reserves/${code}/${iso2}/`),
    fmt: { d: 'q' },
    height: 280,
    freq: 'weekly',
    unit: vol.unit,
    yMin: 0,
    series: [{ label: m.stockSeries, kind: 'main', data: pack(pts) }],
    ranges: rangesFor(pts[0]?.date, pts.at(-1)?.date),
  };
  return {
    spec,
    lang,
    caption: m.stockCaption(
      qty(r.volume.value, lang),
      r.volume.unit,
      date(r.as_of, lang),
      r.commercial_stocks ? `${qty(r.commercial_stocks.value, lang)} ${r.commercial_stocks.unit}` : null,
    ),
    json: seriesApi(code, iso2, '&metric=volume&from=2000-01-01'),
    csv: seriesApi(code, iso2, '&metric=volume&from=2000-01-01&format=csv'),
    table: {
      caption: m.stockTable(vol.unit),
      headers: [m.colDate, vol.unit],
      rows: firstOfYears(pts).map((x) => [x.date, qty(x.value, lang)]),
      numeric: [false, true],
    },
    page: `/reserves/${code}/${iso2}/`,
  };
}

/** Days of net-import cover against the IEA's 90 days. */
export function reserveCoverChart(code: string, iso2: string, lang: Lang): ChartView | null {
  const { data: r, meta } = reserve(code, iso2);
  const cover = reserveSeries(code, iso2).data.metrics.days_of_cover;
  if (!cover || cover.points.length === 0) return null;
  const m = t(lang).reserveChart;
  const key = `reserves/${code}/${iso2}/cover`;
  const from = cover.points[0]!.date;
  const spec: LineSpec = {
    type: 'line',
    ...base(key, lang),
    title: m.coverTitle(reserveName(code, iso2, r.name, lang)),
    desc: m.coverDesc(num(r.coverage_days, 1, lang), date(r.as_of, lang)),
    credit: credit(lang, meta, sourcesText(meta, [r.kind === 'gas_storage' ? 'gie-agsi-gas-storage' : 'eia-weekly-petroleum']), `/reserves/${code}/${iso2}/`),
    fmt: { d: 1 },
    height: 280,
    freq: r.kind === 'gas_storage' ? 'daily' : 'weekly',
    unit: m.unitDays,
    yMin: 0,
    series: [{ label: m.coverSeries, kind: 'main', data: pack(cover.points) }],
    hlines: [{ value: 90, label: m.coverLine }],
    ranges: rangesFor(from, cover.points.at(-1)?.date),
  };
  return {
    spec,
    lang,
    caption: m.coverCaption(num(r.coverage_days, 1, lang), date(r.as_of, lang)),
    json: seriesApi(code, iso2, `&metric=days_of_cover&from=${from}`),
    csv: seriesApi(code, iso2, `&metric=days_of_cover&from=${from}&format=csv`),
    table: {
      caption: m.coverTable,
      headers: [m.colDate, m.colDays],
      rows: firstOfYears(cover.points).map((x) => [x.date, num(x.value, 1, lang)]),
      numeric: [false, true],
    },
    page: `/reserves/${code}/${iso2}/`,
  };
}

/** What a reserve's "now" section charts: the gas fill, or the stock and (unless compact) the cover. */
export function reserveCharts(code: string, iso2: string, lang: Lang, compact = false): ChartView[] {
  const fill = reserveFillChart(code, iso2, lang, compact);
  if (fill) return [fill];
  return [reserveStockChart(code, iso2, lang), compact ? null : reserveCoverChart(code, iso2, lang)].filter((x): x is ChartView => x !== null);
}

/** Gas storage fill week by week since the series starts. */
export function reserveLongChart(code: string, iso2: string, lang: Lang): ChartView | null {
  const { data: r, meta } = reserve(code, iso2);
  const fill = reserveSeries(code, iso2).data.metrics.fill_pct?.points ?? [];
  if (r.kind !== 'gas_storage' || fill.length === 0) return null;
  const T = t(lang);
  const m = T.reserve;
  const key = `reserves/${code}/${iso2}/long`;
  const P = (x: number, digits: number) => pct(x, digits, lang);
  const values = fill.map((p) => p.value);
  // Each week's last reading, as /v1/reserves/timeseries?frequency=weekly gives it.
  const pts = weekly(fill);
  const spec: LineSpec = {
    type: 'line',
    ...base(key, lang),
    title: m.longTitle(reserveName(code, iso2, r.name, lang), fill[0]!.date.slice(0, 4)),
    desc: m.longDesc(date(fill[0]!.date, lang), date(r.as_of, lang), P(Math.min(...values), 1), P(Math.max(...values), 1)),
    credit: credit(lang, meta, sourcesText(meta, ['gie-agsi-gas-storage']), `/reserves/${code}/${iso2}/`),
    fmt: { d: 2, s: pctSuffix(lang) },
    height: 260,
    freq: 'weekly',
    unit: T.reserveChart.unitFull,
    yMin: 0,
    yMax: 100,
    series: [{ label: m.fill, kind: 'main', data: pack(pts) }],
    hlines: r.target ? [{ value: r.target.fill_pct, label: T.reserveChart.targetLine(P(r.target.fill_pct, 0)) }] : [],
    ranges: rangesFor(pts[0]?.date, pts.at(-1)?.date),
    maxPoints: 420,
    compare: {
      from: 'reserve',
      url: seriesApi(code, '{id}', `&from=${r.first_date}&frequency=weekly`),
      label: '{name}',
      options: reserveOptions(code, iso2, lang),
    },
  };
  const q = `&from=${r.first_date}&frequency=weekly`;
  return {
    spec,
    lang,
    json: seriesApi(code, iso2, q),
    csv: seriesApi(code, iso2, `${q}&format=csv`),
    page: `/reserves/${code}/${iso2}/`,
  };
}
