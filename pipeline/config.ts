import { resolve } from 'node:path';
import { z } from 'zod';

const repoRoot = resolve(import.meta.dirname, '..');

/** Environment of the pipeline, parsed once; a bad value stops the build with a clear message. */
export const PipelineEnv = z.object({
  SOURCES_DIR: z.string().default(resolve(repoRoot, '../shared/sources')),
  DATA_DIR: z.string().default(resolve(repoRoot, 'data')),
  DIST_DIR: z.string().default(resolve(repoRoot, 'dist')),
  PUBLIC_BASE_URL: z
    .url({ message: 'PUBLIC_BASE_URL must be an absolute http(s) URL, e.g. https://chokepoint.example' })
    .default('http://localhost:8787')
    .transform((u) => u.replace(/\/+$/, '')),
});
export type PipelineEnv = z.infer<typeof PipelineEnv>;

export function readPipelineEnv(env: NodeJS.ProcessEnv = process.env): PipelineEnv {
  const parsed = PipelineEnv.safeParse(env);
  if (!parsed.success) {
    throw new Error(`invalid environment:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  }
  return parsed.data;
}

/** '15m', '90s', '1h' → milliseconds. */
export function parseInterval(text: string): number {
  const m = /^(\d+)(s|m|h)$/.exec(text.trim());
  if (!m) throw new Error(`--every takes a duration like 15m, 90s or 1h (got '${text}')`);
  const n = Number(m[1]);
  if (n <= 0) throw new Error('--every must be greater than zero');
  return n * { s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 's' | 'm' | 'h'];
}
