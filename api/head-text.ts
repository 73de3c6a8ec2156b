import { validateHeaderName, validateHeaderValue, type ServerResponse } from 'node:http';

/**
 * The head of a fast-path 200 as the text Node would write for it, put on the response without
 * Node's writeHead(). writeHead() checks every header name and value with a regular expression and
 * joins the head string by string on every request: about 3 µs of a 25 µs request and 2.5 KB of
 * its garbage here (BENCHMARKS.md), for headers that are the same on every answer of a reply. The
 * fixed part of each reply's head is checked once, with Node's own validators, and kept as one
 * string; each request adds its status line, its own headers (X-Request-Id, RateLimit), Date and
 * the connection headers.
 *
 * What writeHead() then does (OutgoingMessage's _storeHeader in Node 24: Date, Connection,
 * Keep-Alive) is done here for the one case this takes: a keep-alive connection without a request
 * cap, Date on, the length known. The response's own state says whether it is that case; any other
 * (a client asking to close, HTTP/1.0, a server with maxRequestsPerSocket, a Node whose responses
 * lack these fields) is left to writeHead(). These fields are not documented API: the project pins
 * its Node version, and api/head-text.test.ts compares the bytes with writeHead()'s.
 */

/** The internal fields of a Node 24 ServerResponse this reads and sets. */
interface Internals {
  _header: string | null;
  _headerSent: boolean;
  _keepAliveTimeout: number;
  _defaultKeepAlive: boolean;
  _maxRequestsPerSocket: number;
  _removedConnection: boolean;
  maxRequestsOnConnectionReached: boolean;
}

/** The fixed lines of a head ("name: value\r\n" each), checked as writeHead() checks them. */
export function headLines(headers: Record<string, string>): string {
  let text = '';
  for (const name in headers) {
    const value = headers[name]!;
    validateHeaderName(name);
    validateHeaderValue(name, value);
    text += `${name}: ${value}\r\n`;
  }
  return text;
}

/** A text of the current time, made again only when the second changes (on the hot path, a Date a request is measurable). */
export function oncePerSecond(make: (now: Date) => string): () => string {
  let second = -1;
  let text = '';
  return () => {
    const now = Date.now();
    if (Math.floor(now / 1000) !== second) {
      second = Math.floor(now / 1000);
      text = make(new Date(now));
    }
    return text;
  };
}

/** Node's Date line, made once a second as Node makes it. */
const date = oncePerSecond((now) => `Date: ${now.toUTCString()}\r\n`);

/**
 * Put a 200's head on `res`: `own` (this request's header lines) then `lines` (the reply's,
 * from headLines()). False, and nothing done, when this response is not the case handled here;
 * the caller then uses writeHead().
 */
export function setHead(res: ServerResponse, own: string, lines: string): boolean {
  const r = res as ServerResponse & Internals;
  if (
    r._header !== null ||
    !r.sendDate ||
    r.shouldKeepAlive !== true ||
    r.maxRequestsOnConnectionReached !== false ||
    r._removedConnection !== false ||
    r._defaultKeepAlive !== true ||
    ~~r._maxRequestsPerSocket > 0 ||
    !(r._keepAliveTimeout > 0)
  ) {
    return false;
  }
  r.statusCode = 200;
  r._header = `HTTP/1.1 200 OK\r\n${own}${lines}${date()}Connection: keep-alive\r\nKeep-Alive: timeout=${Math.floor(r._keepAliveTimeout / 1000)}\r\n\r\n`;
  r._headerSent = false;
  return true;
}
