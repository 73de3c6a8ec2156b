/** One MCP session, over either transport. */
export interface McpSession {
  id: string;
  kind: 'streamable' | 'sse';
  /** The client it was opened for (rate-limit bucket of its IP, an IPv6 address by its /64), for the per-IP caps. */
  client: string;
  createdAt: number;
  /** Last message that counted against the data budget (or the opening). */
  lastSeen: number;
  /** JSON-RPC requests executing, or whose response the client has not taken yet (Streamable HTTP). */
  inFlight: number;
  /** Bytes written for the session and not yet handed to its socket (Streamable HTTP responses; the SSE transport counts its own queue). */
  queuedBytes: number;
  /** Close the server and its transport (idempotent). */
  close(): Promise<void>;
  /** Drop whatever is queued for the client and close (a session over its queue); defaults to close(). */
  abort?(): void;
}

export interface SessionLimits {
  /** Sessions open at once, all clients together. */
  max: number;
  /** Sessions open at once for one client IP. */
  perClient: number;
  /** A session without any counted message for this long is closed. */
  idleMs: number;
  /** A session is closed this long after it opened, however active. */
  lifetimeMs: number;
  /** Requests in flight for one session. */
  inFlightPerSession: number;
  /** Requests in flight for one client, all its sessions together. */
  inFlightPerClient: number;
}

export interface Refusal {
  status: 429 | 503;
  detail: string;
  retryAfter: number;
}

/**
 * The open MCP sessions: capped in total and per client, closed when idle and when their lifetime
 * is over. When the global cap is reached a newcomer evicts the oldest idle session (no request
 * in flight) of the client holding the most sessions, provided that client holds at least two
 * more than the newcomer does: ten sessions held by each of ten addresses cannot lock others
 * out, while equal holders never evict each other. A sweep runs while any session is open (its
 * timer does not keep the process alive).
 */
export class McpSessions {
  private readonly sessions = new Map<string, McpSession>();
  private readonly inFlightByClient = new Map<string, number>();
  private timer: ReturnType<typeof setInterval> | undefined;
  /** Sessions evicted to make room, since start (for logs and tests). */
  evictions = 0;

  readonly limits: SessionLimits;
  private readonly log: (msg: string) => void;
  constructor(limits: SessionLimits, log: (msg: string) => void = () => {}) {
    this.limits = limits;
    this.log = log;
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Open sessions per client (for logs and tests). */
  countsByClient(): Map<string, number> {
    const m = new Map<string, number>();
    for (const s of this.sessions.values()) m.set(s.client, (m.get(s.client) ?? 0) + 1);
    return m;
  }

  private countOf(client: string): number {
    let n = 0;
    for (const s of this.sessions.values()) if (s.client === client) n++;
    return n;
  }

  /**
   * Make room for a new session of this client: null when it may open (after evicting another
   * client's idle session if the cap was reached), or why it is refused.
   */
  async admit(client: string): Promise<Refusal | null> {
    const retryAfter = Math.max(1, Math.ceil(Math.min(this.limits.idleMs, this.limits.lifetimeMs) / 1000));
    const mine = this.countOf(client);
    if (mine >= this.limits.perClient) {
      return {
        status: 429,
        detail: `at most ${this.limits.perClient} MCP sessions may be open per client IP; close one (DELETE /mcp with its Mcp-Session-Id) or let it expire (after ${Math.ceil(this.limits.idleMs / 1000)} s idle)`,
        retryAfter,
      };
    }
    if (this.sessions.size >= this.limits.max) {
      const victim = this.evictable(client, mine);
      if (!victim) {
        return {
          status: 503,
          detail: `the server holds its maximum of ${this.limits.max} MCP sessions; try again later (idle sessions close after ${Math.ceil(this.limits.idleMs / 1000)} s)`,
          retryAfter,
        };
      }
      this.evictions++;
      this.log(`MCP session ${victim.id} of ${victim.client} evicted to make room for ${client} (${this.sessions.size} sessions open)`);
      await this.close(victim.id);
    }
    return null;
  }

  /** The oldest idle session of the biggest holder, if that holder has at least two more sessions than `client` (which has `mine`). */
  private evictable(client: string, mine: number): McpSession | undefined {
    const byClient = new Map<string, McpSession[]>();
    for (const s of this.sessions.values()) {
      if (s.client === client) continue;
      const list = byClient.get(s.client);
      if (list) list.push(s);
      else byClient.set(s.client, [s]);
    }
    let best: McpSession | undefined;
    let bestCount = 0;
    for (const list of byClient.values()) {
      if (list.length <= mine + 1) continue;
      let idle: McpSession | undefined;
      for (const s of list) if (s.inFlight === 0 && (!idle || s.lastSeen < idle.lastSeen)) idle = s;
      if (!idle) continue;
      if (list.length > bestCount || (list.length === bestCount && idle.lastSeen < best!.lastSeen)) {
        best = idle;
        bestCount = list.length;
      }
    }
    return best;
  }

  add(session: McpSession): void {
    this.sessions.set(session.id, session);
    this.schedule();
  }

  /** The open session of that id and kind (does not count as activity: see touch()). */
  get(id: string, kind: McpSession['kind']): McpSession | undefined {
    const s = this.sessions.get(id);
    if (!s || s.kind !== kind) return undefined;
    return s;
  }

  /** A counted message arrived: the session is not idle. */
  touch(s: McpSession): void {
    s.lastSeen = Date.now();
  }

  /** Reserve `n` in-flight requests for a session and its client; false (nothing reserved) when either cap would be passed. */
  reserve(s: McpSession, n: number): { ok: true } | { ok: false; detail: string } {
    if (n === 0) return { ok: true };
    const client = this.inFlightByClient.get(s.client) ?? 0;
    if (s.inFlight + n > this.limits.inFlightPerSession) {
      return {
        ok: false,
        detail: `at most ${this.limits.inFlightPerSession} requests may be in flight per MCP session (${s.inFlight} are, counting responses not yet read); wait for their responses`,
      };
    }
    if (client + n > this.limits.inFlightPerClient) {
      return {
        ok: false,
        detail: `at most ${this.limits.inFlightPerClient} MCP requests may be in flight per client IP (${client} are, counting responses not yet read); wait for their responses`,
      };
    }
    s.inFlight += n;
    this.inFlightByClient.set(s.client, client + n);
    return { ok: true };
  }

  release(s: McpSession, n: number): void {
    const k = Math.min(n, s.inFlight);
    if (k <= 0) return;
    s.inFlight -= k;
    const left = (this.inFlightByClient.get(s.client) ?? 0) - k;
    if (left > 0) this.inFlightByClient.set(s.client, left);
    else this.inFlightByClient.delete(s.client);
  }

  /**
   * Forget a session that closed itself (its transport went away). An SSE session's requests no
   * longer count; a Streamable HTTP session's keep counting against its client until their
   * responses have left (their HTTP handlers release them), so closing a session does not free
   * the memory of responses its client leaves unread.
   */
  remove(id: string): void {
    const s = this.sessions.get(id);
    if (!s) return;
    if (s.kind === 'sse') this.release(s, s.inFlight);
    this.sessions.delete(id);
    if (this.sessions.size === 0) this.stopTimer();
  }

  async close(id: string): Promise<void> {
    const s = this.sessions.get(id);
    if (!s) return;
    this.remove(id);
    await s.close().catch((err: unknown) => this.log(`closing MCP session ${id}: ${err instanceof Error ? err.message : String(err)}`));
  }

  /** Close a session whose client does not take what is written for it: its queue is dropped. */
  async abort(id: string, why: string): Promise<void> {
    const s = this.sessions.get(id);
    if (!s) return;
    this.log(`MCP session ${id} of ${s.client} closed: ${why}`);
    this.remove(id);
    try {
      s.abort?.();
    } catch {
      // closing below anyway
    }
    await s.close().catch(() => undefined);
  }

  async closeAll(): Promise<void> {
    this.stopTimer();
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id)));
  }

  /** Close every session idle for longer than the limit or open for longer than its lifetime. */
  async sweep(now = Date.now()): Promise<void> {
    const done = [...this.sessions.values()].filter((s) => now - s.lastSeen > this.limits.idleMs || now - s.createdAt > this.limits.lifetimeMs);
    await Promise.all(done.map((s) => this.close(s.id)));
  }

  private schedule(): void {
    if (this.timer) return;
    const every = Math.min(30_000, Math.max(250, Math.floor(Math.min(this.limits.idleMs, this.limits.lifetimeMs) / 4)));
    this.timer = setInterval(() => void this.sweep(), every);
    (this.timer as { unref?: () => void }).unref?.();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
