import { listCommodities } from '../../queries/commodities.ts';
import { numUpTo, priceUnit } from '../../../lib/format.ts';
import { defineTool, pageOf, resultMeta } from './common.ts';
import { BAND_WORDS } from '../../../lib/i18n/terms.ts';

export default defineTool('list_commodities', (b, args) => {
  const { data: all, meta } = listCommodities(b, { ...(args.group ? { group: args.group } : {}) }).envelope();
  const { page: data, offset, next_cursor } = pageOf(all, args);
  const notes = data.length < all.length ? [`commodities ${offset + 1}–${offset + data.length} of ${all.length}; the others: cursor=next_cursor`] : [];
  const stressed = data
    .filter((c) => c.stress_index !== null)
    .sort((x, y) => (y.stress_index ?? 0) - (x.stress_index ?? 0))
    .slice(0, 3);
  return {
    structured: { commodities: data, count: data.length, total: all.length, next_cursor, ...resultMeta(meta, notes) },
    summary: `${data.length} commodities${args.group ? ` in ${args.group}` : ''}${stressed.length ? `; most stressed: ${stressed.map((c) => `${c.name} ${c.stress_index}`).join(', ')}` : ''}.`,
    figures: data
      .map(
        (c) =>
          `- ${c.code} (${c.slug}): ${c.name}; ${c.price ? `${numUpTo(c.price.value)} ${priceUnit(c.price)} on ${c.price.as_of}` : 'no public price'}; stress ${c.stress_index ?? 'n/a'}${c.stress_band ? ` (${BAND_WORDS.en[c.stress_band]})` : ''}`,
      )
      .join('\n'),
  };
});
