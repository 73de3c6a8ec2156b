import { fileURLToPath } from 'node:url';
import { parseTrustProxy } from '../api/client-ip.ts';
import { type ApiEnv, EXIT_CONFIG, readApiEnv } from '../api/env.ts';
import { startServer } from '../api/server.ts';
import { SERVER_NODE_FLAGS, exitWithSupervisor, supervise } from '../api/supervise.ts';

/**
 * `npm run serve`: a supervisor that runs the server in a child process and restarts it when it
 * dies (SUPERVISE=off, or CHOKEPOINT_SUPERVISED=1 as set for the child, runs the server itself).
 */
async function main(): Promise<void> {
  let env: ApiEnv;
  try {
    env = readApiEnv();
    parseTrustProxy(env.TRUST_PROXY, env.TRUSTED_PROXIES);
  } catch (err) {
    console.error(`[api] ${err instanceof Error ? err.message : String(err)}`);
    process.exit(EXIT_CONFIG);
  }
  if (process.env.CHOKEPOINT_SUPERVISED === '1' || process.env.SUPERVISE === 'off') {
    const running = await startServer(env);
    const stop = () => void running.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    exitWithSupervisor(stop);
    return;
  }
  const supervised = supervise({
    name: 'server',
    command: process.execPath,
    args: [...process.execArgv, ...SERVER_NODE_FLAGS, fileURLToPath(import.meta.url)],
    env: { ...process.env, CHOKEPOINT_SUPERVISED: '1' },
    finalCodes: [EXIT_CONFIG],
  });
  const stop = () => void supervised.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

await main();
