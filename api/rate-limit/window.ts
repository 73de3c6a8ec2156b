/**
 * The sliding window, in memory: each client's admitted requests, oldest first. A request is
 * admitted when fewer than the quota were admitted in the window before it; a refused request is
 * not recorded. Pure bookkeeping: no I/O, no policy, no clock but the times it is given (and the
 * sweep timer, which only forgets what left the window).
 */

/** Times are microseconds since the epoch: unique per instance, so that they also name the Redis members. */
let lastStamp = 0;
export function stamp(): number {
  lastStamp = Math.max(Date.now() * 1000, lastStamp + 1);
  return lastStamp;
}

export interface Admission {
  allowed: boolean;
  /** Admitted requests in the window, this one included when admitted. */
  count: number;
  /** Time (µs) of the oldest admitted request in the window, or of this one. */
  oldest: number;
}

/**
 * The admissions of one client, oldest first: a ring of (time, count) buckets that grows
 * (doubling) up to the quota. Dropping what left the window and adding the newest are O(1), so a
 * high limit (a benchmark's, a proxy's) never costs time per request; and admissions of the same
 * bucket share one entry, so in memory it costs at most one entry per millisecond of the window
 * (60,000 entries, 720 KB, for a client sending thousands of requests a second) rather than one
 * per request.
 */
class Ring {
  private times = new Float64Array(4);
  private counts = new Uint32Array(4);
  private head = 0;
  /** Buckets held. */
  private used = 0;
  /** Admissions held: the sum of the counts. */
  size = 0;

  private slot(i: number): number {
    return (this.head + i) % this.times.length;
  }

  /** The time of the oldest admission held. */
  oldest(): number {
    return this.times[this.head]!;
  }

  /** Drop the admissions at or before `cutoff`. */
  dropUntil(cutoff: number): void {
    while (this.used > 0 && this.times[this.head]! <= cutoff) this.dropBucket();
  }

  /** Drop the `n` oldest admissions. */
  dropOldest(n: number): void {
    while (n > 0 && this.used > 0) {
      const c = this.counts[this.head]!;
      if (c > n) {
        this.counts[this.head] = c - n;
        this.size -= n;
        return;
      }
      n -= c;
      this.dropBucket();
    }
  }

  private dropBucket(): void {
    this.size -= this.counts[this.head]!;
    this.head = (this.head + 1) % this.times.length;
    this.used--;
  }

  /** Add an admission at `t`, in order (a Redis admission may come back after a later one; the newest is the common case). */
  insert(t: number, cap: number): void {
    this.size++;
    let i = this.used;
    while (i > 0 && this.times[this.slot(i - 1)]! > t) i--;
    if (i > 0 && this.times[this.slot(i - 1)] === t) {
      this.counts[this.slot(i - 1)]!++;
      return;
    }
    if (this.used === this.times.length) this.grow(cap);
    for (let j = this.used; j > i; j--) {
      this.times[this.slot(j)] = this.times[this.slot(j - 1)]!;
      this.counts[this.slot(j)] = this.counts[this.slot(j - 1)]!;
    }
    this.times[this.slot(i)] = t;
    this.counts[this.slot(i)] = 1;
    this.used++;
  }

  private grow(cap: number): void {
    const length = Math.max(4, Math.min(this.times.length * 2, cap + 1));
    const times = new Float64Array(length);
    const counts = new Uint32Array(length);
    for (let i = 0; i < this.used; i++) {
      times[i] = this.times[this.slot(i)]!;
      counts[i] = this.counts[this.slot(i)]!;
    }
    this.times = times;
    this.counts = counts;
    this.head = 0;
  }

  /** Every admission's time, oldest first. */
  toArray(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.used; i++) for (let c = this.counts[this.slot(i)]!; c > 0; c--) out.push(this.times[this.slot(i)]!);
    return out;
  }
}

/**
 * Admitted requests per client in this process, oldest first, at most `limit` per client (a log
 * never holds more than its quota), swept once per window. admit() is synchronous, so
 * concurrent requests in one Node process are counted exactly.
 *
 * Times are kept to `resolutionUs`, rounded up: counting alone, a millisecond (an admission
 * leaves the window up to 1 ms after its exact time, never before, so the limit still holds for
 * every span of the window); beside Redis, the microsecond (each admission keeps its own stamp,
 * which names it in Redis when this instance's admissions are copied back there).
 */
export class MemoryLog {
  private readonly logs = new Map<string, Ring>();
  private readonly timer: NodeJS.Timeout;

  private readonly windowUs: number;
  private readonly cap: number;
  private readonly resolutionUs: number;
  constructor(windowUs: number, cap: number, resolutionUs = 1) {
    this.windowUs = windowUs;
    this.cap = cap;
    this.resolutionUs = resolutionUs;
    this.timer = setInterval(() => this.sweep(), windowUs / 1000);
    this.timer.unref();
  }

  private live(key: string, now: number): Ring | undefined {
    const log = this.logs.get(key);
    if (!log) return undefined;
    log.dropUntil(now - this.windowUs);
    if (log.size === 0) {
      this.logs.delete(key);
      return undefined;
    }
    return log;
  }

  admit(key: string, limit: number, now: number): Admission {
    const log = this.live(key, now);
    const n = log?.size ?? 0;
    if (n >= limit) return { allowed: false, count: n, oldest: log!.oldest() };
    this.record(key, now);
    return { allowed: true, count: n + 1, oldest: this.logs.get(key)!.oldest() };
  }

  /** Remember an admission (Redis admitted it, or this log did). */
  record(key: string, t: number): void {
    let log = this.logs.get(key);
    if (!log) this.logs.set(key, (log = new Ring()));
    log.insert(this.resolutionUs === 1 ? t : Math.ceil(t / this.resolutionUs) * this.resolutionUs, this.cap);
    if (log.size > this.cap) log.dropOldest(log.size - this.cap);
  }

  /** Every client's admissions still in the window (for copying to Redis). */
  *recent(now: number): Generator<[string, number[]]> {
    for (const key of [...this.logs.keys()]) {
      const log = this.live(key, now);
      if (log) yield [key, log.toArray()];
    }
  }

  private sweep(): void {
    const now = Date.now() * 1000;
    for (const key of [...this.logs.keys()]) this.live(key, now);
  }

  shutdown(): void {
    clearInterval(this.timer);
    this.logs.clear();
  }
}
