import type { AppContext, Format } from './env.ts';
import { CONTENT_CODINGS, type ContentCoding } from '../contract/manifest.ts';
import { ApiError } from './problem.ts';

/**
 * Proactive content negotiation (RFC 9110 §12), decided once per request: the media type of a
 * /v1 answer (JSON or CSV) from `format=` or Accept, and the content coding of a prebuilt file
 * from Accept-Encoding. Everything that depends on the format (the route's answer, the memo key,
 * the Vary header) reads the one decision stored on the context.
 *
 * Not hono/accepts: its default matcher never matches `*\/*` (so `text/csv;q=0.5, *\/*` answers
 * CSV), drops q=0 ranges instead of letting them exclude a type (so `application/json;q=0`
 * falls back to the default rather than being refused), and returns the default when nothing
 * matches, where this API answers 406.
 */

export type { Format };

/** The media type each format answers with, as a client names it in Accept. */
export const FORMAT_MEDIA: Record<Format, string> = { json: 'application/json', csv: 'text/csv' };

/**
 * Decisions already taken for a header value: clients send the same few Accept and
 * Accept-Encoding values again and again, and parsing one costs more than the rest of a prebuilt
 * answer. Bounded: short values only, and emptied when full.
 */
class Decisions<T> {
  private readonly seen = new Map<string, T>();
  get(key: string, decide: () => T): T {
    const known = this.seen.get(key);
    if (known !== undefined || this.seen.has(key)) return known as T;
    const value = decide();
    if (key.length <= 256) {
      if (this.seen.size >= 512) this.seen.clear();
      this.seen.set(key, value);
    }
    return value;
  }
}
const formatDecisions = new Decisions<Format | null>();
const codingDecisions = new Decisions<Coding | null>();

/** One element of an Accept or Accept-Encoding list: the lower-cased value and its weight. */
interface Weighted {
  value: string;
  params: string[];
  q: number;
}

/** RFC 9110 §12.4.2: 0 to 1 with at most three decimals (more are tolerated). */
const QVALUE = /^(?:0(?:\.\d*)?|1(?:\.0*)?)$/;
/** RFC 9110 §5.6.2 token characters. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

/** Split on `sep` outside double-quoted strings. */
function splitOutsideQuotes(s: string, sep: string): string[] {
  const out: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (quoted && ch === '\\') i++;
    else if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === sep) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  out.push(s.slice(start));
  return out;
}

/**
 * The elements of a comma-separated, weighted header list (Accept, Accept-Encoding). An element
 * with a malformed weight is dropped (as if the client had not sent it); empty elements are
 * allowed by the list syntax and skipped. Parameters other than q are kept for the caller; the
 * accept-ext after q is ignored.
 */
function weightedList(header: string): Weighted[] {
  const out: Weighted[] = [];
  for (const element of splitOutsideQuotes(header, ',')) {
    const [head = '', ...rest] = splitOutsideQuotes(element, ';').map((p) => p.trim());
    if (!head) continue;
    let q = 1;
    let ok = true;
    const params: string[] = [];
    for (const p of rest) {
      const eq = p.indexOf('=');
      const name = (eq < 0 ? p : p.slice(0, eq)).trim().toLowerCase();
      if (name === 'q') {
        const v = p.slice(eq + 1).trim();
        if (eq < 0 || !QVALUE.test(v)) ok = false;
        else q = Number(v);
        break;
      }
      if (p) params.push(p);
    }
    if (ok) out.push({ value: head.toLowerCase(), params, q });
  }
  return out;
}

/** A media range of an Accept header: `type/subtype`, `type/*` or `*\/*`, with its weight. */
export interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

/** The valid media ranges of an Accept header; anything else (`json`, `*\/csv`, `text/`) is dropped. */
export function parseAccept(header: string): MediaRange[] {
  const out: MediaRange[] = [];
  for (const { value, q } of weightedList(header)) {
    const slash = value.indexOf('/');
    const type = value.slice(0, slash);
    const subtype = value.slice(slash + 1);
    if (slash < 0 || !TOKEN.test(type) || !TOKEN.test(subtype) || (type === '*' && subtype !== '*')) continue;
    out.push({ type, subtype, q });
  }
  return out;
}

/**
 * The weight an Accept header gives a media type: the q of the most specific range that matches
 * it (`text/csv` over `text/*` over `*\/*`; of equally specific ones, the highest), 0 when none
 * does. Media-type parameters in a range (`text/csv;header=present`) are not compared.
 */
export function qualityOf(ranges: readonly MediaRange[], mediaType: string): number {
  const [type, subtype] = mediaType.split('/') as [string, string];
  let best = -1;
  let q = 0;
  for (const r of ranges) {
    const specificity = r.type === type && r.subtype === subtype ? 3 : r.type === type && r.subtype === '*' ? 2 : r.type === '*' ? 1 : 0;
    if (specificity === 0 || specificity < best) continue;
    q = specificity > best ? r.q : Math.max(q, r.q);
    best = specificity;
  }
  return q;
}

/**
 * The format an Accept header prefers among those offered (in order of the server's preference,
 * which breaks ties): the highest weight wins, q=0 excludes. No header, or an empty one, is JSON
 * (RFC 9110: no Accept means anything is acceptable); null when none is acceptable (406).
 */
export function preferredFormat(accept: string | undefined, offers: readonly Format[]): Format | null {
  if (accept === undefined || accept.trim() === '') return offers[0] ?? null;
  return formatDecisions.get(`${offers.join()} ${accept}`, () => weighFormats(accept, offers));
}

function weighFormats(accept: string, offers: readonly Format[]): Format | null {
  const ranges = parseAccept(accept);
  let chosen: Format | null = null;
  let bestQ = 0;
  for (const f of offers) {
    const q = qualityOf(ranges, FORMAT_MEDIA[f]);
    if (q > bestQ) {
      chosen = f;
      bestQ = q;
    }
  }
  return chosen;
}

/**
 * The `format` of a URL's query as the contract reads it (trimmed, lower-cased); the route's
 * parser refuses a value it does not offer, or one given twice.
 */
export function formatParam(url: string): string | undefined {
  const q = url.indexOf('?');
  if (q < 0) return undefined;
  return new URLSearchParams(url.slice(q + 1)).get('format')?.trim().toLowerCase();
}

/**
 * Decide the format of this request's answer and store it on the context, with `Vary: Accept`.
 * `format=` wins over Accept (`format=csv` is CSV whatever Accept says); a value the route does
 * not offer is left to its parser to refuse with a 400, not a 406. Otherwise the Accept header
 * decides; when it admits nothing the route offers, a 406 problem lists what it does offer.
 */
export function negotiateFormat(c: AppContext, offers: readonly Format[]): Format {
  c.set('vary', 'Accept');
  c.set('offeredFormats', offers);
  const chosen = chooseFormat(formatParam(c.req.url), c.req.header('accept'), offers);
  if (!chosen) {
    const allowed = offers.map((f) => FORMAT_MEDIA[f]);
    throw new ApiError(406, `this route answers ${allowed.join(' or ')}; the Accept header allows neither`, { allowed }, { vary: 'Accept' });
  }
  c.set('negotiatedFormat', chosen);
  return chosen;
}

/**
 * The rule of negotiateFormat, from its inputs: the `format` of the URL (formatParam) wins, a
 * value the route does not offer counting as JSON (its parser refuses it); else Accept; null
 * when Accept admits none of the offers (a 406).
 */
export function chooseFormat(fromUrl: string | undefined, accept: string | undefined, offers: readonly Format[]): Format | null {
  if (fromUrl !== undefined) return fromUrl === 'csv' && offers.includes('csv') ? 'csv' : 'json';
  return preferredFormat(accept, offers);
}

/** The formats the route of this request offers, when it negotiated one. */
export function offeredFormats(c: AppContext): readonly Format[] | undefined {
  return c.get('offeredFormats');
}

/** The format decided for this request (negotiateFormat), if one was. */
export function negotiatedFormat(c: AppContext): Format | undefined {
  return c.get('negotiatedFormat');
}

/** The request headers this request's answer varies on, as decided so far (Accept on /v1 routes). */
export function varyOf(c: AppContext): string | undefined {
  return c.get('vary');
}

/** Every content coding a response may have: the build's compressed copies, and none. */
export type Coding = ContentCoding | 'identity';

/**
 * The content coding to send, given Accept-Encoding and the codings a file is stored in, per
 * RFC 9110 §12.5.3:
 * - no header: identity (a client that says nothing may not decompress);
 * - a coding's weight is its own q, else that of `*`, else 0; `x-gzip` is gzip;
 * - identity is acceptable unless `identity;q=0`, or `*;q=0` without an identity entry;
 * - the highest weight wins, ties go to br, then gzip, then identity; an identity the header
 *   does not name yields to any acceptable coding;
 * - null when nothing is acceptable (identity excluded, no acceptable stored coding): a 406.
 */
export function preferredCoding(header: string | undefined, available: readonly ContentCoding[]): Coding | null {
  if (header === undefined) return 'identity';
  return codingDecisions.get(`${available.join()} ${header}`, () => weighCodings(header, available));
}

function weighCodings(header: string, available: readonly ContentCoding[]): Coding | null {
  const weights = new Map<string, number>();
  for (const { value, q } of weightedList(header)) {
    const name = value === 'x-gzip' ? 'gzip' : value;
    weights.set(name, Math.max(q, weights.get(name) ?? 0));
  }
  const star = weights.get('*');
  let chosen: Coding | null = null;
  let bestQ = 0;
  for (const coding of CONTENT_CODINGS) {
    if (!available.includes(coding)) continue;
    const q = weights.get(coding) ?? star ?? 0;
    if (q > bestQ) {
      chosen = coding;
      bestQ = q;
    }
  }
  const identity = weights.get('identity') ?? star;
  if (identity === undefined) return chosen ?? 'identity';
  if (identity > bestQ) return 'identity';
  return chosen ?? (identity > 0 ? 'identity' : null);
}
