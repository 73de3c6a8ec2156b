/**
 * The site's data, read at build time from the build folder being written (its path comes from
 * pipeline/site-stage.ts through Vite's `define`). Types come from the contract.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import type { Meta } from '../../../contract/common.ts';
import type { BriefingLang } from '../../../contract/content.ts';
import { BUILD_FILES, BUILD_PATHS, type JsonFile } from '../../../contract/layout.ts';
import type { SourceStatus } from '../../../contract/manifest.ts';
import type { Lang } from '../../../contract/languages.ts';
import { t } from '../i18n/messages';

export const site = __CHOKEPOINT_SITE__;

export interface Envelope<T> {
  data: T;
  meta: Meta;
}

const cache = new Map<string, unknown>();
function read<T>(path: string): T {
  let v = cache.get(path);
  if (v === undefined) {
    v = JSON.parse(readFileSync(join(site.buildDir, path), 'utf8'));
    cache.set(path, v);
  }
  return v as T;
}
export const readText = (path: string): string => readFileSync(join(site.buildDir, path), 'utf8');

/** One of the build's JSON files, typed by its schema in contract/layout.ts. */
const load = <S extends z.ZodType>(f: JsonFile<S>): z.output<S> => read<z.output<S>>(f.path);

export const commodities = () => load(BUILD_FILES.commodityList());
export const sheet = (slug: string) => load(BUILD_FILES.commodity(slug));
export const countries = () => load(BUILD_FILES.countryIndex());
export const country = (iso3: string) => load(BUILD_FILES.country(iso3));
export const reserves = () => load(BUILD_FILES.reserveIndex());
export const reserve = (code: string, iso2: string) => load(BUILD_FILES.reserve(`${code}/${iso2}`));
export const reserveSeries = (code: string, iso2: string) => load(BUILD_FILES.reserveSeries(`${code}/${iso2}`));
export const backtest = () => load(BUILD_FILES.backtest());
export const scenarios = () => load(BUILD_FILES.scenarios());
export const events = () => load(BUILD_FILES.events());
export const briefings = (lang: BriefingLang) => load(BUILD_FILES.briefings(lang));
export const openapi = () => read<OpenApiDoc>(BUILD_PATHS.openapi);
export const sources = (): SourceStatus[] => site.sources;

/** A commodity's name in `lang` (the catalogue's names, data/commodities.yaml). */
export const commodityName = (slug: string, lang: Lang = 'en'): string => {
  const c = commodities().data.find((x) => x.slug === slug);
  return c ? (lang === 'en' ? c.name : c.names[lang]) : slug;
};
let profiled: Set<string> | undefined;
export const hasCountry = (iso3: string): boolean => (profiled ??= new Set(countries().data.map((c) => c.iso3))).has(iso3);
/** The profile's ISO3 of an ISO2 code (`de` → DEU), if there is one. */
export const iso3Of = (iso2: string): string | undefined => countries().data.find((c) => c.iso2.toLowerCase() === iso2.toLowerCase())?.iso3;
/** A country's name in `lang` (its profile's names: CLDR's, as browsers show them); the code when there is no profile. */
export const countryName = (iso3: string, lang: Lang = 'en'): string => {
  if (!hasCountry(iso3)) return iso3;
  const p = country(iso3).data;
  return lang === 'en' ? p.name : p.names[lang];
};
/** A name the data gives in English (a supplier, a producer) in `lang` when it is a country with a profile. */
export const placeName = (iso3: string | null | undefined, english: string, lang: Lang): string =>
  iso3 && hasCountry(iso3) ? countryName(iso3, lang) : (AGGREGATES[english]?.(lang) ?? english);

/** Names the publishers give to groups of countries, in the page's language. */
const AGGREGATES: Record<string, (lang: Lang) => string> = { 'Other countries': (lang) => t(lang).common.otherCountries };

export interface OpenApiParam {
  name?: string;
  in?: string;
  required?: boolean;
  description?: string;
  schema?: { type?: string; enum?: string[]; default?: unknown; minimum?: number; maximum?: number; format?: string };
  example?: unknown;
  $ref?: string;
}
export interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: OpenApiParam[];
  requestBody?: { content?: Record<string, { example?: unknown; schema?: unknown }> };
  responses?: Record<string, { description?: string }>;
}
export interface OpenApiDoc {
  info: { title: string; version: string; description?: string; summary?: string };
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, OpenApiOperation | OpenApiParam[]>>;
  components?: { parameters?: Record<string, OpenApiParam> };
}

/** Relative URLs of the pages of one reserve, commodity or country, in `lang`. */
export const reservePage = (code: string, iso2: string, lang: Lang) => `/${lang}/reserves/${code}/${iso2}/`;
export const commodityPage = (slug: string, lang: Lang) => `/${lang}/commodities/${slug}/`;
export const countryPage = (iso3: string, lang: Lang) => `/${lang}/countries/${iso3}/`;
