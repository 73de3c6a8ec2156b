import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { Context } from 'hono';
import type { AppHono } from '../env.ts';
import { bodyLimit } from 'hono/body-limit';
import { EXPOSED_HEADERS } from '../../contract/http.ts';
import { problemOf } from '../../contract/problems.ts';
import { gateTransport } from './gate.ts';
import { MCP_PATH, McpEndpoint, mcpReplies, modernResponse, readRpcPost, type McpMountContext, type McpOptions } from './http.ts';
import { modernLeg } from './modern.ts';
import { McpSessions, type McpSession } from './sessions.ts';
import { createMcpServer } from './server.ts';

/** Without the session header: this endpoint has no sessions. */
const MCP_EXPOSED = [...EXPOSED_HEADERS, 'Mcp-Protocol-Version', 'WWW-Authenticate'].join(', ');
const ALLOWED_REQUEST_HEADERS = 'content-type, accept, mcp-protocol-version';
const STATELESS_ALLOW = 'POST, OPTIONS';

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

  override mount(app: AppHono, ctx: McpMountContext): void {
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

    const { headers, problem, rpcError, guard, postContext } = mcpReplies(ctx, this.stateless, MCP_EXPOSED);
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

    const modern = modernLeg({ source: ctx.source, baseUrl: ctx.baseUrl, log, ...(ctx.work ? { work: ctx.work } : {}) }, flow, maxBody);

    app.post(MCP_PATH, sizeLimit, async (c) => {
      const read = await readRpcPost(c, flow.maxBatch, problem, rpcError);
      if (read instanceof Response) return read;
      const body = read.body;
      const { post, auth } = postContext(c);

      // 2026-07-28 (modern.ts); else the 2025 revisions, each POST on its own.
      if (await modern.isModern(c.req.raw, body)) {
        const answer = await modern.serve(c.req.raw, body, auth, post, null);
        if ('refused' in answer) return rpcError(429, -32028, `Too many requests: ${answer.refused}`);
        return modernResponse(answer, headers(post.last ? post.headers(post.last) : {}));
      }

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
