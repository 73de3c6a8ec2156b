import type { Context } from 'hono';
import { LICENSE_URL } from '../contract/common.ts';
import type { StaticFile } from './build.ts';
import { ApiError } from './problem.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';
export const CSV_TYPE = 'text/csv; charset=utf-8';
export const DATA_CACHE = 'public, max-age=60, s-maxage=900, stale-while-revalidate=900, stale-if-error=86400';
export const EXPOSED_HEADERS = ['RateLimit', 'RateLimit-Policy', 'Retry-After', 'ETag', 'Link', 'Deprecation', 'Sunset', 'Last-Modified'];

/** The Link header every response carries: the licence and the backlink reusers must give. */
export const linkHeader = (baseUrl: string) => `<${LICENSE_URL}>; rel="license", <${baseUrl}/>; rel="cite-as"`;

const encoder = new TextEncoder();

/** Strong ETag of bytes computed per request (parameterised responses): SHA-256, truncated. */
export async function etagOf(body: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', body));
  let hex = '';
  for (let i = 0; i < 16; i++) hex += (digest[i] as number).toString(16).padStart(2, '0');
  return `"${hex}"`;
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

export interface CacheInfo {
  etag: string;
  lastModified: string;
  cacheControl?: string;
}

/** Bytes as they are, with validators; 304 when the client already has them. */
export function sendBytes(c: Context, body: Uint8Array, contentType: string, cache: CacheInfo): Response {
  const headers: Record<string, string> = {
    'content-type': contentType,
    etag: cache.etag,
    'last-modified': cache.lastModified,
    'cache-control': cache.cacheControl ?? DATA_CACHE,
  };
  if (matches(c.req.header('if-none-match'), cache.etag)) return new Response(null, { status: 304, headers });
  return new Response(body as ConstructorParameters<typeof Response>[0], { status: 200, headers });
}

export function sendFile(c: Context, file: StaticFile, lastModified: string): Response {
  return sendBytes(c, file.body, file.contentType, { etag: file.etag, lastModified });
}

/** A response built for this request: serialised once, hashed for its ETag. */
export async function sendJson(c: Context, value: unknown, lastModified: string, cacheControl?: string): Promise<Response> {
  const body = encoder.encode(JSON.stringify(value));
  return sendBytes(c, body, JSON_TYPE, { etag: await etagOf(body), lastModified, ...(cacheControl ? { cacheControl } : {}) });
}

export async function sendCsv(c: Context, csv: string, lastModified: string): Promise<Response> {
  const body = encoder.encode(csv);
  return sendBytes(c, body, CSV_TYPE, { etag: await etagOf(body), lastModified });
}

/** CSV when asked by `format=csv` or `Accept: text/csv` (and JSON is not preferred). */
export function wantsCsv(c: Context, format: string | undefined): boolean {
  if (format) return format === 'csv';
  const accept = c.req.header('accept') ?? '';
  return /\btext\/csv\b/.test(accept) && !/\bapplication\/json\b/.test(accept.split('text/csv')[0] ?? '');
}

/** Flatten records into CSV: nested objects become dotted columns, arrays are joined with '; '. */
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
  const cell = (v: unknown) => {
    const s = v === null || v === undefined ? '' : String(v);
    return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  return [columns.join(','), ...flat.map((r) => columns.map((k) => cell(r[k])).join(','))].join('\r\n') + '\r\n';
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
