/**
 * Names the build writes in English, said in the page's language where the site can do it
 * without translating free text: reserves (made of a kind and a place) and UN regions (CLDR's
 * names through Intl.DisplayNames). English keeps the build's own words.
 */
import { countryName, iso3Of } from './data';
import { LOCALES, type Lang } from '../i18n/lang';
import { t } from '../i18n/messages';

/** Where a reserve is: "Germany", "European Union" (`eu`), in `lang`. */
export function reservePlace(iso2: string, english: string, lang: Lang): string {
  if (lang === 'en') return english.replace(/^.*?, /, '');
  if (iso2.toLowerCase() === 'eu') return t(lang).reserves.eu;
  const iso3 = iso3Of(iso2);
  return iso3 ? countryName(iso3, lang) : english.replace(/^.*?, /, '');
}

/** A reserve's name: "Gas in underground storage, Germany", "Strategic Petroleum Reserve, United States". */
export function reserveName(code: string, iso2: string, english: string, lang: Lang): string {
  if (lang === 'en') return english;
  const place = reservePlace(iso2, english, lang);
  return code === 'gas' ? t(lang).reserves.gasName(place) : t(lang).reserves.oilName(place);
}

/** UN M49 codes of the regions and sub-regions the profiles name (their English names as the build writes them). */
const M49: Record<string, string> = {
  Africa: '002',
  Americas: '019',
  Asia: '142',
  Europe: '150',
  Oceania: '009',
  'Australia and New Zealand': '053',
  'Central Asia': '143',
  'Eastern Asia': '030',
  'Eastern Europe': '151',
  'Latin America and the Caribbean': '419',
  Melanesia: '054',
  'Northern Africa': '015',
  'Northern America': '021',
  'Northern Europe': '154',
  'South-eastern Asia': '035',
  'Southern Asia': '034',
  'Southern Europe': '039',
  'Sub-Saharan Africa': '202',
  'Western Asia': '145',
  'Western Europe': '155',
};
const DN = new Map<Lang, Intl.DisplayNames>();

/** A region's name in `lang`; the English name where CLDR has none. */
export function regionName(english: string, lang: Lang): string {
  const code = M49[english];
  if (lang === 'en' || !code) return english;
  let dn = DN.get(lang);
  if (!dn) DN.set(lang, (dn = new Intl.DisplayNames([LOCALES[lang]], { type: 'region', fallback: 'none' })));
  return dn.of(code) ?? english;
}
