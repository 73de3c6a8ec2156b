import { readText } from './data';
import { markdown } from './markdown';
import type { Lang } from '../i18n/lang';

/** The guides published as pages: docs/<page>.md in the repository, docs/<page> in the build. */
export const GUIDES = ['methodology', 'freshness', 'content', 'security', 'changelog', 'bulk', 'api'] as const;
export type GuidePage = (typeof GUIDES)[number];

const rendered = new Map<string, ReturnType<typeof render>>();

async function render(page: string) {
  const md = readText(`docs/${page}`);
  const r = await markdown(md);
  const title = /^#\s+(.+)$/m.exec(md)?.[1] ?? page;
  return { html: r.html, title, headings: r.headings };
}

/**
 * A guide from the build, rendered once for all four languages (the guides are written in
 * English only); links between guides point at their pages in `lang`.
 */
export async function guide(page: GuidePage, lang: Lang) {
  let r = rendered.get(page);
  if (!r) rendered.set(page, (r = render(page)));
  const { html, title, headings } = await r;
  const linked = html
    .replace(
      /href="(?:\.\/|docs\/)?(api|methodology|freshness|security|content|bulk|changelog)\.md(#[^"]*)?"/g,
      (_m, p: string, h: string | undefined) => `href="/${lang}/docs/${p}/${h ?? ''}"`,
    )
    .replace(/href="\/docs\/([a-z-]+(?:\/[a-z-]+)?)\/(#[^"]*)?"/g, (_m, p: string, h: string | undefined) => `href="/${lang}/docs/${p}/${h ?? ''}"`);
  return { html: linked, title, headings };
}
