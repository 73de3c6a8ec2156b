import { getCommodity } from '../../queries/commodities.ts';
import { resample } from '../../queries/reserves.ts';
import { numUpTo, pctUpTo, priceUnit, share } from '../../../lib/format.ts';
import { defineTool, httpLinks, resultMeta, seriesLine } from './common.ts';
import { BAND_WORDS } from '../../../lib/i18n/terms.ts';

export default defineTool('get_commodity', (b, args) => {
  const { data, meta } = getCommodity(b, args).envelope();
  const notes: string[] = [];
  let history = data.price_history;
  // A daily price history (five years, over a thousand points) is shortened to monthly: the full
  // series stays available over HTTP at the sheet's address (JSON) and as its CSV.
  if (history && history.frequency === 'daily') {
    const points = resample(history.points, 'monthly');
    notes.push(
      `price_history shortened from ${history.points.length} daily points to ${points.length} (last observation of each month); the daily series is at ${b.manifest.base_url}${data.url} (CSV: ?format=csv)`,
    );
    history = { ...history, frequency: 'monthly', points };
  }
  const top = (x: typeof data.producers) =>
    x?.entries.length
      ? `${x.entries
          .slice(0, 3)
          .map((e) => `${e.name} ${share(e.share, 0)}`)
          .join(', ')} of world ${numUpTo(x.world_total)} ${x.unit} (${x.year})`
      : null;
  const summary = [
    `${data.name} (${data.slug}): stress index ${data.stress_index ?? 'n/a'}${data.stress_band ? ` (${BAND_WORDS.en[data.stress_band]})` : ''} of 100, as of ${data.stress.as_of}${data.stress.index !== null && data.stress.physical_floor !== null && Math.round(data.stress.physical_floor * 10) / 10 >= data.stress.index ? `, set by the physical floor (supply lost on a route with no detour)` : ''}.`,
    data.price
      ? `Price ${numUpTo(data.price.value)} ${priceUnit(data.price)} on ${data.price.as_of} (${data.price.benchmark}, ${data.price.frequency})${data.price.change_1y_pct === null ? '' : `, ${pctUpTo(data.price.change_1y_pct)} over one year`}.${data.price.unit_note ? ` Unit: ${data.price.unit_note}` : ''}`
      : 'No public price series.',
    data.producers?.entries.length ? `Top producers: ${top(data.producers)}.` : null,
    data.concentration ? `Supplier concentration: HHI ${numUpTo(data.concentration.hhi)} (${data.concentration.band}, ${data.concentration.year}).` : null,
    history ? seriesLine(`Price history, ${history.frequency}`, history.points, priceUnit(history)) : null,
  ].filter(Boolean);
  return {
    structured: { ...resultMeta(meta, notes), ...data, price_history: history },
    summary: summary.join('\n'),
    links: [
      { uri: `chokepoint://commodity/${data.slug}`, name: `commodity-${data.slug}`, title: `${data.name} sheet, MCP resource`, mimeType: 'application/json' },
      ...httpLinks(b, data.url, `${data.name} sheet`, false),
      ...(data.price_history
        ? [
            {
              uri: `${b.manifest.base_url}${data.url}?format=csv`,
              name: `${data.slug} price history (CSV)`,
              title: `${data.name} price history (${data.price_history.frequency}, ${data.price_history.points.length} points), CSV`,
              mimeType: 'text/csv',
            },
          ]
        : []),
    ],
  };
});
