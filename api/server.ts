import { getRequestListener, type ServerType } from '@hono/node-server';
import { createLogger, type Logger } from '../lib/log.ts';
import { createApp, type AppOptions } from './app.ts';
import { llmConfigOf, type AskOptions } from './ask/index.ts';
import { NodeBuildStore } from './build-store.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { clientIp, describeTrustProxy, parseTrustProxy, trustedBy } from './client-ip.ts';
import {
  answerProblem,
  CONNECTIONS_CHECKING_INTERVAL_MS,
  guardConnections,
  headerProblem,
  problemResponseOf,
  requestErrorProblem,
  type ConnectionStats,
} from './connections.ts';
import { REQUEST_ID_HEADER } from '../contract/http.ts';
import { embeddingsOf, type Config } from '../lib/config.ts';
import { commonHeaders } from './headers.ts';
import { McpEndpoint, type McpOptions } from './mcp/http.ts';
import { DiskVintages, mountVintages } from './vintages.ts';
import { createRateLimits, rateKey, type RateLimits } from './rate-limit.ts';
import { ServerMetrics } from './metrics.ts';
import { metricsGate } from './metrics-access.ts';
import { bulkBudget } from './bulk-budget.ts';
import { fastPath } from './fast-path.ts';
import { clientOf, observedServer, type Observed } from './observe.ts';
import { pipelining, type PipeliningStats } from './pipelining.ts';

export interface RunningServer {
  server: ServerType;
  port: number;
  store: NodeBuildStore;
  limits: RateLimits;
  mcp: McpEndpoint;
  metrics: ServerMetrics;
  /** Open connections, clients holding them, connections refused by each cap. */
  connections(): ConnectionStats;
  /** Requests waiting for their turn on their connection, connections refused for too many. */
  pipelining(): PipeliningStats;
  close(): Promise<void>;
}

/** Serve the current build (and every build the pipeline switches in after it) on one port. */
/** `mcpOptions`: MCP limits the environment does not carry (tests set small flow limits). */
/** `logger`: where the structured log goes (tests capture it); default stdout at LOG_LEVEL, nothing when `quiet`. */
export async function startServer(
  env: Config,
  quiet = false,
  mcpOptions: McpOptions = {},
  logger: Logger = createLogger({ name: 'api', level: quiet ? 'silent' : env.LOG_LEVEL }),
  /** App options the environment does not carry (tests: a full work gate). */
  appOptions: Pick<AppOptions, 'work'> = {},
): Promise<RunningServer> {
  const say = (m: string) => logger.info(m);
  const store = await new NodeBuildStore(env.DIST_DIR, say, {
    embeddings: embeddingsOf(env),
    memoBytes: env.RESPONSE_MEMO_MB * 2 ** 20,
    fileCacheBytes: env.FILE_CACHE_MB * 2 ** 20,
  }).start();
  if (!store.current()) logger.warn({ dist: env.DIST_DIR }, `no build in ${env.DIST_DIR} yet: answering 503 until the pipeline publishes one`);
  const trust = parseTrustProxy(env.TRUST_PROXY, env.TRUSTED_PROXIES);
  let connectionStats: (() => ConnectionStats) | undefined;
  const metrics = new ServerMetrics({
    build: () => store.current() ?? undefined,
    connections: () => connectionStats?.() ?? { open: 0, clients: 0, refusedTotal: 0, refusedPerIp: 0, refusedPipelining: 0 },
  });
  const limits = await createRateLimits({
    data: env.RATE_LIMIT_DATA,
    ask: env.RATE_LIMIT_ASK,
    redisUrl: env.REDIS_URL,
    instances: env.RATE_LIMIT_INSTANCES,
    trust,
    log: (m) => (m.startsWith('warning: ') ? logger.warn(m.slice('warning: '.length)) : logger.info(m)),
    onLimited: (policy) => metrics.rateLimited(policy),
  });
  say(
    `${describeTrustProxy(trust)}; limits ${env.RATE_LIMIT_DATA}/min data, ${env.RATE_LIMIT_ASK}/min ask${env.REDIS_URL ? `, counted in Redis (1/${env.RATE_LIMIT_INSTANCES} of each limit per instance during an outage)` : ''}`,
  );
  // /v1/ask's model (OPENAI_*), given to this server's app only.
  const llm = llmConfigOf(env);
  const ask: AskOptions = { llm, onFallback: (why) => say(`/v1/ask: model answer refused, grounded answer sent: ${why}`) };
  if (llm) say(`/v1/ask: model ${llm.model}${llm.baseURL ? ` at ${llm.baseURL}` : ''}, timeout ${llm.timeoutMs} ms, grounded fallback`);
  const mcp = new McpEndpoint({
    maxSessions: env.MCP_MAX_SESSIONS,
    maxSessionsPerIp: env.MCP_MAX_SESSIONS_PER_IP,
    sessionIdleSeconds: env.MCP_SESSION_IDLE_SECONDS,
    allowedHosts: env.MCP_ALLOWED_HOSTS,
    allowedOrigins: env.MCP_ALLOWED_ORIGINS,
    clientKey: (c) => rateKey(clientIp(c, trust)),
    ...mcpOptions,
  });
  const metricsAccess = metricsGate(env.METRICS, env.METRICS_TOKEN, trust);
  const app = createApp({
    source: store,
    baseUrl: env.PUBLIC_BASE_URL,
    limits,
    mcp,
    ask,
    log: (m, fields) => (fields?.err ? logger.error(fields, m) : logger.warn(fields ?? {}, m)),
    requestIds: 'host',
    ...appOptions,
    ...(metricsAccess ? { metrics: () => metrics.render(), metricsAccess } : {}),
    // Past bulk packages live on disk beside the builds (the app itself stays free of Node modules).
    mount: (a) =>
      mountVintages(a, {
        store: new DiskVintages(env.DIST_DIR),
        common: () => store.current()?.headers ?? commonHeaders(env.PUBLIC_BASE_URL),
        limit: limits.data,
      }),
  });
  const proxies = 'trusted' in trust ? trust.trusted : undefined;
  // Build files and memoised answers the app has sent once are answered from the listener
  // (api/fast-path.ts, api/prebuilt.ts), with the same headers, limits and negotiation.
  const client = clientOf(trust);
  const fast = env.FAST_PATH ? fastPath({ source: store, limits, clientKey: (req) => client(req).key }) : undefined;
  let observed: Observed | undefined;
  // Pipelined requests answered one at a time per connection, queues capped (api/pipelining.ts).
  const pipes = pipelining({
    ...(proxies ? { exempt: (ip: string) => trustedBy(proxies, ip) } : {}),
    headers: () => store.current()?.headers ?? commonHeaders(env.PUBLIC_BASE_URL),
  });
  const headers = () => store.current()?.headers ?? commonHeaders(env.PUBLIC_BASE_URL);
  // @hono/node-server's listener, with what it refuses before the app (no Host, a Host or target
  // it cannot make a URL of) answered as a problem rather than a bare 400.
  const listener = getRequestListener(app.fetch, {
    // An HTTP/1.0 request may come without Host: its URL gets the public host.
    hostname: new URL(env.PUBLIC_BASE_URL).host,
    errorHandler: (err) => problemResponseOf(requestErrorProblem(err), headers()),
  });
  const bulk = bulkBudget(env.RATE_LIMIT_BULK_MB * 2 ** 20);
  // Before the fast path and the app: too many header fields, two Host headers, then the bulk budget of the address.
  const refuse = (req: IncomingMessage, res: ServerResponse, id: string) => {
    const p = headerProblem(req) ?? bulk?.check(req, res, client(req).key) ?? null;
    if (!p) return false;
    answerProblem(res, { ...p, headers: { ...p.headers, [REQUEST_ID_HEADER.toLowerCase()]: id } }, headers());
    return true;
  };
  return new Promise((resolveStart) => {
    // The request id, the request log line and the counters, around the adapter's listener.
    const server = observedServer({ logger, metrics, trust, refuse, ...(fast ? { fast } : {}), observed: (o) => (observed = o), around: pipes.wrap })(
      {
        headersTimeout: env.HEADERS_TIMEOUT_MS,
        requestTimeout: env.REQUEST_TIMEOUT_MS,
        keepAliveTimeout: env.KEEP_ALIVE_TIMEOUT_MS,
        connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
        // Node's own answer to an HTTP/1.1 request without Host is a bare 400: headerProblem() gives it as a problem.
        requireHostHeader: false,
      },
      listener,
    );
    server.listen(env.PORT, env.HOST, () => {
      const info = server.address() as AddressInfo;
      logger.info(
        { host: env.HOST, port: info.port, build: store.current()?.id ?? null },
        `listening on http://${env.HOST}:${info.port}; at most ${env.MAX_CONNECTIONS} connections, ${env.MAX_CONNECTIONS_PER_IP} per client address`,
      );
      resolveStart({
        server,
        port: info.port,
        store,
        limits,
        mcp,
        metrics,
        connections: guard.stats,
        pipelining: pipes.stats,
        close: async () => {
          logger.info('shutting down: closing connections and MCP sessions');
          store.stop();
          await mcp.close();
          const closed = new Promise<void>((r) => server.close(() => r()));
          server.closeIdleConnections();
          await closed;
          observed?.flush();
          await limits.close();
          logger.info('stopped');
        },
      });
    });
    // In the same tick as the server's creation: before it accepts its first connection.
    const guard = guardConnections(server, {
      maxConnections: env.MAX_CONNECTIONS,
      maxConnectionsPerIp: env.MAX_CONNECTIONS_PER_IP,
      headersTimeoutMs: env.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: env.KEEP_ALIVE_TIMEOUT_MS,
      ...(proxies ? { exempt: (ip: string) => trustedBy(proxies, ip) } : {}),
      penalisedUntil: pipes.penalisedUntil,
      headers,
    });
    connectionStats = guard.stats;
  });
}
