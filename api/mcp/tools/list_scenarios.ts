import { listScenarios, localizeScenario } from '../../queries/content.ts';
import { defineTool, pageOf, resultMeta } from './common.ts';
import { STATUS_WORDS } from '../../../lib/i18n/terms.ts';

const code = (slug: string) => slug.slice(slug.indexOf('.') + 1);

export default defineTool('list_scenarios', (b, args) => {
  const { data: all, meta } = listScenarios(b, {
    ...(args.status ? { status: args.status } : {}),
    ...(args.commodity ? { commodity: args.commodity } : {}),
  }).envelope();
  // One page of `limit` scenarios, in one language (the title and summary in `lang`, without the other translations).
  const { page, offset, next_cursor } = pageOf(all, args);
  const data = page.map((s) => {
    const { status_history: history, ...rest } = localizeScenario(s, args.lang);
    return { ...rest, status_since: history.at(-1)?.date ?? s.updated_at };
  });
  const notes = data.length < all.length ? [`scenarios ${offset + 1}–${offset + data.length} of ${all.length}; the others: cursor=next_cursor`] : [];
  const top = [...data].sort((x, y) => y.probability * y.severity - x.probability * x.severity).slice(0, 3);
  const tops = top.map((s) => `${s.title} (${STATUS_WORDS.en[s.status]}, p=${s.probability}, severity ${s.severity})`).join('; ');
  return {
    structured: { scenarios: data, count: data.length, total: all.length, next_cursor, ...resultMeta(meta, notes) },
    summary: `${data.length} scenario(s)${data.length ? `; highest risk: ${tops}` : ''}.`,
    figures: data.length
      ? data
          .map(
            (s) =>
              // The summaries are in structuredContent: the text lists the scenarios, one line each.
              `- ${s.id}: ${s.title}. Status ${STATUS_WORDS.en[s.status]} since ${s.status_since}; probability ${s.probability}; severity ${s.severity}/5; commodities ${s.commodities.map(code).join(', ')}; countries ${s.countries.join(', ')}.`,
          )
          .join('\n')
      : 'No scenario matches.',
  };
});
