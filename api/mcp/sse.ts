import { JSONRPCMessageSchema } from '@modelcontextprotocol/core';
import type { JSONRPCMessage, MessageExtraInfo, Transport } from '@modelcontextprotocol/server';

const encoder = new TextEncoder();

/** Flow control of one SSE stream (see limits.ts). */
export interface SseFlow {
  /** Bytes queued above which the stream counts as backed up (no new requests are taken). */
  highWaterBytes: number;
  /** Bytes queued past which the stream is dropped and the session closed. */
  maxQueuedBytes: number;
  /** Called once when the queue passes maxQueuedBytes (the stream is already dropped). */
  onOverflow?: (queuedBytes: number) => void;
  /**
   * Called when the queue is dropped (overflow, or closing with unread bytes): destroy the socket
   * here. The adapter waits for the socket to drain before it reads the stream again, so it would
   * not notice the error of a stream whose client never reads.
   */
  onDrop?: () => void;
}

/**
 * The SSE transport of MCP (protocol 2024-11-05) on web streams, so that it runs wherever the
 * app does: GET opens the event stream, whose first event (`endpoint`) names the address the
 * client POSTs its messages to; the server's messages go down the stream as `message` events.
 * The SDK's own SSEServerTransport does the same on Node's request and response objects.
 *
 * Flow control: the stream's queue is measured in bytes. The Node adapter only pulls from it
 * while the socket takes data, so what a client does not read stays here: above the high-water
 * mark the stream is "backed up" (the POST handler then refuses new requests and keep-alives are
 * skipped), and a message that would take the queue past maxQueuedBytes drops the queue, errors
 * the stream (the adapter then destroys the socket) and closes the session.
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
  private readonly flow: SseFlow;

  /**
   * @param endpoint Path the client POSTs to; `?sessionId=<id>` is appended.
   * @param keepAliveMs Interval of the comment lines that keep proxies from closing an idle stream (0: none).
   */
  private readonly endpoint: string;
  private readonly keepAliveMs;
  constructor(endpoint: string, sessionId: string, keepAliveMs = 15_000, flow: Partial<SseFlow> = {}) {
    this.endpoint = endpoint;
    this.keepAliveMs = keepAliveMs;
    this.sessionId = sessionId;
    this.flow = {
      highWaterBytes: flow.highWaterBytes ?? 256 * 1024,
      maxQueuedBytes: flow.maxQueuedBytes ?? 2 * 1024 * 1024,
      onOverflow: flow.onOverflow,
      onDrop: flow.onDrop,
    };
    this.stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
        },
        // The client went away (the adapter cancels the body when the socket closes).
        cancel: () => {
          void this.close();
        },
      },
      new ByteLengthQueuingStrategy({ highWaterMark: this.flow.highWaterBytes }),
    );
  }

  /** Bytes enqueued and not yet pulled by the adapter (not yet taken by the client's socket). */
  get queuedBytes(): number {
    if (this.closed) return 0;
    return Math.max(0, this.flow.highWaterBytes - (this.controller.desiredSize ?? this.flow.highWaterBytes));
  }

  /** More than the high-water mark waits: the client is not reading. */
  get backedUp(): boolean {
    return !this.closed && (this.controller.desiredSize ?? 1) <= 0;
  }

  async start(): Promise<void> {
    const sep = this.endpoint.includes('?') ? '&' : '?';
    this.write(`event: endpoint\ndata: ${this.endpoint}${sep}sessionId=${encodeURIComponent(this.sessionId)}\n\n`);
    if (this.keepAliveMs > 0) {
      this.keepAlive = setInterval(() => {
        if (!this.backedUp) this.write(': keep-alive\n\n');
      }, this.keepAliveMs);
      (this.keepAlive as { unref?: () => void }).unref?.();
    }
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('SSE stream closed');
    const chunk = encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    const queued = this.queuedBytes;
    if (queued + chunk.byteLength > this.flow.maxQueuedBytes) {
      this.abort(
        new Error(`the client did not read its SSE stream: ${queued + chunk.byteLength} bytes would be queued, the limit is ${this.flow.maxQueuedBytes}`),
      );
      this.flow.onOverflow?.(queued + chunk.byteLength);
      throw new Error('SSE stream closed: the client is not reading it');
    }
    this.enqueue(chunk);
  }

  /** The messages of one POST as JSON-RPC, or the reason they are not (nothing is dispatched then). */
  static parse(messages: unknown[]): { ok: true; messages: JSONRPCMessage[] } | { ok: false; error: string } {
    const out: JSONRPCMessage[] = [];
    for (const m of messages) {
      const parsed = JSONRPCMessageSchema.safeParse(m);
      if (!parsed.success) return { ok: false, error: `not a JSON-RPC message: ${parsed.error.message}` };
      out.push(parsed.data);
    }
    return { ok: true, messages: out };
  }

  /** A message POSTed by the client, already parsed by parse(). */
  handleMessage(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    this.onmessage?.(message, extra);
  }

  /** Drop everything queued and end the stream with an error (the adapter destroys the socket), then close. */
  abort(reason: Error): void {
    if (this.closed) return;
    try {
      this.controller.error(reason);
    } catch {
      // already closed or cancelled
    }
    this.flow.onDrop?.();
    void this.close();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.keepAlive) clearInterval(this.keepAlive);
    try {
      // What a client has not read by now it will not: drop it rather than hold it for a socket that may never drain.
      if ((this.controller.desiredSize ?? this.flow.highWaterBytes) < this.flow.highWaterBytes) {
        this.controller.error(new Error('MCP session closed'));
        this.flow.onDrop?.();
      } else this.controller.close();
    } catch {
      // already closed or cancelled
    }
    this.onclose?.();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  private write(chunk: string): void {
    this.enqueue(encoder.encode(chunk));
  }

  private enqueue(chunk: Uint8Array): void {
    if (this.closed) return;
    try {
      this.controller.enqueue(chunk);
    } catch (err) {
      this.onerror?.(err as Error);
      void this.close();
    }
  }
}
