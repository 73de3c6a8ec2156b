import { resolve } from 'node:path';
import { DEFAULT_RATE_LIMITS } from '../contract/rate-limits.ts';
import { z } from 'zod';
import { DEFAULT_EMBEDDINGS_MODEL, type EmbeddingsConfig } from './search/remote.ts';
import { LOG_LEVELS } from './log.ts';
import { SOURCE_IDS } from '../contract/sources.ts';
import { BULK_BUDGET, DEFAULT_REBUILD_EVERY_MS } from '../contract/limits.ts';

/**
 * The configuration of every process of the project, from the environment: one zod schema of
 * every variable any part reads, each with its description, default and concern (the build, the
 * server, or both), parsed once by the entry points (bin/) and passed down from there. Library
 * code never reads process.env. The README's environment table is generated from this schema
 * (lib/config.test.ts checks it; UPDATE_DOCS=1 rewrites it).
 */

const repoRoot = resolve(import.meta.dirname, '..');

/** Exit code of a process refused at start-up for its configuration (EX_CONFIG): a supervisor does not restart it. */
export const EXIT_CONFIG = 78;

/** Which side of the project a variable configures. */
export type Concern = 'build' | 'serve' | 'both';

export interface VariableDoc {
  concern: Concern;
  /** One line of Markdown for the README table. */
  description: string;
  /** The value used when the variable is unset or empty, as the variable would be written. */
  default?: string;
  /** The default as the docs show it, when that is not `default` itself (a computed or absolute value). */
  shown?: string;
}

/** Requests per minute per client IP of each rate-limit policy unless configured (0 turns one off): the contract's. */
export { DEFAULT_RATE_LIMITS };
export const DEFAULT_SECURITY_CONTACT = 'mailto:security@chokepoint.example';
/** Hosts that mean "this machine" for the default PUBLIC_BASE_URL. */
const LOCAL_HOSTS = new Set(['0.0.0.0', '::', '[::]', 'localhost', '127.0.0.1']);

type Text = z.ZodType<unknown, string>;

/** A variable with a default: the default goes through the same checks as a value that was set. */
function withDefault<T extends Text>(def: string, parse: T, doc: Omit<VariableDoc, 'default'>) {
  return z
    .string()
    .default(def)
    .pipe(parse)
    .meta({ ...doc, default: def });
}

/** A variable that may stay unset (undefined in the configuration). */
function optional<T extends Text>(parse: T, doc: Omit<VariableDoc, 'default'>) {
  return parse.optional().meta({ ...doc });
}

const wholeNumber = (name: string, what: string, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be ${what}`)
    .transform(Number)
    .pipe(z.number().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`));

/** Requests per minute; 0 turns the limit off. */
const perMinute = (name: string) => wholeNumber(name, 'a whole number of requests per minute (0 turns the limit off)', 0);
const atLeastOne = (name: string) =>
  z
    .string()
    .regex(/^[1-9]\d*$/, `${name} must be a whole number ≥ 1`)
    .transform(Number);
const commaList = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
const onOff = (name: string) => z.enum(['on', 'off'], { error: `${name} must be on or off` }).transform((v) => v === 'on');

/** An absolute http(s) URL with a host and nothing after the path; trailing slashes dropped when `trim`. */
function httpUrl(name: string, example: string, trim = true) {
  return z.string().transform((v, ctx) => {
    let u: URL | undefined;
    try {
      u = new URL(v);
    } catch {
      u = undefined;
    }
    const why = !u
      ? 'is not a URL'
      : u.protocol !== 'http:' && u.protocol !== 'https:'
        ? `has the scheme ${u.protocol} (only http: and https:)`
        : !u.hostname
          ? 'has no host'
          : u.username || u.password
            ? 'carries credentials'
            : u.search || u.hash || v.includes('?') || v.includes('#')
              ? 'has a query or fragment'
              : null;
    if (why) {
      ctx.addIssue({ code: 'custom', message: `${name} must be an absolute http(s) URL, e.g. ${example} (the value ${why})` });
      return z.NEVER;
    }
    return trim ? v.replace(/\/+$/, '') : v;
  });
}

/**
 * The forms the `redis` client accepts (its RedisClient.parseURL), a host required:
 * redis[s]://[user[:password]@]host[:port][/db] and unix://[user[:password]@]/path/to/socket[?db=N].
 */
export function redisUrlProblem(v: string): string | null {
  if (v.startsWith('unix:')) {
    const m = /^unix:\/\/(?:[^:@/]*(?::[^@/]*)?@)?(\/[^?#]*)(?:\?([^#]*))?(?:#.*)?$/.exec(v);
    if (!m || m[1] === '/') return 'a unix socket is written unix:///path/to/redis.sock';
    const db = m[2] ? new URLSearchParams(m[2]).get('db') : null;
    return db !== null && !/^\d+$/.test(db) ? 'the db of a unix socket URL is a number (?db=0)' : null;
  }
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return 'it is not a URL';
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') return `the scheme is ${u.protocol}, not redis:, rediss: or unix:`;
  if (!u.hostname) return 'it has no host';
  if (!/^\/?\d*$/.test(u.pathname)) return 'the path is a database number (/0)';
  return null;
}

/** Every environment variable of the project, in the order of the README table. */
export const ConfigShape = z.object({
  SOURCES_DIR: withDefault(resolve(repoRoot, '../shared/sources'), z.string(), {
    concern: 'build',
    shown: '`../shared/sources`',
    description: 'the local mirror of the sources, one folder per source',
  }),
  DATA_DIR: withDefault(resolve(repoRoot, 'data'), z.string(), {
    concern: 'build',
    shown: '`data/`',
    description: 'the editorial content and the commodity catalogue',
  }),
  DIST_DIR: withDefault(resolve(repoRoot, 'dist'), z.string(), {
    concern: 'both',
    shown: '`dist/`',
    description: 'builds (`dist/builds/<id>`), the live one at `dist/current`, source snapshots',
  }),
  PUBLIC_BASE_URL: optional(httpUrl('PUBLIC_BASE_URL', 'https://chokepoint.example'), {
    concern: 'both',
    shown: '`http://localhost:<PORT>` (`http://<HOST>:<PORT>` when `HOST` names another machine)',
    description: 'the public address (http or https); used in attribution, links, OpenAPI and discovery files',
  }),
  PORT: withDefault('8787', wholeNumber('PORT', 'a port number', 0, 65535), {
    concern: 'both',
    description: 'port to listen on; also the port of the default `PUBLIC_BASE_URL`',
  }),
  HOST: withDefault('0.0.0.0', z.string(), { concern: 'both', description: 'interface to listen on; also the host of the default `PUBLIC_BASE_URL`' }),
  DATA_SOURCE: withDefault('mirror', z.enum(['mirror', 'live'], { error: 'DATA_SOURCE must be mirror or live' }), {
    concern: 'build',
    description:
      '`mirror` reads the embedded mirror (`SOURCES_DIR`); `live` fetches each source from its publisher when its cadence says a new release can exist, as `--download` does ([docs/freshness.md](docs/freshness.md#live-fetching))',
  }),
  EIA_API_KEY: optional(z.string(), { concern: 'build', description: 'EIA API v2 key (EIA prices, Henry Hub and weekly petroleum; live only)' }),
  AGSI_API_KEY: optional(z.string(), { concern: 'build', description: 'GIE AGSI+ API key (gas storage; live only)' }),
  FETCH_TIMEOUT_MS: withDefault('60000', atLeastOne('FETCH_TIMEOUT_MS'), {
    concern: 'build',
    description: 'live only: one request to a publisher (headers and body) may take this long before it is abandoned and retried',
  }),
  FETCH_DEADLINE_MS: withDefault('600000', atLeastOne('FETCH_DEADLINE_MS'), {
    concern: 'build',
    description:
      'live only: all the requests of one source; past it the source fails (its last good snapshot is served, marked stale) and the build publishes without waiting',
  }),
  FETCH_MAX_MB: withDefault('256', atLeastOne('FETCH_MAX_MB'), {
    concern: 'build',
    description: 'live only: an answer larger than this many MiB is refused',
  }),
  WORLDBANK_CMO_URL: optional(httpUrl('WORLDBANK_CMO_URL', 'https://thedocs.worldbank.org/en/doc/…/related/CMO-Historical-Data-Monthly.xlsx', false), {
    concern: 'build',
    description:
      "address of the World Bank's `CMO-Historical-Data-Monthly.xlsx`, instead of the one the commodity-markets page links (live only; the address changes with editions)",
  }),
  EI_WORKBOOK_URL: optional(httpUrl('EI_WORKBOOK_URL', 'https://www.energyinst.org/__data/assets/file/…/EI-Stats-Review-ALL-data.xlsx', false), {
    concern: 'build',
    description:
      "address of the Energy Institute's current `EI-Stats-Review-ALL-data.xlsx`, instead of the one its downloads page links (live only; the address changes with editions)",
  }),
  REBUILD_EVERY: withDefault(
    `${DEFAULT_REBUILD_EVERY_MS / 60_000}m`,
    z.string().transform((v, ctx) => {
      if (v === 'off') return null;
      const ms = intervalMs(v);
      if (ms === null) {
        ctx.addIssue({ code: 'custom', message: `REBUILD_EVERY must be a duration like 90s, 15m or 1h, or off` });
        return z.NEVER;
      }
      return { text: v, ms };
    }),
    { concern: 'build', description: '`npm start` only: rebuild interval (`90s`, `15m`, `1h`), or `off`' },
  ),
  TRUST_PROXY: optional(z.string(), {
    concern: 'serve',
    description:
      'how to find the client IP behind proxies: unset = socket address; a number of hops of `X-Forwarded-For` (only with `TRUSTED_PROXIES`); a list of proxy addresses/CIDRs; `header:CF-Connecting-IP` ([docs/rate-limits.md](docs/rate-limits.md))',
  }),
  TRUSTED_PROXIES: optional(z.string(), {
    concern: 'serve',
    description:
      'comma-separated addresses/CIDRs of the proxies in front of the API (`10.0.0.0/8,192.0.2.7`, also `loopback`, `uniquelocal`); required with a hop count, gates `header:` when set; these peers are exempt from the per-IP connection cap',
  }),
  RATE_LIMIT_DATA: withDefault(String(DEFAULT_RATE_LIMITS.data), perMinute('RATE_LIMIT_DATA'), {
    concern: 'both',
    description:
      'requests per minute per IP on the data routes and MCP tool calls (`0` = off); the build publishes it in the OpenAPI document, llms.txt and the MCP server card',
  }),
  RATE_LIMIT_ASK: withDefault(String(DEFAULT_RATE_LIMITS.ask), perMinute('RATE_LIMIT_ASK'), {
    concern: 'both',
    description: 'requests per minute per IP on `POST /v1/ask` (`0` = off); published like `RATE_LIMIT_DATA`',
  }),
  RATE_LIMIT_BULK_MB: withDefault(
    String(BULK_BUDGET.megabytesPerMinute),
    wholeNumber('RATE_LIMIT_BULK_MB', 'a whole number of megabytes per minute (0 turns the limit off)', 0),
    {
      concern: 'serve',
      description:
        'megabytes per minute per IP the bulk downloads (`/bulk/*`, `/vintages/*`) may send; past it 429 with `Retry-After` ([docs/rate-limits.md](docs/rate-limits.md#bulk-downloads); `0` = off)',
    },
  ),
  REDIS_URL: optional(
    z.string().refine((v) => redisUrlProblem(v) === null, {
      error: (i) => `REDIS_URL must be redis://host[:port][/db], rediss://… or unix:///path/to/socket (${redisUrlProblem(String(i.input))})`,
    }),
    { concern: 'serve', description: 'share rate-limit counters between instances through Redis (`redis://`, `rediss://` or `unix:///path`)' },
  ),
  RATE_LIMIT_INSTANCES: withDefault('1', atLeastOne('RATE_LIMIT_INSTANCES'), {
    concern: 'serve',
    description: 'instances sharing `REDIS_URL`; during a Redis outage each admits the limit divided by this (at least 1)',
  }),
  MAX_CONNECTIONS: withDefault('4096', atLeastOne('MAX_CONNECTIONS'), {
    concern: 'serve',
    description: 'connections open at once, all clients; past it a new connection gets a 503 problem and is closed',
  }),
  MAX_CONNECTIONS_PER_IP: withDefault('64', atLeastOne('MAX_CONNECTIONS_PER_IP'), {
    concern: 'serve',
    description: 'connections open at once from one client address (IPv6: its /64); past it a 429 problem and closed; trusted proxies are exempt',
  }),
  HEADERS_TIMEOUT_MS: withDefault('10000', atLeastOne('HEADERS_TIMEOUT_MS'), {
    concern: 'serve',
    description: 'time a client has to send its request line and headers (silent connections are answered 408 and closed)',
  }),
  REQUEST_TIMEOUT_MS: withDefault('30000', atLeastOne('REQUEST_TIMEOUT_MS'), {
    concern: 'serve',
    description: 'time a client has to send its whole request (bodies are at most 64 KiB); at least `HEADERS_TIMEOUT_MS`',
  }),
  KEEP_ALIVE_TIMEOUT_MS: withDefault('5000', atLeastOne('KEEP_ALIVE_TIMEOUT_MS'), {
    concern: 'serve',
    description: 'an idle keep-alive connection is closed after this',
  }),
  SUPERVISE: withDefault('on', onOff('SUPERVISE'), {
    concern: 'serve',
    description:
      "`off` runs the server of `npm run serve` in the process itself, without the supervisor that restarts it when it dies, and as that process was started: from the TypeScript source, without the server's V8 flags and glibc setting (`api/server-process.ts`)",
  }),
  CHOKEPOINT_SUPERVISED: optional(
    z.enum(['0', '1'], { error: 'CHOKEPOINT_SUPERVISED must be 1 or unset' }).transform((v) => v === '1'),
    {
      concern: 'serve',
      description: 'set to `1` by the supervisor for the server it runs (not to be set by hand)',
    },
  ),
  FAST_PATH: withDefault('on', onOff('FAST_PATH'), {
    concern: 'serve',
    description:
      'a request for a build file or a memoised answer the app has sent before is answered by the Node listener from those bytes, with the same headers, negotiation and rate limit ([docs/architecture.md](docs/architecture.md#a-request)); `off` sends every request through the Hono app',
  }),
  RESPONSE_MEMO_MB: withDefault('16', atLeastOne('RESPONSE_MEMO_MB'), {
    concern: 'serve',
    description:
      'memory kept per build for the bytes of parameterised answers already computed (least recently used out first); a bigger memo answers more repeated queries from bytes and costs this much RSS and more',
  }),
  FILE_CACHE_MB: withDefault('8', atLeastOne('FILE_CACHE_MB'), {
    concern: 'serve',
    description:
      "memory kept for the site's pages and the bulk downloads, which stay on disk and are read when asked (most recently used kept); the API's own files are always in memory",
  }),
  METRICS: withDefault('loopback', z.enum(['off', 'loopback', 'token'], { error: 'METRICS must be off, loopback or token' }), {
    concern: 'serve',
    description:
      'who may read `GET /metrics`: `loopback` (this machine only: the client address after `TRUST_PROXY` is 127.0.0.0/8 or ::1; others get 403), `token` (`Authorization: Bearer <METRICS_TOKEN>`; others get 401), `off` (not served)',
  }),
  METRICS_TOKEN: optional(z.string().min(16, 'METRICS_TOKEN must have at least 16 characters'), {
    concern: 'serve',
    description: 'the bearer token of `METRICS=token` (at least 16 characters)',
  }),
  LOG_LEVEL: withDefault('info', z.enum(LOG_LEVELS, { error: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` }), {
    concern: 'serve',
    description:
      'level of the structured logs (JSON lines on stdout) of the server, its supervisor and `npm start`: one `request` line per request at `info`; `silent` turns them off',
  }),
  MCP_MAX_SESSIONS: withDefault('100', atLeastOne('MCP_MAX_SESSIONS'), {
    concern: 'serve',
    description: 'MCP sessions open at once, all clients ([docs/mcp.md](docs/mcp.md))',
  }),
  MCP_MAX_SESSIONS_PER_IP: withDefault('10', atLeastOne('MCP_MAX_SESSIONS_PER_IP'), {
    concern: 'serve',
    description: 'MCP sessions open at once per client IP',
  }),
  MCP_SESSION_IDLE_SECONDS: withDefault('300', atLeastOne('MCP_SESSION_IDLE_SECONDS'), {
    concern: 'serve',
    description: 'an MCP session without a message for this long is closed',
  }),
  MCP_ALLOWED_HOSTS: withDefault('', commaList, {
    concern: 'serve',
    shown: 'host of `PUBLIC_BASE_URL`, localhost forms',
    description: '`Host` values accepted on `/mcp` (comma-separated; DNS-rebinding protection)',
  }),
  MCP_ALLOWED_ORIGINS: withDefault('', commaList, {
    concern: 'serve',
    shown: 'origin of `PUBLIC_BASE_URL`, loopback origins',
    description: '`Origin` values accepted on `/mcp` (comma-separated)',
  }),
  OPENAI_API_KEY: optional(z.string(), {
    concern: 'serve',
    description: 'turns on the model path of `/v1/ask` (an OpenAI-compatible chat API); unset = the grounded answerer only ([docs/ask.md](docs/ask.md))',
  }),
  OPENAI_BASE_URL: optional(httpUrl('OPENAI_BASE_URL', 'https://api.openai.com/v1', false), {
    concern: 'serve',
    shown: 'the OpenAI API',
    description: 'base URL of an OpenAI-compatible API (http or https)',
  }),
  OPENAI_MODEL: withDefault('gpt-4o-mini', z.string(), { concern: 'serve', description: 'model for `/v1/ask`' }),
  OPENAI_TIMEOUT_MS: withDefault('10000', wholeNumber('OPENAI_TIMEOUT_MS', 'a whole number of milliseconds', 100, 60_000), {
    concern: 'serve',
    description: 'after this the grounded answer is served instead (100–60000)',
  }),
  EMBEDDINGS_BASE_URL: optional(httpUrl('EMBEDDINGS_BASE_URL', 'https://api.openai.com/v1'), {
    concern: 'both',
    description:
      'an OpenAI-compatible embeddings endpoint replacing the local word vectors of search, for the documents (build) and the queries (server) ([docs/search.md](docs/search.md))',
  }),
  EMBEDDINGS_API_KEY: optional(z.string(), { concern: 'both', description: 'key for `EMBEDDINGS_BASE_URL`' }),
  EMBEDDINGS_MODEL: withDefault(DEFAULT_EMBEDDINGS_MODEL, z.string(), { concern: 'both', description: 'embeddings model at `EMBEDDINGS_BASE_URL`' }),
  EMBEDDINGS_TIMEOUT_MS: withDefault('2000', atLeastOne('EMBEDDINGS_TIMEOUT_MS'), {
    concern: 'both',
    description: 'timeout of one call to `EMBEDDINGS_BASE_URL`',
  }),
  SECURITY_CONTACT: withDefault(DEFAULT_SECURITY_CONTACT, commaList, {
    concern: 'build',
    description: '`Contact:` of `/.well-known/security.txt` (comma-separated; a bare e-mail address gets `mailto:`)',
  }),
  CHOKEPOINT_SITE: withDefault('on', onOff('CHOKEPOINT_SITE'), {
    concern: 'build',
    description: '`off` skips the website stage (tests that rebuild many times)',
  }),
  SITE_LOG: withDefault('warn', z.enum(['debug', 'info', 'warn', 'error', 'silent'], { error: 'SITE_LOG must be debug, info, warn, error or silent' }), {
    concern: 'build',
    description: 'log level of the website stage (Astro)',
  }),
});

export type VariableName = keyof typeof ConfigShape.shape;
type Parsed = z.output<typeof ConfigShape>;
/** The parsed configuration: every variable by its name, PUBLIC_BASE_URL resolved, the PUBLISHER_URL_* overrides by source id. */
export type Config = Omit<Parsed, 'PUBLIC_BASE_URL'> & { PUBLIC_BASE_URL: string; PUBLISHER_URLS: Record<string, string> };

/** The variables that stand in for a publisher's address, one per source: `PUBLISHER_URL_` + the id upper-cased, non-alphanumerics as `_`. */
export const PUBLISHER_URL_PREFIX = 'PUBLISHER_URL_';
export const publisherUrlVariable = (sourceId: string) => PUBLISHER_URL_PREFIX + sourceId.toUpperCase().replace(/[^A-Z0-9]/g, '_');

/** PUBLISHER_URL_* of the environment by source id; an unknown source or a URL with more than an origin is a problem. */
function publisherUrls(env: Env, problems: { variable: string; message: string }[]): Record<string, string> {
  const byVariable = new Map(SOURCE_IDS.map((id) => [publisherUrlVariable(id), id]));
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith(PUBLISHER_URL_PREFIX) || value === undefined || value === '') continue;
    const id = byVariable.get(name);
    if (!id) {
      problems.push({ variable: name, message: `${name} names no source (known: ${[...byVariable.keys()].join(', ')})` });
      continue;
    }
    const parsed = httpUrl(name, 'http://mirror.internal:8080').safeParse(value);
    const path = parsed.success ? new URL(parsed.data).pathname : '/';
    if (!parsed.success || path !== '/') {
      const why = parsed.success ? `it has the path ${path}; requests keep their own path` : parsed.error.issues[0]!.message;
      problems.push({ variable: name, message: `${name} must be a scheme, host and optional port only, e.g. http://mirror.internal:8080 (${why})` });
      continue;
    }
    out[id] = new URL(parsed.data).origin;
  }
  return out;
}

/** The documentation of each variable, from the schema. */
export function variableDocs(): [VariableName, VariableDoc][] {
  return (Object.entries(ConfigShape.shape) as [VariableName, z.ZodType][]).map(([name, schema]) => [name, schema.meta() as unknown as VariableDoc]);
}

/** PUBLIC_BASE_URL when it is unset: this machine's address on PORT. */
export function defaultBaseUrl(host: string, port: number): string {
  if (LOCAL_HOSTS.has(host)) return `http://localhost:${port}`;
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
}

/** A configuration refused: `problems` names each bad variable with what is wrong. */
export class ConfigError extends Error {
  readonly problems: { variable: string; message: string }[];
  constructor(problems: { variable: string; message: string }[]) {
    super(`invalid environment:\n${problems.map((p) => `  ${p.message.startsWith(p.variable) ? p.message : `${p.variable}: ${p.message}`}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

type Env = Readonly<Record<string, string | undefined>>;

export interface ReadConfigOptions {
  /**
   * Checks the schema cannot make here (they belong to a layer above, e.g. TRUST_PROXY, parsed by
   * the API): each gets the environment as given (empty values as unset) and throws to refuse
   * it; its message joins the others in the one error.
   */
  checks?: readonly ((env: Env) => void)[];
}

/**
 * Parse the environment once (an empty value counts as unset). Throws one ConfigError listing
 * every variable that is wrong.
 */
export function readConfig(env: Env = process.env, options: ReadConfigOptions = {}): Config {
  const given: Record<string, string | undefined> = {};
  for (const name of Object.keys(ConfigShape.shape)) given[name] = env[name] === '' ? undefined : env[name];
  const problems: { variable: string; message: string }[] = [];
  const parsed = ConfigShape.safeParse(given);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const variable = String(issue.path[0] ?? '(environment)');
      if (!problems.some((p) => p.variable === variable)) problems.push({ variable, message: issue.message });
    }
  }
  for (const check of options.checks ?? []) {
    try {
      check(given);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const variable = /\b([A-Z][A-Z0-9_]{2,})\b/.exec(message)?.[1] ?? '(environment)';
      problems.push({ variable, message });
    }
  }
  if (parsed.success && parsed.data.HEADERS_TIMEOUT_MS > parsed.data.REQUEST_TIMEOUT_MS) {
    problems.push({ variable: 'HEADERS_TIMEOUT_MS', message: 'HEADERS_TIMEOUT_MS must not be larger than REQUEST_TIMEOUT_MS' });
  }
  if (parsed.success && parsed.data.METRICS === 'token' && !parsed.data.METRICS_TOKEN) {
    problems.push({ variable: 'METRICS_TOKEN', message: 'METRICS=token needs METRICS_TOKEN (at least 16 characters)' });
  }
  const publishers = publisherUrls(env, problems);
  if (!parsed.success || problems.length) throw new ConfigError(problems);
  const c = parsed.data;
  return { ...c, PUBLIC_BASE_URL: c.PUBLIC_BASE_URL ?? defaultBaseUrl(c.HOST, c.PORT), PUBLISHER_URLS: publishers };
}

/** '15m', '90s', '1h' → milliseconds; null for anything else (zero included). */
function intervalMs(text: string): number | null {
  const m = /^(\d+)(s|m|h)$/.exec(text.trim());
  if (!m || Number(m[1]) <= 0) return null;
  return Number(m[1]) * { s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 's' | 'm' | 'h'];
}

/** A command-line duration ('15m', '90s', '1h') → milliseconds; `option` names it in the error. */
export function parseInterval(text: string, option = '--every'): number {
  const m = /^(\d+)(s|m|h)$/.exec(text.trim());
  if (!m) throw new Error(`${option} takes a duration like 15m, 90s or 1h (got '${text}')`);
  const ms = intervalMs(text);
  if (ms === null) throw new Error(`${option} must be greater than zero`);
  return ms;
}

/** The OpenAI-compatible embeddings endpoint of search, or null for the local word vectors. */
export function embeddingsOf(
  c: Pick<Config, 'EMBEDDINGS_BASE_URL' | 'EMBEDDINGS_API_KEY' | 'EMBEDDINGS_MODEL' | 'EMBEDDINGS_TIMEOUT_MS'>,
): EmbeddingsConfig | null {
  if (!c.EMBEDDINGS_BASE_URL) return null;
  return { baseUrl: c.EMBEDDINGS_BASE_URL, apiKey: c.EMBEDDINGS_API_KEY, model: c.EMBEDDINGS_MODEL, timeoutMs: c.EMBEDDINGS_TIMEOUT_MS };
}

/**
 * What a build takes from the configuration (pipeline/build.ts BuildOptions, less what the
 * command line adds): where to read and write, the published address, rate limits and rebuild interval, the
 * publishers' API keys, live fetching (DATA_SOURCE and its limits, PUBLISHER_URL_*), the
 * embeddings endpoint, the website switches, the security contact.
 */
export function buildSettings(c: Config) {
  return {
    sourcesDir: c.SOURCES_DIR,
    dataDir: c.DATA_DIR,
    outDir: c.DIST_DIR,
    baseUrl: c.PUBLIC_BASE_URL,
    rateLimits: { data: c.RATE_LIMIT_DATA, ask: c.RATE_LIMIT_ASK },
    // Stated by the site, the OpenAPI document and llms.txt ("rebuilt every hour"); null: not rebuilt on a schedule.
    rebuildEveryMs: c.REBUILD_EVERY?.ms ?? null,
    sourceKeys: { eia: c.EIA_API_KEY, agsi: c.AGSI_API_KEY, worldbankCmoUrl: c.WORLDBANK_CMO_URL, eiWorkbookUrl: c.EI_WORKBOOK_URL },
    download: c.DATA_SOURCE === 'live',
    live: {
      policy: { timeoutMs: c.FETCH_TIMEOUT_MS, deadlineMs: c.FETCH_DEADLINE_MS, maxBytes: c.FETCH_MAX_MB * 2 ** 20 },
      publisherUrls: c.PUBLISHER_URLS,
    },
    embeddings: embeddingsOf(c),
    site: { skip: !c.CHOKEPOINT_SITE, logLevel: c.SITE_LOG },
    securityContact: c.SECURITY_CONTACT,
  };
}

/** The README's environment table, generated from the schema. */
export function environmentTable(): string {
  const who: Record<Concern, string> = { build: 'build', serve: 'serve', both: 'build, serve' };
  const cell = (s: string) => s.replaceAll('|', '\\|');
  const rows = variableDocs().map(([name, d]) => {
    const def = d.shown ?? (d.default === undefined ? 'unset' : d.default === '' ? 'empty' : `\`${d.default}\``);
    return `| \`${name}\` | ${who[d.concern]} | ${cell(def)} | ${cell(d.description)} |`;
  });
  const ids = SOURCE_IDS.map((id) => `\`${publisherUrlVariable(id)}\``);
  rows.push(
    `| \`PUBLISHER_URL_<SOURCE_ID>\` | build | unset | live only: replaces the scheme, host and port of every request one source makes, path and query unchanged (a corporate mirror, a proxy, a test server); one variable per source, the id upper-cased with non-alphanumerics as \`_\`: ${ids.join(', ')} |`,
  );
  return [
    'Generated from lib/config.ts (`UPDATE_DOCS=1 npx vitest run lib/config.test.ts` rewrites it). An empty value counts as unset; a bad value stops the process at start-up with one message naming every bad variable (exit status 78).',
    '',
    '| variable | used by | default | meaning |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
}
