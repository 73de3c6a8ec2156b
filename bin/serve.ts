import { fileURLToPath } from 'node:url';
import { parseTrustProxy } from '../api/client-ip.ts';
import { startServer } from '../api/server.ts';
import { serverChild } from '../api/server-process.ts';
import { exitWithSupervisor, supervise } from '../api/supervise.ts';
import { type Config, EXIT_CONFIG, readConfig } from '../lib/config.ts';
import { createLogger, exitWhenFlushed } from '../lib/log.ts';

/**
 * `npm run serve`: a supervisor that runs the server in a child process and restarts it when it
 * dies (SUPERVISE=off, or CHOKEPOINT_SUPERVISED=1 as set for the child, runs the server itself).
 */
async function main(): Promise<void> {
  let env: Config;
  try {
    env = readConfig(process.env, { checks: [(e) => void parseTrustProxy(e.TRUST_PROXY, e.TRUSTED_PROXIES)] });
  } catch (err) {
    createLogger({ name: 'api', sync: true }).fatal(err instanceof Error ? err.message : String(err));
    process.exit(EXIT_CONFIG);
  }
  const logger = createLogger({ name: env.CHOKEPOINT_SUPERVISED || !env.SUPERVISE ? 'api' : 'supervisor', level: env.LOG_LEVEL });
  if (env.CHOKEPOINT_SUPERVISED || !env.SUPERVISE) {
    const running = await startServer(env, false, {}, logger);
    const stop = (why: string) => {
      logger.info({ reason: why }, `stopping: ${why}`);
      void running.close().then(() => exitWhenFlushed(logger, 0));
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
    exitWithSupervisor(() => stop('the supervisor went away'));
    return;
  }
  const supervised = supervise({
    name: 'server',
    command: process.execPath,
    ...(await serverChild(fileURLToPath(import.meta.url), process.env, logger)),
    finalCodes: [EXIT_CONFIG],
    logger,
  });
  const stop = (why: string) => {
    logger.info({ reason: why }, `stopping: ${why}`);
    void supervised.stop().then(() => exitWhenFlushed(logger, 0));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

await main();
