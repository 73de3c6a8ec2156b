import { numUpTo, pct } from '../../../lib/format.ts';
import { getReserve, listReserves } from '../../queries/reserves.ts';
import { defineTool, resultMeta } from './common.ts';

export default defineTool('get_reserve', (b, args) => {
  if (!args.country) {
    // Every country's current reserve of the commodity, as GET /v1/reserves?commodity=… answers.
    const { data, meta } = listReserves(b, args).envelope();
    const fullest = [...data].filter((r) => r.fill_pct !== null).sort((x, y) => (y.fill_pct ?? 0) - (x.fill_pct ?? 0));
    const line = (r: (typeof data)[number]) =>
      `${r.country} ${r.fill_pct !== null ? pct(r.fill_pct, 1) : `${numUpTo(r.volume.value)} ${r.volume.unit}`} on ${r.as_of}`;
    const shown = fullest.length ? fullest : data;
    return {
      structured: { ...resultMeta(meta), reserves: data, count: data.length },
      summary: `${data.length} ${data[0]?.commodity ?? ''} reserve(s)${fullest.length ? ', fullest first' : ''}: ${shown.slice(0, 5).map(line).join('; ')}${shown.length > 5 ? '; …' : ''}.`,
      figures: data
        .map(
          (r) =>
            `- ${r.country} ${r.name}: ${r.fill_pct !== null ? `${pct(r.fill_pct, 1)} full, ` : ''}${numUpTo(r.volume.value)} ${r.volume.unit} on ${r.as_of}${r.gap_to_norm_pct !== null ? ` (${numUpTo(r.gap_to_norm_pct)} pp from the seasonal norm)` : ''}`,
        )
        .join('\n'),
    };
  }
  const { data, meta } = getReserve(b, { commodity: args.commodity, country: args.country }).envelope();
  const parts = [
    `${data.name}: ${data.fill_pct !== null ? `${pct(data.fill_pct, 2)} full, ` : ''}${numUpTo(data.volume.value)} ${data.volume.unit}${data.capacity ? ` of ${numUpTo(data.capacity.value)} ${data.capacity.unit}` : ''} on ${data.as_of}`,
    data.coverage_days !== null ? `${numUpTo(data.coverage_days)} days of cover` : null,
    data.seasonal_norm_pct !== null ? `seasonal norm ${pct(data.seasonal_norm_pct)} (gap ${numUpTo(data.gap_to_norm_pct)} pp)` : null,
    // Against the build date: a deadline already past is said to be past, never counted down from the reading.
    data.target
      ? `target ${pct(data.target.fill_pct, 0)} by ${data.target.date}${data.target.date < b.manifest.generated_at.slice(0, 10) ? ` (passed; the reading of ${data.as_of} is the newest)` : ''}`
      : null,
  ].filter(Boolean);
  return { structured: { ...resultMeta(meta), ...data }, summary: `${parts.join('; ')}.` };
});
