/**
 * Country spellings used by EI, USGS and Eurostat that none of the name columns of
 * country-codes.csv match (keys lower-case, footnote digits already stripped).
 * The country-codes adapter loads them into `country_names`; they win over the file's own
 * names, so an entry here is also the way to settle a name the file would map ambiguously.
 */
export const COUNTRY_ALIASES: Readonly<Record<string, string>> = {
  // Every source: the file's English names are 'UK'/'US' or the long official forms.
  'united kingdom': 'GBR',
  'united states': 'USA',
  'the bahamas': 'BHS',
  // Energy Institute
  'china hong kong sar': 'HKG',
  'trinidad & tobago': 'TTO',
  'dr congo': 'COD',
  'democratic republic of congo': 'COD',
  'republic of congo': 'COG',
  'czech republic': 'CZE',
  curacao: 'CUW',
  turkey: 'TUR',
  türkiye: 'TUR',
  uae: 'ARE',
  // USGS
  burma: 'MMR',
  'congo (kinshasa)': 'COD',
  'congo (brazzaville)': 'COG',
  'korea, north': 'PRK',
  'korea, republic of': 'KOR',
  'cote d’ivoire': 'CIV',
  "cote d'ivoire": 'CIV',
  "côte d'ivoire": 'CIV',
  // Eurostat: Kosovo has no ISO 3166 code; XKX is the user-assigned code the EU and World Bank use.
  kosovo: 'XKX',
  el: 'GRC',
  uk: 'GBR',
};

/**
 * Names that are regions, groups, dissolved states or sub-items of a country rather than a country
 * (lower-case, after footnotes are stripped). Rows carrying them get is_aggregate = true so that
 * sums over countries do not count them twice and ISO joins do not expect them to match.
 */
const AGGREGATE_NAMES = [
  'world',
  'world total',
  'other countries',
  'africa',
  'asia pacific',
  'australasia',
  'central america',
  'cis',
  'east & s. africa',
  'eastern africa',
  'eu',
  'europe',
  'european union',
  'middle africa',
  'middle east',
  'middle east & africa',
  'north africa',
  'north america',
  'oecd',
  'opec',
  's. & cent. america',
  'west africa',
  'western africa',
  'ussr',
  // Dissolved in 2010 into CUW, SXM and BES; like USSR it has no current ISO code.
  'netherlands antilles',
];

/** Prefixes that mark a group: totals, remainders, "of which" lines, EU/euro-area variants. */
const AGGREGATE_PREFIX = '^(total|other |rest of|of which|non-|european union|euro area|eu[0-9]|ea[0-9])';

/**
 * SQL boolean for "this cleaned, trimmed name is not a single country". A ':' marks EI sub-items
 * ('Canadian Oil Sands: Total', 'Venezuela: Orinoco Belt') that are already inside a country row.
 */
export function aggregateSql(expr: string): string {
  const list = AGGREGATE_NAMES.map((n) => `'${n.replaceAll("'", "''")}'`).join(', ');
  return `(lower(${expr}) IN (${list}) OR regexp_matches(lower(${expr}), '${AGGREGATE_PREFIX}') OR contains(${expr}, ':'))`;
}

/** SQL that strips EI footnote markers glued to a label ('Brazil1', 'Other Europe*', 'European Union #'). */
export function stripFootnoteSql(expr: string): string {
  return `trim(regexp_replace(regexp_replace(trim(${expr}), '[\\s0-9*#^]+$', ''), '\\s+', ' ', 'g'))`;
}
