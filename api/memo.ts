/** A serialised response kept for reuse. */
export interface MemoEntry {
  body: Uint8Array;
  etag: string;
  contentType: string;
  cacheControl?: string;
}

/**
 * Parameterised answers are a pure function of (build, route, query, day), so each build keeps
 * the bytes of the ones it has computed, least recently used first out, within a byte budget.
 */
export class ResponseMemo {
  private readonly entries = new Map<string, MemoEntry>();
  private bytes = 0;

  constructor(private readonly maxBytes = 32 * 2 ** 20, private readonly maxEntryBytes = 2 ** 20) {}

  get(key: string): MemoEntry | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, entry: MemoEntry): void {
    if (entry.body.length > this.maxEntryBytes) return;
    const prior = this.entries.get(key);
    if (prior) this.bytes -= prior.body.length;
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.bytes += entry.body.length;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= v.body.length;
    }
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }
}
