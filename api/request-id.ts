import type { AppContext, AppMiddleware } from './env.ts';
import { REQUEST_ID_HEADER, REQUEST_ID_PATTERN } from '../contract/http.ts';

/**
 * X-Request-Id without Node modules (the app runs at the edge too). The Node server gives each
 * request its id before the app runs (api/observe.ts: on the outgoing message, so no response
 * is rebuilt to carry it) and leaves it on the incoming message as `id`; a runtime that calls
 * the app directly gets it from `requestIds()` below.
 */

/** The id a client sent when it is short and safe to echo and to log, else a fresh one (a UUID v4 from `fresh`). */
export function acceptRequestId(sent: string | null | undefined, fresh: () => string = () => globalThis.crypto.randomUUID()): string {
  return sent && REQUEST_ID_PATTERN.test(sent) ? sent : fresh();
}

/** This request's id: set by requestIds(), or by the Node listener on the incoming message. */
export function requestIdOf(c: AppContext): string | undefined {
  const own = c.get('requestId');
  if (own) return own;
  const id = (c.env as { incoming?: { id?: unknown } } | undefined)?.incoming?.id;
  return typeof id === 'string' ? id : undefined;
}

/** Problem extension members with the request's id added (RFC 9457 §3.2), when it has one. */
export function withRequestId<T extends object>(c: AppContext, extras: T): T & { request_id?: string } {
  const id = requestIdOf(c);
  return id ? { ...extras, request_id: id } : extras;
}

/**
 * Middleware for runtimes without the Node listener: the id in the context and in the response.
 * (hono/request-id sets the header on the context before the route runs, which a Response the
 * route builds itself does not receive.)
 */
export function requestIds(): AppMiddleware {
  return async (c, next) => {
    const id = acceptRequestId(c.req.header(REQUEST_ID_HEADER));
    c.set('requestId', id);
    await next();
    try {
      c.res.headers.set(REQUEST_ID_HEADER, id);
    } catch {
      // Immutable headers (a response passed through from fetch): copy it once.
      const res = new Response(c.res.body, c.res);
      res.headers.set(REQUEST_ID_HEADER, id);
      c.res = res;
    }
  };
}
