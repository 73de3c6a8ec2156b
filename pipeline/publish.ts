import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readlink, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { z } from 'zod';
import type { JsonFile } from '../contract/layout.ts';
import { BuildManifest } from '../contract/manifest.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** A build that failed validation: lists every file and field that broke the contract. */
export class BuildValidationError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    const shown = problems.slice(0, 25).join('\n  ');
    super(`build failed validation (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n  ${shown}${problems.length > 25 ? '\n  …' : ''}`);
    this.problems = problems;
    this.name = 'BuildValidationError';
  }
}

/**
 * Writes one build into a private folder. Every JSON payload is validated against its contract
 * schema before it is written; a path written twice is an error (two steps claiming one output).
 */
export class BuildWriter {
  readonly files: Record<string, { sha256: string; bytes: number; content_type: string }> = {};
  /**
   * Hash of each JSON output's payload without what changes with every build even when the data
   * do not: meta.build, meta.generated_at and meta.sources (whose retrieval times the stage keys
   * take from the source statuses instead).
   */
  readonly payloadHashes: Record<string, string> = {};
  readonly problems: string[] = [];

  readonly dir: string;
  constructor(dir: string) {
    this.dir = dir;
  }

  async json<S extends z.ZodType>(path: string, schema: S, value: z.input<S>): Promise<void> {
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues.slice(0, 5)) {
        this.problems.push(`${path}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
      }
      return;
    }
    const out = parsed.data as { meta?: Record<string, unknown> };
    if (out.meta) {
      const { build: _b, generated_at: _g, sources: _s, ...meta } = out.meta;
      this.payloadHashes[path] = createHash('sha256')
        .update(JSON.stringify({ ...out, meta }))
        .digest('hex');
    }
    await this.raw(path, JSON.stringify(parsed.data), JSON_TYPE);
  }

  /** Write one of the build's declared JSON files (contract/layout.ts), validated by its schema. */
  file<S extends z.ZodType>(f: JsonFile<S>, value: z.input<S>): Promise<void> {
    return this.json(f.path, f.schema, value);
  }

  async raw(path: string, body: string | Buffer, contentType: string): Promise<void> {
    if (path in this.files) throw new Error(`two outputs claim ${path}`);
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    const target = join(this.dir, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, bytes);
    this.files[path] = { sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length, content_type: contentType };
  }
}

/** Where builds live: `<out>/builds/<id>/`, the live one behind the `<out>/current` symlink. */
export type BuildPaths = ReturnType<typeof buildPaths>;

export function buildPaths(outDir: string) {
  return {
    builds: join(outDir, 'builds'),
    current: join(outDir, 'current'),
    snapshots: join(outDir, 'snapshots'),
  };
}

/**
 * A build id not yet taken: two builds of the same inputs in the same second get the same id,
 * and the second must not replace the folder the first published (issue 20, finding 4).
 */
export function freeBuildId(outDir: string, buildId: string): string {
  const builds = buildPaths(outDir).builds;
  let id = buildId;
  for (let n = 2; existsSync(join(builds, id)); n++) id = `${buildId}-${n}`;
  return id;
}

/** A private folder per process (pid and random suffix), so no two builds ever write one folder. */
export async function openBuild(outDir: string, buildId: string): Promise<BuildWriter> {
  const builds = buildPaths(outDir).builds;
  await mkdir(builds, { recursive: true });
  const dir = await mkdtemp(join(builds, `.tmp-${buildId}-${process.pid}-`));
  // mkdtemp makes it owner-only; the published folder must be as readable as the others.
  await chmod(dir, 0o755);
  return new BuildWriter(dir);
}

/** Drop a build that will not be published. */
export async function discardBuild(writer: BuildWriter): Promise<void> {
  await rm(writer.dir, { recursive: true, force: true });
}

/**
 * Remove what builds killed half-way left behind: temp build folders and temp `current` links.
 * Only called under the build lock, when no other build can be writing them.
 */
export async function clearLeftovers(outDir: string): Promise<string[]> {
  const paths = buildPaths(outDir);
  const removed: string[] = [];
  for (const n of await readdir(paths.builds).catch(() => [] as string[])) {
    if (!n.startsWith('.tmp-')) continue;
    await rm(join(paths.builds, n), { recursive: true, force: true });
    removed.push(`builds/${n}`);
  }
  for (const n of await readdir(outDir).catch(() => [] as string[])) {
    if (!n.startsWith('current.tmp-')) continue;
    await rm(join(outDir, n), { force: true });
    removed.push(n);
  }
  return removed;
}

/** A build published this recently may still be loading in a server that saw it as current. */
export const RECENT_MS = 10 * 60_000;

/**
 * Validate, then publish: the manifest is written last, the folder renamed into place and the
 * `current` symlink replaced by rename(2), which is atomic, so a reader sees the old build or
 * the new one and never half of either. Keeps the newest `keep` builds, and never deletes the
 * current build, the one it replaces, or one published within RECENT_MS.
 */
export async function publishBuild(outDir: string, writer: BuildWriter, manifest: Omit<BuildManifest, 'files'>, keep = 3): Promise<string> {
  if (writer.problems.length > 0) {
    await discardBuild(writer);
    throw new BuildValidationError(writer.problems);
  }
  const full = BuildManifest.parse({ ...manifest, files: writer.files });
  await writeFile(join(writer.dir, 'manifest.json'), JSON.stringify(full, null, 2));
  const paths = buildPaths(outDir);
  const finalDir = join(paths.builds, manifest.build);
  // A published folder is never replaced: rename(2) fails on a non-empty target (see freeBuildId).
  if (existsSync(finalDir)) throw new Error(`build ${manifest.build} is already published; not replacing it`);
  const replaced = await currentBuild(outDir);
  await rename(writer.dir, finalDir);
  const tmpLink = `${paths.current}.tmp-${process.pid}`;
  await rm(tmpLink, { force: true });
  await symlink(join('builds', manifest.build), tmpLink);
  await rename(tmpLink, paths.current);
  await pruneBuilds(outDir, keep, new Set([manifest.build, ...(replaced ? [replaced] : [])]));
  return finalDir;
}

/** The build folder name `current` points to, if any. */
async function currentBuild(outDir: string): Promise<string | undefined> {
  return (await readlink(buildPaths(outDir).current).catch(() => undefined))?.split('/').pop();
}

async function pruneBuilds(outDir: string, keep: number, protect: Set<string>): Promise<void> {
  const paths = buildPaths(outDir);
  const current = await currentBuild(outDir);
  if (current) protect.add(current);
  const names = (await readdir(paths.builds)).filter((n) => !n.startsWith('.')).sort();
  const now = Date.now();
  for (const n of names.slice(0, Math.max(0, names.length - keep))) {
    if (protect.has(n)) continue;
    const st = await stat(join(paths.builds, n)).catch(() => null);
    if (!st || now - st.mtimeMs < RECENT_MS) continue;
    await rm(join(paths.builds, n), { recursive: true, force: true });
  }
}
