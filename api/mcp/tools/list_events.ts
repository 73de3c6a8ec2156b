import { listEvents } from '../../queries/content.ts';
import { defineTool, footer, resultMeta } from './common.ts';

export default defineTool('list_events', (b, args) => {
  const { data, meta } = listEvents(b, args).envelope();
  const shown = data
    .slice(0, 3)
    .map((e) => `${e.date} ${e.title} (${e.category})`)
    .join('; ');
  return {
    structured: { events: data, count: data.length, ...resultMeta(meta) },
    summary: `${data.length} event(s)${data.length ? `, newest first: ${shown}${data.length > 3 ? '; …' : ''}` : ''}. ${footer(b, meta.as_of)}`,
  };
});
