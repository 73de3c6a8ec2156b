import type { Browser } from 'playwright-core';

/**
 * English function words: none of them is a word of French, German or Spanish, so one of them in
 * the visible text of a page in those languages is English the page did not mark. Left out on
 * purpose: words that are also French, German or Spanish ("in", "no", "was", "has", "per", "a"),
 * and those that are also country codes in addresses ("at", "be").
 */
export const ENGLISH_WORDS = new Set([
  'the', 'and', 'of', 'with', 'which', 'this', 'that', 'these', 'those', 'from', 'for', 'is', 'are', 'were', 'been', 'not', 'have',
  'would', 'will', 'its', 'their', 'there', 'than', 'after', 'before', 'since', 'when', 'where', 'what', 'how', 'why', 'only',
  'published', 'data', 'figures', 'rebuilt', 'licensed', 'overdue', 'reuse', 'requires',
  'to', 'by', 'we', 'you', 'your', 'our', 'they', 'about', 'into', 'each', 'every', 'other', 'between', 'within', 'without',
  'below', 'above', 'newest', 'latest', 'more', 'should', 'could', 'does', 'did', 'had', 'shows', 'available', 'then', 'while',
]); // prettier-ignore

/**
 * The visible text of a page outside what it marks as English (an element with `lang="en…"` and
 * everything in it) and outside code (`code`, `pre`, `kbd`, `samp`) and what it marks as not to
 * be translated (`translate="no"`), in blocks: one string per element that holds text directly.
 * A chart's SVG `<title>` and `<desc>` are read too (they name the backtest's crisis windows, in
 * the page's language since data/backtest-labels.yaml).
 */
export const VISIBLE_TEXT = `(() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || !n.textContent.trim()) continue;
    if (el.closest('script, style, noscript, template, code, pre, kbd, samp, [translate="no"]')) continue;
    const marked = el.closest('[lang]');
    if (marked && marked.getAttribute('lang').toLowerCase().startsWith('en')) continue;
    out.push(n.textContent.replace(/\\s+/g, ' ').trim());
  }
  return out;
})()`;

/** The English words in one text, each with a few words around it for the report. */
export function englishIn(text: string): string[] {
  const words = text.split(/[^\p{L}']+/u).filter(Boolean);
  const hits: string[] = [];
  words.forEach((w, i) => {
    // An all-capital word is an acronym (THE, Trading Hub Europe), not the article.
    if (ENGLISH_WORDS.has(w.toLowerCase()) && w !== w.toUpperCase()) hits.push(`“${words.slice(Math.max(0, i - 3), i + 4).join(' ')}”`);
  });
  return hits;
}

/** Every page's English outside marked quotes, by page, from its HTML (rendered without scripts). */
export async function englishOnPages(browser: Browser, pages: { name: string; html: string }[]): Promise<string[]> {
  const context = await browser.newContext({ javaScriptEnabled: false });
  // The pages' own styles and scripts are not needed to read their text: no request leaves.
  await context.route('**/*', (r) => r.abort());
  const page = await context.newPage();
  const problems: string[] = [];
  try {
    for (const p of pages) {
      await page.setContent(p.html, { waitUntil: 'domcontentloaded' });
      // The page's script-free DOM: a text-only walk, evaluated as an expression.
      const blocks = (await page.evaluate(VISIBLE_TEXT)) as string[];
      const hits = blocks.flatMap(englishIn);
      if (hits.length) problems.push(`${p.name}: ${[...new Set(hits)].slice(0, 4).join(', ')}${hits.length > 4 ? ` (+${hits.length - 4})` : ''}`);
    }
  } finally {
    await context.close();
  }
  return problems;
}
