import { listCommodities } from '../../queries/commodities.ts';
import { defineTool, footer, resultMeta } from './common.ts';

export default defineTool('list_commodities', (b, args) => {
  const { data, meta } = listCommodities(b, args).envelope();
  const stressed = data
    .filter((c) => c.stress_index !== null)
    .sort((x, y) => (y.stress_index ?? 0) - (x.stress_index ?? 0))
    .slice(0, 3);
  return {
    structured: { commodities: data, count: data.length, ...resultMeta(meta) },
    summary: `${data.length} commodities (codes: ${data.map((c) => c.code).join(', ')})${stressed.length ? `; most stressed: ${stressed.map((c) => `${c.name} ${c.stress_index}`).join(', ')}` : ''}. ${footer(b, meta.as_of)}`,
  };
});
