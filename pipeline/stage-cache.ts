import { createHash } from 'node:crypto';
import { readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { CODING_SUFFIX, type BuildManifest, type ContentCoding } from '../contract/manifest.ts';
import { Limiter, matchesManifest, type BuildWriter } from './publish.ts';

/** Files read or linked at once when a stage is reused (libuv's pool has 4 threads; more queue there). */
const IO_AT_ONCE = 8;

/** The live build a stage may reuse from: its folder and manifest, when there is one. */
export interface PreviousBuild {
  dir: string;
  manifest: BuildManifest;
}

export async function previousBuild(currentLink: string): Promise<PreviousBuild | null> {
  try {
    const dir = await realpath(currentLink);
    return { dir, manifest: JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as BuildManifest };
  } catch {
    return null;
  }
}

export const keyOf = (...parts: readonly unknown[]) => createHash('sha256').update(JSON.stringify(parts)).digest('hex');

/**
 * Why the previous build's outputs under `prefix` cannot be trusted, or null when every one is
 * there with the size and SHA-256 its manifest recorded. A build folder damaged by a crash or
 * a concurrent build (issue 20, finding 4) must not be copied into every build after it.
 */
export async function distrust(prev: PreviousBuild, prefix: string): Promise<string | null> {
  const paths = Object.keys(prev.manifest.files).filter((p) => p.startsWith(prefix));
  if (paths.length === 0) return `the live build has no ${prefix} outputs`;
  // The compressed copies are carried too, so they are checked as well.
  const files = paths.flatMap((p) => {
    const entry = prev.manifest.files[p]!;
    return [[p, entry] as const, ...Object.entries(entry.encodings ?? {}).map(([c, e]) => [p + CODING_SUFFIX[c as ContentCoding], e] as const)];
  });
  const limit = new Limiter(IO_AT_ONCE);
  const problems = await Promise.all(
    files.map(([file, want]) =>
      limit.run(async () => {
        const bytes = await readFile(join(prev.dir, file)).catch(() => null);
        if (!bytes) return `${file} is missing from the live build`;
        if (!matchesManifest(bytes, want)) return `${file} in the live build does not match its manifest`;
        return null;
      }),
    ),
  );
  return problems.find((p) => p !== null) ?? null;
}

/**
 * Run a stage, or, when its input key equals the one the live build recorded and that build's
 * outputs under `prefix` check out against its manifest, copy them as they are (a stage's outputs
 * never name the build that made them). A checksum decides what to rebuild, so a rebuild with
 * nothing changed stays fast.
 */
export async function cachedStage<R>(x: {
  writer: BuildWriter;
  stages: Record<string, string>;
  name: string;
  key: string;
  prefix: string;
  previous: PreviousBuild | null;
  run: () => Promise<R>;
}): Promise<{ reused: true; files: number } | { reused: false; result: R; distrusted: string | null }> {
  x.stages[x.name] = x.key;
  const prev = x.previous;
  let distrusted: string | null = null;
  if (prev && prev.manifest.stages?.[x.name] === x.key) {
    // Checked in full before the first copy: a half-copied stage could not be run again (a
    // path written twice is an error).
    distrusted = await distrust(prev, x.prefix);
    if (!distrusted) {
      const paths = Object.keys(prev.manifest.files).filter((p) => p.startsWith(x.prefix));
      const limit = new Limiter(IO_AT_ONCE);
      await Promise.all(paths.map((p) => limit.run(() => x.writer.carry(p, prev.dir, prev.manifest.files[p]!))));
      return { reused: true, files: paths.length };
    }
  }
  try {
    return { reused: false, result: await x.run(), distrusted };
  } catch (err) {
    // No key for a stage that did not run to the end: nothing a later build could reuse.
    delete x.stages[x.name];
    throw err;
  }
}
