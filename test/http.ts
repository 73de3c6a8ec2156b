import { inject } from 'vitest';
import { readApiEnv } from '../api/env.ts';
import { startServer, type RunningServer } from '../api/server.ts';

/** Start the real server on a free loopback port over the shared test build. */
export async function startTestServer(env: Record<string, string> = {}): Promise<RunningServer & { url: string }> {
  const running = await startServer(readApiEnv({ DIST_DIR: inject('distDir'), PORT: '0', HOST: '127.0.0.1', RATE_LIMIT_DATA: '0', RATE_LIMIT_ASK: '0', ...env }), true);
  return { ...running, url: `http://127.0.0.1:${running.port}` };
}
