import { resolve } from 'node:path';
import { z } from 'zod';

const repoRoot = resolve(import.meta.dirname, '..');
const limit = (name: string, def: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number of requests per minute (0 turns the limit off)`)
    .default(String(def))
    .transform(Number);

/** The API's environment, parsed once at start-up; a bad value stops it with a clear message. */
export const ApiEnv = z.object({
  PORT: z
    .string()
    .regex(/^\d+$/, 'PORT must be a port number')
    .default('8787')
    .transform(Number)
    .pipe(z.number().int().min(0).max(65535, 'PORT must be at most 65535')),
  HOST: z.string().min(1).default('0.0.0.0'),
  DIST_DIR: z.string().default(resolve(repoRoot, 'dist')),
  PUBLIC_BASE_URL: z
    .url({ message: 'PUBLIC_BASE_URL must be an absolute http(s) URL' })
    .default('http://localhost:8787')
    .transform((u) => u.replace(/\/+$/, '')),
  TRUST_PROXY: z.string().optional(),
  RATE_LIMIT_DATA: limit('RATE_LIMIT_DATA', 60),
  RATE_LIMIT_ASK: limit('RATE_LIMIT_ASK', 10),
  REDIS_URL: z.url({ message: 'REDIS_URL must be a redis:// URL' }).optional(),
});
export type ApiEnv = z.infer<typeof ApiEnv>;

export function readApiEnv(env: NodeJS.ProcessEnv = process.env): ApiEnv {
  const parsed = ApiEnv.safeParse(env);
  if (!parsed.success) throw new Error(`invalid environment:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  return parsed.data;
}
