import { CallToolRequestSchema, CompleteRequestSchema, GetPromptRequestSchema, PingRequestSchema, ReadResourceRequestSchema } from '@modelcontextprotocol/core';
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type CallToolResult,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type Transport,
} from '@modelcontextprotocol/server';
import { refusalDetail, type RateLimitResult as ConsumeResult } from '../../contract/rate-limits.ts';
import { MCP_CHARGED_METHODS, MCP_RATE_LIMITED, MCP_RESPONSE_TOO_LARGE, type FlowLimits } from './limits.ts';
import type { McpSession, McpSessions } from './sessions.ts';

/** Key of the PostContext in the authInfo.extra the transports hand to the server. */
export const POST_KEY = 'chokepointPost';

/**
 * What the HTTP layer knows about one POST (the client, the rate limits), handed to the gate in
 * the transport's authInfo, which the SDK passes along untouched.
 */
export interface PostContext {
  /** Count one unit of "data" for the POST's client; null when the limit is off. */
  charge(): Promise<ConsumeResult | null>;
  /** RateLimit, RateLimit-Policy (and Retry-After when refused) for a charge result. */
  headers(r: ConsumeResult): Record<string, string>;
  /** The charges of this POST's messages, settled once each message has been refused or dispatched. */
  pending: Promise<void>[];
  /** The last charge result, for the response headers. */
  last?: ConsumeResult;
}

/** The SDK's schema of each charged method: a request it would refuse as invalid is not charged. */
const SCHEMAS: Record<string, { safeParse(v: unknown): { success: boolean } }> = {
  'tools/call': CallToolRequestSchema,
  'resources/read': ReadResourceRequestSchema,
  'prompts/get': GetPromptRequestSchema,
  'completion/complete': CompleteRequestSchema,
  ping: PingRequestSchema,
};

/** Whether a request is well-formed for its charged method (what the SDK would refuse as invalid costs nothing). */
export const chargeable = (request: JSONRPCRequest): boolean => SCHEMAS[request.method]?.safeParse(request).success ?? false;

/**
 * Why a request of a charged method does not have the params the specification gives it (say,
 * resources/read with an object as `uri`), in one short line; null when it has. Answered -32602
 * (Invalid params) here: the 2025 server would answer -32603 with the validator's dump.
 */
export function malformedParams(request: JSONRPCRequest): string | null {
  const schema = SCHEMAS[request.method] as
    { safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } } | undefined;
  const r = schema?.safeParse(request);
  if (!r || r.success) return null;
  const issue = r.error?.issues[0];
  return issue ? `${issue.path.map(String).join('.') || 'params'}: ${issue.message}` : 'malformed params';
}

const MAX_DEPTH = 16;

/**
 * Why a request's params are refused before any work, or null: a resource URI longer than
 * maxUriChars, any other string (or key) longer than maxStringChars, nesting deeper than 16.
 */
export function paramsTooLong(request: JSONRPCRequest, flow: FlowLimits): string | null {
  const walk = (v: unknown, path: string, depth: number): string | null => {
    if (typeof v === 'string') {
      const max = path === 'params.uri' || path === 'params.ref.uri' ? flow.maxUriChars : flow.maxStringChars;
      return v.length > max ? `${path} has ${v.length} characters; at most ${max} are accepted` : null;
    }
    if (v === null || typeof v !== 'object') return null;
    if (depth > MAX_DEPTH) return `${path} is nested more than ${MAX_DEPTH} levels deep`;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const r = walk(v[i], `${path}[${i}]`, depth + 1);
        if (r) return r;
      }
      return null;
    }
    for (const [k, x] of Object.entries(v)) {
      if (k.length > flow.maxStringChars) return `a key in ${path} has ${k.length} characters; at most ${flow.maxStringChars} are accepted`;
      const r = walk(x, `${path}.${k}`, depth + 1);
      if (r) return r;
    }
    return null;
  };
  return walk(request.params, 'params', 0);
}

/** The answer to a request over the data budget: a tool error for tools/call (as before), a JSON-RPC error otherwise; both with the RateLimit values. */
export function rateRefusal(request: JSONRPCRequest, r: ConsumeResult, post: PostContext): JSONRPCMessage {
  const detail = refusalDetail('data', r, ' (MCP requests and HTTP data requests together)');
  const info = { policy: 'data', limit: r.limit, remaining: r.remaining, retryAfterSeconds: r.resetSeconds, ...post.headers(r) };
  if (request.method === 'tools/call') {
    const result: CallToolResult = { isError: true, content: [{ type: 'text', text: detail }], _meta: info };
    return { jsonrpc: '2.0', id: request.id, result };
  }
  return { jsonrpc: '2.0', id: request.id, error: { code: MCP_RATE_LIMITED, message: detail, data: info } };
}

export interface GateOptions {
  flow: FlowLimits;
  sessions: McpSessions;
  session: McpSession;
  /** Release the session's in-flight reservation as each response is sent (SSE); Streamable HTTP releases when the HTTP response is done. */
  releaseOnSend: boolean;
  log?: (msg: string) => void;
}

/**
 * Put the endpoint's rules between a connected transport and its server (call after
 * server.connect, which sets transport.onmessage):
 * - a request whose params hold an over-long string is answered -32602 before anything runs;
 * - a data-reading request (and ping) is charged one unit of "data" for the POST's client when
 *   it is about to be executed: what the transport or this gate refuses first costs nothing;
 *   over the budget it is answered with the rate-limit refusal instead; otherwise it marks the
 *   session active;
 * - a response larger than maxResponseBytes is replaced by an error.
 */
export function gateTransport(transport: Transport, opts: GateOptions): void {
  const { flow, sessions, session } = opts;
  const inner = transport.onmessage;
  const send = transport.send.bind(transport);
  const awaiting = new Map<string | number, number>();

  const reply = (message: JSONRPCMessage) => transport.send(message).catch(() => undefined);

  transport.send = async (message, options) => {
    let out = message;
    if (isJSONRPCResultResponse(message)) {
      const size = Buffer.byteLength(JSON.stringify(message));
      if (size > flow.maxResponseBytes) {
        opts.log?.(`MCP response of ${size} bytes refused (limit ${flow.maxResponseBytes}) in session ${session.id}`);
        out = {
          jsonrpc: '2.0',
          id: message.id,
          error: {
            code: MCP_RESPONSE_TOO_LARGE,
            message: `the result is ${size} bytes; at most ${flow.maxResponseBytes} are sent in one response: ask for less (a shorter date range, a smaller limit)`,
          },
        };
      }
    }
    if (opts.releaseOnSend && (isJSONRPCResultResponse(out) || isJSONRPCErrorResponse(out))) {
      const id = out.id;
      const n = id === undefined ? undefined : awaiting.get(id);
      if (id !== undefined && n !== undefined) {
        if (n <= 1) awaiting.delete(id);
        else awaiting.set(id, n - 1);
        sessions.release(session, 1);
      }
    }
    return send(out, options);
  };

  transport.onmessage = (message, extra) => {
    if (!isJSONRPCRequest(message)) {
      inner?.(message, extra);
      return;
    }
    if (opts.releaseOnSend) awaiting.set(message.id, (awaiting.get(message.id) ?? 0) + 1);
    const tooLong = paramsTooLong(message, flow);
    if (tooLong) {
      void reply({ jsonrpc: '2.0', id: message.id, error: { code: -32602, message: `Invalid params: ${tooLong}` } });
      return;
    }
    if (!MCP_CHARGED_METHODS.has(message.method)) {
      inner?.(message, extra);
      return;
    }
    const malformed = malformedParams(message);
    if (malformed) {
      void reply({ jsonrpc: '2.0', id: message.id, error: { code: -32602, message: `Invalid params for ${message.method}: ${malformed}` } });
      return;
    }
    const post = extra?.authInfo?.extra?.[POST_KEY] as PostContext | undefined;
    if (!post) {
      sessions.touch(session);
      inner?.(message, extra);
      return;
    }
    post.pending.push(
      post.charge().then(
        (r) => {
          if (r) post.last = r;
          if (r && !r.allowed) return void reply(rateRefusal(message, r, post));
          sessions.touch(session);
          inner?.(message, extra);
        },
        (err: unknown) => {
          opts.log?.(`MCP rate-limit charge failed: ${err instanceof Error ? err.message : String(err)}`);
          void reply({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: 'Internal error: the request could not be counted; try again' } });
        },
      ),
    );
  };
}
