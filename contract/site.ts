import type { Lang } from './languages.ts';
import type { SourceStatus } from './manifest.ts';

/** What the site's pages read at build time besides the build's JSON files (see site/src/lib/data.ts). */
export interface SiteContext {
  /** The build folder being written: the pages read its v1/, data/, docs/ and openapi.json. */
  buildDir: string;
  /**
   * The day the pages are made for (YYYY-MM-DD): ages and deadlines count from it. Pages carry no
   * build id or build time, so a page made for the same inputs on the same day is reused as it is.
   */
  today: string;
  baseUrl: string;
  /** How often the data is rebuilt (BuildOptions.rebuildEveryMs): undefined the default, null no schedule. */
  rebuildEveryMs?: number | null | undefined;
  /** Source statuses (the manifest is written only at publish time): the home page's freshness table. */
  sources: SourceStatus[];
  /**
   * Outputs this build leaves out (an unavailable source with no snapshot): a page must not
   * read them, as they are not in `buildDir`.
   */
  omitted: { output: string; reason: string }[];
}

/**
 * The address of a page of the site in a language, e.g. `sitePage('en', '/docs/api/')`: every page
 * lives under its language's prefix (the server sends the addresses from before the prefixes on
 * to these). For the links the build writes into its discovery files and data package.
 */
export const sitePage = (lang: Lang, path: string): string => `/${lang}${path.startsWith('/') ? path : `/${path}`}`;
