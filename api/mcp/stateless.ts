import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { EXPOSED_HEADERS } from '../../contract/http.ts';
import { PROBLEM_TYPE, SPECIAL_PROBLEMS, problemJson, problemOf, type ProblemKind } from '../../contract/problems.ts';
import { withRequestId } from '../request-id.ts';
import { gateTransport, POST_KEY, type PostContext } from './gate.ts';
import { hostAllowed, MCP_PATH, McpEndpoint, originAllowed, readRpcPost, type McpMountContext, type McpOptions } from './http.ts';
import { McpSessions, type McpSession } from './sessions.ts';
import { createMcpServer } from './server.ts';

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];
const MCP_EXPOSED = [...EXPOSED_HEADERS, 'Mcp-Protocol-Version', 'WWW-Authenticate'].join(', ');
const ALLOWED_REQUEST_HEADERS = 'content-type, accept, mcp-protocol-version';
const STATELESS_ALLOW = 'POST, OPTIONS';

const hostOf = (url: string) => {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
};

/**
 * MCP over Streamable HTTP without sessions (the transport's stateless mode), for runtimes whose
 * memory is not shared between requests (a Cloudflare Worker: every isolate is its own process,
 * and the next POST of a client may reach another one). Each POST /mcp gets a fresh MCP server
 * and transport over the current build, answers as JSON and is gone: no Mcp-Session-Id, nothing
 * kept between requests. GET (the server-to-client stream, and the SSE transport) and DELETE are
 * answered 405: the SSE transport and server-initiated streams are served by the Node server
 * only (docs/deploy.md). The rules of the session endpoint hold per POST: DNS-rebinding guard,
 * body and batch size, over-long strings, response size, one unit of the "data" rate limit per
 * data-reading message (gate.ts).
 */
export class StatelessMcpEndpoint extends McpEndpoint {
  private readonly stateless: McpOptions;
  constructor(opts: McpOptions = {}) {
    super(opts);
    this.stateless = opts;
  }

  override mount(app: Hono, ctx: McpMountContext): void {
    const log = ctx.log ?? (() => {});
    const flow = this.flow;
    const maxBody = this.stateless.maxBodyBytes ?? 64 * 1024;
    // The gate marks a session active; here a session is one POST, kept nowhere.
    const sessions = new McpSessions({
      max: 1,
      perClient: 1,
      idleMs: 0,
      lifetimeMs: 0,
      inFlightPerSession: flow.maxInFlightPerSession,
      inFlightPerClient: flow.maxInFlightPerIp,
    });

    const allowedHosts = () => {
      if (this.stateless.allowedHosts?.length) return this.stateless.allowedHosts;
      const hosts = [hostOf(ctx.baseUrl), hostOf(ctx.source.current()?.manifest.base_url ?? '')].filter((h): h is string => !!h);
      return [...hosts, ...LOOPBACK];
    };
    const allowedOrigins = () => {
      if (this.stateless.allowedOrigins?.length) return this.stateless.allowedOrigins;
      const bases = [ctx.baseUrl, ctx.source.current()?.manifest.base_url].filter((u): u is string => !!u).map((u) => new URL(u).origin);
      return [...bases, ...LOOPBACK.flatMap((h) => [`http://${h}`, `https://${h}`])];
    };
    const headers = (extra: Record<string, string> = {}): Record<string, string> => ({
      ...ctx.common(),
      'access-control-expose-headers': MCP_EXPOSED,
      'cache-control': 'no-store',
      ...extra,
    });
    const problem = (c: Context, kind: ProblemKind, detail: string, extras: Record<string, unknown> = {}, extra: Record<string, string> = {}) =>
      new Response(problemJson(kind, detail, c.req.path, withRequestId(c, extras)), {
        status: kind.status,
        headers: headers({ 'content-type': `${PROBLEM_TYPE}; charset=utf-8`, ...extra }),
      });
    const rpcError = (status: number, code: number, message: string) =>
      new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
        status,
        headers: headers({ 'content-type': 'application/json' }),
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
    app.use(MCP_PATH, guard);

    app.options(
      MCP_PATH,
      () =>
        new Response(null, {
          status: 204,
          headers: headers({
            'access-control-allow-methods': STATELESS_ALLOW,
            'access-control-allow-headers': ALLOWED_REQUEST_HEADERS,
            'access-control-max-age': '86400',
          }),
        }),
    );

    const sizeLimit = bodyLimit({
      maxSize: maxBody,
      onError: (c) => problem(c, problemOf(413), `an MCP message may be at most ${maxBody} bytes`),
    });

    app.post(MCP_PATH, sizeLimit, async (c) => {
      const read = await readRpcPost(c, flow.maxBatch, problem, rpcError);
      if (read instanceof Response) return read;
      const body = read.body;
      const limits = ctx.limits;
      const consume = limits?.consume;
      const post: PostContext = {
        pending: [],
        charge: consume ? () => consume(c, 'data') : async () => null,
        headers: (r) => limits?.headers?.('data', r) ?? {},
      };
      const auth: AuthInfo = { token: '', clientId: 'anonymous', scopes: [], extra: { [POST_KEY]: post } };

      // The revision the client speaks: its initialize request, else the header every later request carries.
      const server = createMcpServer({ source: ctx.source, baseUrl: ctx.baseUrl, log }, { protocolVersion: c.req.header('mcp-protocol-version') });
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: maxBody });
      const now = Date.now();
      const session: McpSession = {
        id: 'stateless',
        kind: 'streamable',
        client: 'stateless',
        createdAt: now,
        lastSeen: now,
        inFlight: 0,
        queuedBytes: 0,
        close: () => server.close(),
        abort: () => {},
      };
      try {
        await server.connect(transport);
        gateTransport(transport, { flow, sessions, session, releaseOnSend: false, log });
        const res = await transport.handleRequest(c.req.raw, { parsedBody: body, authInfo: auth });
        await Promise.all(post.pending);
        const text = res.body ? await res.text() : null;
        const h = new Headers(res.headers);
        for (const [k, v] of Object.entries(headers(post.last ? post.headers(post.last) : {}))) h.set(k, v);
        return new Response(text, { status: res.status, statusText: res.statusText, headers: h });
      } finally {
        await server.close().catch(() => undefined);
      }
    });

    const noStream = (c: Context) =>
      problem(
        c,
        problemOf(405),
        `${c.req.method} is not allowed on /mcp here: this endpoint is stateless Streamable HTTP (POST only, no sessions, no SSE stream); the SSE transport and sessions are served by the Node server`,
        { allowed: STATELESS_ALLOW.split(', ') },
        { allow: STATELESS_ALLOW },
      );
    app.get(MCP_PATH, noStream);
    app.all(MCP_PATH, noStream);
  }

  override close(): Promise<void> {
    return Promise.resolve();
  }
}
