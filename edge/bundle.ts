import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

export const EDGE_DIR = import.meta.dirname;
export const WORKER_ENTRY = join(EDGE_DIR, 'worker.ts');

export interface Bundle {
  path: string;
  bytes: number;
  /** Gzipped, as Cloudflare measures a script against its size limit (3 MB free, 10 MB paid). */
  gzipBytes: number;
}

/**
 * Bundle the worker (edge/worker.ts and everything it imports: the Hono app, MCP SDK, Orama, zod)
 * into one ES module for workerd. Node built-ins stay imports (`nodejs_compat` provides the few
 * the MCP SDK reaches); the app itself imports none (api/edge.test.ts).
 */
export async function bundleWorker(outFile: string): Promise<Bundle> {
  const path = resolve(outFile);
  await build({
    entryPoints: [WORKER_ENTRY],
    outfile: path,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2023',
    mainFields: ['module', 'main'],
    conditions: ['workerd', 'worker', 'import'],
    external: ['node:*'],
    minify: true,
    sourcemap: false,
    logLevel: 'error',
    absWorkingDir: dirname(EDGE_DIR),
  });
  const bytes = await readFile(path);
  return { path, bytes: bytes.byteLength, gzipBytes: gzipSync(bytes, { level: 9 }).byteLength };
}
