import { mkdirSync, renameSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Logger } from '../lib/log.ts';

/**
 * How the server process is started: the same for `npm run serve`, `npm start` and the
 * benchmarks, so that what is measured is what runs.
 */

/**
 * V8 flags of the server process. A 4 MB semi-space keeps short-lived buffers cheap; a 256 MB
 * old space makes V8 collect instead of growing: under the 20-way mixed soak RSS plateaus at
 * 230–245 MB instead of 385–388 MB, with a build switched in twice and no error (RELIABILITY.md).
 * The build itself runs without it (its peak is about 0.9 GB).
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=4', '--max-old-space-size=256'] as const;

/**
 * Environment of the server process. glibc's malloc serves a block of up to its mmap threshold
 * from its heap, and raises that threshold (from 128 KiB, up to 32 MiB) each time it frees a
 * larger mapped block; the bytes of computed answers (1–40 KB each, ArrayBuffers held by the
 * response memo until it evicts them and V8 collects them) then interleave with long-lived
 * blocks there, and the heap keeps the pages of the freed ones: after the benchmark's varied
 * queries it held 74–100 MB against 30 MB at start. A fixed threshold of 16 KiB maps each larger
 * block on its own and gives it back when it is freed: 198–228 MB of RSS after the same run
 * against 235–255 MB, at the same throughput (BENCHMARKS.md). Read by glibc when the process
 * starts, so it is set here, for the child, and has no effect on other C libraries.
 */
export const SERVER_ENV = { MALLOC_MMAP_THRESHOLD_: '16384' } as const;

/**
 * The server's code compiled into one JavaScript module, next to its source folder: `entry`
 * (`<repo>/bin/serve.ts`) becomes `<repo>/.server/serve.mjs`, at the same depth, so paths its
 * modules take from `import.meta.dirname` (lib/config.ts's repository root) are the same, and
 * packages are imported from `node_modules` as they are. Run as it is, the TypeScript would be
 * type-stripped module by module at start, which costs the process about 20 MB of RSS for as long
 * as it lives, and time (BENCHMARKS.md). Compiling takes about 0.2 s; it is done each time a
 * supervisor starts, so the module is always the source's. Written to a file of its own, then
 * renamed: processes starting at once never read a half-written module.
 */
export async function compiledServer(entry: string): Promise<string> {
  const out = join(dirname(dirname(entry)), '.server', `${basename(entry, '.ts')}.mjs`);
  mkdirSync(dirname(out), { recursive: true });
  const tmp = `${out}.${process.pid}.tmp`;
  // Loaded here, not at the top: the compiled server contains this module too, and need not load esbuild.
  const esbuild = await import('esbuild');
  try {
    await esbuild.build({
      entryPoints: [entry],
      outfile: tmp,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node24',
      packages: 'external',
      // Its errors come back in the exception, which the supervisor logs.
      logLevel: 'silent',
    });
  } finally {
    // esbuild's service process would otherwise stay beside the supervisor for as long as it runs.
    await esbuild.stop();
  }
  renameSync(tmp, out);
  return out;
}

/**
 * The arguments and environment (the supervisor's `env` with SERVER_ENV) of a supervised server
 * child running `entry`: the compiled module, or, when it cannot be compiled (no esbuild, a
 * read-only checkout), the TypeScript as it is, which works the same and is said in the log.
 */
export async function serverChild(entry: string, env: NodeJS.ProcessEnv, logger: Logger): Promise<{ args: string[]; env: NodeJS.ProcessEnv }> {
  let script = entry;
  try {
    const started = performance.now();
    script = await compiledServer(entry);
    logger.info({ script, compile_ms: Math.round(performance.now() - started) }, `the server runs compiled: ${script}`);
  } catch (err) {
    logger.warn(
      { err },
      `the server could not be compiled (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); it runs from its TypeScript source`,
    );
  }
  return { args: [...process.execArgv, ...SERVER_NODE_FLAGS, script], env: { ...env, ...SERVER_ENV, CHOKEPOINT_SUPERVISED: '1' } };
}
