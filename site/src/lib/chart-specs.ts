/**
 * Every chart of the site, defined once: a function per chart builds its view (spec, caption,
 * data links, table) from the build's files in one language. The pages, the components and the
 * embed pages (/{lang}/embed/<key>/) all draw from here, so an embedded chart is the page's chart.
 * Keys mirror the pages: commodities/<slug>/price, countries/<ISO3>/import-dependence,
 * reserves/<code>/<iso2>/fill…
 */
import type { Lang } from '../i18n/lang';
import type { ChartView } from './chart-view';
import { commodities, countries, reserves } from './data';
import { commodityChokepointsChart, commodityComponentsChart, commodityPriceChart, commodityShareChart } from './specs/commodities';
import { countryAutonomyChart, countryDependenceChart, countryProductionChart, countryRoutesChart, countryRussiaChart } from './specs/countries';
import { reserveCoverChart, reserveFillChart, reserveLongChart, reserveStockChart } from './specs/reserves';
import { stressHistoryChart } from './specs/stress';

export { commodityChokepointsChart, commodityComponentsChart, commodityPriceChart, commodityShareChart, type ShareKind } from './specs/commodities';
export { countryAutonomyChart, countryDependenceChart, countryProductionChart, countryRoutesChart, countryRussiaChart } from './specs/countries';
export { reserveCharts, reserveCoverChart, reserveFillChart, reserveLongChart, reserveStockChart } from './specs/reserves';
export { briefingCharts } from './specs/briefings';
export { crisesOf, stressHistoryChart, windowLabel } from './specs/stress';
export type { ChartView } from './chart-view';

/** The chart of a key in a language; null when the data has none (no price history, no index…). */
export function chartView(key: string, lang: Lang): ChartView | null {
  const [section, a, b, c] = key.split('/') as [string, string, string, string | undefined];
  if (section === 'commodities') {
    if (b === 'price') return commodityPriceChart(a, lang);
    if (b === 'stress-history') return stressHistoryChart('commodity', a, lang);
    if (b === 'stress-components') return commodityComponentsChart(a, lang);
    if (b === 'chokepoints') return commodityChokepointsChart(a, lang);
    if (b === 'producers' || b === 'consumers' || b === 'reserves') return commodityShareChart(a, b, lang);
  }
  if (section === 'countries') {
    if (b === 'stress-history') return stressHistoryChart('country', a, lang);
    if (b === 'import-dependence') return countryDependenceChart(a, lang);
    if (b === 'self-sufficiency') return countryAutonomyChart(a, lang);
    if (b === 'production') return countryProductionChart(a, lang);
    if (b === 'russian-gas') return countryRussiaChart(a, lang);
    if (b === 'routes') return countryRoutesChart(a, lang);
  }
  if (section === 'reserves') {
    if (c === 'fill') return reserveFillChart(a, b, lang);
    if (c === 'stock') return reserveStockChart(a, b, lang);
    if (c === 'cover') return reserveCoverChart(a, b, lang);
    if (c === 'long') return reserveLongChart(a, b, lang);
  }
  return null;
}

const COMMODITY_CHARTS = ['price', 'stress-history', 'stress-components', 'chokepoints', 'producers', 'consumers', 'reserves'];
const COUNTRY_CHARTS = ['stress-history', 'routes', 'import-dependence', 'self-sufficiency', 'production', 'russian-gas'];

/** Every chart key the build's data has a chart for. */
export function chartKeys(): string[] {
  const keys = [
    ...commodities().data.flatMap((c) => COMMODITY_CHARTS.map((k) => `commodities/${c.slug}/${k}`)),
    ...countries().data.flatMap((c) => COUNTRY_CHARTS.map((k) => `countries/${c.iso3}/${k}`)),
    ...reserves().data.flatMap((r) => ['fill', 'stock', 'cover', 'long'].map((k) => `reserves/${r.commodity}/${r.country}/${k}`)),
  ];
  return keys.filter((k) => {
    if (chartView(k, 'en') === null) return false;
    // A gas reserve charts its fill; the others their stock and cover.
    const [, code, iso2, kind] = k.split('/') as [string, string, string, string];
    return k.startsWith('reserves/') && (kind === 'stock' || kind === 'cover') ? reserveFillChart(code, iso2, 'en') === null : true;
  });
}
