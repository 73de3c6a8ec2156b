import { numUpTo } from '../../../lib/format.ts';
import { getTimeseries } from '../../queries/reserves.ts';
import { defineTool, httpLinks, resultMeta, seriesLine } from './common.ts';

/** Without an explicit frequency, a longer series is resampled (weekly, then monthly) to stay compact. */
export const MAX_POINTS = 400;

export default defineTool('get_reserve_timeseries', (b, args) => {
  let answer = getTimeseries(b, args).envelope();
  const notes: string[] = [];
  if (!args.frequency && answer.data.points.length > MAX_POINTS) {
    const native = answer.data.points.length;
    for (const frequency of ['weekly', 'monthly'] as const) {
      if (frequency === 'weekly' && answer.data.frequency !== 'daily') continue;
      answer = getTimeseries(b, { ...args, frequency }).envelope();
      if (answer.data.points.length <= MAX_POINTS) break;
    }
    notes.push(
      `${native} points at the native frequency; resampled to ${answer.data.frequency} (${answer.data.points.length} points). Ask for a frequency to choose it.`,
    );
  }
  const { data, meta } = answer;
  const first = data.points[0];
  const last = data.points.at(-1);
  const label = `${data.metric} of the ${data.commodity} reserve in ${data.country}, ${data.frequency}`;
  const summary =
    first && last
      ? `${label}: ${numUpTo(first.value)} ${data.unit} on ${first.date} → ${numUpTo(last.value)} ${data.unit} on ${last.date} (${data.points.length} points)`
      : `${label}: no observation between ${data.from} and ${data.to}`;
  // The query as asked, for the links: the same series over HTTP (every point at the native frequency without a frequency).
  const query = new URLSearchParams({ commodity: data.commodity, country: data.country, from: data.from, to: data.to, metric: data.metric });
  if (args.frequency) query.set('frequency', args.frequency);
  return {
    structured: { ...resultMeta(meta, notes), ...data },
    summary: data.points.length > 2 ? seriesLine(label, data.points, data.unit) : `${summary}.`,
    links: [
      ...httpLinks(b, `/v1/reserves/timeseries?${query.toString()}`, `${data.commodity}/${data.country} ${data.metric} series`, true),
      {
        uri: `chokepoint://reserve/${data.commodity}/${data.country}`,
        name: `reserve-${data.commodity}-${data.country}`,
        title: `${data.commodity}/${data.country} reserve, last 365 days, MCP resource`,
        mimeType: 'application/json',
      },
    ],
  };
});
