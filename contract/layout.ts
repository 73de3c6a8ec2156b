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
