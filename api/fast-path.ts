import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RateLimitPolicy } from '../contract/http.ts';
import type { BuildSource } from './build-store.ts';
import { headLines, setHead } from './head-text.ts';
import { matches } from './headers.ts';
import { routeLabel } from './metrics.ts';
import { chooseFormat, preferredCoding } from './negotiate.ts';
import { COUNTED, prebuiltKey, prebuiltOf, replyOf, SLOT, type Counted, type PrebuiltAnswers, type Reply, type Slot, type Target } from './prebuilt.ts';
import type { LoadedBuild } from './build.ts';
import { problemReply } from './problem.ts';
import type { ConsumeResult, RateLimits } from './rate-limit.ts';
import { TIMESERIES_PATH, timeseriesAnswer, timeseriesRequest, windowHead } from './fast-timeseries.ts';

/**
 * The listener's fast path: a request whose answer is already bytes — a build file or a memoised
 * answer, which the app recorded the first time it answered that request target (api/prebuilt.ts)
 * — is answered here, from the Node request and response, without a Request, a Response, routing
 * or middleware. It does what the app would: the rate limit (counted exactly as the app counts,
 * the 429 included), the format negotiation (format=, then Accept), the content coding
 * (Accept-Encoding), the 304 on If-None-Match, HEAD, and the headers of api/prebuilt.ts
 * replyOf(), which the app's responses are built with too. Anything else — a target the app has
 * not answered from bytes yet, an unusual request, a 406 — goes to the app, which may record it.
 *
 * With Redis counting the rate limits, the count is asynchronous: the answer waits for it here as
 * it would in the app. FAST_PATH=off sends every request to the app.
 */

export interface FastPathOptions {
  source: BuildSource;
  limits: Pick<RateLimits, 'consumeKey' | 'headers' | 'refusal'>;
  /** The rate-limit key of a request's client (rateKey of its address under TRUST_PROXY). */
  clientKey(req: IncomingMessage): string;
}

/** Answers `req` when it can: the request's metrics route label when it did, null when the app must answer. */
export type FastPath = (req: IncomingMessage, res: ServerResponse, id: string) => string | null;

type WithSlot = IncomingMessage & { [SLOT]?: Slot };
type WithCount = IncomingMessage & { [COUNTED]?: Counted };

/** A header object as the flat [name, value, …] list writeHead() takes. */
function flat(headers: Record<string, string>): string[] {
  const out: string[] = [];
  for (const k in headers) out.push(k, headers[k]!);
  return out;
}

/**
 * The head of a reply as writeHead() lists, made once per reply: the request's own headers
 * first (X-Request-Id, then RateLimit-Policy and RateLimit when a policy counts the request),
 * their values filled in for each request, then replyOf()'s. writeHead() reads a list while it
 * runs and keeps nothing of it, so one list serves every request, one after the other.
 */
interface Heads {
  ok: string[];
  notModified: string[];
  /** The reply's own lines of a 200's head as text, for setHead(). */
  okText: string;
}
const ID_ONLY = 2;
const WITH_LIMIT = 6;
const heads = new WeakMap<Reply, { [ID_ONLY]?: Heads; [WITH_LIMIT]?: Heads }>();
function headsOf(r: Reply, own: typeof ID_ONLY | typeof WITH_LIMIT): Heads {
  let byOwn = heads.get(r);
  if (!byOwn) heads.set(r, (byOwn = {}));
  return (byOwn[own] ??= headsFor(r, own));
}
function headsFor(r: Reply, own: typeof ID_ONLY | typeof WITH_LIMIT): Heads {
  const mine = own === ID_ONLY ? ['x-request-id', ''] : ['x-request-id', '', 'RateLimit-Policy', '', 'RateLimit', ''];
  return { ok: mine.concat(flat(r.ok)), notModified: mine.concat(flat(r.notModified)), okText: headLines(r.ok) };
}

/** The request's own lines of a head list (its first `own` entries) as text. */
function ownLines(head: string[], own: typeof ID_ONLY | typeof WITH_LIMIT): string {
  let text = '';
  for (let i = 0; i < own; i += 2) text += `${head[i]}: ${head[i + 1]}\r\n`;
  return text;
}

const TIMESERIES_OFFERS = ['json', 'csv'] as const;

const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
};

export function fastPath(opts: FastPathOptions): FastPath {
  const { source, limits, clientKey } = opts;

  /** Write the reply, with the request's id and, when a policy counted it, its rate limit. */
  function answer(req: IncomingMessage, res: ServerResponse, id: string, reply: Reply, policy: RateLimitPolicy | null, r: ConsumeResult | null): void {
    const notModified = matches(req.headers['if-none-match'], reply.etag);
    const h = headsOf(reply, r ? WITH_LIMIT : ID_ONLY);
    const head = notModified ? h.notModified : h.ok;
    head[1] = id;
    if (r) {
      const limit = limits.headers(policy!, r);
      head[3] = limit['RateLimit-Policy']!;
      head[5] = limit.RateLimit!;
    }
    // A GET's 200, the common case: the head as text (api/head-text.ts), else writeHead().
    if (!notModified && req.method === 'GET' && setHead(res, ownLines(head, r ? WITH_LIMIT : ID_ONLY), h.okText)) {
      res.end(reply.body);
      return;
    }
    res.writeHead(notModified ? 304 : 200, head);
    res.end(notModified || req.method === 'HEAD' ? undefined : reply.body);
  }

  /**
   * The 429, as the app answers it (api/problem.ts problemReply of the limiter's refusal). A
   * refusal differs from the next one of the same policy, limit, wait and path only by its
   * request id: problemReply() is run once for them with a stand-in id, and each request fills in
   * its own (a refusal must cost no more than an answer, BENCHMARKS.md).
   */
  type Refusal = { limit: number; head: string[]; lengthAt: number; before: string; after: string } | null;
  /** By the build's common headers (a new build has its own), the path, then the policy and the wait. */
  const refusals = new WeakMap<Record<string, string>, Map<string, Map<number, Refusal>>>();
  const STAND_IN = 'request-id';
  function refusalOf(path: string, common: Record<string, string>, policy: RateLimitPolicy, r: ConsumeResult): Refusal {
    const sample = problemReply(limits.refusal(policy, r), path, STAND_IN, common);
    const text = new TextDecoder().decode(sample.body);
    const at = text.lastIndexOf(`"${STAND_IN}"}`);
    const head = ['x-request-id', ''].concat(flat(sample.headers));
    const lengthAt = head.indexOf('content-length') + 1;
    return at < 0 || lengthAt === 0 ? null : { limit: r.limit, head, lengthAt, before: text.slice(0, at + 1), after: text.slice(at + STAND_IN.length + 1) };
  }
  function refuse(req: IncomingMessage, res: ServerResponse, id: string, common: Record<string, string>, policy: RateLimitPolicy, r: ConsumeResult): void {
    const path = pathOf(req.url!);
    let byPath = refusals.get(common);
    if (!byPath) refusals.set(common, (byPath = new Map()));
    let byWait = byPath.get(path);
    if (!byWait) {
      if (byPath.size >= 4096) byPath.clear();
      byPath.set(path, (byWait = new Map()));
    }
    const which = r.resetSeconds * 2 + (policy === 'ask' ? 1 : 0);
    let made = byWait.get(which);
    // Made for this quota (the limit, or this instance's share of it during a Redis outage).
    if (made === undefined || (made && made.limit !== r.limit)) byWait.set(which, (made = refusalOf(path, common, policy, r)));
    if (!made) {
      const p = problemReply(limits.refusal(policy, r), path, id, common);
      res.writeHead(p.status, ['x-request-id', id].concat(flat(p.headers)));
      res.end(req.method === 'HEAD' ? undefined : p.body);
      return;
    }
    // Ids and the paths that reach here are ASCII: one byte a character.
    const body = made.before + id + made.after;
    made.head[1] = id;
    made.head[made.lengthAt] = String(body.length);
    res.writeHead(429, made.head);
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  function settle(
    req: IncomingMessage,
    res: ServerResponse,
    id: string,
    common: Record<string, string>,
    reply: Reply,
    policy: RateLimitPolicy,
    r: ConsumeResult,
  ): void {
    if (r.allowed) answer(req, res, id, reply, policy, r.limit === 0 ? null : r);
    else refuse(req, res, id, common, policy, r);
  }

  /**
   * The reply to a counted (or uncounted) request whose target the app has answered from bytes:
   * the format negotiated, then the coding; null when the app must answer (a 406, an answer not
   * recorded for this format, or one the memo no longer holds, for which a slot is left).
   */
  function replyFor(req: IncomingMessage, b: LoadedBuild, table: PrebuiltAnswers, key: string, target: Target): Reply | null {
    const format = target.offers ? chooseFormat(target.urlFormat, req.headers.accept, target.offers) : 'any';
    // Accept admits nothing the route offers: the app's 406.
    if (format === null) return null;
    const p = target.answers[format]?.deref();
    // A memoised answer is served while the memo holds it (and stays the most recently used there).
    if (!p || (p.memo && b.memo.get(p.memo.key) !== p.memo.entry)) {
      if (!p) delete target.answers[format];
      (req as WithSlot)[SLOT] = table.slot(b, key);
      return null;
    }
    const coding = preferredCoding(req.headers['accept-encoding'], p.codings);
    // No acceptable coding: the app's 406.
    if (coding === null) return null;
    return (p.replies[coding] ??= replyOf(b.headers, p.answer, coding, p.vary));
  }

  /** The app answers a request the fast path has counted: it takes this count instead of counting again. */
  function handOver(req: IncomingMessage, counted: Counted): null {
    (req as WithCount)[COUNTED] = counted;
    return null;
  }

  /**
   * A time-series window (api/fast-timeseries.ts): counted first, then the format and coding
   * negotiated as the app does; what this path cannot answer (CSV, an empty window, a 406) is
   * handed to the app with its count.
   */
  const TIMESERIES_LABEL = routeLabel(TIMESERIES_PATH, 200);
  function timeseries(req: IncomingMessage, res: ServerResponse, id: string, b: LoadedBuild, query: string): string | null {
    const ts = timeseriesRequest(b, query);
    if (!ts) return null;
    const counted = limits.consumeKey('data', clientKey(req));
    if (!(counted instanceof Promise) && !counted.allowed) {
      refuse(req, res, id, b.headers, 'data', counted);
      return TIMESERIES_LABEL;
    }
    const w =
      chooseFormat(ts.urlFormat, req.headers.accept, TIMESERIES_OFFERS) === 'json' && preferredCoding(req.headers['accept-encoding'], []) === 'identity'
        ? timeseriesAnswer(b, ts)
        : null;
    if (!w) return handOver(req, { policy: 'data', result: counted });
    const head = windowHead(b);
    const write = (r: ConsumeResult) => {
      const limit = r.limit === 0 ? null : r;
      // A GET's 200 without If-None-Match, the common case: the head as text; else as the prebuilt answers are written.
      if (req.method === 'GET' && req.headers['if-none-match'] === undefined) {
        let own = `x-request-id: ${id}\r\n`;
        if (limit) {
          const h = limits.headers('data', limit);
          own += `RateLimit-Policy: ${h['RateLimit-Policy']}\r\nRateLimit: ${h.RateLimit}\r\n`;
        }
        if (setHead(res, own, head.okText(w))) {
          // The points and the template's long pieces are bytes made once per build: written
          // as they are, with the text between them, in one write (corked until end()).
          res.cork();
          for (const c of w.chunks) res.write(c);
          res.end();
          return;
        }
      }
      answer(req, res, id, head.reply(w), 'data', limit);
    };
    if (!(counted instanceof Promise)) write(counted);
    else {
      const common = b.headers;
      counted.then(
        (r) => {
          if (res.destroyed) return;
          if (r.allowed) write(r);
          else refuse(req, res, id, common, 'data', r);
        },
        (err: unknown) => res.destroy(err instanceof Error ? err : new Error(String(err))),
      );
    }
    return TIMESERIES_LABEL;
  }

  return (req, res, id) => {
    const b = source.current();
    if (!b) return null;
    const key = prebuiltKey(req.method, req.url, req.headers.host);
    if (key === null) return null;
    if (key.startsWith(TIMESERIES_PATH) && key.charCodeAt(TIMESERIES_PATH.length) === 0x3f) {
      const done = timeseries(req, res, id, b, key.slice(TIMESERIES_PATH.length + 1));
      if (done !== null || (req as WithCount)[COUNTED]) return done;
    }
    const table = prebuiltOf(b);
    const target = table.get(key);
    if (!target) {
      (req as WithSlot)[SLOT] = table.slot(b, key);
      return null;
    }
    const label = (target.label ??= routeLabel(pathOf(key), 200));
    const policy = target.policy;
    if (!policy) {
      const reply = replyFor(req, b, table, key, target);
      if (!reply) return null;
      answer(req, res, id, reply, null, null);
      return label;
    }
    // Counted first: a refusal is never dearer than an answer, whatever the request's Accept or
    // Accept-Encoding (BENCHMARKS.md, docs/rate-limits.md).
    const counted = limits.consumeKey(policy, clientKey(req));
    if (!(counted instanceof Promise)) {
      if (!counted.allowed) {
        refuse(req, res, id, b.headers, policy, counted);
        return label;
      }
      const reply = replyFor(req, b, table, key, target);
      if (!reply) return handOver(req, { policy, result: counted });
      answer(req, res, id, reply, policy, counted.limit === 0 ? null : counted);
      return label;
    }
    // Counted in Redis: the reply is looked up while the count is in flight; answer when it is
    // back, unless the client left meanwhile.
    const reply = replyFor(req, b, table, key, target);
    if (!reply) return handOver(req, { policy, result: counted });
    const common = b.headers;
    counted.then(
      (r) => {
        if (!res.destroyed) settle(req, res, id, common, reply, policy, r);
      },
      (err: unknown) => res.destroy(err instanceof Error ? err : new Error(String(err))),
    );
    return label;
  };
}
