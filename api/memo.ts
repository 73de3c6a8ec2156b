/** A serialised response kept for reuse. */
export interface MemoEntry {
  body: Uint8Array;
  etag: string;
  contentType: string;
  cacheControl?: string;
}

/** Bytes a Map entry and a MemoEntry object cost beyond their strings and body (V8, measured order of magnitude). */
export const ENTRY_OVERHEAD_BYTES = 160;

/** What one entry holds in memory: its key and strings (UTF-16, 2 bytes a character), its body, the objects around them. */
export function entryBytes(key: string, e: MemoEntry): number {
  return ENTRY_OVERHEAD_BYTES + 2 * (key.length + e.etag.length + e.contentType.length + (e.cacheControl?.length ?? 0)) + e.body.byteLength;
}

/**
 * Parameterised answers are a pure function of (build, route, canonical parameters, day), so each
 * build keeps the bytes of the ones it has computed, least recently used first out, within a
 * byte budget that counts everything an entry holds: its key, its strings and its body. Keys
 * are the canonical parsed request (app.ts), so requests that parse to the same parameters share
 * one entry however they were written.
 *
 * Recency is a mark, not an order (the CLOCK algorithm): a hit marks its entry, and eviction
 * walks the entries oldest first, giving a marked one a second chance (unmarked, moved to the
 * end). A hit is then a lookup and a write, where moving the entry to the end of the Map on
 * every hit reallocated the Map's table every few hits, on the hottest path of the server (the
 * listener's fast path asks on every memoised answer it sends): garbage that outlived the young
 * generation, measured at ~80 bytes a request.
 */
export class ResponseMemo {
  private readonly entries = new Map<string, { entry: MemoEntry; bytes: number; used: boolean }>();
  private bytes = 0;

  private readonly maxBytes;
  private readonly maxEntryBytes;
  constructor(maxBytes = 16 * 2 ** 20, maxEntryBytes = 2 ** 20) {
    this.maxBytes = maxBytes;
    this.maxEntryBytes = maxEntryBytes;
  }

  get(key: string): MemoEntry | undefined {
    const hit = this.entries.get(key);
    if (hit) hit.used = true;
    return hit?.entry;
  }

  set(key: string, entry: MemoEntry): void {
    const bytes = entryBytes(key, entry);
    if (bytes > this.maxEntryBytes) return;
    const prior = this.entries.get(key);
    if (prior) this.bytes -= prior.bytes;
    this.entries.delete(key);
    this.entries.set(key, { entry, bytes, used: false });
    this.bytes += bytes;
    // Oldest first; an entry used since it was last passed goes to the end, once (its mark cleared).
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      if (v.used) {
        v.used = false;
        this.entries.set(k, v);
      } else this.bytes -= v.bytes;
    }
  }

  /** Entries held and the bytes they count against the budget (keys included). */
  get size(): { entries: number; bytes: number; maxBytes: number } {
    return { entries: this.entries.size, bytes: this.bytes, maxBytes: this.maxBytes };
  }
}
