import { createMcpHandler, isJSONRPCRequest, isLegacyRequest, type AuthInfo, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { MCP_STATELESS_VERSION } from '../../contract/tools.ts';
import { MCP_CHARGED_METHODS, MCP_RESPONSE_TOO_LARGE, type FlowLimits } from './limits.ts';
import { malformedParams, paramsTooLong, rateRefusal, type PostContext } from './gate.ts';
import type { McpServerDeps } from './deps.ts';
import { createMcpServer } from './server.ts';
import type { McpSession, McpSessions } from './sessions.ts';

/** The stateless revision of MCP served beside 2025-11-25 (and the older ones) on the same path. */
export const MODERN_REVISION = MCP_STATELESS_VERSION;

/** What the 2026-07-28 leg answers for one POST: the SDK's response, its body read (and checked for size), and the JSON-RPC id when it was one request. */
export interface ModernAnswer {
  status: number;
  headers: Headers;
  text: string | null;
}

/**
 * MCP 2026-07-28 through the official SDK's `createMcpHandler` (no initialize, no session:
 * `server/discover`, the `_meta` envelope on every request, `resultType` and cache hints on the
 * results), over the same server factory the 2025-11-25 sessions use (server.ts). The endpoint's
 * rules hold per POST, before the SDK sees the message: over-long strings are refused, a
 * data-reading request is charged one unit of "data" (over the budget it is answered with the
 * rate-limit refusal, as on the 2025 transports), the client's requests in flight are capped, and
 * a response larger than maxResponseBytes is replaced by an error.
 */
export function modernLeg(deps: McpServerDeps, flow: FlowLimits, maxBody: number) {
  const handler = createMcpHandler(() => createMcpServer(deps, { protocolVersion: MODERN_REVISION }), {
    legacy: 'reject',
    // Every result is one JSON body: nothing is streamed before it (no progress, no logging).
    responseMode: 'json',
    maxRequestBodySize: maxBody,
    onerror: (err) => deps.log?.(`MCP ${MODERN_REVISION}: ${err.message}`),
  });

  /** Whether the SDK classifies this POST as 2026-07-28 (a request with the `_meta` envelope), from the body already parsed. */
  const isModern = async (request: Request, body: unknown) => !(await isLegacyRequest(request, body, { maxRequestBodySize: maxBody }));

  const json = (message: JSONRPCMessage): ModernAnswer => ({
    status: 200,
    headers: new Headers({ 'content-type': 'application/json' }),
    text: JSON.stringify(message),
  });

  /**
   * Serve one classified POST. `sessions`/`client` count the request in flight for the client
   * (the per-IP cap of the session endpoint); null when the runtime keeps no count (a Worker).
   */
  const serve = async (
    request: Request,
    body: unknown,
    auth: AuthInfo,
    post: PostContext,
    inFlight: { sessions: McpSessions; client: string } | null,
  ): Promise<ModernAnswer | { refused: string }> => {
    const message = Array.isArray(body) ? undefined : body;
    if (message !== undefined && isJSONRPCRequest(message)) {
      const tooLong = paramsTooLong(message, flow);
      if (tooLong) return json({ jsonrpc: '2.0', id: message.id, error: { code: -32602, message: `Invalid params: ${tooLong}` } });
      const malformed = MCP_CHARGED_METHODS.has(message.method) ? malformedParams(message) : null;
      if (malformed) return json({ jsonrpc: '2.0', id: message.id, error: { code: -32602, message: `Invalid params for ${message.method}: ${malformed}` } });
      if (MCP_CHARGED_METHODS.has(message.method)) {
        const r = await post.charge();
        if (r) post.last = r;
        if (r && !r.allowed) return json(rateRefusal(message, r, post));
      }
    }
    const slot: McpSession | null = inFlight
      ? {
          id: 'modern',
          kind: 'streamable',
          client: inFlight.client,
          createdAt: 0,
          lastSeen: 0,
          inFlight: 0,
          queuedBytes: 0,
          close: async () => {},
          abort: () => {},
        }
      : null;
    if (inFlight && slot) {
      const reserved = inFlight.sessions.reserve(slot, 1);
      if (!reserved.ok) return { refused: reserved.detail };
    }
    try {
      const res = await handler.fetch(request, { parsedBody: body, authInfo: auth });
      let text = res.body ? await res.text() : null;
      const size = text ? new TextEncoder().encode(text).byteLength : 0;
      if (text && size > flow.maxResponseBytes) {
        const id = message !== undefined && isJSONRPCRequest(message) ? message.id : null;
        deps.log?.(`MCP ${MODERN_REVISION} response of ${size} bytes refused (limit ${flow.maxResponseBytes})`);
        text = JSON.stringify({
          jsonrpc: '2.0',
          id,
          error: {
            code: MCP_RESPONSE_TOO_LARGE,
            message: `the result is ${size} bytes; at most ${flow.maxResponseBytes} are sent in one response: ask for less (a shorter date range, a smaller limit)`,
          },
        });
      }
      return { status: res.status, headers: res.headers, text };
    } finally {
      if (inFlight && slot) inFlight.sessions.release(slot, 1);
    }
  };

  return { isModern, serve, close: () => handler.close() };
}
