import type { ServerType } from '@hono/node-server';
import { inject } from 'vitest';
import { readConfig } from '../../lib/config.ts';
import { startServer } from '../server.ts';
import { createLogger, parseLogLevel } from '../../lib/log.ts';
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
  // Silent unless LOG_LEVEL is set (as test/http.ts, which this module may not import).
  const logger = createLogger({ name: 'api', level: process.env.LOG_LEVEL ? parseLogLevel(process.env.LOG_LEVEL) : 'silent' });
  const running = await startServer(
    readConfig({ DIST_DIR: inject('distDir'), PORT: '0', HOST: '127.0.0.1', RATE_LIMIT_DATA: '0', RATE_LIMIT_ASK: '0', ...env }),
    true,
    options,
    logger,
  );
  return { url: `http://127.0.0.1:${running.port}`, port: running.port, mcp: running.mcp, server: running.server, close: () => running.close() };
}
