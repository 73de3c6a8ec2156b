import { createMarkdownProcessor, type MarkdownProcessor } from '@astrojs/markdown-remark';

let processor: Promise<MarkdownProcessor> | undefined;

/**
 * Markdown → HTML (GFM tables, heading ids), no syntax highlighting (no inline styles, small
 * pages). Each table is put in a box that scrolls sideways, as the site's own tables are, so a
 * wide table never widens the page on a phone; such boxes and code blocks take the focus.
 */
export async function markdown(md: string): Promise<{ html: string; headings: { depth: number; slug: string; text: string }[] }> {
  processor ??= createMarkdownProcessor({ syntaxHighlight: false, gfm: true, smartypants: false });
  const r = await (await processor).render(md);
  // Boxes that scroll take the keyboard focus, so they can be scrolled without a mouse.
  const html = r.code
    .replace(/<table>/g, '<div class="table-wrap" tabindex="0"><table>')
    .replace(/<\/table>/g, '</table></div>')
    .replace(/<pre>/g, '<pre tabindex="0">');
  return { html, headings: r.metadata.headings };
}
