import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, copyFile, link, mkdir, mkdtemp, readdir, readFile, readlink, realpath, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { z } from 'zod';
import type { JsonFile } from '../contract/layout.ts';
import {
  BUILD_IN_USE_MS,
  BuildManifest,
  CODING_SUFFIX,
  COMPRESS_MIN_BYTES,
  UNSERVED_PREFIXES,
  compressible,
  type ContentCoding,
  type ManifestFile,
} from '../contract/manifest.ts';

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
 *
 * A payload whose content is what the live build serves at the same path keeps the live file's
 * bytes: its `meta.generated_at` and `meta.build` name the build in which the content last
 * changed, and its sources' `retrieved_at` the versions it was first made from, so a rebuild
 * that changes no figure serves the same bodies under the same ETags (docs/api.md, Caching).
 */
export class BuildWriter {
  readonly files: Record<string, ManifestFile> = {};
  /**
   * Hash of each JSON output's payload without its build stamps (meta.build, meta.generated_at)
   * and meta.sources (whose retrieval times and freshness the stage keys take from the source
   * statuses instead): what the site's stage key reads of each payload.
   */
  readonly payloadHashes: Record<string, string> = {};
  readonly problems: string[] = [];
  /** JSON outputs whose content is unchanged since the live build, served with its stamps. */
  readonly carried: string[] = [];

  readonly dir: string;
  /** The `current` link of the live build whose unchanged payloads keep their stamps (none: every payload is new). */
  private readonly liveLink: string | null;
  private liveBuild: Promise<LiveFiles | null> | undefined;
  constructor(dir: string, liveLink: string | null = null) {
    this.dir = dir;
    this.liveLink = liveLink;
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
    let body: string | null = null;
    if (out.meta) {
      const { build: _b, generated_at: _g, sources: _s, ...meta } = out.meta;
      this.payloadHashes[path] = createHash('sha256')
        .update(JSON.stringify({ ...out, meta }))
        .digest('hex');
      body = await this.unchangedSince(path, out as Stamped);
      if (body !== null) this.carried.push(path);
    }
    await this.raw(path, body ?? JSON.stringify(parsed.data), JSON_TYPE);
  }

  /**
   * The live build's bytes for `path` when they differ from `out` only in the build stamps:
   * meta.generated_at, meta.build and each source's retrieved_at (a newer version of a source
   * that leaves this payload as it was does not make it new). Then they are the body to publish
   * again. Null when there is no live build, no such file, a file that does not match the live
   * manifest, or any other difference (a figure, a note, a source's data date or freshness).
   */
  private async unchangedSince(path: string, out: Stamped): Promise<string | null> {
    const live = await (this.liveBuild ??= readLive(this.liveLink));
    const want = live?.files[path];
    if (!live || !want) return null;
    const bytes = await readFile(join(live.dir, path)).catch(() => null);
    if (!bytes || !matchesManifest(bytes, want)) return null;
    const text = bytes.toString('utf8');
    let before: Stamped;
    try {
      before = JSON.parse(text) as Stamped;
    } catch {
      return null;
    }
    const m = before?.meta;
    if (typeof m?.generated_at !== 'string' || typeof m.build !== 'string' || !Array.isArray(m.sources) || !Array.isArray(out.meta.sources)) return null;
    const retrieved = new Map(m.sources.map((s) => [s?.id, s?.retrieved_at]));
    const restamped = JSON.stringify({
      ...out,
      meta: {
        ...out.meta,
        generated_at: m.generated_at,
        build: m.build,
        sources: out.meta.sources.map((s) => (s && retrieved.has(s.id) ? { ...s, retrieved_at: retrieved.get(s.id) } : s)),
      },
    });
    return restamped === text ? text : null;
  }

  /** Write one of the build's declared JSON files (contract/layout.ts), validated by its schema. */
  file<S extends z.ZodType>(f: JsonFile<S>, value: z.input<S>): Promise<void> {
    return this.json(f.path, f.schema, value);
  }

  async raw(path: string, body: string | Buffer, contentType: string): Promise<void> {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    const compress = compressible(contentType) && bytes.length >= COMPRESS_MIN_BYTES && !UNSERVED_PREFIXES.some((p) => path.startsWith(p));
    const variants = compress ? Object.values(CODING_SUFFIX).map((s) => path + s) : [];
    for (const p of [path, ...variants]) if (this.claimed.has(p)) throw new Error(`two outputs claim ${p}`);
    for (const p of [path, ...variants]) this.claimed.add(p);
    const target = join(this.dir, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, bytes);
    const entry: ManifestFile = { sha256: sha256(bytes), bytes: bytes.length, content_type: contentType };
    this.files[path] = entry;
    if (compress) {
      // In the background, at most ENCODERS at a time, so the build goes on meanwhile;
      // publishBuild waits for every one before it writes the manifest.
      const done = this.encoders.run(async () => {
        // An unchanged file (most of them, on a rebuild) takes the live build's copies, checked
        // against its manifest: reading and hashing them is a fraction of compressing again.
        const live = await (this.liveBuild ??= readLive(this.liveLink));
        if (!(live && (await reuseEncodings(live, path, target, entry)))) await encode(target, bytes, entry);
      });
      done.catch(() => {});
      this.pending.push(done);
    }
  }

  /**
   * Publish a file of the live build again as it is (an output of a stage whose inputs did not
   * change): hard-linked, with its compressed copies, into this build, as builds are never
   * written after they are published. The caller has checked every byte against the live
   * manifest (stage-cache.ts `distrust`).
   */
  async carry(path: string, fromDir: string, entry: ManifestFile): Promise<void> {
    const paths = [path, ...Object.keys(entry.encodings ?? {}).map((c) => path + CODING_SUFFIX[c as ContentCoding])];
    const reserved = [path, ...Object.values(CODING_SUFFIX).map((s) => path + s)];
    for (const p of reserved) if (this.claimed.has(p)) throw new Error(`two outputs claim ${p}`);
    for (const p of reserved) this.claimed.add(p);
    await mkdir(dirname(join(this.dir, path)), { recursive: true });
    for (const p of paths) await link(join(fromDir, p), join(this.dir, p)).catch(() => copyFile(join(fromDir, p), join(this.dir, p)));
    this.files[path] = {
      sha256: entry.sha256,
      bytes: entry.bytes,
      content_type: entry.content_type,
      ...(entry.encodings ? { encodings: { ...entry.encodings } } : {}),
    };
  }

  /** Paths written or reserved, the compressed copies' included (a file may not take a variant's name). */
  private readonly claimed = new Set<string>();
  private readonly encoders = new Limiter(ENCODERS);
  private readonly pending: Promise<void>[] = [];

  /** Wait until every compressed copy is written and in `files` (rejects if one failed). */
  async encoded(): Promise<void> {
    await Promise.all(this.pending);
  }

  /** Wait until no compression is under way, whether it succeeded or not. */
  async settled(): Promise<void> {
    await Promise.allSettled(this.pending);
  }
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Whether bytes read back are those a manifest recorded (their length, then their SHA-256). */
export const matchesManifest = (bytes: Uint8Array, want: { bytes: number; sha256: string }): boolean =>
  bytes.length === want.bytes && sha256(bytes) === want.sha256;

/**
 * Compressions in flight at once: libuv's pool has 4 threads, and the build's own file writes
 * queue on the same pool.
 */
const ENCODERS = 2;

/**
 * Brotli quality 5 and gzip level 6, measured on a real build (782 text files ≥ 1 KiB, 20.6 MB):
 * brotli 5 gives 3.34 MB in 0.34 s of CPU where 8 gives 3.32 MB in 0.69 s and 11 gives 2.73 MB
 * in 24 s; gzip 6 gives 3.94 MB in 0.40 s where 9 gives 3.87 MB in 0.96 s.
 */
const BROTLI_QUALITY = 5;
const GZIP_LEVEL = 6;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
const CODERS: Record<ContentCoding, (b: Buffer) => Promise<Buffer>> = {
  br: (b) =>
    brotli(b, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: b.length,
      },
    }),
  gzip: (b) => gzipped(b, { level: GZIP_LEVEL }),
};

/**
 * Copy the live build's compressed copies of `path` when the live file has the bytes just written
 * (its SHA-256) and each copy still has the SHA-256 its manifest records; false (nothing
 * recorded) otherwise, and the caller compresses. The settings are the same in both builds, so
 * a copy is what compressing again would give.
 */
async function reuseEncodings(live: LiveFiles, path: string, target: string, entry: ManifestFile): Promise<boolean> {
  const was = live.files[path];
  if (!was || was.sha256 !== entry.sha256 || was.bytes !== entry.bytes) return false;
  const recorded = Object.entries(was.encodings ?? {}) as [ContentCoding, { sha256: string; bytes: number }][];
  // A file the live build kept uncompressed (no copy was smaller) is compressed again, not assumed.
  if (recorded.length === 0) return false;
  const copies: [ContentCoding, Buffer][] = [];
  for (const [coding, e] of recorded) {
    const bytes = await readFile(join(live.dir, path + CODING_SUFFIX[coding])).catch(() => null);
    if (!bytes || !matchesManifest(bytes, e)) return false;
    copies.push([coding, bytes]);
  }
  for (const [coding, bytes] of copies) await writeFile(target + CODING_SUFFIX[coding], bytes);
  entry.encodings = Object.fromEntries(recorded);
  return true;
}

/** Write `<file>.br` and `<file>.gz` beside the file, each kept only when it is smaller, and record them in its entry. */
async function encode(target: string, bytes: Buffer, entry: ManifestFile): Promise<void> {
  const encodings: NonNullable<ManifestFile['encodings']> = {};
  for (const coding of Object.keys(CODERS) as ContentCoding[]) {
    const packed = await CODERS[coding](bytes);
    if (packed.length >= bytes.length) continue;
    await writeFile(target + CODING_SUFFIX[coding], packed);
    encodings[coding] = { sha256: sha256(packed), bytes: packed.length };
  }
  if (Object.keys(encodings).length > 0) entry.encodings = encodings;
}

/** Runs at most `max` tasks at a time, in the order they came. */
/** Runs at most `max` tasks at once, the others waiting in order. */
export class Limiter {
  private active = 0;
  private readonly queue: (() => void)[] = [];
  private readonly max: number;
  constructor(max: number) {
    this.max = max;
  }
  async run<T>(task: () => Promise<T>): Promise<T> {
    // A finished task hands its slot to the next in the queue, so `active` never passes `max`.
    if (this.active >= this.max) await new Promise<void>((r) => this.queue.push(r));
    else this.active++;
    try {
      return await task();
    } finally {
      const next = this.queue.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/** A payload as the writer sees it: an envelope whose meta carries the build stamps. */
type Stamped = { meta: { generated_at?: unknown; build?: unknown; sources?: ({ id?: unknown; retrieved_at?: unknown } | null)[] } & Record<string, unknown> };

/** The live build's folder and the files its manifest lists. */
interface LiveFiles {
  dir: string;
  files: BuildManifest['files'];
}

async function readLive(link: string | null): Promise<LiveFiles | null> {
  if (!link) return null;
  try {
    const dir = await realpath(link);
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Partial<BuildManifest>;
    return manifest.files && typeof manifest.files === 'object' ? { dir, files: manifest.files } : null;
  } catch {
    return null;
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
  // Unchanged payloads keep the stamps of the build `current` points to now (the live build).
  return new BuildWriter(dir, buildPaths(outDir).current);
}

/** Drop a build that will not be published. */
export async function discardBuild(writer: BuildWriter): Promise<void> {
  // A compression still writing would put its file back into the removed folder.
  await writer.settled();
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

/** Published builds kept in `<out>/builds/` besides those still served (docs/architecture.md, Disk). */
export const KEEP_BUILDS = 3;

/**
 * Validate, then publish: the manifest is written last, the folder renamed into place and the
 * `current` symlink replaced by rename(2), which is atomic, so a reader sees the old build or
 * the new one and never half of either. Then prunes the older builds (pruneBuilds); returns the
 * published folder and the builds removed.
 */
export async function publishBuild(
  outDir: string,
  writer: BuildWriter,
  manifest: Omit<BuildManifest, 'files'>,
  keep = KEEP_BUILDS,
): Promise<{ dir: string; removed: string[] }> {
  if (writer.problems.length > 0) {
    await discardBuild(writer);
    throw new BuildValidationError(writer.problems);
  }
  await writer.encoded();
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
  const removed = await pruneBuilds(outDir, keep, new Set([manifest.build, ...(replaced ? [replaced] : [])]));
  return { dir: finalDir, removed };
}

/** The build folder name `current` points to, if any. */
async function currentBuild(outDir: string): Promise<string | undefined> {
  return (await readlink(buildPaths(outDir).current).catch(() => undefined))?.split('/').pop();
}

/**
 * Keep the newest `keep` builds; remove the older ones except the current build, those in
 * `protect` (the one just replaced, which a server may not have left yet) and any folder
 * modified within BUILD_IN_USE_MS (published just now, or marked by a server that serves it:
 * api/build-store.ts).
 * Returns the names removed.
 */
export async function pruneBuilds(outDir: string, keep: number, protect: Set<string> = new Set()): Promise<string[]> {
  const paths = buildPaths(outDir);
  const current = await currentBuild(outDir);
  if (current) protect.add(current);
  // Build ids start with their UTC time (20261127T222219Z-…): name order is age order.
  const names = (await readdir(paths.builds)).filter((n) => !n.startsWith('.')).sort();
  const now = Date.now();
  const removed: string[] = [];
  for (const n of names.slice(0, Math.max(0, names.length - keep))) {
    if (protect.has(n)) continue;
    const st = await stat(join(paths.builds, n)).catch(() => null);
    if (!st || now - st.mtimeMs < BUILD_IN_USE_MS) continue;
    await rm(join(paths.builds, n), { recursive: true, force: true });
    removed.push(n);
  }
  return removed;
}
