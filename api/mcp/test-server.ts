import { serve, type ServerType } from '@hono/node-server';
import { inject } from 'vitest';
import { createApp } from '../app.ts';
import { NodeBuildStore } from '../build-store.ts';
import { clientIp, parseTrustProxy } from '../client-ip.ts';
import { readApiEnv } from '../env.ts';
import { createRateLimits, rateKey } from '../rate-limit.ts';
import { McpEndpoint, type McpOptions } from './http.ts';

export interface McpTestServer {
  url: string;
  port: number;
  mcp: McpEndpoint;
  server: ServerType;
  close(): Promise<void>;
}

/**
 * The real app on a free loopback port over the shared test build, wired as api/server.ts wires
 * it (rate limits, client IP, MCP endpoint), with MCP options the environment does not carry
 * (flow limits, session lifetime) and the endpoint exposed for inspection. Test support only.
 */
export async function startMcpTestServer(env: Record<string, string> = {}, options: McpOptions = {}, log?: (m: string) => void): Promise<McpTestServer> {
  const e = readApiEnv({ DIST_DIR: inject('distDir'), PORT: '0', HOST: '127.0.0.1', RATE_LIMIT_DATA: '0', RATE_LIMIT_ASK: '0', ...env });
  const store = await new NodeBuildStore(e.DIST_DIR, () => {}).start();
  const trust = parseTrustProxy(e.TRUST_PROXY);
  const limits = await createRateLimits({ data: e.RATE_LIMIT_DATA, ask: e.RATE_LIMIT_ASK, trust });
  const mcp = new McpEndpoint({
    maxSessions: e.MCP_MAX_SESSIONS,
    maxSessionsPerIp: e.MCP_MAX_SESSIONS_PER_IP,
    sessionIdleSeconds: e.MCP_SESSION_IDLE_SECONDS,
    clientKey: (c) => rateKey(clientIp(c, trust)),
    ...options,
  });
  const app = createApp({ source: store, baseUrl: e.PUBLIC_BASE_URL, limits, mcp, log });
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        port: info.port,
        mcp,
        server,
        close: async () => {
          store.stop();
          await mcp.close();
          (server as { closeAllConnections?: () => void }).closeAllConnections?.();
          await new Promise<void>((r) => server.close(() => r()));
          await limits.close();
        },
      });
    });
  });
}
