import { getPrice } from '../../queries/commodities.ts';
import { numUpTo, pctUpTo, priceUnit } from '../../../lib/format.ts';
import { defineTool, resultMeta } from './common.ts';

export default defineTool('get_price', (b, args) => {
  const { data, meta } = getPrice(b, args).envelope();
  const change = data.change_1y_pct !== null ? `, ${data.change_1y_pct >= 0 ? '+' : ''}${pctUpTo(data.change_1y_pct)} over one year` : '';
  return {
    structured: { ...resultMeta(meta), ...data },
    summary: `${data.name}: ${numUpTo(data.value)} ${data.unit ? `${data.currency} per ${data.unit}` : `${priceUnit(data)}${data.unit_note ? `; ${data.unit_note}` : ''}`} (${data.benchmark}, ${data.frequency}) on ${data.as_of}${change}.`,
  };
});
