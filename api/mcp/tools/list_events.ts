import { listEvents } from '../../queries/content.ts';
import { defineTool, resultMeta } from './common.ts';
import { CATEGORY_WORDS, EFFECT_WORDS } from '../../../lib/i18n/terms.ts';

const code = (slug: string) => slug.slice(slug.indexOf('.') + 1);

export default defineTool('list_events', (b, args) => {
  const { data, meta } = listEvents(b, args).envelope();
  const shown = data
    .slice(0, 3)
    .map((e) => `${e.date} ${e.title} (${CATEGORY_WORDS.en[e.category]})`)
    .join('; ');
  return {
    structured: { events: data, count: data.length, ...resultMeta(meta) },
    summary: `${data.length} event(s)${data.length ? `, newest first: ${shown}${data.length > 3 ? '; …' : ''}` : ''}.`,
    figures: data.length
      ? data
          .map(
            (e) =>
              `- ${e.ended_on ? `${e.date} → ${e.ended_on}` : e.date} ${e.id}: ${e.title} (${CATEGORY_WORDS.en[e.category]}, ${EFFECT_WORDS.en[e.effect]}; ${e.commodities.map(code).join(', ')}; source ${e.source_name})`,
          )
          .join('\n')
      : 'No event matches.',
  };
});
