import { serve, type ServerType } from '@hono/node-server';
import { createApp } from './app.ts';
import { configureAsk, llmConfigFromEnv } from './ask/index.ts';
import { NodeBuildStore } from './build-store.ts';
import { clientIp, describeTrustProxy, parseTrustProxy } from './client-ip.ts';
import { type ApiEnv, readApiEnv } from './env.ts';
import { McpEndpoint } from './mcp/http.ts';
import { createRateLimits, rateKey, type RateLimits } from './rate-limit.ts';

export interface RunningServer {
  server: ServerType;
  port: number;
  store: NodeBuildStore;
  limits: RateLimits;
  close(): Promise<void>;
}

const log = (m: string) => console.log(`[api] ${m}`);

/** Serve the current build (and every build the pipeline switches in after it) on one port. */
export async function startServer(env: ApiEnv, quiet = false): Promise<RunningServer> {
  const say = quiet ? () => {} : log;
  const store = await new NodeBuildStore(env.DIST_DIR, say).start();
  if (!store.current()) say(`no build in ${env.DIST_DIR} yet: answering 503 until the pipeline publishes one`);
  const trust = parseTrustProxy(env.TRUST_PROXY);
  const limits = await createRateLimits({ data: env.RATE_LIMIT_DATA, ask: env.RATE_LIMIT_ASK, redisUrl: env.REDIS_URL, trust, log: (m) => console.error(`[api] ${m}`) });
  say(`client IP: ${describeTrustProxy(trust)}; limits ${env.RATE_LIMIT_DATA}/min data, ${env.RATE_LIMIT_ASK}/min ask${env.REDIS_URL ? ', counters in Redis' : ''}`);
  const llm = llmConfigFromEnv(env);
  configureAsk({ llm, onFallback: (why) => say(`/v1/ask: model answer refused, grounded answer sent: ${why}`) });
  if (llm) say(`/v1/ask: model ${llm.model}${llm.baseURL ? ` at ${llm.baseURL}` : ''}, timeout ${llm.timeoutMs} ms, grounded fallback`);
  const mcp = new McpEndpoint({
    maxSessions: env.MCP_MAX_SESSIONS,
    maxSessionsPerIp: env.MCP_MAX_SESSIONS_PER_IP,
    sessionIdleSeconds: env.MCP_SESSION_IDLE_SECONDS,
    allowedHosts: env.MCP_ALLOWED_HOSTS,
    allowedOrigins: env.MCP_ALLOWED_ORIGINS,
    clientKey: (c) => rateKey(clientIp(c, trust)),
  });
  const app = createApp({ source: store, baseUrl: env.PUBLIC_BASE_URL, limits, mcp, log: (m) => console.error(`[api] ${m}`) });
  return new Promise((resolveStart) => {
    const server = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, (info) => {
      say(`listening on http://${env.HOST}:${info.port}`);
      resolveStart({
        server,
        port: info.port,
        store,
        limits,
        close: async () => {
          store.stop();
          await mcp.close();
          await new Promise<void>((r) => server.close(() => r()));
          await limits.close();
        },
      });
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const env = readApiEnv();
  const running = await startServer(env);
  const stop = () => void running.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
