import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage, type MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';

const encoder = new TextEncoder();

/**
 * The SSE transport of MCP (protocol 2024-11-05) on web streams, so that it runs wherever the
 * app does: GET opens the event stream, whose first event (`endpoint`) names the address the
 * client POSTs its messages to; the server's messages go down the stream as `message` events.
 * The SDK's own SSEServerTransport does the same on Node's request and response objects.
 */
export class WebSseServerTransport implements Transport {
  readonly sessionId: string;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  /** The response that carries the event stream; return it from the GET handler. */
  readonly stream: ReadableStream<Uint8Array>;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private closed = false;
  private keepAlive: ReturnType<typeof setInterval> | undefined;

  /**
   * @param endpoint Path the client POSTs to; `?sessionId=<id>` is appended.
   * @param keepAliveMs Interval of the comment lines that keep proxies from closing an idle stream (0: none).
   */
  constructor(
    private readonly endpoint: string,
    sessionId: string,
    private readonly keepAliveMs = 15_000,
  ) {
    this.sessionId = sessionId;
    this.stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
      },
      // The client went away (the adapter cancels the body when the socket closes).
      cancel: () => {
        void this.close();
      },
    });
  }

  async start(): Promise<void> {
    const sep = this.endpoint.includes('?') ? '&' : '?';
    this.write(`event: endpoint\ndata: ${this.endpoint}${sep}sessionId=${encodeURIComponent(this.sessionId)}\n\n`);
    if (this.keepAliveMs > 0) {
      this.keepAlive = setInterval(() => this.write(': keep-alive\n\n'), this.keepAliveMs);
      (this.keepAlive as { unref?: () => void }).unref?.();
    }
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('SSE stream closed');
    this.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  /** A message POSTed by the client; throws (→ 400) when it is not JSON-RPC. */
  handleMessage(message: unknown, extra?: MessageExtraInfo): void {
    const parsed = JSONRPCMessageSchema.safeParse(message);
    if (!parsed.success) {
      const err = new Error(`not a JSON-RPC message: ${parsed.error.message}`);
      this.onerror?.(err);
      throw err;
    }
    this.onmessage?.(parsed.data, extra);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.keepAlive) clearInterval(this.keepAlive);
    try {
      this.controller.close();
    } catch {
      // already closed or cancelled
    }
    this.onclose?.();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  private write(chunk: string): void {
    if (this.closed) return;
    try {
      this.controller.enqueue(encoder.encode(chunk));
    } catch (err) {
      this.onerror?.(err as Error);
      void this.close();
    }
  }
}
