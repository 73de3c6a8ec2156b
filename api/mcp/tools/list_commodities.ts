import { listCommodities } from '../../queries/commodities.ts';
import { priceUnit } from '../../../lib/format.ts';
import { defineTool, num, resultMeta, table } from './common.ts';

export default defineTool('list_commodities', (b, args) => {
  const { data: all, meta } = listCommodities(b, { ...(args.group ? { group: args.group } : {}) }).envelope();
  const data = all.slice(0, args.limit);
  const notes =
    data.length < all.length ? [`the first ${data.length} of ${all.length} commodities; raise limit (at most 100) or filter by group for the others`] : [];
  const stressed = data
    .filter((c) => c.stress_index !== null)
    .sort((x, y) => (y.stress_index ?? 0) - (x.stress_index ?? 0))
    .slice(0, 3);
  return {
    structured: { commodities: data, count: data.length, total: all.length, ...resultMeta(meta, notes) },
    summary: `${data.length} commodities${args.group ? ` in ${args.group}` : ''}${stressed.length ? `; most stressed: ${stressed.map((c) => `${c.name} ${c.stress_index}`).join(', ')}` : ''}.`,
    figures: table(
      ['code', 'slug', 'name', 'price', 'price_as_of', 'change_1y_pct', 'stress_index', 'stress_band', 'updated_at'],
      data.map((c) => [
        c.code,
        c.slug,
        c.name,
        c.price ? `${num(c.price.value)} ${priceUnit(c.price)}` : null,
        c.price?.as_of,
        c.price?.change_1y_pct,
        c.stress_index,
        c.stress_band,
        c.updated_at,
      ]),
    ),
  };
});
