import type { Db } from './db.ts';

import { COUNTRY_NAME_OVERRIDES } from '../contract/countries.ts';
import { LANGS, type Lang } from '../contract/languages.ts';
const displayNames = Object.fromEntries(LANGS.map((l) => [l, new Intl.DisplayNames([l], { type: 'region', fallback: 'none' })])) as Record<
  (typeof LANGS)[number],
  Intl.DisplayNames
>;
const EU_NAMES: Readonly<Record<Lang, string>> = { en: 'European Union', fr: 'Union européenne', de: 'Europäische Union', es: 'Unión Europea' };

/**
 * Country names in the four languages. ISO codes come from the country-codes source; the
 * names come from CLDR through the runtime's ICU data (Intl.DisplayNames), the same names
 * browsers show, falling back to the source's English name; a few usual names replace CLDR's
 * (COUNTRY_NAME_OVERRIDES: "DR Congo", not "Congo - Kinshasa").
 */
export async function countryNames(db: Db) {
  const rows = await db.all<{ iso2: string; iso3: string; name_en: string | null; official_name_en: string | null }>(
    `SELECT iso2, iso3, name_en, official_name_en FROM country_codes WHERE iso2 IS NOT NULL AND iso3 IS NOT NULL`,
  );
  const by3 = new Map(rows.map((r) => [r.iso3, r]));
  const by2 = new Map(rows.map((r) => [r.iso2.toLowerCase(), r]));
  const namesOf3 = (iso3: string) => {
    const r = by3.get(iso3);
    const fallback = r?.name_en ?? r?.official_name_en ?? iso3;
    const usual = COUNTRY_NAME_OVERRIDES[iso3];
    return Object.fromEntries(LANGS.map((l) => [l, usual?.[l] ?? ((r && displayNames[l].of(r.iso2.toUpperCase())) || fallback)])) as Record<
      (typeof LANGS)[number],
      string
    >;
  };
  return {
    iso3s: new Set(by3.keys()),
    iso2To3: (iso2: string) => by2.get(iso2.toLowerCase())?.iso3,
    namesOf3,
    nameOf3: (iso3: string, lang: (typeof LANGS)[number] = 'en') => namesOf3(iso3)[lang],
    nameOf2: (iso2: string, lang: (typeof LANGS)[number] = 'en') => {
      if (iso2.toLowerCase() === 'eu') return EU_NAMES[lang];
      const r = by2.get(iso2.toLowerCase());
      return r ? namesOf3(r.iso3)[lang] : iso2.toUpperCase();
    },
  };
}
export type CountryNames = Awaited<ReturnType<typeof countryNames>>;
