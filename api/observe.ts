import { createServer, type IncomingMessage, type ServerOptions, type ServerResponse } from 'node:http';
import { REQUEST_ID_HEADER } from '../contract/http.ts';
import type { Logger } from '../lib/log.ts';
import { UNKNOWN_CLIENT, clientIpOf, normalizeIp, type TrustProxy } from './client-ip.ts';
import { logPrefix } from './ip-text.ts';
import type { ServerMetrics } from './metrics.ts';
import { acceptRequestId } from './request-id.ts';

/**
 * The request id, the request log and the request counters, around the Node request listener
 * rather than inside the Hono app:
 *
 * - the header goes on the outgoing message before the app runs (res.setHeader; Node merges it
 *   into the head the adapter writes): every response carries it, and none is rebuilt to take
 *   one more header (which would make the adapter copy its body through a stream);
 * - the listener sees every request the HTTP parser hands over, answered by the app or not, and
 *   its 'close' event comes once the last byte is written or the client went away;
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
}

const ID_HEADER = REQUEST_ID_HEADER.toLowerCase();
/** Longest query string logged (a request line may be 16 KiB). */
const MAX_QUERY = 512;

const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v.join(', ') : v);

export function observe(listener: Listener, opts: ObserveOptions): Listener {
  const { logger, metrics, trust } = opts;
  const logging = logger.isLevelEnabled('info');
  return (req, res) => {
    const sent = req.headers[ID_HEADER];
    const id = acceptRequestId(typeof sent === 'string' ? sent : undefined);
    (req as IncomingMessage & { id?: string }).id = id;
    res.setHeader(ID_HEADER, id);
    if (metrics || logging) {
      const start = performance.now();
      const socket = req.socket;
      const written = socket.bytesWritten;
      res.once('close', () => {
        const url = req.url ?? '/';
        const q = url.indexOf('?');
        const path = q >= 0 ? url.slice(0, q) : url;
        const answered = res.headersSent;
        if (answered) metrics?.request(path, res.statusCode);
        if (!logging) return;
        const peer = normalizeIp(socket.remoteAddress) ?? UNKNOWN_CLIENT;
        logger.info(
          {
            request_id: id,
            method: req.method,
            path,
            ...(q >= 0 ? { query: url.slice(q + 1, q + 1 + MAX_QUERY) } : {}),
            status: answered ? res.statusCode : null,
            ...(res.writableFinished ? {} : { aborted: true }),
            bytes: socket.bytesWritten - written,
            ms: Math.round((performance.now() - start) * 10) / 10,
            client: logPrefix(clientIpOf(peer, (name) => one(req.headers[name]), trust)),
          },
          'request',
        );
      });
    }
    listener(req, res);
  };
}

/** node:http's createServer with observe() around the listener (the `createServer` option of @hono/node-server's serve()). */
export function observedServer(opts: ObserveOptions): typeof createServer {
  return ((options: ServerOptions, listener: Listener) => createServer(options, observe(listener, opts))) as typeof createServer;
}
