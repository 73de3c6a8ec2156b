import { loadBuild, type LoadedBuild, type StaticFile } from '../api/build.ts';
import type { BuildSource } from '../api/build-store.ts';
import { ResponseMemo } from '../api/memo.ts';
import { BUILD_FILES } from '../contract/layout.ts';
import type { BuildManifest } from '../contract/manifest.ts';
import { BUILD_PREFIX, LAZY_FILES, workerLoads } from './layout.ts';

/** What the worker has of its static assets: the ASSETS binding (anything with fetch). */
export interface AssetFetcher {
  fetch(input: Request | string): Promise<Response>;
}

/**
 * Parameterised answers an isolate keeps (api/memo.ts): half the Node server's default 16 MiB (RESPONSE_MEMO_MB),
 * as an isolate has 128 MB for everything; one answer at most 1 MiB, as on Node.
 */
export const EDGE_MEMO_BYTES = 8 * 2 ** 20;

/**
 * The build's files the worker holds: those it loaded (workerLoads), and the names of all the
 * others, which the asset layer serves. `has` answers for every file of the build (the app's 405
 * on POST to a page or file needs it); `get` only for those in memory.
 */
class EdgeFiles extends Map<string, StaticFile> {
  private readonly all: ReadonlySet<string>;
  constructor(loaded: Map<string, StaticFile>, all: Iterable<string>) {
    super(loaded);
    this.all = new Set(all);
  }
  override has(path: string): boolean {
    return this.all.has(path) || super.has(path);
  }
}

/**
 * The build as a Worker sees it: read from the ASSETS binding, once per isolate (a deployment
 * carries one build: a new build is a new deployment, and new isolates). The first request waits
 * for the files the routes answer from (`ready()`, about 7 MB of the build, with the memo
 * bounded to EDGE_MEMO_BYTES); the search index and vectors (5.5 MB on disk, about 30 MB restored)
 * are read only by an isolate that serves a search, an ask or an MCP request (`readySearch()`).
 */
export class EdgeBuildSource implements BuildSource {
  private build: LoadedBuild | null = null;
  private loading: Promise<LoadedBuild> | null = null;
  private searching: Promise<void> | null = null;
  private readonly assets: AssetFetcher;
  constructor(assets: AssetFetcher) {
    this.assets = assets;
  }

  current(): LoadedBuild | null {
    return this.build;
  }

  private async read(path: string): Promise<Uint8Array> {
    // The binding takes any absolute URL: only its path is looked at.
    const res = await this.assets.fetch(new Request(`https://assets.invalid${BUILD_PREFIX}${path}`));
    if (!res.ok) throw new Error(`asset ${BUILD_PREFIX}${path}: HTTP ${res.status}`);
    return new Uint8Array(await res.arrayBuffer());
  }

  /** The build, loaded on the first call; a failed load is tried again by the next request. */
  ready(): Promise<LoadedBuild> {
    if (this.build) return Promise.resolve(this.build);
    this.loading ??= this.load().then(
      (b) => (this.build = b),
      (err: unknown) => {
        this.loading = null;
        throw err;
      },
    );
    return this.loading;
  }

  private async load(): Promise<LoadedBuild> {
    const manifestPath = BUILD_FILES.manifest().path;
    const manifest = JSON.parse(new TextDecoder().decode(await this.read(manifestPath))) as BuildManifest;
    // loadBuild reads what the manifest lists: here, only what the worker answers from, without
    // the compressed copies (Cloudflare compresses what the worker sends; see worker.ts).
    const own: BuildManifest = {
      ...manifest,
      files: Object.fromEntries(
        Object.entries(manifest.files)
          .filter(([p]) => workerLoads(p))
          .map(([p, f]) => [p, { ...f, encodings: undefined }]),
      ),
    };
    const ownBytes = new TextEncoder().encode(JSON.stringify(own));
    const b = await loadBuild((p) => (p === manifestPath ? Promise.resolve(ownBytes) : this.read(p)));
    b.manifest = manifest;
    b.files = new EdgeFiles(b.files as Map<string, StaticFile>, Object.keys(manifest.files));
    b.memo = new ResponseMemo(EDGE_MEMO_BYTES);
    return b;
  }

  /** The search index, lexicon and vectors in the build's files, before the first request that searches (api/search/engine.ts restores them on first use). */
  async readySearch(): Promise<void> {
    const b = await this.ready();
    this.searching ??= (async () => {
      const files = b.files as EdgeFiles;
      await Promise.all(
        LAZY_FILES.filter((p) => b.manifest.files[p]).map(async (p) => {
          const f = b.manifest.files[p]!;
          files.set(p, { body: await this.read(p), etag: `"${f.sha256.slice(0, 32)}"`, contentType: f.content_type });
        }),
      );
    })().catch((err: unknown) => {
      this.searching = null;
      throw err;
    });
    return this.searching;
  }
}
