import { getTimeseries } from '../../queries/reserves.ts';
import { defineTool, footer, num, resultMeta } from './common.ts';

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
  const summary =
    first && last
      ? `${data.metric} of ${data.commodity} reserve in ${data.country}, ${data.frequency}: ${num(first.value)} ${data.unit} on ${first.date} → ${num(last.value)} ${data.unit} on ${last.date} (${data.points.length} points)`
      : `${data.metric} of ${data.commodity} reserve in ${data.country}: no observation between ${data.from} and ${data.to}`;
  return { structured: { ...resultMeta(meta, notes), ...data }, summary: `${summary}. ${footer(b, meta.as_of)}` };
});
