/**
 * The charts under a briefing: one per series it quotes (contract/content.ts BriefingSeries), in
 * the order it first quotes them, at most four. Each is the chart of the series' own page, with
 * the days the briefing quotes marked on it where it has them.
 */
import type { BriefingSeries } from '../../../../contract/content.ts';
import { date } from '../../../../lib/format.ts';
import type { Lang } from '../../i18n/lang';
import { t } from '../../i18n/messages';
import { ms } from '../chart-model';
import { seriesOf, valuesAt } from '../chart-render';
import type { ChartView } from '../chart-view';
import { reserves } from '../data';
import { commodityPriceChart, commodityShareChart } from './commodities';
import { reserveFillChart, reserveStockChart } from './reserves';

/** More would bury the text under its charts; the others are a link away on their pages. */
export const MAX_BRIEFING_CHARTS = 4;

const hasReserve = (code: string, iso2: string) => reserves().data.some((r) => r.commodity === code && r.country === iso2);

function chartOf(s: BriefingSeries, lang: Lang): ChartView | null {
  switch (s.metric) {
    case 'price':
      return s.commodity ? commodityPriceChart(s.commodity, lang) : null;
    case 'gas_storage':
      return s.area && hasReserve('gas', s.area) ? reserveFillChart('gas', s.area, lang) : null;
    case 'producer_share':
      return s.commodity ? commodityShareChart(s.commodity, 'producers', lang) : null;
    case 'us_spr':
      return hasReserve('oil', 'us') ? reserveStockChart('oil', 'us', lang) : null;
  }
}

/**
 * The view with the quoted days its main series has a value at marked, and named in the caption
 * (the marks are drawn only). A day the chart does not show (last year's, on a chart of this
 * year's storage) is left out.
 */
function withDays(view: ChartView, dates: readonly string[], lang: Lang): ChartView {
  const { spec } = view;
  if (spec.type !== 'line' || dates.length === 0) return view;
  const main = seriesOf(spec).find((s) => s.kind === 'main');
  const days = main ? dates.filter((d) => valuesAt([main], ms(d))[0]!.v !== null) : [];
  if (days.length === 0) return view;
  const said = t(lang).briefings.markedDays(days.map((d) => date(d, lang)).join(', '));
  return { ...view, spec: { ...spec, days }, caption: view.caption ? `${view.caption} ${said}` : said };
}

export function briefingCharts(series: readonly BriefingSeries[], lang: Lang): ChartView[] {
  const out: ChartView[] = [];
  for (const s of series) {
    if (out.length === MAX_BRIEFING_CHARTS) break;
    const view = chartOf(s, lang);
    // A series quoted twice (or two producers' shares of one commodity) is one chart.
    if (view && !out.some((v) => v.spec.key === view.spec.key)) out.push(withDays(view, s.dates, lang));
  }
  return out;
}
