import { readText } from './data';
import { markdown } from './markdown';

/** The guides published as pages: docs/<page>.md in the repository, docs/<page> in the build. */
export const GUIDES = {
  methodology: 'Methodology',
  freshness: 'Data freshness',
  content: 'Editorial content rules',
  security: 'Security policy',
  changelog: 'Changelog',
} as const;

/** A guide from the build, rendered; links between guides point at their pages. */
export async function guide(page: string) {
  const md = readText(`docs/${page}`);
  const r = await markdown(md);
  const html = r.html.replace(
    /href="(?:\.\/|docs\/)?(api|methodology|freshness|security|content|bulk)\.md(#[^"]*)?"/g,
    (_m, p: string, h: string | undefined) => `href="/docs/${p}/${h ?? ''}"`,
  );
  const title = /^#\s+(.+)$/m.exec(md)?.[1] ?? page;
  return { html, title, headings: r.headings };
}
