import type { z } from 'zod';
import type { SearchHit, SearchQuery } from '../../contract/api.ts';
import type { LoadedBuild } from '../build.ts';

export type SearchParams = z.output<typeof SearchQuery>;
export type Hit = z.infer<typeof SearchHit>;

interface Doc {
  type: 'briefing' | 'scenario';
  id: string;
  lang: 'en' | 'fr' | 'de' | 'es';
  title: string;
  text: string;
  url: string;
}

const tokens = (s: string) => s.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '').match(/[\p{L}\p{N}]+/gu) ?? [];
const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch] as string);

function docs(b: LoadedBuild): Doc[] {
  const out: Doc[] = [];
  for (const [lang, set] of b.briefings) {
    for (const x of set.items) out.push({ type: 'briefing', id: x.id, lang: lang as Doc['lang'], title: x.title, text: `${x.summary} ${x.body}`, url: `/v1/briefings?lang=${lang}` });
  }
  for (const s of b.scenarios) {
    out.push({ type: 'scenario', id: s.id, lang: 'en', title: s.title, text: s.summary, url: `/v1/scenarios` });
    for (const [lang, t] of Object.entries(s.translations)) out.push({ type: 'scenario', id: s.id, lang: lang as Doc['lang'], title: t.title, text: t.summary, url: `/v1/scenarios` });
  }
  return out;
}

function snippet(text: string, terms: ReadonlySet<string>): string {
  const words = text.replace(/[#*_`>]/g, '').split(/\s+/);
  const at = Math.max(0, words.findIndex((w) => tokens(w).some((t) => terms.has(t))));
  return words
    .slice(Math.max(0, at - 8), at + 22)
    .map((w) => (tokens(w).some((t) => terms.has(t)) ? `<mark>${escapeHtml(w)}</mark>` : escapeHtml(w)))
    .join(' ');
}

/**
 * Search briefings and scenarios of a build. Interim scoring (term frequency, title ×3); the
 * hybrid Orama engine replaces the inside of this function, not its signature: the HTTP route,
 * the MCP tool and the answerer all call it.
 */
export function searchDocuments(b: LoadedBuild, q: SearchParams): Hit[] {
  const terms = new Set(tokens(q.q).filter((t) => t.length > 1));
  return docs(b)
    .filter((d) => (!q.type || d.type === q.type) && (!q.lang || d.lang === q.lang))
    .map((d) => {
      const title = tokens(d.title);
      const text = tokens(d.text);
      let score = 0;
      for (const t of terms) score += 3 * title.filter((x) => x === t).length + text.filter((x) => x === t).length / Math.sqrt(text.length + 1);
      return { d, score };
    })
    .filter((h) => h.score > 0)
    .sort((a, b2) => b2.score - a.score)
    .slice(0, q.limit)
    .map(({ d, score }) => ({ type: d.type, id: d.id, lang: d.lang, title: d.title, snippet: snippet(d.text, terms), score: Math.round(score * 1000) / 1000, url: d.url }));
}
