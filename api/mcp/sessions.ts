/** One MCP session, over either transport. */
export interface McpSession {
  id: string;
  kind: 'streamable' | 'sse';
  /** The client it was opened for (rate-limit bucket of its IP), for the per-IP cap. */
  client: string;
  lastSeen: number;
  /** Close the server and its transport (idempotent). */
  close(): Promise<void>;
}

export interface SessionLimits {
  /** Sessions open at once, all clients together. */
  max: number;
  /** Sessions open at once for one client IP. */
  perClient: number;
  /** A session without any message for this long is closed. */
  idleMs: number;
}

export interface Refusal {
  status: 429 | 503;
  detail: string;
  retryAfter: number;
}

/**
 * The open MCP sessions: capped in total and per client, closed when idle. A sweep runs while
 * any session is open (its timer does not keep the process alive).
 */
export class McpSessions {
  private readonly sessions = new Map<string, McpSession>();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    readonly limits: SessionLimits,
    private readonly log: (msg: string) => void = () => {},
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  /** Why a new session for this client must be refused, or null when it may open. */
  refusal(client: string): Refusal | null {
    const retryAfter = Math.max(1, Math.ceil(this.limits.idleMs / 1000));
    if (this.sessions.size >= this.limits.max) {
      return { status: 503, detail: `the server holds its maximum of ${this.limits.max} MCP sessions; try again later (idle sessions close after ${retryAfter} s)`, retryAfter };
    }
    let mine = 0;
    for (const s of this.sessions.values()) if (s.client === client) mine++;
    if (mine >= this.limits.perClient) {
      return {
        status: 429,
        detail: `at most ${this.limits.perClient} MCP sessions may be open per client IP; close one (DELETE /mcp with its Mcp-Session-Id) or let it expire (after ${retryAfter} s idle)`,
        retryAfter,
      };
    }
    return null;
  }

  add(session: McpSession): void {
    this.sessions.set(session.id, session);
    this.schedule();
  }

  /** The open session of that id and kind, marked as active now. */
  get(id: string, kind: McpSession['kind']): McpSession | undefined {
    const s = this.sessions.get(id);
    if (!s || s.kind !== kind) return undefined;
    s.lastSeen = Date.now();
    return s;
  }

  /** Forget a session that closed itself (its transport went away). */
  remove(id: string): void {
    this.sessions.delete(id);
    if (this.sessions.size === 0) this.stopTimer();
  }

  async close(id: string): Promise<void> {
    const s = this.sessions.get(id);
    if (!s) return;
    this.remove(id);
    await s.close().catch((err: unknown) => this.log(`closing MCP session ${id}: ${err instanceof Error ? err.message : String(err)}`));
  }

  async closeAll(): Promise<void> {
    this.stopTimer();
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id)));
  }

  /** Close every session idle for longer than the limit. */
  async sweep(now = Date.now()): Promise<void> {
    const idle = [...this.sessions.values()].filter((s) => now - s.lastSeen > this.limits.idleMs);
    await Promise.all(idle.map((s) => this.close(s.id)));
  }

  private schedule(): void {
    if (this.timer) return;
    const every = Math.min(30_000, Math.max(250, Math.floor(this.limits.idleMs / 4)));
    this.timer = setInterval(() => void this.sweep(), every);
    (this.timer as { unref?: () => void }).unref?.();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
