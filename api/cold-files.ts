import type { ManifestFile } from '../contract/manifest.ts';

/** The Node server's cold files: the site's pages (not its hashed /_astro/ assets, which every page loads) and the bulk downloads. */
export const isColdOnNode = (path: string): boolean => (path.startsWith('site/') && !path.startsWith('site/_astro/')) || path.startsWith('bulk/');

/**
 * The files of a build kept on disk rather than in memory: the site's pages (four languages,
 * ~30 MB with their compressed copies) and the bulk downloads, which people open one at a time
 * and which no API route reads. Each is read on first request and kept while it is among the
 * most recently used within a byte budget, so a page read by many is answered from memory (and
 * then by the listener's fast path, which holds it only as long as this does), and the server's
 * memory does not grow with the number of pages.
 */
export class ColdFiles<F> {
  private readonly entries: ReadonlyMap<string, ManifestFile>;
  private readonly load: (path: string, entry: ManifestFile) => Promise<F>;
  private readonly maxBytes: number;
  private readonly cache = new Map<string, { file: F; bytes: number }>();
  private readonly reading = new Map<string, Promise<F>>();
  private bytes = 0;

  constructor(entries: ReadonlyMap<string, ManifestFile>, load: (path: string, entry: ManifestFile) => Promise<F>, maxBytes: number) {
    this.entries = entries;
    this.load = load;
    this.maxBytes = maxBytes;
  }

  has(path: string): boolean {
    return this.entries.has(path);
  }

  /** The file, read from the build's folder if it is not in memory; undefined when the build has no such file. */
  async get(path: string): Promise<F | undefined> {
    const hit = this.cache.get(path);
    if (hit) {
      // Most recently used last: the Map's order is the eviction order.
      this.cache.delete(path);
      this.cache.set(path, hit);
      return hit.file;
    }
    const entry = this.entries.get(path);
    if (!entry) return undefined;
    let pending = this.reading.get(path);
    if (!pending) {
      pending = this.load(path, entry).finally(() => this.reading.delete(path));
      this.reading.set(path, pending);
      void pending.then(
        (file) => this.keep(path, file, entry),
        () => {},
      );
    }
    return pending;
  }

  private keep(path: string, file: F, entry: ManifestFile): void {
    const bytes = entry.bytes + Object.values(entry.encodings ?? {}).reduce((n, e) => n + e.bytes, 0);
    if (bytes > this.maxBytes / 4 || this.cache.has(path)) return;
    this.cache.set(path, { file, bytes });
    this.bytes += bytes;
    for (const [k, v] of this.cache) {
      if (this.bytes <= this.maxBytes) break;
      this.cache.delete(k);
      this.bytes -= v.bytes;
    }
  }
}
