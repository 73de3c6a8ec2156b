/**
 * Whether Redis may be asked, as one state machine:
 *
 *   up ──failure──▶ down ──ready, or a probe after the back-off──▶ recovering
 *   recovering ──recent admissions copied──▶ up
 *   recovering ──copy failed──▶ down (probed again after a second)
 *
 * `up` counts in Redis (unless a failed command's one-second back-off runs); `down` and
 * `recovering` count in memory, conservatively. Each outage is logged once when it starts and
 * once when it ends. `closed` ends every transition.
 */

export type OutageState = 'up' | 'down' | 'recovering';

export interface OutageOptions {
  /** The configured Redis, as the log names it (password redacted). */
  name: string;
  log: (msg: string) => void;
  /** Whether the connection is ready (node-redis isReady). */
  connected: () => boolean;
  /** Copy this instance's recent admissions to Redis; resolves with the number of clients copied. */
  recover: () => Promise<number>;
  /** How long Redis is left alone after a failed command, and between recovery attempts (ms). */
  backoffMs?: number;
}

export class Outage {
  state: OutageState = 'up';
  private retryAt = 0;
  private closed = false;
  private readonly opts: OutageOptions;
  private readonly backoffMs: number;
  constructor(opts: OutageOptions) {
    this.opts = opts;
    this.backoffMs = opts.backoffMs ?? 1000;
  }

  /** Redis may be asked now. */
  get usable(): boolean {
    return !this.closed && this.state === 'up' && this.opts.connected() && Date.now() >= this.retryAt;
  }

  /**
   * Whether this request may go to Redis. When it may not, note why: a client that is not
   * connected is an outage; a connected client past its back-off after a failed command (a
   * Redis that hung, then answered) is probed by starting the recovery.
   */
  check(): boolean {
    if (this.usable) return true;
    if (this.closed) return false;
    if (!this.opts.connected()) this.fail('not connected');
    else if (this.state === 'down' && Date.now() >= this.retryAt) this.recovered();
    return false;
  }

  /** up → down, logged once; after a failed command (`backoff`), Redis is left alone for a while. */
  fail(reason: string, backoff = false): void {
    if (this.closed) return;
    if (backoff) this.retryAt = Date.now() + this.backoffMs;
    if (this.state !== 'up') return;
    this.state = 'down';
    this.opts.log(
      `warning: rate limits: Redis at ${this.opts.name} unavailable (${reason}); counting in memory on this instance, conservatively, until it is reachable again`,
    );
  }

  /** Redis answers again: down → recovering → up once what was admitted meanwhile (and just before) is copied there. */
  recovered(): void {
    if (this.closed) return;
    if (this.state === 'up') {
      this.retryAt = 0;
      return;
    }
    if (this.state === 'recovering') return;
    this.state = 'recovering';
    void this.opts.recover().then(
      (clients) => {
        if (this.closed) return;
        this.state = 'up';
        this.retryAt = 0;
        this.opts.log(`rate limits: Redis at ${this.opts.name} is back; ${clients} client(s)' recent requests copied there; counting in Redis again`);
      },
      () => {
        // Still unusable: stay in memory; the next 'ready' (or the probe below) tries again.
        if (this.closed) return;
        this.state = 'down';
        this.retryAt = Date.now() + this.backoffMs;
        setTimeout(() => this.recovered(), this.backoffMs).unref();
      },
    );
  }

  close(): void {
    this.closed = true;
  }
}
