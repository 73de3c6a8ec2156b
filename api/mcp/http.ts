import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest, isJSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { BuildSource } from '../build-store.ts';
import { EXPOSED_HEADERS } from '../http.ts';
import { PROBLEM_TYPE, PROBLEM_TYPES } from '../problem.ts';
import type { RateLimits } from '../rate-limit.ts';
import { createMcpServer, RATE_KEY, type McpServerDeps, type RateDecisions } from './server.ts';
import { McpSessions, type McpSession } from './sessions.ts';
import { WebSseServerTransport } from './sse.ts';

export const MCP_PATH = '/mcp';
/** Largest JSON-RPC message body accepted on POST /mcp. */
export const MCP_MAX_BODY_BYTES = 64 * 1024;

export interface McpOptions {
  /** Sessions open at once, all clients together (default 100). */
  maxSessions?: number;
  /** Sessions open at once per client IP (default 10). */
  maxSessionsPerIp?: number;
  /** Seconds without a message after which a session is closed (default 300). */
  sessionIdleSeconds?: number;
  /**
   * Host header values accepted (DNS-rebinding protection): a host name matches on any port, a
   * `host:port` only on that port, `*` accepts any. Default: the host of the public base URL and
   * of the build, localhost, 127.0.0.1 and [::1].
   */
  allowedHosts?: readonly string[];
  /** Origin header values accepted when one is sent (same forms; default the public origins and the loopback ones, http and https). */
  allowedOrigins?: readonly string[];
  maxBodyBytes?: number;
  /** The client a request counts as, for the per-IP session cap (the Node server passes its rate-limit key of the client IP). */
  clientKey?: (c: Context) => string;
  /** SSE keep-alive comment interval (default 15 s). */
  keepAliveMs?: number;
}

export interface McpMountContext {
  source: BuildSource;
  baseUrl: string;
  /** The rate limits, when on: each tools/call consumes one unit of "data" for the caller. */
  limits?: Partial<Pick<RateLimits, 'consume' | 'headers'>> | null;
  /** Headers every response carries (licence and backlink, CORS, nosniff). */
  common: () => Record<string, string>;
  log?: (msg: string) => void;
}

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];
const MCP_EXPOSED = [...EXPOSED_HEADERS, 'Mcp-Session-Id', 'Mcp-Protocol-Version', 'WWW-Authenticate'].join(', ');
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
 * The MCP endpoint on the app: Streamable HTTP (POST, GET and DELETE /mcp with Mcp-Session-Id)
 * and the SSE transport (GET /mcp without a session opens the stream, whose first event names
 * /mcp?sessionId=… to POST to) on one path. Each session has its own MCP server over the current
 * build; sessions are capped in total and per client and close when idle.
 */
export class McpEndpoint {
  readonly sessions: McpSessions;
  private readonly maxBody: number;

  constructor(private readonly opts: McpOptions = {}) {
    this.sessions = new McpSessions({
      max: opts.maxSessions ?? 100,
      perClient: opts.maxSessionsPerIp ?? 10,
      idleMs: (opts.sessionIdleSeconds ?? 300) * 1000,
    });
    this.maxBody = opts.maxBodyBytes ?? MCP_MAX_BODY_BYTES;
  }

  close(): Promise<void> {
    return this.sessions.closeAll();
  }

  mount(app: Hono, ctx: McpMountContext): void {
    const log = ctx.log ?? (() => {});
    const deps: McpServerDeps = { source: ctx.source, baseUrl: ctx.baseUrl, log };
    const clientKey = this.opts.clientKey ?? (() => 'unknown');
    const sessions = this.sessions;
    const maxBody = this.maxBody;

    const allowedHosts = () => {
      if (this.opts.allowedHosts?.length) return this.opts.allowedHosts;
      const hosts = [hostOf(ctx.baseUrl), hostOf(ctx.source.current()?.manifest.base_url ?? '')].filter((h): h is string => !!h);
      return [...hosts, ...LOOPBACK];
    };
    const allowedOrigins = () => {
      if (this.opts.allowedOrigins?.length) return this.opts.allowedOrigins;
      const bases = [ctx.baseUrl, ctx.source.current()?.manifest.base_url].filter((u): u is string => !!u).map((u) => new URL(u).origin);
      return [...bases, ...LOOPBACK.flatMap((h) => [`http://${h}`, `https://${h}`])];
    };

    const headers = (extra: Record<string, string> = {}): Record<string, string> => ({
      ...ctx.common(),
      'access-control-expose-headers': MCP_EXPOSED,
      'cache-control': 'no-store',
      ...extra,
    });
    const problem = (c: Context, status: number, type: string, title: string, detail: string, extras: Record<string, unknown> = {}, extra: Record<string, string> = {}) =>
      new Response(JSON.stringify({ type, title, status, detail, instance: c.req.path, ...extras }), {
        status,
        headers: headers({ 'content-type': `${PROBLEM_TYPE}; charset=utf-8`, ...extra }),
      });
    const rpcError = (status: number, code: number, message: string, extra: Record<string, string> = {}) =>
      new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), { status, headers: headers({ 'content-type': 'application/json', ...extra }) });
    /** A transport's response with our headers (no-store, licence, CORS) added. */
    const finish = (res: Response, extra: Record<string, string> = {}) => {
      const h = new Headers(res.headers);
      for (const [k, v] of Object.entries(headers(extra))) h.set(k, v);
      return new Response(res.body, { status: res.status, statusText: res.statusText, headers: h });
    };
    const refuse = (c: Context, client: string) => {
      const r = sessions.refusal(client);
      if (!r) return null;
      return r.status === 429
        ? problem(c, 429, PROBLEM_TYPES[429], 'Too many requests', r.detail, { policy: 'mcp-sessions-per-ip' }, { 'retry-after': String(r.retryAfter) })
        : problem(c, 503, '/problems/mcp-sessions-exhausted', 'Service unavailable', r.detail, {}, { 'retry-after': String(r.retryAfter) });
    };

    /** Count each tools/call of the message against the caller's data budget; the decisions go to the handlers. */
    const decide = async (c: Context, messages: unknown[]): Promise<{ auth: AuthInfo; limitHeaders: Record<string, string> }> => {
      const decisions: RateDecisions = {};
      let limitHeaders: Record<string, string> = {};
      const limits = ctx.limits;
      if (limits?.consume && limits.headers) {
        for (const m of messages) {
          if (!isJSONRPCRequest(m) || m.method !== 'tools/call') continue;
          const r = await limits.consume(c, 'data');
          limitHeaders = limits.headers('data', r);
          const window = /w=(\d+)/.exec(limitHeaders['RateLimit-Policy'] ?? '')?.[1] ?? '60';
          decisions[String(m.id)] = { ...r, detail: `rate limit exceeded: the "data" policy allows ${r.limit} requests per ${window} seconds per client (MCP tool calls and HTTP data requests together); retry in ${r.resetSeconds} s` };
        }
      }
      return { auth: { token: '', clientId: 'anonymous', scopes: [], extra: { [RATE_KEY]: decisions } }, limitHeaders };
    };

    // DNS-rebinding protection: the Host, and the Origin when a browser sends one.
    const guard: MiddlewareHandler = async (c, next) => {
      const host = c.req.header('host') ?? new URL(c.req.url).host;
      if (!hostAllowed(host, allowedHosts())) {
        return problem(c, 403, '/problems/forbidden-host', 'Forbidden', `the Host header '${host}' is not served by this MCP endpoint`);
      }
      const origin = c.req.header('origin');
      if (origin !== undefined && !originAllowed(origin, allowedOrigins())) {
        return problem(c, 403, '/problems/forbidden-origin', 'Forbidden', `requests from the origin '${origin}' are not accepted by this MCP endpoint`);
      }
      await next();
    };
    app.use(MCP_PATH, guard);

    app.options(MCP_PATH, () =>
      new Response(null, {
        status: 204,
        headers: headers({ 'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS', 'access-control-allow-headers': ALLOWED_REQUEST_HEADERS, 'access-control-max-age': '86400' }),
      }),
    );

    const sizeLimit = bodyLimit({
      maxSize: maxBody,
      onError: (c) => problem(c, 413, PROBLEM_TYPES[413], 'Request body too large', `an MCP message may be at most ${maxBody} bytes`),
    });

    app.post(MCP_PATH, sizeLimit, async (c) => {
      const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json') {
        return problem(c, 415, PROBLEM_TYPES[415], 'Unsupported media type', 'POST /mcp takes a JSON-RPC message as application/json', { allowed: ['application/json'] });
      }
      let body: unknown;
      try {
        body = JSON.parse(await c.req.text());
      } catch {
        return rpcError(400, -32700, 'Parse error: the body is not valid JSON');
      }
      const messages = Array.isArray(body) ? body : [body];

      // SSE transport: the message goes to the session's stream; the POST only acknowledges it.
      const sseId = c.req.query('sessionId');
      if (sseId !== undefined) {
        const s = sessions.get(sseId, 'sse') as (McpSession & { transport: WebSseServerTransport }) | undefined;
        if (!s) return problem(c, 404, PROBLEM_TYPES[404], 'Not found', `no open SSE session '${sseId}'; open one with GET /mcp (Accept: text/event-stream)`);
        const { auth, limitHeaders } = await decide(c, messages);
        const requestInfo = { headers: Object.fromEntries(c.req.raw.headers), url: new URL(c.req.url) };
        try {
          for (const m of messages) s.transport.handleMessage(m, { authInfo: auth, requestInfo });
        } catch (err) {
          return rpcError(400, -32600, `Invalid Request: ${(err as Error).message}`);
        }
        return new Response('Accepted', { status: 202, headers: headers({ 'content-type': 'text/plain; charset=utf-8', ...limitHeaders }) });
      }

      // Streamable HTTP.
      const sid = c.req.header('mcp-session-id');
      let session: (McpSession & { transport: WebStandardStreamableHTTPServerTransport }) | undefined;
      if (sid !== undefined) {
        session = sessions.get(sid, 'streamable') as typeof session;
        if (!session) return rpcError(404, -32001, 'Session not found: it was closed or expired; initialize a new session');
      } else {
        if (!messages.some((m) => isInitializeRequest(m))) {
          return rpcError(400, -32000, 'Bad Request: no Mcp-Session-Id header; a session starts with an initialize request (or open the SSE transport with GET /mcp)');
        }
        const refused = refuse(c, clientKey(c));
        if (refused) return refused;
        session = await openStreamable(clientKey(c));
      }
      const { auth, limitHeaders } = await decide(c, messages);
      const res = await session.transport.handleRequest(c.req.raw, { parsedBody: body, authInfo: auth });
      if (sid === undefined && !session.transport.sessionId) await sessions.close(session.id); // initialization refused
      return finish(res, limitHeaders);
    });

    const openStreamable = async (client: string) => {
      const id = crypto.randomUUID();
      const server = createMcpServer(deps);
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => id,
        enableJsonResponse: true,
        maxRequestBodySize: maxBody,
        onsessionclosed: () => void sessions.close(id),
      });
      const session = { id, kind: 'streamable' as const, client, lastSeen: Date.now(), transport, close: () => server.close() };
      sessions.add(session);
      server.server.onclose = () => sessions.remove(id);
      await server.connect(transport);
      return session;
    };

    app.get(MCP_PATH, async (c) => {
      if (c.req.method === 'HEAD') return problem(c, 405, PROBLEM_TYPES[405], 'Method not allowed', 'HEAD is not allowed on /mcp', { allowed: ['GET', 'POST', 'DELETE'] }, { allow: 'GET, POST, DELETE, OPTIONS' });
      const sid = c.req.header('mcp-session-id');
      if (sid !== undefined) {
        // Streamable HTTP: the session's stream of server-initiated messages.
        const s = sessions.get(sid, 'streamable') as (McpSession & { transport: WebStandardStreamableHTTPServerTransport }) | undefined;
        if (!s) return rpcError(404, -32001, 'Session not found: it was closed or expired; initialize a new session');
        return finish(await s.transport.handleRequest(c.req.raw));
      }
      if (!/\btext\/event-stream\b/i.test(c.req.header('accept') ?? '')) {
        return problem(c, 406, PROBLEM_TYPES[406], 'Not acceptable', 'GET /mcp opens the SSE transport (Accept: text/event-stream); Streamable HTTP clients POST an initialize request to /mcp', {
          allowed: ['text/event-stream'],
        });
      }
      // SSE transport: a new session whose stream announces where to POST.
      const client = clientKey(c);
      const refused = refuse(c, client);
      if (refused) return refused;
      const id = crypto.randomUUID();
      const transport = new WebSseServerTransport(MCP_PATH, id, this.opts.keepAliveMs);
      const server = createMcpServer(deps);
      sessions.add({ id, kind: 'sse', client, lastSeen: Date.now(), transport, close: () => server.close() } as McpSession);
      server.server.onclose = () => sessions.remove(id);
      await server.connect(transport);
      c.req.raw.signal?.addEventListener('abort', () => void transport.close(), { once: true });
      return new Response(transport.stream, {
        status: 200,
        headers: headers({ 'content-type': 'text/event-stream; charset=utf-8', 'x-accel-buffering': 'no' }),
      });
    });

    app.delete(MCP_PATH, async (c) => {
      const sseId = c.req.query('sessionId');
      if (sseId !== undefined) {
        if (!sessions.get(sseId, 'sse')) return problem(c, 404, PROBLEM_TYPES[404], 'Not found', `no open SSE session '${sseId}'`);
        await sessions.close(sseId);
        return new Response(null, { status: 204, headers: headers() });
      }
      const sid = c.req.header('mcp-session-id');
      if (sid === undefined) return rpcError(400, -32000, 'Bad Request: DELETE /mcp needs the Mcp-Session-Id header of the session to end');
      const s = sessions.get(sid, 'streamable') as (McpSession & { transport: WebStandardStreamableHTTPServerTransport }) | undefined;
      if (!s) return rpcError(404, -32001, 'Session not found: it was closed or expired');
      const res = await s.transport.handleRequest(c.req.raw);
      await sessions.close(sid);
      return finish(res);
    });

    app.all(MCP_PATH, (c) =>
      problem(c, 405, PROBLEM_TYPES[405], 'Method not allowed', `${c.req.method} is not allowed on /mcp; use POST, GET or DELETE`, { allowed: ['GET', 'POST', 'DELETE', 'OPTIONS'] }, { allow: 'GET, POST, DELETE, OPTIONS' }),
    );
  }
}
