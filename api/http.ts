import type { Context } from 'hono';
import { CSV_TYPE, DATA_CACHE_CONTROL, JSON_TYPE } from '../contract/http.ts';
import { recordsToCsv } from '../lib/csv.ts';
import { etagOf, matches } from './headers.ts';
import type { LoadedBuild, StaticFile } from './build.ts';
import { ApiError } from './problem.ts';

const encoder = new TextEncoder();

export interface CacheInfo {
  etag: string;
  lastModified: string;
  cacheControl?: string;
}

/** Rate-limit headers the limiter computed for this request, added when the response is built. */
export const LIMIT_HEADERS = 'limitHeaders';

/**
 * Bytes as they are, every header set at construction (a header added to a finished response
 * would make the Node adapter copy the body through a stream), 304 when the client has them.
 */
export function sendBytes(
  c: Context,
  b: Pick<LoadedBuild, 'headers'>,
  body: Uint8Array,
  contentType: string,
  cache: CacheInfo,
  extra?: Record<string, string>,
): Response {
  const headers: Record<string, string> = {
    ...b.headers,
    ...(c.get(LIMIT_HEADERS) as Record<string, string> | undefined),
    'content-type': contentType,
    etag: cache.etag,
    'last-modified': cache.lastModified,
    'cache-control': cache.cacheControl ?? DATA_CACHE_CONTROL,
    ...extra,
  };
  if (matches(c.req.header('if-none-match'), cache.etag)) return new Response(null, { status: 304, headers });
  return new Response(body as ConstructorParameters<typeof Response>[0], { status: 200, headers });
}

export function sendFile(c: Context, b: LoadedBuild, file: StaticFile, extra?: Record<string, string>): Response {
  return sendBytes(c, b, file.body, file.contentType, { etag: file.etag, lastModified: b.lastModified }, extra);
}

/** Context key under which a memoised route names its answer (see `memoised` in app.ts). */
export const MEMO_KEY = 'memoKey';

function sendComputed(c: Context, b: LoadedBuild, body: Uint8Array, contentType: string, cacheControl?: string): Response {
  const etag = etagOf(body);
  const key = c.get(MEMO_KEY) as string | undefined;
  if (key) b.memo.set(key, { body, etag, contentType, ...(cacheControl ? { cacheControl } : {}) });
  return sendBytes(c, b, body, contentType, { etag, lastModified: b.lastModified, ...(cacheControl ? { cacheControl } : {}) });
}

/** A response built for this request: serialised once, hashed for its ETag, memoised per build. */
export function sendJson(c: Context, b: LoadedBuild, value: unknown, cacheControl?: string): Response {
  return sendComputed(c, b, encoder.encode(JSON.stringify(value)), JSON_TYPE, cacheControl);
}

export function sendCsv(c: Context, b: LoadedBuild, csv: string): Response {
  return sendComputed(c, b, encoder.encode(csv), CSV_TYPE);
}

/** CSV when asked by `format=csv` or `Accept: text/csv` (and JSON is not preferred). */
export function wantsCsv(c: Context, format: string | undefined): boolean {
  if (format) return format === 'csv';
  const accept = c.req.header('accept') ?? '';
  return /\btext\/csv\b/.test(accept) && !/\bapplication\/json\b/.test(accept.split('text/csv')[0] ?? '');
}

/**
 * Flatten records into CSV (lib/csv.ts): nested objects become dotted columns, arrays are joined
 * with '; ', the columns in the order they first appear.
 */
export function toCsv(rows: readonly Record<string, unknown>[]): string {
  const flat = rows.map((r) => flatten(r));
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const r of flat) {
    for (const k of Object.keys(r)) {
      if (seen.has(k)) continue;
      seen.add(k);
      columns.push(k);
    }
  }
  return recordsToCsv(columns, flat);
}

function flatten(value: Record<string, unknown>, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const [k, v] of Object.entries(value)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (Array.isArray(v)) out[key] = v.map((x) => (typeof x === 'object' && x !== null ? JSON.stringify(x) : String(x))).join('; ');
    else if (v !== null && typeof v === 'object') flatten(v as Record<string, unknown>, key, out);
    else out[key] = v;
  }
  return out;
}

/** The query as a plain object; a parameter given twice is refused rather than silently picked. */
export function queryObject(c: Context): Record<string, string> {
  const url = new URL(c.req.url);
  const out: Record<string, string> = {};
  const twice: string[] = [];
  for (const [k, v] of url.searchParams) {
    if (k in out) twice.push(k);
    out[k] = v;
  }
  if (twice.length) {
    throw new ApiError(400, `each parameter may be given once: ${[...new Set(twice)].join(', ')}`, {
      errors: [...new Set(twice)].map((param) => ({ param, message: 'given more than once' })),
    });
  }
  return out;
}
