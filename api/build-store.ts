import { existsSync, watch, type FSWatcher } from 'node:fs';
import { readFile, readlink, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { type DiskUse, FAILED_BUILDS_FILE, FailedBuilds } from '../contract/health.ts';
import { BUILD_MARK_MS } from '../contract/manifest.ts';
import { DiskGauge } from './disk-use.ts';
import { type LoadedBuild, loadBuild } from './build.ts';
import { isColdOnNode } from './cold-files.ts';
import { warmSearch } from './search/engine.ts';
import type { EmbeddingsConfig } from '../lib/search/remote.ts';

/** Where the app finds the build to serve; the node store below reloads it when the pipeline switches. */
export interface BuildSource {
  current(): LoadedBuild | null;
  /** Disk use of the folder builds are published in, where there is one (Node). */
  disk?(): DiskUse | null;
  /** Builds failed in a row since the served one, as the pipeline recorded them (Node; null when none). */
  failedBuilds?(): Promise<FailedBuilds | null>;
}

/**
 * Serves `<distDir>/current` and follows it: when the pipeline swaps the symlink, the new build
 * is loaded completely beside the old one and then swapped in with one assignment. A request
 * takes its build once, at the start, so requests in flight finish on the build they began on.
 */
export class NodeBuildStore implements BuildSource {
  private build: LoadedBuild | null = null;
  private target: string | null = null;
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private reloading: Promise<void> | null = null;
  /** The `current` target of the build served, and when the server last marked its folder. */
  private served: string | null = null;
  private markedAt = 0;

  readonly distDir: string;
  private readonly log: (msg: string) => void;
  private readonly embeddings: EmbeddingsConfig | null;
  private readonly memoBytes: number | undefined;
  private readonly fileCacheBytes: number;
  /** `embeddings`: the endpoint that embeds search queries for remotely embedded builds (EMBEDDINGS_*); `memoBytes`: each build's response memo; `fileCacheBytes`: the cold files it keeps in memory. */
  constructor(
    distDir: string,
    log: (msg: string) => void = () => {},
    options: { embeddings?: EmbeddingsConfig | null; memoBytes?: number; fileCacheBytes?: number } = {},
  ) {
    this.distDir = distDir;
    this.log = log;
    this.embeddings = options.embeddings ?? null;
    this.memoBytes = options.memoBytes;
    this.fileCacheBytes = options.fileCacheBytes ?? 8 * 2 ** 20;
    this.gauge = new DiskGauge(distDir);
  }

  current(): LoadedBuild | null {
    return this.build;
  }

  private readonly gauge: DiskGauge;
  disk(): DiskUse | null {
    return this.gauge.current();
  }

  /** Read on each /healthz (a file of ~200 bytes): a build that fails changes nothing else the server watches. */
  async failedBuilds(): Promise<FailedBuilds | null> {
    const text = await readFile(join(this.distDir, FAILED_BUILDS_FILE), 'utf8').catch(() => null);
    if (text === null) return null;
    try {
      return FailedBuilds.parse(JSON.parse(text));
    } catch {
      return null;
    }
  }

  /** Load the current build if it changed; a build that fails to load leaves the old one serving. */
  async refresh(): Promise<void> {
    if (this.reloading) return this.reloading;
    this.reloading = (async () => {
      const link = join(this.distDir, 'current');
      const target = existsSync(link) ? await readlink(link).catch(() => null) : null;
      if (!target || target === this.target) return;
      try {
        const dir = join(this.distDir, target);
        const loaded = await loadBuild((p) => readFile(join(dir, p)), {
          memoBytes: this.memoBytes,
          cold: { isCold: isColdOnNode, maxBytes: this.fileCacheBytes },
        });
        loaded.embeddings = this.embeddings;
        // The search index loads in ~0.5 s. On a reload it loads before the swap, so no request
        // pays for it; at start-up the server answers first and loads it right after.
        const warm = () => loaded.files.has('search/index.json') && warmSearch(loaded);
        if (this.build) warm();
        else setTimeout(warm, 0).unref();
        this.build = loaded;
        this.target = target;
        this.served = target;
        this.markedAt = 0;
        this.log(`serving build ${loaded.id}`);
      } catch (err) {
        this.log(`could not load ${target}, still serving ${this.build?.id ?? 'nothing'}: ${(err as Error).message}`);
        this.target = target;
      }
    })().finally(() => {
      this.reloading = null;
    });
    return this.reloading;
  }

  /** Watch the dist folder (and poll, as watches can miss a rename) for new builds. */
  async start(pollMs = 2000): Promise<this> {
    await this.refresh();
    void this.gauge.measure();
    try {
      this.watcher = watch(this.distDir, () => void this.refresh());
      this.watcher.on('error', () => {});
    } catch {
      // dist/ may not exist yet: polling covers it.
    }
    this.timer = setInterval(() => {
      void this.refresh();
      void this.markServed();
    }, pollMs);
    this.timer.unref();
    return this;
  }

  /**
   * Touch the folder of the build served, every BUILD_MARK_MS, so the pipeline's pruning sees it
   * in use and leaves it (pipeline/publish.ts pruneBuilds): a server that has not yet followed
   * `current` past two newer builds still reads its files. A read-only dist/ just goes unmarked.
   */
  async markServed(now = Date.now()): Promise<void> {
    if (!this.served || now - this.markedAt < BUILD_MARK_MS) return;
    this.markedAt = now;
    const at = new Date(now);
    await utimes(join(this.distDir, this.served), at, at).catch(() => {});
  }

  stop(): void {
    this.watcher?.close();
    if (this.timer) clearInterval(this.timer);
  }
}

/** A fixed build, for tests and edge deployments that load once. */
export class StaticBuildSource implements BuildSource {
  private readonly build: LoadedBuild | null;
  constructor(build: LoadedBuild | null) {
    this.build = build;
  }
  current() {
    return this.build;
  }
}
