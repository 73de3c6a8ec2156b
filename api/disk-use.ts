import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { DiskUse } from '../contract/health.ts';

/** Files stat'ed at once while measuring (the libuv pool has 4 threads, shared with serving). */
const AT_ONCE = 32;

/**
 * Disk use of a dist folder as `du` counts it: allocated blocks, each inode once (builds
 * hard-link the files they share with the build before), symlinks not followed. Written here
 * rather than by running du(1): one readdir and lstat per file, no child process, no parsing.
 */
export async function measureDist(distDir: string, now = new Date()): Promise<DiskUse> {
  const entries = await readdir(distDir, { recursive: true, withFileTypes: true });
  const seen = new Set<string>();
  let bytes = (await lstat(distDir)).blocks * 512;
  for (let i = 0; i < entries.length; i += AT_ONCE) {
    const stats = await Promise.all(entries.slice(i, i + AT_ONCE).map((e) => lstat(join(e.parentPath, e.name)).catch(() => null)));
    for (const st of stats) {
      if (!st) continue; // removed meanwhile (a build pruned while we counted)
      const id = `${st.dev}:${st.ino}`;
      if (seen.has(id)) continue;
      seen.add(id);
      bytes += st.blocks * 512;
    }
  }
  const builds = (await readdir(join(distDir, 'builds')).catch(() => [] as string[])).filter((n) => !n.startsWith('.')).length;
  return { dist_bytes: bytes, builds, measured_at: now.toISOString() };
}

/**
 * The last measurement of a dist folder, measured again in the background when it is older than
 * `maxAgeMs` (so /healthz never waits for a walk of ~10,000 files, and a load balancer polling it
 * every second costs one walk a minute).
 */
export class DiskGauge {
  private last: DiskUse | null = null;
  private takenAt = 0;
  private running: Promise<void> | null = null;
  private readonly distDir: string;
  private readonly maxAgeMs: number;
  constructor(distDir: string, maxAgeMs = 60_000) {
    this.distDir = distDir;
    this.maxAgeMs = maxAgeMs;
  }

  current(): DiskUse | null {
    if (Date.now() - this.takenAt >= this.maxAgeMs) void this.measure();
    return this.last;
  }

  /** Measure now (one walk at a time); a dist folder that cannot be read leaves the last figure. */
  measure(): Promise<void> {
    this.running ??= measureDist(this.distDir)
      .then(
        (d) => {
          this.last = d;
        },
        () => {},
      )
      .finally(() => {
        this.takenAt = Date.now();
        this.running = null;
      });
    return this.running;
  }
}
