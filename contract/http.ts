import { LICENSE_URL } from './common.ts';

/** The HTTP side of the contract: media types, caching, and the headers every response carries. */
export const JSON_TYPE = 'application/json; charset=utf-8';
export const CSV_TYPE = 'text/csv; charset=utf-8';
/**
 * Cache-Control of data (prebuilt files and parameterised answers): a minute in browsers, the
 * rebuild interval (15 min) in shared caches, and old data rather than an error while the origin
 * is down.
 */
export const DATA_CACHE_CONTROL = 'public, max-age=60, s-maxage=900, stale-while-revalidate=900, stale-if-error=86400';
/** Cache-Control of the site's pages. */
export const HTML_CACHE_CONTROL = 'public, max-age=60, s-maxage=900, stale-while-revalidate=900';
/** Response headers a browser script may read (CORS). */
export const EXPOSED_HEADERS = [
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'ETag',
  'Link',
  'Deprecation',
  'Sunset',
  'Last-Modified',
  'X-Request-Id',
  'X-Build',
];
/**
 * Every response names its request in X-Request-Id (problem bodies also as `request_id`). A
 * client may send its own: it is kept when it matches REQUEST_ID_PATTERN, else replaced.
 */
export const REQUEST_ID_HEADER = 'X-Request-Id';
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** The Link header every response carries: the licence and the backlink reusers must give. */
export const linkHeader = (baseUrl: string) => `<${LICENSE_URL}>; rel="license", <${baseUrl}/>; rel="cite-as"`;

export type { RateLimitPolicy } from './rate-limits.ts';
