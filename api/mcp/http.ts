import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { type AuthInfo, isInitializeRequest, isJSONRPCRequest } from '@modelcontextprotocol/server';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppHono } from '../env.ts';
import { bodyLimit } from 'hono/body-limit';
import type { BuildSource } from '../build-store.ts';
import { EXPOSED_HEADERS } from '../../contract/http.ts';
import { PROBLEM_TYPE, SPECIAL_PROBLEMS, problemJson, problemOf, type ProblemKind } from '../../contract/problems.ts';
import { normalizeIp, rateKey } from '../ip-text.ts';
import { withRequestId } from '../request-id.ts';
import type { RateLimits } from '../rate-limit.ts';
import { gateTransport, POST_KEY, type PostContext } from './gate.ts';
import { DEFAULT_FLOW_LIMITS, MCP_MAX_BODY_BYTES, MCP_OVERLOADED, MCP_SESSION_LIFETIME_SECONDS, type FlowLimits } from './limits.ts';
import type { McpServerDeps } from './deps.ts';
import { createMcpServer } from './server.ts';
import { modernLeg, type ModernAnswer } from './modern.ts';
import { McpSessions, type McpSession } from './sessions.ts';
import { WebSseServerTransport } from './sse.ts';

/**
 * The checks every POST /mcp passes before anything in it is looked at (Node and Worker alike):
 * a JSON body, valid JSON, and a batch of 1 to `maxBatch` messages. The refusal, or the body.
 */
export async function readRpcPost(
  c: Context,
  maxBatch: number,
  problem: (c: Context, kind: ProblemKind, detail: string, extras?: Record<string, unknown>) => Response,
  rpcError: (status: number, code: number, message: string) => Response,
): Promise<Response | { body: unknown }> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    return problem(c, problemOf(415), 'POST /mcp takes a JSON-RPC message as application/json', { allowed: ['application/json'] });
  }
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch {
    return rpcError(400, -32700, 'Parse error: the body is not valid JSON');
  }
  if (Array.isArray(body) && (body.length === 0 || body.length > maxBatch)) {
    return rpcError(400, -32600, `Invalid Request: a batch holds 1 to ${maxBatch} messages; this one has ${body.length}`);
  }
  // MCP (basic protocol, "Requests"): a request id MUST NOT have been used before by the requestor
  // in the same session; two requests of one batch with the same id could not be told apart in
  // the answers, so the batch is refused whole, before anything in it runs.
  const twice = Array.isArray(body) ? duplicateId(body) : undefined;
  if (twice !== undefined) {
    return rpcError(
      400,
      -32600,
      `Invalid Request: the id ${JSON.stringify(twice)} is used by more than one request of this batch; each request needs its own id`,
    );
  }
  return { body };
}

/** The first request id a batch uses twice, if any. */
function duplicateId(batch: unknown[]): string | number | undefined {
  const seen = new Set<string>();
  for (const m of batch) {
    if (!isJSONRPCRequest(m)) continue;
    const key = JSON.stringify(m.id);
    if (seen.has(key)) return m.id;
    seen.add(key);
  }
  return undefined;
}

export const MCP_PATH = '/mcp';
export { MCP_MAX_BODY_BYTES } from './limits.ts';

export interface McpOptions {
  /** Sessions open at once, all clients together (default 100). */
  maxSessions?: number;
  /** Sessions open at once per client IP (default 10). */
  maxSessionsPerIp?: number;
  /** Seconds without a counted message (data-reading or ping) after which a session is closed (default 300). */
  sessionIdleSeconds?: number;
  /** Seconds after which a session is closed however active (default MCP_SESSION_LIFETIME_SECONDS). */
  sessionLifetimeSeconds?: number;
  /** Flow limits (batch, string lengths, response size, queued bytes, in-flight requests); defaults in limits.ts. */
  flow?: Partial<FlowLimits>;
  /**
   * Host header values accepted (DNS-rebinding protection): a host name matches on any port, a
   * `host:port` only on that port, `*` accepts any. Default: the host of the public base URL and
   * of the build, localhost, 127.0.0.1 and [::1].
   */
  allowedHosts?: readonly string[];
  /** Origin header values accepted when one is sent (same forms; default the public origins and the loopback ones, http and https). */
  allowedOrigins?: readonly string[];
  maxBodyBytes?: number;
  /** The client a request counts as, for the per-IP caps (the Node server passes its rate-limit key of the client IP; default the socket address, IPv6 by /64). Grouped by rateKey() in any case. */
  clientKey?: (c: Context) => string;
  /** SSE keep-alive comment interval (default 15 s). */
  keepAliveMs?: number;
}

export interface McpMountContext {
  source: BuildSource;
  baseUrl: string;
  /** The rate limits, when on: each data-reading message (tools/call, resources/read, prompts/get, completion/complete) and each ping consumes one unit of "data" for the caller. */
  limits?: Partial<Pick<RateLimits, 'consume' | 'headers'>> | null;
  /** Headers every response carries (licence and backlink, CORS, nosniff). */
  common: () => Record<string, string>;
  log?: (msg: string) => void;
  /** The work gate of search and ask, which the searching tools go through too (McpServerDeps.work). */
  work?: McpServerDeps['work'];
}

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];
/** The headers CORS lets a browser read from the Node endpoint's answers. */
export const MCP_EXPOSED = [...EXPOSED_HEADERS, 'Mcp-Session-Id', 'Mcp-Protocol-Version', 'WWW-Authenticate'].join(', ');
const ALLOWED_REQUEST_HEADERS = 'content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id';

/** `host[:port]` → [lower-case host name, port or '']; IPv6 keeps its brackets. */
function splitHost(value: string): [string, string] {
  const v = value.trim().toLowerCase();
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(v);
  return m ? [m[1]!, m[2] ?? ''] : [v, ''];
}

export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const [name, port] = splitHost(host);
  return allowed.some((entry) => {
    if (entry === '*') return true;
    const [n, p] = splitHost(entry);
    return n === name && (p === '' || p === port);
  });
}

export function originAllowed(origin: string, allowed: readonly string[]): boolean {
  let o: URL;
  try {
    o = new URL(origin);
  } catch {
    return false;
  }
  if (o.origin === 'null') return false;
  return allowed.some((entry) => {
    if (entry === '*') return true;
    try {
      const e = new URL(entry);
      return e.protocol === o.protocol && e.hostname === o.hostname && (e.port === '' || e.port === o.port);
    } catch {
      return false;
    }
  });
}

const hostOf = (url: string) => {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
};

/**
 * What both MCP endpoints (the Node one with sessions, the Worker's stateless one) answer with:
 * the headers of every answer (`exposed`: the headers CORS lets a browser read), RFC 9457
 * problems and JSON-RPC errors, the DNS-rebinding guard (the Host, and the Origin when a browser
 * sends one) and a POST's context for the gate (charges go to the request's client).
 */
export function mcpReplies(ctx: McpMountContext, opts: Pick<McpOptions, 'allowedHosts' | 'allowedOrigins'>, exposed: string) {
  const allowedHosts = () => {
    if (opts.allowedHosts?.length) return opts.allowedHosts;
    const hosts = [hostOf(ctx.baseUrl), hostOf(ctx.source.current()?.manifest.base_url ?? '')].filter((h): h is string => !!h);
    return [...hosts, ...LOOPBACK];
  };
  const allowedOrigins = () => {
    if (opts.allowedOrigins?.length) return opts.allowedOrigins;
    const bases = [ctx.baseUrl, ctx.source.current()?.manifest.base_url].filter((u): u is string => !!u).map((u) => new URL(u).origin);
    return [...bases, ...LOOPBACK.flatMap((h) => [`http://${h}`, `https://${h}`])];
  };
  const headers = (extra: Record<string, string> = {}): Record<string, string> => ({
    ...ctx.common(),
    'access-control-expose-headers': exposed,
    'cache-control': 'no-store',
    ...extra,
  });
  const problem = (c: Context, kind: ProblemKind, detail: string, extras: Record<string, unknown> = {}, extra: Record<string, string> = {}) =>
    new Response(problemJson(kind, detail, c.req.path, withRequestId(c, extras)), {
      status: kind.status,
      headers: headers({ 'content-type': `${PROBLEM_TYPE}; charset=utf-8`, ...extra }),
    });
  const rpcError = (status: number, code: number, message: string, extra: Record<string, string> = {}) =>
    new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
      status,
      headers: headers({ 'content-type': 'application/json', ...extra }),
    });
  const guard: MiddlewareHandler = async (c, next) => {
    const host = c.req.header('host') ?? new URL(c.req.url).host;
    if (!hostAllowed(host, allowedHosts())) {
      return problem(c, SPECIAL_PROBLEMS['forbidden-host'], `the Host header '${host}' is not served by this MCP endpoint`);
    }
    const origin = c.req.header('origin');
    if (origin !== undefined && !originAllowed(origin, allowedOrigins())) {
      return problem(c, SPECIAL_PROBLEMS['forbidden-origin'], `requests from the origin '${origin}' are not accepted by this MCP endpoint`);
    }
    await next();
  };
  const postContext = (c: Context): { post: PostContext; auth: AuthInfo } => {
    const limits = ctx.limits;
    const consume = limits?.consume;
    const post: PostContext = {
      pending: [],
      charge: consume ? () => consume(c, 'data') : async () => null,
      headers: (r) => limits?.headers?.('data', r) ?? {},
    };
    return { post, auth: { token: '', clientId: 'anonymous', scopes: [], extra: { [POST_KEY]: post } } };
  };
  return { headers, problem, rpcError, guard, postContext };
}

/** An entry of the SDK transport's private map of open response streams, one per POST that holds requests. */
interface ResponseStream {
  resolveJson?: (response: Response) => void;
  cleanup: () => void;
}
const streamsOf = (transport: WebStandardStreamableHTTPServerTransport) => {
  const map = (transport as unknown as { _streamMapping?: unknown })._streamMapping;
  return map instanceof Map ? (map as Map<string, ResponseStream>) : undefined;
};

/**
 * Works around a leak of the SDK (1.32.2; modelcontextprotocol/typescript-sdk#2559): in JSON
 * response mode, send() resolves a POST's pending response but never removes that POST's entry
 * from the transport's map of response streams, whose closures keep the POST's Request, its
 * parsed body and its messages reachable until the session closes: with 60,000-character URIs
 * about 140 KB per request, without bound. Each JSON entry is made to remove itself when it is
 * resolved (close() still finds the ones pending). Harmless once the SDK cleans up itself.
 */
export function releaseAnsweredStreams(transport: WebStandardStreamableHTTPServerTransport): boolean {
  const map = streamsOf(transport);
  if (!map) return false;
  const set = map.set.bind(map);
  map.set = (streamId: string, entry: ResponseStream) => {
    const resolve = entry.resolveJson;
    if (typeof resolve !== 'function') return set(streamId, entry);
    const own: ResponseStream = {
      ...entry,
      resolveJson: (response) => {
        if (map.get(streamId) === own) map.delete(streamId);
        resolve(response);
      },
    };
    return set(streamId, own);
  };
  return true;
}

/** Response streams the transport holds open (POSTs not yet answered); undefined if the SDK no longer exposes them. For tests and logs. */
export function openResponseStreams(transport: WebStandardStreamableHTTPServerTransport): number | undefined {
  return streamsOf(transport)?.size;
}

type StreamableSession = McpSession & {
  transport: WebStandardStreamableHTTPServerTransport;
  /** POSTs waiting for the transport's answer; answered 404 if the session closes first (the SDK would leave them hanging). */
  waiting: Set<(r: Response) => void>;
  /** Sockets of responses not yet flushed to the kernel (destroyed when the session is over its queue). */
  outgoing: Set<Socket>;
};
type SseSession = McpSession & { transport: WebSseServerTransport };

/**
 * The MCP endpoint on the app: Streamable HTTP (POST, GET and DELETE /mcp with Mcp-Session-Id)
 * and the SSE transport (GET /mcp without a session opens the stream, whose first event names
 * /mcp?sessionId=… to POST to) on one path. Each session has its own MCP server over the current
 * build; sessions are capped in total and per client, close when idle and at the end of their
 * lifetime, and are flow-controlled (limits.ts): batch size, in-flight requests per session and
 * per client, response size, bytes queued for a client that does not read.
 */
export class McpEndpoint {
  readonly sessions: McpSessions;
  readonly flow: FlowLimits;
  private readonly maxBody: number;

  private readonly opts: McpOptions;
  constructor(opts: McpOptions = {}) {
    this.opts = opts;
    this.flow = { ...DEFAULT_FLOW_LIMITS, ...opts.flow };
    this.sessions = new McpSessions(
      {
        max: opts.maxSessions ?? 100,
        perClient: opts.maxSessionsPerIp ?? 10,
        idleMs: (opts.sessionIdleSeconds ?? 300) * 1000,
        lifetimeMs: (opts.sessionLifetimeSeconds ?? MCP_SESSION_LIFETIME_SECONDS) * 1000,
        inFlightPerSession: this.flow.maxInFlightPerSession,
        inFlightPerClient: this.flow.maxInFlightPerIp,
      },
      (m) => this.log(m),
    );
    this.maxBody = opts.maxBodyBytes ?? MCP_MAX_BODY_BYTES;
  }

  private log: (msg: string) => void = () => {};

  private closeModern: () => Promise<void> = async () => {};

  async close(): Promise<void> {
    await this.closeModern();
    await this.sessions.closeAll();
  }

  mount(app: AppHono, ctx: McpMountContext): void {
    const log = ctx.log ?? (() => {});
    this.log = log;
    const deps: McpServerDeps = { source: ctx.source, baseUrl: ctx.baseUrl, log, ...(ctx.work ? { work: ctx.work } : {}) };
    // Without a key function (edge runtimes, tests): the socket peer where @hono/node-server exposes
    // it, read without importing Node modules; the Node server always passes its TRUST_PROXY key.
    const keyOf = this.opts.clientKey ?? peerAddress;
    const clientKey = (c: Context) => rateKey(keyOf(c));
    const sessions = this.sessions;
    const maxBody = this.maxBody;
    const flow = this.flow;

    const { headers, problem, rpcError, guard, postContext } = mcpReplies(ctx, this.opts, MCP_EXPOSED);
    /** A transport's response with our headers (no-store, licence, CORS) added; `body` replaces its body when given. */
    const finish = (res: Response, extra: Record<string, string> = {}, body?: string | null) => {
      const h = new Headers(res.headers);
      for (const [k, v] of Object.entries(headers(extra))) h.set(k, v);
      return new Response(body === undefined ? res.body : body, { status: res.status, statusText: res.statusText, headers: h });
    };
    const refuse = async (c: Context, client: string) => {
      const r = await sessions.admit(client);
      if (!r) return null;
      return r.status === 429
        ? problem(c, problemOf(429), r.detail, { policy: 'mcp-sessions-per-ip' }, { 'retry-after': String(r.retryAfter) })
        : problem(c, SPECIAL_PROBLEMS['mcp-sessions-exhausted'], r.detail, {}, { 'retry-after': String(r.retryAfter) });
    };
    /** Flow control said no: nothing of the message was executed or charged. */
    const overloaded = (detail: string) => rpcError(429, MCP_OVERLOADED, `Too many requests: ${detail}`, { 'retry-after': '1' });

    const limitHeaders = (post: PostContext) => (post.last ? post.headers(post.last) : {});
    /**
     * A session of the client that sends the request: a session is bound to the address that
     * opened it (IPv6 by /64, as the rate limits count), and from any other address it is
     * answered as unknown (404), so a leaked id can neither be used nor ended, nor shown to exist.
     */
    const own = <S extends McpSession>(c: Context, id: string, kind: McpSession['kind']): S | undefined => {
      const s = sessions.get(id, kind);
      return s && s.client === clientKey(c) ? (s as S) : undefined;
    };

    app.use(MCP_PATH, guard);

    app.options(
      MCP_PATH,
      () =>
        new Response(null, {
          status: 204,
          headers: headers({
            'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
            'access-control-allow-headers': ALLOWED_REQUEST_HEADERS,
            'access-control-max-age': '86400',
          }),
        }),
    );

    const sizeLimit = bodyLimit({
      maxSize: maxBody,
      onError: (c) => problem(c, problemOf(413), `an MCP message may be at most ${maxBody} bytes`),
    });

    const modern = modernLeg(deps, flow, maxBody);
    this.closeModern = modern.close;

    app.post(MCP_PATH, sizeLimit, async (c) => {
      const read = await readRpcPost(c, flow.maxBatch, problem, rpcError);
      if (read instanceof Response) return read;
      const body = read.body;
      const messages = Array.isArray(body) ? body : [body];
      const requests = messages.filter((m) => isJSONRPCRequest(m)).length;

      // 2026-07-28: no session, the revision in each request's _meta (modern.ts).
      if (c.req.query('sessionId') === undefined && c.req.header('mcp-session-id') === undefined && (await modern.isModern(c.req.raw, body))) {
        const { post, auth } = postContext(c);
        const answer = await modern.serve(c.req.raw, body, auth, post, { sessions, client: clientKey(c) });
        if ('refused' in answer) return overloaded(answer.refused);
        return modernResponse(answer, headers(limitHeaders(post)));
      }

      // SSE transport: the message goes to the session's stream; the POST only acknowledges it.
      const sseId = c.req.query('sessionId');
      if (sseId !== undefined) {
        const s = own<SseSession>(c, sseId, 'sse');
        if (!s) return problem(c, problemOf(404), `no open SSE session '${sseId}'; open one with GET /mcp (Accept: text/event-stream)`);
        const parsed = WebSseServerTransport.parse(messages);
        if (!parsed.ok) return rpcError(400, -32600, `Invalid Request: ${parsed.error}`);
        // Backpressure: a client that does not read its stream gets no more work done for it.
        if (s.transport.backedUp)
          return overloaded(`the SSE stream of this session holds ${s.transport.queuedBytes} bytes its client has not read; read the stream first`);
        const reserved = sessions.reserve(s, requests);
        if (!reserved.ok) return overloaded(reserved.detail);
        const { post, auth } = postContext(c);
        for (const m of parsed.messages) s.transport.handleMessage(m, { authInfo: auth, request: c.req.raw });
        await Promise.all(post.pending);
        return new Response('Accepted', { status: 202, headers: headers({ 'content-type': 'text/plain; charset=utf-8', ...limitHeaders(post) }) });
      }

      // Streamable HTTP.
      const sid = c.req.header('mcp-session-id');
      let session: StreamableSession | undefined;
      if (sid !== undefined) {
        session = own<StreamableSession>(c, sid, 'streamable');
        if (!session) return rpcError(404, -32001, 'Session not found: it was closed or expired; initialize a new session');
      } else {
        if (!messages.some((m) => isInitializeRequest(m))) {
          return rpcError(
            400,
            -32000,
            'Bad Request: no Mcp-Session-Id header; a session starts with an initialize request (or open the SSE transport with GET /mcp)',
          );
        }
        const client = clientKey(c);
        const refused = await refuse(c, client);
        if (refused) return refused;
        session = await openStreamable(client);
      }
      const s = session;
      // In flight from here until the response has been handed to the socket: responses a client
      // leaves unread hold their place, so they cannot pile up in memory.
      const reserved = sessions.reserve(s, requests);
      if (!reserved.ok) return overloaded(reserved.detail);
      let bytes = 0;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        sessions.release(s, requests);
        s.queuedBytes -= bytes;
      };
      const { post, auth } = postContext(c);
      let res: Response;
      try {
        res = await new Promise<Response>((resolve, reject) => {
          const done = (r: Response) => {
            s.waiting.delete(done);
            resolve(r);
          };
          s.waiting.add(done);
          s.transport.handleRequest(c.req.raw, { parsedBody: body, authInfo: auth }).then(done, (err: unknown) => {
            s.waiting.delete(done);
            reject(err instanceof Error ? err : new Error(String(err)));
          });
        });
        await Promise.all(post.pending);
      } catch (err) {
        release();
        throw err;
      }
      if (sid === undefined && !s.transport.sessionId) await sessions.close(s.id); // initialization refused
      const text = res.body ? await res.text() : null;
      bytes = text ? Buffer.byteLength(text) : 0;
      // One response of any size (up to the batch and response caps) may wait; a second one past the cap closes the session.
      if (bytes > 0 && s.queuedBytes > 0 && s.queuedBytes + bytes > flow.maxQueuedBytes) {
        const queued = s.queuedBytes;
        bytes = 0;
        release();
        await sessions.abort(s.id, `${queued} bytes of responses not taken by the client, ${flow.maxQueuedBytes} allowed`);
        return overloaded(
          `this session's client has not taken ${queued} bytes of earlier responses (at most ${flow.maxQueuedBytes} may wait); the session is closed`,
        );
      }
      s.queuedBytes += bytes;
      // Released once the bytes have left this process: the response is finished and its socket's
      // write buffer is empty (Node buffers what the kernel does not take, and finishes the
      // response before that buffer drains).
      const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
      const socket = outgoing?.socket;
      if (outgoing && socket && typeof outgoing.once === 'function' && !socket.destroyed) {
        s.outgoing.add(socket);
        const settled = () => {
          socket.off('drain', settled);
          socket.off('close', settled);
          s.outgoing.delete(socket);
          release();
        };
        outgoing.once('close', () => {
          if (socket.destroyed || socket.writableLength === 0) settled();
          else {
            socket.on('drain', settled);
            socket.once('close', settled);
          }
        });
      } else {
        release();
      }
      return finish(res, limitHeaders(post), text);
    });

    const openStreamable = async (client: string): Promise<StreamableSession> => {
      const id = crypto.randomUUID();
      const server = createMcpServer(deps);
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => id,
        enableJsonResponse: true,
        maxRequestBodySize: maxBody,
        onsessionclosed: () => void sessions.close(id),
      });
      if (!releaseAnsweredStreams(transport))
        log('MCP: the SDK transport has no _streamMapping any more; check that answered POSTs are released (typescript-sdk#2559)');
      const now = Date.now();
      const outgoing = new Set<Socket>();
      const session: StreamableSession = {
        id,
        kind: 'streamable',
        client,
        createdAt: now,
        lastSeen: now,
        inFlight: 0,
        queuedBytes: 0,
        transport,
        outgoing,
        waiting: new Set(),
        close: () => server.close(),
        // Unread responses of a session over its queue: their sockets go, and their memory with them.
        abort: () => {
          for (const o of outgoing) o.destroy();
          outgoing.clear();
        },
      };
      sessions.add(session);
      server.server.onclose = () => {
        for (const answer of [...session.waiting])
          answer(rpcError(404, -32001, 'Session not found: it was closed while the request was executing; initialize a new session'));
        sessions.remove(id);
      };
      await server.connect(transport);
      gateTransport(transport, { flow, sessions, session, releaseOnSend: false, log });
      return session;
    };

    app.get(MCP_PATH, async (c) => {
      if (c.req.method === 'HEAD')
        return problem(c, problemOf(405), 'HEAD is not allowed on /mcp', { allowed: ['GET', 'POST', 'DELETE'] }, { allow: 'GET, POST, DELETE, OPTIONS' });
      const sid = c.req.header('mcp-session-id');
      if (sid !== undefined) {
        // Streamable HTTP: the session's stream of server-initiated messages.
        const s = own<StreamableSession>(c, sid, 'streamable');
        if (!s) return rpcError(404, -32001, 'Session not found: it was closed or expired; initialize a new session');
        return finish(await s.transport.handleRequest(c.req.raw));
      }
      if (!/\btext\/event-stream\b/i.test(c.req.header('accept') ?? '')) {
        return problem(
          c,
          problemOf(406),
          'GET /mcp opens the SSE transport (Accept: text/event-stream); Streamable HTTP clients POST an initialize request to /mcp',
          {
            allowed: ['text/event-stream'],
          },
        );
      }
      // SSE transport: a new session whose stream announces where to POST.
      const client = clientKey(c);
      const refused = await refuse(c, client);
      if (refused) return refused;
      const id = crypto.randomUUID();
      const transport = new WebSseServerTransport(MCP_PATH, id, this.opts.keepAliveMs, {
        highWaterBytes: flow.sseHighWaterBytes,
        maxQueuedBytes: flow.maxQueuedBytes,
        onOverflow: (queued) =>
          log(
            `MCP SSE session ${id} of ${client} closed: its client did not read its stream (${queued} bytes would be queued, ${flow.maxQueuedBytes} allowed)`,
          ),
        onDrop: () => (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing?.destroy(),
      });
      const server = createMcpServer(deps);
      const now = Date.now();
      const session: SseSession = {
        id,
        kind: 'sse',
        client,
        createdAt: now,
        lastSeen: now,
        inFlight: 0,
        get queuedBytes() {
          return transport.queuedBytes;
        },
        set queuedBytes(_: number) {
          // counted by the transport's stream
        },
        transport,
        close: () => server.close(),
        abort: () => transport.abort(new Error('MCP session closed: its client did not read its stream')),
      };
      sessions.add(session);
      server.server.onclose = () => sessions.remove(id);
      await server.connect(transport);
      gateTransport(transport, { flow, sessions, session, releaseOnSend: true, log });
      c.req.raw.signal?.addEventListener('abort', () => void transport.close(), { once: true });
      return new Response(transport.stream, {
        status: 200,
        headers: headers({ 'content-type': 'text/event-stream; charset=utf-8', 'x-accel-buffering': 'no' }),
      });
    });

    app.delete(MCP_PATH, async (c) => {
      const sseId = c.req.query('sessionId');
      if (sseId !== undefined) {
        if (!own(c, sseId, 'sse')) return problem(c, problemOf(404), `no open SSE session '${sseId}'`);
        await sessions.close(sseId);
        return new Response(null, { status: 204, headers: headers() });
      }
      const sid = c.req.header('mcp-session-id');
      if (sid === undefined) return rpcError(400, -32000, 'Bad Request: DELETE /mcp needs the Mcp-Session-Id header of the session to end');
      const s = own<StreamableSession>(c, sid, 'streamable');
      if (!s) return rpcError(404, -32001, 'Session not found: it was closed or expired');
      const res = await s.transport.handleRequest(c.req.raw);
      await sessions.close(sid);
      return finish(res);
    });

    app.all(MCP_PATH, (c) =>
      problem(
        c,
        problemOf(405),
        `${c.req.method} is not allowed on /mcp; use POST, GET or DELETE`,
        { allowed: ['GET', 'POST', 'DELETE', 'OPTIONS'] },
        { allow: 'GET, POST, DELETE, OPTIONS' },
      ),
    );
  }
}

/** The 2026-07-28 leg's answer with the endpoint's headers (no-store, licence, CORS, RateLimit). */
export function modernResponse(answer: ModernAnswer, common: Record<string, string>): Response {
  const h = new Headers(answer.headers);
  for (const [k, v] of Object.entries(common)) h.set(k, v);
  return new Response(answer.text, { status: answer.status, headers: h });
}

/** The socket peer @hono/node-server keeps at c.env.incoming, normalised (IPv4-mapped IPv6 unwrapped); 'unknown' elsewhere. */
function peerAddress(c: Context): string {
  const raw = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress;
  return normalizeIp(raw) ?? 'unknown';
}
