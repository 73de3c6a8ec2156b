import type { ServerType } from '@hono/node-server';
import { inject } from 'vitest';
import { readApiEnv } from '../env.ts';
import { startServer } from '../server.ts';
import type { McpEndpoint, McpOptions } from './http.ts';

export interface McpTestServer {
  url: string;
  port: number;
  mcp: McpEndpoint;
  server: ServerType;
  close(): Promise<void>;
}

/**
 * The real server (api/server.ts) on a free loopback port over the shared test build, with MCP
 * options the environment does not carry (flow limits, session lifetime) and the endpoint
 * exposed for inspection. Test support only.
 */
export async function startMcpTestServer(env: Record<string, string> = {}, options: McpOptions = {}): Promise<McpTestServer> {
  const running = await startServer(readApiEnv({ DIST_DIR: inject('distDir'), PORT: '0', HOST: '127.0.0.1', RATE_LIMIT_DATA: '0', RATE_LIMIT_ASK: '0', ...env }), true, options);
  return { url: `http://127.0.0.1:${running.port}`, port: running.port, mcp: running.mcp, server: running.server, close: () => running.close() };
}
