import type { Context } from 'hono';
import type { AppContext } from './env.ts';
import { CSV_TYPE, DATA_CACHE_CONTROL, JSON_TYPE } from '../contract/http.ts';
import { recordsToCsv } from '../lib/csv.ts';
import { etagOf, matches } from './headers.ts';
import type { LoadedBuild, StaticFile } from './build.ts';
import type { MemoEntry } from './memo.ts';
import { negotiatedFormat, preferredCoding, preferredFormat, varyOf } from './negotiate.ts';
import { codingsOf, recordAnswer, replyOf, type ByteAnswer } from './prebuilt.ts';
import { ApiError } from './problem.ts';

const encoder = new TextEncoder();

export interface CacheInfo {
  etag: string;
  lastModified: string;
  cacheControl?: string;
}

/**
 * Bytes as they are, or one of their compressed copies when the answer has them and
 * Accept-Encoding prefers one (api/negotiate.ts: br, then gzip, then identity), each copy with
 * its own strong ETag; 304 when the client has the bytes it would get. The headers are those of
 * api/prebuilt.ts replyOf(), which the listener's fast path sends too, plus the rate limiter's.
 * Every header is set at construction (a header added to a finished response would make the
 * Node adapter copy the body through a stream).
 */
export function sendAnswer(c: AppContext, b: Pick<LoadedBuild, 'headers'>, answer: ByteAnswer): Response {
  const codings = codingsOf(answer);
  const coding = preferredCoding(c.req.header('accept-encoding'), codings);
  if (!coding) {
    throw new ApiError(406, `this resource is available as ${['identity', ...codings].join(', ')}; the Accept-Encoding header allows none`, {
      allowed: ['identity', ...codings],
    });
  }
  const reply = replyOf(b.headers, answer, coding, varyOf(c));
  const limit = c.get('limitHeaders');
  if (matches(c.req.header('if-none-match'), reply.etag)) return new Response(null, { status: 304, headers: { ...reply.notModified, ...limit } });
  return new Response(reply.body as ConstructorParameters<typeof Response>[0], { status: 200, headers: { ...reply.ok, ...limit } });
}

/** sendAnswer() of bytes described piece by piece. */
export function sendBytes(
  c: Context,
  b: Pick<LoadedBuild, 'headers'>,
  body: Uint8Array,
  contentType: string,
  cache: CacheInfo,
  extra?: Record<string, string>,
  encodings?: StaticFile['encodings'],
): Response {
  return sendAnswer(c, b, answerOf(body, contentType, cache, extra, encodings));
}

function answerOf(body: Uint8Array, contentType: string, cache: CacheInfo, extra?: Record<string, string>, encodings?: StaticFile['encodings']): ByteAnswer {
  return {
    body,
    etag: cache.etag,
    contentType,
    lastModified: cache.lastModified,
    cacheControl: cache.cacheControl ?? DATA_CACHE_CONTROL,
    ...(encodings ? { encodings } : {}),
    ...(extra ? { extra } : {}),
  };
}

/** A file of the build, as it is: the listener may answer the next request for this target from it (api/prebuilt.ts). */
export function sendFile(c: Context, b: LoadedBuild, file: StaticFile, extra?: Record<string, string>): Response {
  const answer = answerOf(file.body, file.contentType, { etag: file.etag, lastModified: b.lastModified }, extra, file.encodings);
  recordAnswer(c, b, answer);
  return sendAnswer(c, b, answer);
}

/** A memoised answer (just computed, or found in the memo): the listener may answer the next request for this target from it. */
export function sendMemoised(c: Context, b: LoadedBuild, key: string, entry: MemoEntry): Response {
  const answer = answerOf(entry.body, entry.contentType, {
    etag: entry.etag,
    lastModified: b.lastModified,
    ...(entry.cacheControl ? { cacheControl: entry.cacheControl } : {}),
  });
  recordAnswer(c, b, answer, { key, entry });
  return sendAnswer(c, b, answer);
}

function sendComputed(c: AppContext, b: LoadedBuild, body: Uint8Array, contentType: string, cacheControl?: string, etag = etagOf(body)): Response {
  const key = c.get('memoKey');
  const entry: MemoEntry = { body, etag, contentType, ...(cacheControl ? { cacheControl } : {}) };
  if (key) {
    b.memo.set(key, entry);
    // Recorded only when the memo kept it (an answer over its size limit is not).
    if (b.memo.get(key) === entry) return sendMemoised(c, b, key, entry);
  }
  return sendBytes(c, b, body, contentType, { etag, lastModified: b.lastModified, ...(cacheControl ? { cacheControl } : {}) });
}

/** A response built for this request: serialised once, hashed for its ETag, memoised per build. */
export function sendJson(c: Context, b: LoadedBuild, value: unknown, cacheControl?: string): Response {
  return sendComputed(c, b, encoder.encode(JSON.stringify(value)), JSON_TYPE, cacheControl);
}

/** JSON bytes written for this request with a strong ETag derived without hashing them (api/queries/timeseries-window.ts), memoised per build. */
export function sendJsonBytes(c: Context, b: LoadedBuild, body: Uint8Array, etag: string): Response {
  return sendComputed(c, b, body, JSON_TYPE, undefined, etag);
}

export function sendCsv(c: Context, b: LoadedBuild, csv: string): Response {
  return sendComputed(c, b, encoder.encode(csv), CSV_TYPE);
}

/**
 * Whether this request's answer is CSV: the format negotiated once for the request (`format=`,
 * else Accept with its weights; api/negotiate.ts), which the memo key and Vary follow too. Outside
 * a negotiated route, the same rule applied here.
 */
export function wantsCsv(c: Context, format: string | undefined): boolean {
  const decided = negotiatedFormat(c) ?? (format ? format : preferredFormat(c.req.header('accept'), ['json', 'csv']));
  return decided === 'csv';
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
  // No prototype: `constructor`, `toString` or `__proto__` are parameter names like any other
  // (unknown ones), not inherited properties that look already given.
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  const twice: string[] = [];
  for (const [k, v] of url.searchParams) {
    if (Object.hasOwn(out, k)) twice.push(k);
    out[k] = v;
  }
  if (twice.length) {
    throw new ApiError(400, `each parameter may be given once: ${[...new Set(twice)].join(', ')}`, {
      errors: [...new Set(twice)].map((param) => ({ param, message: 'given more than once' })),
    });
  }
  return out;
}

/** A `%` not followed by two hexadecimal digits. */
const STRAY_PERCENT = /%(?![0-9A-Fa-f]{2})/;
/** A run of percent-encoded bytes (one UTF-8 character may take up to four). */
const ENCODED_RUN = /(?:%[0-9A-Fa-f]{2})+/g;

/** Why a piece of a URL is not percent-encoded UTF-8 (quoting the offending text), or null when it is. */
function encodingFault(text: string): string | null {
  const stray = STRAY_PERCENT.exec(text);
  if (stray) return `"${text.slice(stray.index, stray.index + 3)}" is not a percent-encoded byte (% and two hexadecimal digits)`;
  for (const [run] of text.matchAll(ENCODED_RUN)) {
    try {
      decodeURIComponent(run);
    } catch {
      return `the bytes ${run.length > 36 ? `${run.slice(0, 36)}…` : run} are not UTF-8`;
    }
  }
  return null;
}

/**
 * A 400 problem when the path or the query string of `url` holds an invalid percent-encoding or
 * percent-encoded bytes that are not UTF-8, naming the part (the path, a parameter's name or
 * value); null when both are well formed. Cheap on the common path: no `%`, nothing to check.
 */
export function urlEncodingProblem(url: string): ApiError | null {
  if (url.indexOf('%') < 0) return null;
  const scheme = url.indexOf('://');
  const start = url.indexOf('/', scheme < 0 ? 0 : scheme + 3);
  if (start < 0) return null;
  const hash = url.indexOf('#', start);
  const end = hash < 0 ? url.length : hash;
  const mark = url.indexOf('?', start);
  const q = mark < 0 || mark > end ? end : mark;
  const errors: { param: string; message: string }[] = [];
  const inPath = encodingFault(url.slice(start, q));
  if (inPath) errors.push({ param: '(path)', message: `the path: ${inPath}` });
  for (const pair of url.slice(q + 1, end).split('&')) {
    if (pair.indexOf('%') < 0) continue;
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    const inName = encodingFault(name);
    if (inName) {
      errors.push({ param: '(query)', message: `a parameter name: ${inName}` });
      continue;
    }
    const inValue = eq < 0 ? null : encodingFault(pair.slice(eq + 1));
    if (inValue) errors.push({ param: decodeURIComponent(name.replace(/\+/g, ' ')), message: `the value: ${inValue}` });
  }
  if (errors.length === 0) return null;
  const parts = errors.map((e) => (e.param === '(path)' ? 'the path' : e.param === '(query)' ? 'a parameter name' : `parameter ${e.param}`));
  return new ApiError(
    400,
    `${parts.join(', ')}: not valid percent-encoded UTF-8 (RFC 3986); encode each character as the percent-encoded bytes of its UTF-8 form`,
    {
      errors,
    },
  );
}
