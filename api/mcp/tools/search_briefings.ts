import { searchDocuments } from '../../queries/search.ts';
import { defineTool, footer, resultMeta } from './common.ts';

export default defineTool('search_briefings', async (b, args) => {
  const results = await searchDocuments(b, { q: args.q, limit: args.limit, type: 'briefing', ...(args.lang ? { lang: args.lang } : {}) });
  // The date behind the result: the newest publication day among the briefings found.
  const published = new Map<string, string>();
  for (const [lang, set] of b.briefings) for (const x of set.items) published.set(`${lang}/${x.id}`, x.published_at);
  const asOf =
    results
      .map((h) => published.get(`${h.lang}/${h.id}`))
      .filter((d): d is string => !!d)
      .sort()
      .at(-1) ?? null;
  const meta = b.briefings.get('en')!.meta;
  return {
    structured: { results, count: results.length, ...resultMeta({ ...meta, as_of: asOf }) },
    summary: `${results.length} briefing(s) for "${args.q}"${
      results.length
        ? `: ${results
            .slice(0, 3)
            .map((h) => `${h.title} [${h.lang}]`)
            .join('; ')}`
        : ''
    }. ${footer(b, asOf)}`,
  };
});
