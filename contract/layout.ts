import type { z } from 'zod';
import { BriefingListResponse, EventSetFile, ScenarioListResponse } from './api.ts';
import { CommodityListResponse, CommoditySheetResponse } from './commodities.ts';
import { CountryIndexResponse, CountryProfileResponse } from './countries.ts';
import type { Lang } from './languages.ts';
import { BuildManifest } from './manifest.ts';
import { ReserveIndexFile, ReserveResponse, ReserveSeriesFile } from './reserves.ts';
import { BacktestResponse } from './stress.ts';

/** A JSON file of a build: where it sits and the schema its contents follow. */
export interface JsonFile<S extends z.ZodType> {
  path: string;
  schema: S;
}
const json = <S extends z.ZodType>(path: string, schema: S): JsonFile<S> => ({ path, schema });

/**
 * The file layout of a build (dist/builds/<id>/): every JSON data file, with its schema. The
 * pipeline writes each through its entry here (and validates it with the schema), the API loads
 * and serves them from here, and the site reads them from here: a path is spelled once.
 * `v1/…` files are the bodies of the default views of GET /v1/… routes, served as they are;
 * `data/…` files are the full data the parameterised routes and the site read.
 */
export const BUILD_FILES = {
  manifest: () => json('manifest.json', BuildManifest),
  commodityList: () => json('v1/commodities.json', CommodityListResponse),
  commodity: (slug: string) => json(`v1/commodities/${slug}.json`, CommoditySheetResponse),
  countryIndex: () => json('data/countries.json', CountryIndexResponse),
  country: (iso3: string) => json(`v1/countries/${iso3}.json`, CountryProfileResponse),
  reserveIndex: () => json('data/reserves.json', ReserveIndexFile),
  /** The current reading; `key` is `<commodity>/<iso2>`, e.g. `gas/de`. */
  reserve: (key: string) => json(`v1/reserves/${key}.json`, ReserveResponse),
  reserveSeries: (key: string) => json(`data/reserves/${key}.json`, ReserveSeriesFile),
  /** The default view of GET /v1/events: the events of the last EVENTS_DEFAULT_DAYS days. */
  recentEvents: () => json('v1/events.json', EventSetFile),
  events: () => json('data/events.json', EventSetFile),
  scenarios: () => json('v1/scenarios.json', ScenarioListResponse),
  /** The default view of GET /v1/briefings?lang=…: the latest ten. */
  latestBriefings: (lang: Lang) => json(`v1/briefings/${lang}.json`, BriefingListResponse),
  briefings: (lang: Lang) => json(`data/briefings/${lang}.json`, BriefingListResponse),
  backtest: () => json('data/stress/backtest.json', BacktestResponse),
} as const;

/** The other files of a build, by path. */
export const BUILD_PATHS = {
  commodityStressCsv: 'data/stress/commodities.csv',
  countryStressCsv: 'data/stress/countries.csv',
  openapi: 'openapi.json',
  llms: 'llms.txt',
  serverCard: '.well-known/mcp/server-card',
  searchIndex: 'search/index.json',
  searchVectors: 'search/vectors.bin',
  searchLexicon: 'search/lexicon.json',
  /** Markdown guides, `docs/<page>`. */
  docs: 'docs/',
  bulk: 'bulk/',
  site: 'site/',
} as const;

/** Files of the build served as they are at their own address: the contract, discovery files, feeds, bulk downloads. */
export const SERVED_AS_IS = ['openapi.json', 'llms.txt', '.well-known/', 'feeds/', 'bulk/'] as const;

/** Whether a build file (a path relative to the build) is one of those served as it is. */
export const isServedAsIs = (file: string): boolean => SERVED_AS_IS.some((p) => file === p || (p.endsWith('/') && file.startsWith(p)));

const GUIDE_URL = /^\/docs\/([a-z-]+)\.md$/;

/**
 * The public address of a build file the servers send as it is (Node and the Worker's asset layer
 * alike), or null when none does: the site at the root (`site/fr/index.html` → `/fr/index.html`,
 * which `/fr/` also names), a guide's Markdown at `/docs/<page>.md`, the files served as they are at
 * their own path. The inverse of `fileForUrl` on every file it gives an address.
 */
export function urlForFile(file: string): string | null {
  if (file.startsWith(BUILD_PATHS.site)) return `/${file.slice(BUILD_PATHS.site.length)}`;
  const guide = /^docs\/([a-z-]+)$/.exec(file);
  if (guide) return `/docs/${guide[1]}.md`;
  return isServedAsIs(file) ? `/${file}` : null;
}

/**
 * The build file a public address names, whether or not the build has it: a file served as it is,
 * a guide, else the site's file (a directory address names its index.html). Null under /v1/, whose
 * addresses are the API's routes.
 */
export function fileForUrl(url: string): string | null {
  if (url.startsWith('/v1/') || url === '/v1') return null;
  const rel = url.slice(1);
  if (isServedAsIs(rel)) return rel;
  const guide = GUIDE_URL.exec(url);
  if (guide) return `${BUILD_PATHS.docs}${guide[1]}`;
  return `${BUILD_PATHS.site}${url.endsWith('/') ? `${rel}index.html` : rel}`;
}
