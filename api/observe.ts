import { createServer, type IncomingMessage, type ServerOptions, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { REQUEST_ID_HEADER } from '../contract/http.ts';
import { RequestLog, type Logger } from '../lib/log.ts';
import { UNKNOWN_CLIENT, clientIpOf, normalizeIp, type TrustProxy } from './client-ip.ts';
import type { FastPath } from './fast-path.ts';
import { logPrefix, rateKey } from './ip-text.ts';
import type { ServerMetrics } from './metrics.ts';
import { acceptRequestId } from './request-id.ts';
import { uuidV4 } from './uuid.ts';

/**
 * The request id, the request log and the request counters, around the Node request listener
 * rather than inside the Hono app, and the fast path (api/fast-path.ts) before the app:
 *
 * - the id goes on the outgoing message before the app runs (res.setHeader; Node merges it
 *   into the head the adapter writes), or into the head the fast path writes: every response
 *   carries it, and none is rebuilt to take one more header (which would make the adapter copy
 *   its body through a stream);
 * - the listener sees every request the HTTP parser hands over, answered by the fast path, by
 *   the app or by nobody, and its 'close' event comes once the last byte is written or the
 *   client went away: one log line and one count per request, whoever answered;
 * - the app stays free of Node modules and of prom-client (it reads the id from the incoming
 *   message for problem bodies, see api/request-id.ts).
 *
 * Answers Node gives without a request (a malformed request, a connection over a cap: see
 * api/connections.ts) are not requests here; the guard counts them.
 */

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

export interface ObserveOptions {
  /** One `request` line per request at info level (nothing is built when info is off). */
  logger: Logger;
  metrics?: ServerMetrics;
  /** How the client address is found (TRUST_PROXY); logged by its /24 or /48 only. */
  trust: TrustProxy;
  /** Answers what it can from prebuilt bytes before the app (FAST_PATH); absent, the app answers every request. */
  fast?: FastPath;
  /** Answers a request no one else may (too many header fields, two Host headers: api/connections.ts headerProblem) and says so; before the fast path and the app. */
  refuse?: (req: IncomingMessage, res: ServerResponse, requestId: string) => boolean;
}

export interface Observed {
  listener: Listener;
  /** Write the request lines still waiting (the server calls it when it closes). */
  flush(): void;
}

const ID_HEADER = REQUEST_ID_HEADER.toLowerCase();
/**
 * Longest path and query string logged, in characters (a request line may be 16 KiB): a client
 * must not make the log many times longer than what it sent is worth. A path cut short ends with
 * "…". With whole 15,000-character paths, three clients inside their rate limit made the log
 * outgrow what stdout could take, and the lines waiting for it filled the heap (bench/attack.ts).
 */
const MAX_PATH = 1024;
const MAX_QUERY = 512;

const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v.join(', ') : v);

/** A client as the rate limits (its bucket) and the log (its network) name it. */
interface Client {
  key: string;
  network: string;
}

/** What the 'close' listener needs of its request. */
interface Watch {
  req: IncomingMessage;
  id: string;
  start: number;
  written: number;
  /** The route label when the fast path answered. */
  fast: string | null;
}

const CLIENT = Symbol('client');
const WATCH = Symbol('watch');
type Observable = ServerResponse & { [WATCH]?: Watch };

/**
 * The client of a request under TRUST_PROXY: without proxies it is the socket's peer, worked out
 * once per connection (a keep-alive connection carries many requests); behind proxies it is read
 * from each request's headers.
 */
export function clientOf(trust: TrustProxy): (req: IncomingMessage) => Client {
  const make = (ip: string): Client => ({ key: rateKey(ip), network: logPrefix(ip) });
  const peer = (socket: Socket | undefined) => normalizeIp(socket?.remoteAddress) ?? UNKNOWN_CLIENT;
  if (trust.kind === 'none') {
    return (req) => {
      const socket = req.socket as (Socket & { [CLIENT]?: Client }) | undefined;
      if (!socket) return make(UNKNOWN_CLIENT);
      return (socket[CLIENT] ??= make(peer(socket)));
    };
  }
  // Behind proxies, once per request (the rate limit and the log line both ask).
  return (req) => ((req as IncomingMessage & { [CLIENT]?: Client })[CLIENT] ??= make(clientIpOf(peer(req.socket), (name) => one(req.headers[name]), trust)));
}

export function observe(listener: Listener, opts: ObserveOptions): Observed {
  const { logger, metrics, fast } = opts;
  const log = RequestLog.of(logger);
  const client = clientOf(opts.trust);
  const watching = !!(metrics || log);

  // One listener function for every response: what it needs hangs on the response.
  function closed(this: Observable): void {
    const w = this[WATCH]!;
    const req = w.req;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q >= 0 ? url.slice(0, q) : url;
    const answered = this.headersSent;
    if (answered) metrics?.request(path, this.statusCode, w.fast ?? undefined);
    if (!log) return;
    log.write(
      w.id,
      req.method ?? '',
      path.length > MAX_PATH ? `${path.slice(0, MAX_PATH)}…` : path,
      q >= 0 ? url.slice(q + 1, q + 1 + MAX_QUERY) : undefined,
      answered ? this.statusCode : null,
      !this.writableFinished,
      bodyBytes(this, (req.socket?.bytesWritten ?? w.written) - w.written),
      Math.round((performance.now() - w.start) * 10) / 10,
      client(req).network,
    );
  }

  /**
   * The body bytes sent, as Content-Length counts them: the socket's count for this response less
   * its head (`_header`, Latin-1 text: one byte a character, set by writeHead() and by the fast
   * path's head as text alike). A chunked body counts its chunk framing.
   */
  const bodyBytes = (res: ServerResponse, wire: number): number => {
    const head = (res as ServerResponse & { _header?: string | null })._header;
    return Math.max(0, wire - (typeof head === 'string' ? head.length : 0));
  };

  return {
    listener: (req, res) => {
      const sent = req.headers[ID_HEADER];
      const id = acceptRequestId(typeof sent === 'string' ? sent : undefined, uuidV4);
      (req as IncomingMessage & { id?: string }).id = id;
      if (watching) {
        (res as Observable)[WATCH] = { req, id, start: performance.now(), written: req.socket?.bytesWritten ?? 0, fast: null };
        res.on('close', closed);
      }
      if (opts.refuse?.(req, res, id)) return;
      const fastLabel = fast ? fast(req, res, id) : null;
      if (fastLabel !== null) {
        if (watching) (res as Observable)[WATCH]!.fast = fastLabel;
        return;
      }
      res.setHeader(ID_HEADER, id);
      listener(req, res);
    },
    flush: () => log?.flush(),
  };
}

/** node:http's createServer with observe() around the listener (the `createServer` option of @hono/node-server's serve()). */
/** `around`: a listener wrapped around this one (api/pipelining.ts: the order and pace of pipelined requests). */
export function observedServer(opts: ObserveOptions & { observed?: (o: Observed) => void; around?: (l: Listener) => Listener }): typeof createServer {
  return ((options: ServerOptions, listener: Listener) => {
    const o = observe(listener, opts);
    opts.observed?.(o);
    return createServer(options, opts.around ? opts.around(o.listener) : o.listener);
  }) as typeof createServer;
}
