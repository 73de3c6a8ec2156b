import { getCommodity } from '../../queries/commodities.ts';
import { resample } from '../../queries/reserves.ts';
import { defineTool, footer, num, resultMeta } from './common.ts';

export default defineTool('get_commodity', (b, args) => {
  const { data, meta } = getCommodity(b, args).envelope();
  const notes: string[] = [];
  let history = data.price_history;
  // A daily price history (five years, over a thousand points) is shortened to monthly: the full
  // series stays available over HTTP at the sheet's address.
  if (history && history.frequency === 'daily') {
    const points = resample(history.points, 'monthly');
    notes.push(
      `price_history shortened from ${history.points.length} daily points to ${points.length} (last observation of each month); the daily series is at ${b.manifest.base_url}${data.url}`,
    );
    history = { ...history, frequency: 'monthly', points };
  }
  const summary = [
    `${data.name} (${data.slug}): stress ${data.stress_index ?? 'n/a'}${data.stress_band ? ` (${data.stress_band})` : ''}`,
    data.price
      ? `price ${num(data.price.value)} ${data.price.currency}${data.price.unit ? `/${data.price.unit}` : ''} on ${data.price.as_of}`
      : 'no public price series',
    data.producers?.entries.length
      ? `top producers: ${data.producers.entries
          .slice(0, 3)
          .map((e) => e.name)
          .join(', ')}`
      : null,
    data.concentration ? `supplier concentration HHI ${num(data.concentration.hhi)}` : null,
  ].filter(Boolean);
  return { structured: { ...resultMeta(meta, notes), ...data, price_history: history }, summary: `${summary.join('; ')}. ${footer(b, meta.as_of)}` };
});
