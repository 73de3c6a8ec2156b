import { LANGS, type Lang } from '../contract/languages.ts';

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * `/sitemap.xml` of the readout site: every page the site stage wrote (`fr/commodities/index.html`
 * …), one `<url>` per page and language, each naming its versions in the other languages
 * (xhtml:link hreflang, x-default English), as search engines read alternates: the versions of a
 * page are those at the same path (a briefing's id differs by language: its alternates are in its
 * page's hreflang links). Pages outside a language (the 404 pages) and the embeddable charts are
 * not listed.
 */
export function sitemapXml(baseUrl: string, htmlFiles: readonly string[]): string {
  const versions = new Map<string, Map<Lang, string>>();
  for (const f of htmlFiles) {
    const m = /^([a-z]{2})\/(?:(.*)\/)?index\.html$/.exec(f);
    if (!m || !(LANGS as readonly string[]).includes(m[1]!) || m[2]?.startsWith('embed/')) continue;
    const rest = m[2] ? `${m[2]}/` : '';
    const by = versions.get(rest) ?? new Map<Lang, string>();
    by.set(m[1] as Lang, `${baseUrl}/${m[1]}/${rest}`);
    versions.set(rest, by);
  }
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
  ];
  for (const rest of [...versions.keys()].sort()) {
    const by = versions.get(rest)!;
    const links = LANGS.filter((l) => by.has(l)).map((l) => `    <xhtml:link rel="alternate" hreflang="${l}" href="${xml(by.get(l)!)}"/>`);
    if (by.has('en')) links.push(`    <xhtml:link rel="alternate" hreflang="x-default" href="${xml(by.get('en')!)}"/>`);
    for (const l of LANGS) {
      const loc = by.get(l);
      if (loc) out.push('  <url>', `    <loc>${xml(loc)}</loc>`, ...(by.size > 1 ? links : []), '  </url>');
    }
  }
  out.push('</urlset>', '');
  return out.join('\n');
}

/**
 * `/robots.txt`: every page may be crawled (the API is read-only and rate limited; its answers
 * are data a crawler may index), and the sitemap is named, as crawlers look for it there.
 */
export const robotsTxt = (baseUrl: string): string => `User-agent: *\nAllow: /\n\nSitemap: ${baseUrl}/sitemap.xml\n`;
