import { createMarkdownProcessor, type MarkdownProcessor } from '@astrojs/markdown-remark';

let processor: Promise<MarkdownProcessor> | undefined;

/** Markdown → HTML (GFM tables, heading ids), no syntax highlighting (no inline styles, small pages). */
export async function markdown(md: string): Promise<{ html: string; headings: { depth: number; slug: string; text: string }[] }> {
  processor ??= createMarkdownProcessor({ syntaxHighlight: false, gfm: true, smartypants: false });
  const r = await (await processor).render(md);
  return { html: r.code, headings: r.metadata.headings };
}
