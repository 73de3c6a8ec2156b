import { resolve } from 'node:path';
import { z } from 'zod';

const repoRoot = resolve(import.meta.dirname, '..');
const limit = (name: string, def: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number of requests per minute (0 turns the limit off)`)
    .default(String(def))
    .transform(Number);

const count = (name: string, def: number) =>
  z
    .string()
    .regex(/^[1-9]\d*$/, `${name} must be a whole number ≥ 1`)
    .default(String(def))
    .transform(Number);
const list = z
  .string()
  .optional()
  .transform((v) => (v ?? '').split(',').map((s) => s.trim()).filter(Boolean));

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
  /** Comma-separated addresses/CIDRs of the proxies in front of the API; required with a TRUST_PROXY hop count. */
  TRUSTED_PROXIES: z.string().optional(),
  RATE_LIMIT_DATA: limit('RATE_LIMIT_DATA', 60),
  RATE_LIMIT_ASK: limit('RATE_LIMIT_ASK', 10),
  REDIS_URL: z.url({ message: 'REDIS_URL must be a redis:// URL' }).optional(),
  /** Instances sharing REDIS_URL: during a Redis outage each one admits the limit divided by this. */
  RATE_LIMIT_INSTANCES: count('RATE_LIMIT_INSTANCES', 1),
  /** Connections open at once, all clients together (past it: 503 and closed). */
  MAX_CONNECTIONS: count('MAX_CONNECTIONS', 4096),
  /** Connections open at once from one client address, IPv6 by /64 (past it: 429 and closed); trusted proxies are exempt. */
  MAX_CONNECTIONS_PER_IP: count('MAX_CONNECTIONS_PER_IP', 64),
  /** Time a client has to send its request line and headers. */
  HEADERS_TIMEOUT_MS: count('HEADERS_TIMEOUT_MS', 10_000),
  /** Time a client has to send its whole request (bodies are at most 64 KiB). */
  REQUEST_TIMEOUT_MS: count('REQUEST_TIMEOUT_MS', 30_000),
  /** How long an idle keep-alive connection is kept after a response. */
  KEEP_ALIVE_TIMEOUT_MS: count('KEEP_ALIVE_TIMEOUT_MS', 5_000),
  MCP_MAX_SESSIONS: count('MCP_MAX_SESSIONS', 100),
  MCP_MAX_SESSIONS_PER_IP: count('MCP_MAX_SESSIONS_PER_IP', 10),
  MCP_SESSION_IDLE_SECONDS: count('MCP_SESSION_IDLE_SECONDS', 300),
  /** Comma-separated Host values for /mcp; default: the PUBLIC_BASE_URL host, localhost, 127.0.0.1, [::1] (any port). */
  MCP_ALLOWED_HOSTS: list,
  /** Comma-separated origins for /mcp; default: the PUBLIC_BASE_URL origin and the loopback ones (http and https, any port). */
  MCP_ALLOWED_ORIGINS: list,
  /** /v1/ask: with a key, the model writes the answer from the retrieved records (docs/ask.md). */
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.url({ message: 'OPENAI_BASE_URL must be an absolute http(s) URL, e.g. https://api.openai.com/v1' }).optional(),
  OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini'),
  OPENAI_TIMEOUT_MS: z
    .string()
    .regex(/^\d+$/, 'OPENAI_TIMEOUT_MS must be a whole number of milliseconds')
    .default('4000')
    .transform(Number)
    .pipe(z.number().int().min(100, 'OPENAI_TIMEOUT_MS must be at least 100').max(60000, 'OPENAI_TIMEOUT_MS must be at most 60000')),
});
export type ApiEnv = z.infer<typeof ApiEnv>;

/** Exit code of a process refused at start-up for its configuration (EX_CONFIG): a supervisor does not restart it. */
export const EXIT_CONFIG = 78;

export function readApiEnv(env: NodeJS.ProcessEnv = process.env): ApiEnv {
  const parsed = ApiEnv.safeParse(env);
  if (!parsed.success) throw new Error(`invalid environment:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  if (parsed.data.HEADERS_TIMEOUT_MS > parsed.data.REQUEST_TIMEOUT_MS) throw new Error('invalid environment:\n  HEADERS_TIMEOUT_MS must not be larger than REQUEST_TIMEOUT_MS');
  return parsed.data;
}
