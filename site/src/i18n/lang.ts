/**
 * The languages of the site and where each page lives in them: every page sits under its
 * language's prefix (`/fr/commodities/metals.cobalt/`); the data downloads (CSV) do not.
 */
import { LANGS, LANG_LABEL, LOCALES, type Lang } from '../../../contract/languages.ts';

export { LANGS, LANG_LABEL, LOCALES, type Lang };

export const isLang = (x: unknown): x is Lang => typeof x === 'string' && (LANGS as readonly string[]).includes(x);

/** The language of a page from its route parameter (every page under pages/[lang]/ has one). */
export function langOf(params: Record<string, string | undefined>): Lang {
  const l = params.lang;
  if (!isLang(l)) throw new Error(`not a language of the site: ${String(l)}`);
  return l;
}

/** `/commodities/` in `lang`: `/fr/commodities/`. */
export const path = (lang: Lang, rest = '/') => `/${lang}${rest.startsWith('/') ? rest : `/${rest}`}`;

/** The same page in another language: the prefix swapped. */
export const samePageIn = (pathname: string, to: Lang) => pathname.replace(/^\/[a-z]{2}(?=\/|$)/, `/${to}`);

/** getStaticPaths of a page under pages/[lang]/: each language crossed with the page's own parameters. */
export function inEveryLang<P extends Record<string, string>>(paths: readonly { params: P }[] = [{ params: {} as P }]) {
  return LANGS.flatMap((lang) => paths.map((p) => ({ params: { ...p.params, lang } })));
}

/**
 * Where a page is in each language (`pathOf`: undefined where it has no version, e.g. a briefing
 * not translated) and, for the others, where the language switch leads instead (`fallbackOf`).
 */
export function versionsIn(pathOf: (l: Lang) => string | undefined, fallbackOf: (l: Lang) => string) {
  const versions: Partial<Record<Lang, string>> = {};
  const fallbacks: Partial<Record<Lang, string>> = {};
  for (const l of LANGS) {
    const p = pathOf(l);
    if (p) versions[l] = p;
    else fallbacks[l] = fallbackOf(l);
  }
  return { versions, fallbacks };
}
