import { listScenarios } from '../../queries/content.ts';
import { defineTool, footer, resultMeta } from './common.ts';

export default defineTool('list_scenarios', (b, args) => {
  const { data, meta } = listScenarios(b, args).envelope();
  const top = [...data].sort((x, y) => y.probability * y.severity - x.probability * x.severity).slice(0, 3);
  const tops = top.map((s) => `${s.title} (${s.status}, p=${s.probability}, severity ${s.severity})`).join('; ');
  return {
    structured: { scenarios: data, count: data.length, ...resultMeta(meta) },
    summary: `${data.length} scenario(s)${data.length ? `; highest risk: ${tops}` : ''}. ${footer(b, meta.as_of)}`,
  };
});
