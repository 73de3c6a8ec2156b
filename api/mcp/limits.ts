/**
 * Every limit of the MCP endpoint in one place (the numbers RELIABILITY.md quotes). The session
 * caps and the idle timeout come from the environment (MCP_MAX_SESSIONS, MCP_MAX_SESSIONS_PER_IP,
 * MCP_SESSION_IDLE_SECONDS in lib/config.ts); the rest are these constants, each of which McpOptions
 * can override (tests do, with small values).
 *
 * How they bound a hostile client:
 * - memory: one message is at most MCP_MAX_BODY_BYTES and holds at most MCP_MAX_BATCH messages;
 *   a session executes at most MCP_MAX_IN_FLIGHT_PER_SESSION requests at once (a Streamable HTTP
 *   request stays "in flight" until its response has been handed to the socket, so responses a
 *   client does not read count), an IP at most MCP_MAX_IN_FLIGHT_PER_IP; one response is at most
 *   MCP_MAX_RESPONSE_BYTES; the bytes written for a session and not yet taken by its client are
 *   at most MCP_MAX_QUEUED_BYTES, past which the session is closed and its queue dropped; an SSE
 *   stream with more than MCP_SSE_HIGH_WATER_BYTES waiting takes no new requests (backpressure).
 * - CPU: strings in a message's params are capped before any work (MCP_MAX_URI_CHARS for
 *   resource URIs, MCP_MAX_STRING_CHARS for every other string, tool and prompt arguments
 *   included), and every data-reading message counts against the "data" rate limit.
 * - sessions: a session lives at most MCP_SESSION_LIFETIME_SECONDS however busy; only counted
 *   messages keep it from idling out; when the global cap is reached a newcomer evicts the
 *   oldest idle session of the client holding the most (see McpSessions.admit).
 */

/** Largest JSON-RPC message body accepted on POST /mcp (either transport). */
export const MCP_MAX_BODY_BYTES = 64 * 1024;

/** Messages in one JSON-RPC batch (POST body that is an array), on both transports. The SDK's own cap is 100. */
export const MCP_MAX_BATCH = 10;

/** Characters of a resource URI (resources/read, a completion's ref/resource); the longest real one has under 50. */
export const MCP_MAX_URI_CHARS = 256;

/** Characters of any other string in a request's params: tool and prompt arguments, completion values, names. The longest free text the API takes (/v1/ask) is 500. */
export const MCP_MAX_STRING_CHARS = 512;

/**
 * Bytes of one serialized JSON-RPC response; a larger result is replaced by an error asking for a
 * narrower request. The largest real ones: an MCP App page (resources/read of a ui:// resource,
 * the ext-apps bundle inline) about 420 KB, a daily EU gas-storage series since 2011 about
 * 207 KB, tools/list 36 KB, the oil commodity sheet 81 KB.
 */
export const MCP_MAX_RESPONSE_BYTES = 512 * 1024;

/**
 * Bytes written for one session and not yet taken by its client (SSE stream queue; unfinished
 * Streamable HTTP responses). Past it the session is closed and its queue dropped: at most
 * 100 sessions × 2 MiB = 200 MiB for the whole server.
 */
export const MCP_MAX_QUEUED_BYTES = 2 * 1024 * 1024;

/** Bytes waiting on an SSE stream above which the session refuses new requests (429) until its client reads. */
export const MCP_SSE_HIGH_WATER_BYTES = 256 * 1024;

/** JSON-RPC requests of one session executing or with an unsent response at once. */
export const MCP_MAX_IN_FLIGHT_PER_SESSION = 16;

/** JSON-RPC requests of one client IP (IPv6: its /64), all its sessions together. */
export const MCP_MAX_IN_FLIGHT_PER_IP = 32;

/** Absolute lifetime of a session, however active (seconds). */
export const MCP_SESSION_LIFETIME_SECONDS = 3600;

/**
 * Methods that count one unit against the caller's "data" rate limit (shared with the REST data
 * routes), each when it is executed: the ones that read data, and ping (holding a session open
 * costs something). Listing tools, resources and prompts, initialize and notifications are free
 * and do not keep a session from idling out.
 */
export const MCP_CHARGED_METHODS: ReadonlySet<string> = new Set(['tools/call', 'resources/read', 'prompts/get', 'completion/complete', 'ping']);

/** JSON-RPC error code of a request refused by the rate limit (implementation-defined server error range). */
export const MCP_RATE_LIMITED = -32029;
/** JSON-RPC error code of a request or message refused by flow control (too many in flight, stream backed up, session over its queue). */
export const MCP_OVERLOADED = -32028;
/** JSON-RPC error code of a result larger than MCP_MAX_RESPONSE_BYTES. */
export const MCP_RESPONSE_TOO_LARGE = -32027;

/** The flow limits of one endpoint (the constants above unless McpOptions overrides them). */
export interface FlowLimits {
  maxBatch: number;
  maxUriChars: number;
  maxStringChars: number;
  maxResponseBytes: number;
  maxQueuedBytes: number;
  sseHighWaterBytes: number;
  maxInFlightPerSession: number;
  maxInFlightPerIp: number;
}

export const DEFAULT_FLOW_LIMITS: FlowLimits = {
  maxBatch: MCP_MAX_BATCH,
  maxUriChars: MCP_MAX_URI_CHARS,
  maxStringChars: MCP_MAX_STRING_CHARS,
  maxResponseBytes: MCP_MAX_RESPONSE_BYTES,
  maxQueuedBytes: MCP_MAX_QUEUED_BYTES,
  sseHighWaterBytes: MCP_SSE_HIGH_WATER_BYTES,
  maxInFlightPerSession: MCP_MAX_IN_FLIGHT_PER_SESSION,
  maxInFlightPerIp: MCP_MAX_IN_FLIGHT_PER_IP,
};
