import { searchDocuments } from '../../queries/search.ts';
import { defineTool, resultMeta, type ToolLink } from './common.ts';

/** The MCP resource of a briefing (api/mcp/resources.ts). */
export const briefingUri = (lang: string, id: string) => `chokepoint://briefing/${lang}/${id}`;

export default defineTool('search_briefings', async (b, args) => {
  // The function GET /v1/search calls, with the same parameters: the same hits in the same order.
  const hits = await searchDocuments(b, { q: args.q, limit: args.limit, type: 'briefing', lang: args.lang });
  const results = hits.map((h) => ({ ...h, resource: briefingUri(h.lang, h.id) }));
  // The date behind the result: the newest publication day among the briefings found.
  const published = new Map<string, string>();
  for (const [lang, set] of b.briefings) for (const x of set.items) published.set(`${lang}/${x.id}`, x.published_at);
  const asOf =
    results
      .map((h) => published.get(`${h.lang}/${h.id}`))
      .filter((d): d is string => !!d)
      .sort()
      .at(-1) ?? null;
  const meta = b.briefings.get(args.lang)!.meta;
  const links: ToolLink[] = results.map((h) => ({
    uri: h.resource,
    name: `briefing-${h.lang}-${h.id}`,
    title: h.title,
    mimeType: 'text/markdown',
    description: `Briefing of ${published.get(`${h.lang}/${h.id}`) ?? 'n/a'} (${h.lang}), search score ${h.score}`,
  }));
  return {
    structured: { results, count: results.length, ...resultMeta({ ...meta, as_of: asOf }) },
    summary: `${results.length} ${args.lang} briefing(s) for "${args.q}", best first; read one in full with resources/read on its chokepoint://briefing/… URI.`,
    figures: results.length
      ? results.map((h, i) => `${i + 1}. ${h.title} (${published.get(`${h.lang}/${h.id}`) ?? 'n/a'}, score ${h.score}): ${h.resource}`).join('\n')
      : `No ${args.lang} briefing matches; try other words or another lang.`,
    links,
  };
});
