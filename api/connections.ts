import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { normalizeIp } from './client-ip.ts';
import { PROBLEM_TYPE, SPECIAL_PROBLEMS, problemOf } from '../contract/problems.ts';
import { rateKey } from './rate-limit.ts';

/**
 * Connection hygiene of the HTTP server (SPEC §7, issue 20 finding 6): a total and a per-IP cap
 * on open connections, timeouts matched to the bodies we accept, and every answer Node would
 * otherwise give without a body (malformed request, headers too large, unmet Expect, CONNECT, a
 * connection over a cap) given as an RFC 9457 problem with the CORS headers.
 */
export interface ConnectionOptions {
  /** Connections open at once, all clients together; past it a new connection gets 503 and is closed. */
  maxConnections: number;
  /** Connections open at once from one client address (IPv6: its /64); past it 429 and closed. */
  maxConnectionsPerIp: number;
  /** Time a client has to send the request line and headers (silent and slow-header connections). */
  headersTimeoutMs: number;
  /** Time a client has to send the whole request, body included (slow bodies). */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept after a response. */
  keepAliveTimeoutMs: number;
  /** Peers the per-IP cap does not apply to: trusted proxies carry many clients on their connections. */
  exempt?: (ip: string) => boolean;
  /** Until when (ms since the epoch) new connections from a client (its rate-limit key) are refused for pipelining too far ahead (api/pipelining.ts); 0 when they are not. */
  penalisedUntil?: (key: string) => number;
  /** Headers every problem carries (licence link, nosniff, CORS). */
  headers: () => Record<string, string>;
  log?: (msg: string) => void;
}

/** Methods the API answers; CONNECT (and anything else Node hands over outside a request) is told so. */
export const ALLOWED_METHODS = 'GET, HEAD, POST, OPTIONS';

/** How often Node checks headersTimeout and requestTimeout (its default, 30 s, would let a silent connection live 40 s). */
export const CONNECTIONS_CHECKING_INTERVAL_MS = 1000;

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Content Too Large',
  417: 'Expectation Failed',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  503: 'Service Unavailable',
};

export interface RawProblem {
  status: number;
  title: string;
  type: string;
  detail: string;
  instance?: string;
  headers?: Record<string, string>;
}

/** The bytes of a complete HTTP/1.1 response carrying a problem, that closes the connection. */
export function rawProblemResponse(p: RawProblem, common: Record<string, string>): string {
  const body = JSON.stringify({ type: p.type, title: p.title, status: p.status, detail: p.detail, instance: p.instance ?? '/' });
  const headers: Record<string, string> = {
    ...common,
    'content-type': `${PROBLEM_TYPE}; charset=utf-8`,
    'cache-control': 'no-store',
    ...p.headers,
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  };
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  return `HTTP/1.1 ${p.status} ${REASONS[p.status] ?? 'Error'}\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** Write a problem on a socket Node gave up on (no request object to answer through), then close it. */
function answerRaw(socket: Duplex, p: RawProblem, common: Record<string, string>): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(rawProblemResponse(p, common));
  // A client that never reads must not keep the socket: it goes after a second whatever happens.
  setTimeout(() => socket.destroy(), 1000).unref();
}

/**
 * Header fields one request may carry (Apache's LimitRequestFields): browsers send about 20, and
 * every field is work for the parser and the app. Past it 431 naming the count (headerProblem);
 * Node's parser refuses about 1,000 fields by itself, as a header overflow (clientErrorProblem).
 */
export const MAX_HEADER_FIELDS = 100;

/**
 * What a parser error from Node means for the client, as a problem. `received`: the bytes read on
 * the connection so far; a header overflow with fewer than the byte limit was one of too many
 * fields, about 1,000 (a keep-alive connection's earlier requests count too, so a longer one
 * names both limits).
 */
export function clientErrorProblem(err: NodeJS.ErrnoException, maxHeaderBytes: number, received = Infinity): RawProblem {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        ...problemOf(431),
        detail:
          received < maxHeaderBytes
            ? `a request may carry at most ${MAX_HEADER_FIELDS} header fields; this one has many more`
            : `the request line and headers may be at most ${maxHeaderBytes} bytes together, in at most ${MAX_HEADER_FIELDS} header fields`,
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { ...problemOf(408), detail: 'the request was not received in time; send it again without pauses' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { ...problemOf(413), detail: 'chunk extensions too large' };
    default:
      return {
        ...SPECIAL_PROBLEMS['malformed-request'],
        detail: `malformed HTTP request (${String(err.code ?? 'parse error')
          .replace(/^HPE_/, '')
          .toLowerCase()
          .replace(/_/g, ' ')})`,
      };
  }
}

export interface ConnectionStats {
  open: number;
  clients: number;
  refusedTotal: number;
  refusedPerIp: number;
  /** Connections refused because their address had pipelined past the caps of api/pipelining.ts shortly before. */
  refusedPipelining: number;
}

/**
 * Apply the caps and timeouts to a Node HTTP server that has not accepted a connection yet
 * (call it right after creating the server, in the same tick).
 */
export function guardConnections(server: Server, opts: ConnectionOptions): { stats(): ConnectionStats } {
  server.headersTimeout = opts.headersTimeoutMs;
  server.requestTimeout = opts.requestTimeoutMs;
  server.keepAliveTimeout = opts.keepAliveTimeoutMs;
  const maxHeaderBytes = (server as Server & { maxHeaderSize?: number }).maxHeaderSize ?? 16 * 1024;
  const perIp = new Map<string, number>();
  let open = 0;
  let refusedTotal = 0;
  let refusedPerIp = 0;
  let refusedPipelining = 0;

  // Node's own connection listener (the HTTP parser) runs only for connections under the caps.
  const inner = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    const ip = normalizeIp(socket.remoteAddress) ?? 'unknown';
    const key = rateKey(ip);
    const counted = !(opts.exempt?.(ip) ?? false);
    const mine = perIp.get(key) ?? 0;
    if (open >= opts.maxConnections) {
      refusedTotal++;
      answerRaw(
        socket,
        {
          ...SPECIAL_PROBLEMS['too-many-connections'],
          detail: `the server holds its maximum of ${opts.maxConnections} connections; try again shortly`,
          headers: { 'retry-after': '5' },
        },
        opts.headers(),
      );
      return;
    }
    if (counted && mine >= opts.maxConnectionsPerIp) {
      refusedPerIp++;
      answerRaw(
        socket,
        {
          ...SPECIAL_PROBLEMS['too-many-client-connections'],
          detail: `at most ${opts.maxConnectionsPerIp} connections may be open at once from one client address; reuse a keep-alive connection or close idle ones`,
          headers: { 'retry-after': '5' },
        },
        opts.headers(),
      );
      return;
    }
    const until = counted ? (opts.penalisedUntil?.(key) ?? 0) : 0;
    if (until > 0) {
      refusedPipelining++;
      answerRaw(
        socket,
        {
          ...SPECIAL_PROBLEMS['too-many-pipelined'],
          detail: 'this address sent more requests ahead of their answers than the server holds; its connections are refused for a few seconds',
          headers: { 'retry-after': String(Math.max(1, Math.ceil((until - Date.now()) / 1000))) },
        },
        opts.headers(),
      );
      return;
    }
    open++;
    if (counted) perIp.set(key, mine + 1);
    socket.once('close', () => {
      open--;
      if (!counted) return;
      const n = (perIp.get(key) ?? 1) - 1;
      if (n <= 0) perIp.delete(key);
      else perIp.set(key, n);
    });
    for (const l of inner) l.call(server, socket);
  });

  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || err.code === 'EPIPE' || !socket.writable) {
      socket.destroy();
      return;
    }
    // A response already under way cannot be replaced by another one.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    answerRaw(socket, clientErrorProblem(err, maxHeaderBytes, (socket as Duplex & { bytesRead?: number }).bytesRead), opts.headers());
  });

  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.stringify({
      ...problemOf(417),
      detail: `only "Expect: 100-continue" is supported (got ${JSON.stringify(String(req.headers.expect).slice(0, 64))})`,
      instance: pathOf(req),
    });
    res.writeHead(417, {
      ...opts.headers(),
      'content-type': `${PROBLEM_TYPE}; charset=utf-8`,
      'cache-control': 'no-store',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    res.end(body);
  });

  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    answerRaw(
      socket,
      {
        ...problemOf(405),
        detail: `CONNECT is not allowed: this is an API, not a proxy; use ${ALLOWED_METHODS}`,
        instance: pathOf(req),
        headers: { allow: ALLOWED_METHODS },
      },
      opts.headers(),
    );
  });

  return { stats: () => ({ open, clients: perIp.size, refusedTotal, refusedPerIp, refusedPipelining }) };
}

/** The path of a request for a problem's `instance` (a CONNECT target is host:port, kept short). */
function pathOf(req: IncomingMessage): string {
  const url = String(req.url ?? '/');
  const q = url.indexOf('?');
  return (q >= 0 ? url.slice(0, q) : url).slice(0, 200) || '/';
}

/**
 * Requests @hono/node-server refuses before the app sees them (its RequestError, answered with a
 * bare 400 unless the listener is given an error handler), as problems: no Host, a Host that does
 * not read back as itself once parsed as a URL's authority (`127.1`, `a:`), a target that is not
 * an absolute path (`OPTIONS *`, the asterisk form), a backslash in the path.
 */
export function requestErrorProblem(err: unknown): RawProblem {
  const message = err instanceof Error ? err.message : String(err);
  const detail = REQUEST_ERRORS.find(([m]) => message.startsWith(m))?.[1] ?? `the request cannot be read as an HTTP request (${message})`;
  return { ...SPECIAL_PROBLEMS['malformed-request'], detail };
}

/** @hono/node-server's RequestError messages, by prefix, and what the client is told. */
const REQUEST_ERRORS: [string, string][] = [
  ['Missing host header', 'the request has no Host header; every HTTP/1.1 request carries exactly one (RFC 9112 §3.2)'],
  [
    'Invalid host header',
    'the Host header is not a host name and port this server reads back unchanged (a registered name, an IPv4 address in four decimal parts, or an [IPv6] address, then an optional :port)',
  ],
  ['Backslash in request path', 'the path holds a backslash; write / between path segments, or %5C for a literal backslash'],
  ['Invalid absolute URL', 'the request target is not a valid http(s) URL'],
  [
    'Invalid URL',
    'the request target must be an absolute path starting with / (the origin form, RFC 9112 §3.2.1); OPTIONS * (the asterisk form) is not answered: ask OPTIONS of a path',
  ],
];

/**
 * What the headers of a parsed request break: more than MAX_HEADER_FIELDS fields (431), two Host
 * headers (Node would keep the first) or, in HTTP/1.1, none (RFC 9112 §3.2: 400). An HTTP/1.0
 * request may come without Host.
 */
export function headerProblem(req: IncomingMessage): RawProblem | null {
  const raw = req.rawHeaders;
  if (raw.length > 2 * MAX_HEADER_FIELDS) {
    return { ...problemOf(431), detail: `a request may carry at most ${MAX_HEADER_FIELDS} header fields; this one has more`, instance: pathOf(req) };
  }
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) if ((raw[i] as string).length === 4 && (raw[i] as string).toLowerCase() === 'host') hosts++;
  if (hosts === 1 || (hosts === 0 && req.httpVersion !== '1.1')) return null;
  const detail =
    hosts === 0
      ? 'the request has no Host header; every HTTP/1.1 request carries exactly one (RFC 9112 §3.2)'
      : `the request carries ${hosts} Host headers; it must carry exactly one (RFC 9112 §3.2)`;
  return { ...SPECIAL_PROBLEMS['malformed-request'], detail, instance: pathOf(req) };
}

/** A problem as the answer to a request Node parsed (the connection closes after it). */
export function answerProblem(res: ServerResponse, p: RawProblem, common: Record<string, string>): void {
  const body = JSON.stringify({ type: p.type, title: p.title, status: p.status, detail: p.detail, instance: p.instance ?? '/' });
  res.writeHead(p.status, {
    ...common,
    'content-type': `${PROBLEM_TYPE}; charset=utf-8`,
    'cache-control': 'no-store',
    ...p.headers,
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  res.end(body);
}

/** The same problem as a fetch Response (what @hono/node-server's error handler returns). */
export function problemResponseOf(p: RawProblem, common: Record<string, string>): Response {
  const body = JSON.stringify({ type: p.type, title: p.title, status: p.status, detail: p.detail, instance: p.instance ?? '/' });
  return new Response(body, {
    status: p.status,
    headers: { ...common, 'content-type': `${PROBLEM_TYPE}; charset=utf-8`, 'cache-control': 'no-store', ...p.headers, connection: 'close' },
  });
}
