import type { Context } from 'hono';
import type { AppContext } from './env.ts';
import type { RateLimitPolicy } from '../contract/http.ts';
import type { RateLimitResult } from '../contract/rate-limits.ts';
import type { ContentCoding } from '../contract/manifest.ts';
import { perBuild, type EncodedBody, type LoadedBuild } from './build.ts';
import type { MemoEntry } from './memo.ts';
import { formatParam, negotiatedFormat, offeredFormats, varyOf, type Coding, type Format } from './negotiate.ts';

/**
 * Answers that are already bytes — a file of the build, or a parameterised answer the memo holds
 * — and the one definition of them that both ways of answering share:
 *
 * - which requests may be answered from them (`prebuiltKey`): GET and HEAD on a plain request
 *   target (origin-form, no percent-encoding, no dot segment) with a plain Host, so that the
 *   same target always reaches the app as the same URL; anything unusual goes to the app;
 * - their headers (`replyOf`): the build's common headers, type, ETag per content coding,
 *   Last-Modified, Cache-Control, Vary, Content-Encoding, Content-Length, for the 200 and the 304;
 * - what the app has answered with them (`recordAnswer`, `PrebuiltAnswers`): when the Node
 *   listener's fast path (api/fast-path.ts) finds no answer for a qualifying request, it leaves a
 *   slot on the request and the app runs; when the app answers with a build file or a memoised
 *   answer (api/http.ts), it records it in the slot, with what decided it: the formats the route
 *   offers (the format is negotiated again on each request, with the same rule), the rate-limit
 *   policy that counted it, and the memo entry it came from. The next request for that target
 *   is answered by the fast path, with the same headers from the same function.
 *
 * An answer is a pure function of the build, the request target, the negotiated format and the
 * day (time series default `to` to today): the records are kept per build, and forgotten at the
 * end of each UTC day. A memoised answer is served only while the memo still holds that entry.
 */

/** The bytes of an answer, with what its headers say about them. */
export interface ByteAnswer {
  body: Uint8Array;
  etag: string;
  contentType: string;
  lastModified: string;
  cacheControl: string;
  /** The same bytes compressed (build files of at least 1 KiB), each with its own ETag. */
  encodings?: Partial<Record<ContentCoding, EncodedBody>>;
  /** Headers of this answer beyond those above (the api-catalog's Link, a page's Cache-Control): last, so they win. */
  extra?: Record<string, string>;
}

/** The content codings an answer is stored in besides identity. */
export function codingsOf(a: ByteAnswer): ContentCoding[] {
  return a.encodings ? (Object.keys(a.encodings) as ContentCoding[]) : [];
}

/** An answer in one content coding: its bytes, its ETag, and every header of its 200 and of its 304. */
export interface Reply {
  body: Uint8Array;
  etag: string;
  /** Without the headers of the request itself (X-Request-Id, RateLimit), which each path adds. */
  ok: Record<string, string>;
  notModified: Record<string, string>;
}

/**
 * The headers of an answer in `coding`: `common` (the build's: licence link, CORS, nosniff,
 * X-Build), then the answer's own. `vary` is what chose the answer besides its coding (Accept on
 * the negotiated /v1 routes); Accept-Encoding is added when the answer has compressed copies.
 */
export function replyOf(common: Record<string, string>, a: ByteAnswer, coding: Coding, vary: string | undefined): Reply {
  const chosen = coding === 'identity' ? a : a.encodings![coding]!;
  const varies = [vary, codingsOf(a).length > 0 ? 'Accept-Encoding' : undefined].filter(Boolean).join(', ');
  const notModified: Record<string, string> = {
    ...common,
    'content-type': a.contentType,
    etag: chosen.etag,
    'last-modified': a.lastModified,
    'cache-control': a.cacheControl,
    ...(varies ? { vary: varies } : {}),
    ...a.extra,
  };
  const ok: Record<string, string> = { ...notModified };
  if (coding !== 'identity') ok['content-encoding'] = coding;
  ok['content-length'] = String(chosen.body.byteLength);
  return { body: chosen.body, etag: chosen.etag, ok, notModified };
}

// --- which requests qualify -------------------------------------------------------------------

/**
 * A request target @hono/node-server passes to the app as it is (its own test, without `#`): an
 * origin-form path and query of plain characters, so no percent-encoding (invalid encodings are
 * the app's 400) and no character a URL parser would rewrite.
 */
const PLAIN_TARGET = /^\/[!$&-;=?-[\]_a-z~]*$/;
const DOT_SEGMENT = /\/\.\.?(?:[/?]|$)/;
/** A Host the adapter takes as it is (its own test): a lower-case name or address, a port of four or five digits. */
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;
/** Longer targets are the app's (and are never worth remembering). */
export const MAX_TARGET_CHARS = 1024;

/** The key a request's answer is recorded under (its target), or null when the request does not qualify. */
export function prebuiltKey(method: string | undefined, url: string | undefined, host: string | undefined): string | null {
  if (method !== 'GET' && method !== 'HEAD') return null;
  if (!url || url.length > MAX_TARGET_CHARS || !PLAIN_TARGET.test(url) || DOT_SEGMENT.test(url)) return null;
  if (!host || !PLAIN_HOST.test(host)) return null;
  return url;
}

// --- what the app answered --------------------------------------------------------------------

/** An answer recorded for one format of one target. */
export interface Prebuilt {
  answer: ByteAnswer;
  /** A memoised answer: served while the memo holds this very entry under this key. */
  memo?: { key: string; entry: MemoEntry };
  /** What chose the answer besides its coding: Accept on the negotiated routes. */
  vary: string | undefined;
  codings: ContentCoding[];
  /** replyOf() per coding, made on first use. */
  replies: Partial<Record<Coding, Reply>>;
}

/** What the app answered for one request target. */
export interface Target {
  /** The formats the route offers (the format is negotiated on each request); null: not negotiated. */
  offers: readonly Format[] | null;
  /** The `format` of the target's query, which wins over Accept. */
  urlFormat: string | undefined;
  /** The rate-limit policy that counted the request, when one did. */
  policy: RateLimitPolicy | null;
  /**
   * The answer of each format ('any' when not negotiated), held weakly: an answer lives as long
   * as its bytes (the build's file, the memo's entry; see `prebuiltFor`), so what the memo
   * evicts is never kept alive here.
   */
  answers: Partial<Record<Format | 'any', WeakRef<Prebuilt>>>;
  /** The fast path's metrics label of the target, computed once. */
  label?: string;
}

/** Where the app records the answer of a request the fast path could not answer. */
export interface Slot {
  build: LoadedBuild;
  table: PrebuiltAnswers;
  key: string;
  day: number;
}

/** Property of the Node request under which the fast path leaves its slot for the app. */
export const SLOT = Symbol('chokepoint.prebuilt');

/**
 * Property of the Node request under which the fast path leaves the rate-limit count it made
 * before handing the request to the app (it counts before negotiating, so that a refusal costs
 * no negotiation): the app's limiter takes that count instead of counting again.
 */
export const COUNTED = Symbol('chokepoint.counted');
export interface Counted {
  policy: RateLimitPolicy;
  result: RateLimitResult | Promise<RateLimitResult>;
}

/** The count the fast path made for this request under `policy`, taken once; undefined when it made none. */
export function takeCounted(c: Context, policy: RateLimitPolicy): Counted['result'] | undefined {
  const incoming = (c.env as { incoming?: { [COUNTED]?: Counted } } | undefined)?.incoming;
  const counted = incoming?.[COUNTED];
  if (!counted || counted.policy !== policy) return undefined;
  delete incoming![COUNTED];
  return counted.result;
}

const DAY_MS = 86_400_000;

/**
 * The answers the app recorded for one build, by request target: at most `maxTargets` (the
 * oldest recorded first out; they hold references to bytes the build or its memo own, and a few
 * hundred bytes each), all forgotten at the end of the UTC day.
 */
export class PrebuiltAnswers {
  private readonly targets = new Map<string, Target>();
  private readonly maxTargets: number;
  /** The UTC day (days since the epoch) the records are of. */
  day = 0;
  private dayEnd = 0;

  constructor(maxTargets = 4096) {
    this.maxTargets = maxTargets;
  }

  /** The record of a target, if the app made one today. */
  get(key: string, now = Date.now()): Target | undefined {
    if (now >= this.dayEnd) this.newDay(now);
    return this.targets.get(key);
  }

  /** A slot for the app to record the answer of `key` in. */
  slot(build: LoadedBuild, key: string): Slot {
    return { build, table: this, key, day: this.day };
  }

  private newDay(now: number): void {
    this.targets.clear();
    this.day = Math.floor(now / DAY_MS);
    this.dayEnd = (this.day + 1) * DAY_MS;
  }

  record(slot: Slot, how: Omit<Target, 'answers' | 'label'>, format: Format | 'any', p: Prebuilt): void {
    // A slot of yesterday: the answer may be yesterday's (a time series ending today).
    if (slot.day !== this.day) return;
    let t = this.targets.get(slot.key);
    if (!t || t.offers?.join() !== how.offers?.join() || t.urlFormat !== how.urlFormat || t.policy !== how.policy) {
      this.targets.delete(slot.key);
      this.targets.set(slot.key, (t = { ...how, answers: {} }));
      if (this.targets.size > this.maxTargets) this.targets.delete(this.targets.keys().next().value!);
    }
    t.answers[format] = new WeakRef(p);
  }

  get size(): number {
    return this.targets.size;
  }
}

/** The records of each build, dropped with it. */
export const prebuiltOf = perBuild(() => new PrebuiltAnswers());

/**
 * Record the answer the app is sending, when the listener left a slot on this request (api/http.ts
 * calls it for build files and memoised answers, and for nothing else). `memo`: the memo entry
 * the answer is, which the fast path checks is still there before each use.
 */
export function recordAnswer(c: AppContext, b: LoadedBuild, answer: ByteAnswer, memo?: { key: string; entry: MemoEntry }): void {
  const slot = (c.env as { incoming?: { [SLOT]?: Slot } } | undefined)?.incoming?.[SLOT];
  if (!slot || slot.build !== b) return;
  const offers = offeredFormats(c) ?? null;
  const how = { offers, urlFormat: offers ? formatParam(c.req.url) : undefined, policy: c.get('limitPolicy') ?? null };
  slot.table.record(slot, how, offers ? (negotiatedFormat(c) ?? 'json') : 'any', prebuiltFor(answer, varyOf(c), memo));
}

/** The answers made of each body: one per body and headers, however many targets (`gas`, `energy.gas`, `GAS`…) are answered with it. */
const byBody = new WeakMap<Uint8Array, Prebuilt[]>();

const sameHeaders = (a: Record<string, string> | undefined, b: Record<string, string> | undefined) =>
  a === b || (!!a && !!b && Object.keys(a).length === Object.keys(b).length && Object.keys(a).every((k) => a[k] === b[k]));

/** The Prebuilt of an answer: an existing one when the same bytes are already answered with the same headers. */
function prebuiltFor(answer: ByteAnswer, vary: string | undefined, memo: { key: string; entry: MemoEntry } | undefined): Prebuilt {
  let list = byBody.get(answer.body);
  if (!list) byBody.set(answer.body, (list = []));
  const a = answer;
  const found = list.find(
    (p) =>
      p.vary === vary &&
      p.memo?.key === memo?.key &&
      p.answer.etag === a.etag &&
      p.answer.contentType === a.contentType &&
      p.answer.lastModified === a.lastModified &&
      p.answer.cacheControl === a.cacheControl &&
      p.answer.encodings === a.encodings &&
      sameHeaders(p.answer.extra, a.extra),
  );
  if (found) return found;
  const p: Prebuilt = { answer, vary, codings: codingsOf(answer), replies: {}, ...(memo ? { memo } : {}) };
  // A body answered in many ways (never the case today) keeps only its latest few.
  if (list.length >= 8) list.shift();
  list.push(p);
  return p;
}
