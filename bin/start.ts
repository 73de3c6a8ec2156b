import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runBuild } from '../pipeline/build.ts';
import { defaultEffects } from '../pipeline/effects.ts';
import { parseTrustProxy } from '../api/client-ip.ts';
import { serverChild } from '../api/server-process.ts';
import { supervise, type Supervised } from '../api/supervise.ts';
import { buildSettings, type Config, EXIT_CONFIG, readConfig } from '../lib/config.ts';
import { createLogger, exitWhenFlushed, type Logger } from '../lib/log.ts';

/**
 * `npm start`: the whole service on one port. Builds first when no build exists, then runs the
 * server in a supervised child process (restarted with back-off when it dies: a crash never
 * leaves the service down), and keeps rebuilding every REBUILD_EVERY (default 15m; 'off' to
 * disable) in another supervised child, so a build's memory never counts against the server's
 * and a failed build never touches it.
 */
let config: Config;
try {
  // The whole configuration, the server's and the build's, checked once before anything starts.
  config = readConfig(process.env, { checks: [(e) => void parseTrustProxy(e.TRUST_PROXY, e.TRUSTED_PROXIES)] });
} catch (err) {
  createLogger({ name: 'start', sync: true }).fatal(err instanceof Error ? err.message : String(err));
  process.exit(EXIT_CONFIG);
}
const logger: Logger = createLogger({ name: 'start', level: config.LOG_LEVEL });
const say = (m: string) => logger.info(m);
const every = config.REBUILD_EVERY;

if (!existsSync(join(config.DIST_DIR, 'current'))) {
  say('no build yet: building from the sources first');
  await runBuild(buildSettings(config), defaultEffects());
}

const repo = resolve(import.meta.dirname, '..');
const server = supervise({
  name: 'server',
  command: process.execPath,
  ...(await serverChild(join(repo, 'bin/serve.ts'), process.env, logger)),
  finalCodes: [EXIT_CONFIG],
  logger,
});

let builder: Supervised | undefined;
if (every) {
  // The first scheduled build runs after one interval: the one above (or the existing build) is fresh.
  const delay = setTimeout(() => {
    builder = supervise({
      name: 'rebuild loop',
      command: process.execPath,
      args: [join(repo, 'bin/build.ts'), '--every', every.text],
      env: process.env,
      finalCodes: [EXIT_CONFIG],
      logger,
    });
  }, every.ms);
  delay.unref();
  say(`rebuilding every ${every.text}`);
}

const stop = (signal: string) => {
  logger.info({ signal }, `${signal}: stopping the server and the rebuild loop`);
  void Promise.all([server.stop(), builder?.stop()]).then(() => exitWhenFlushed(logger, 0));
};
process.once('SIGINT', () => stop('SIGINT'));
process.once('SIGTERM', () => stop('SIGTERM'));
