import { LANGS, type Lang } from '../contract/languages.ts';

/**
 * The site's pages live under a language prefix (`/fr/commodities/metals.cobalt/`). Addresses from
 * before the prefix keep working: `/` goes to the language the reader's browser prefers, every
 * other old page to its English page for good (`/briefings/<lang>/<id>/` to that language's).
 */

const isLang = (x: string | undefined): x is Lang => x !== undefined && (LANGS as readonly string[]).includes(x);

/**
 * The language of LANGS an Accept-Language header prefers (RFC 9110 §12.5.4: ranges by weight,
 * in the order given among equal weights, `q=0` meaning "not this"); English when none of them is
 * acceptable or the header is absent or unreadable.
 */
export function preferredLang(header: string | null | undefined): Lang {
  if (!header) return 'en';
  const ranges = header
    .split(',')
    .slice(0, 50)
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
      return { lang: tag.trim().toLowerCase().split('-')[0], q: q === undefined ? 1 : Number(q), i };
    })
    .filter((r) => r.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  return (ranges.find((r) => isLang(r.lang))?.lang as Lang | undefined) ?? 'en';
}

export interface SiteRedirect {
  status: 301 | 302;
  location: string;
  /** Set when the answer depends on the request's Accept-Language. */
  negotiated: boolean;
}

/**
 * Where an old page address now lives, or null when `path` is not one (`has` says whether the
 * build holds a file, e.g. `site/en/commodities/index.html`). `query` is kept as it came, with its `?`.
 */
export function siteRedirect(path: string, query: string, acceptLanguage: string | null | undefined, has: (file: string) => boolean): SiteRedirect | null {
  if (path === '/') {
    const lang = preferredLang(acceptLanguage);
    return has(`site/${lang}/index.html`) ? { status: 302, location: `/${lang}/${query}`, negotiated: true } : null;
  }
  const segments = path.split('/');
  if (isLang(segments[1])) return null;
  // Briefings were at /briefings/<lang>/…, in their language; the list of all four at /briefings/.
  const briefing = /^\/briefings\/([a-z]{2})(\/.*)?$/.exec(path);
  if (briefing && isLang(briefing[1])) {
    const rest = briefing[2] && briefing[2] !== '/' ? briefing[2] : '/';
    return page(`/${briefing[1]}/briefings${rest}`, query, has);
  }
  return page(`/en${path}`, query, has);
}

/** A 301 to `target` (a page of the build, with or without its trailing slash), if it exists. */
function page(target: string, query: string, has: (file: string) => boolean): SiteRedirect | null {
  const dir = target.endsWith('/') ? target : `${target}/`;
  return has(`site${dir}index.html`) ? { status: 301, location: `${dir}${query}`, negotiated: false } : null;
}

/** The build's 404 page for `path`: its language's (`site/fr/404.html`) under a language prefix, else the English one. */
export function notFoundPage(path: string): string[] {
  const lang = /^\/([a-z]{2})\//.exec(path)?.[1];
  return isLang(lang) && lang !== 'en' ? [`site/${lang}/404.html`, 'site/404.html'] : ['site/404.html'];
}
