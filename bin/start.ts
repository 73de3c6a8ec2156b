import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runBuild } from '../pipeline/build.ts';
import { parseInterval, readPipelineEnv } from '../pipeline/config.ts';
import { defaultEffects } from '../pipeline/effects.ts';
import { parseTrustProxy } from '../api/client-ip.ts';
import { EXIT_CONFIG, readApiEnv } from '../api/env.ts';
import { SERVER_NODE_FLAGS, supervise, type Supervised } from '../api/supervise.ts';

/**
 * `npm start`: the whole service on one port. Builds first when no build exists, then runs the
 * server in a supervised child process (restarted with back-off when it dies: a crash never
 * leaves the service down), and keeps rebuilding every REBUILD_EVERY (default 15m; 'off' to
 * disable) in another supervised child, so a build's memory never counts against the server's
 * and a failed build never touches it.
 */
const say = (m: string) => console.log(`[start] ${m}`);
let api: ReturnType<typeof readApiEnv>;
try {
  api = readApiEnv();
  parseTrustProxy(api.TRUST_PROXY, api.TRUSTED_PROXIES);
} catch (err) {
  console.error(`[start] ${err instanceof Error ? err.message : String(err)}`);
  process.exit(EXIT_CONFIG);
}
const pipeline = readPipelineEnv();
const every = process.env.REBUILD_EVERY ?? '15m';
if (every !== 'off') parseInterval(every);

if (!existsSync(join(api.DIST_DIR, 'current'))) {
  say('no build yet: building from the sources first');
  await runBuild({ sourcesDir: pipeline.SOURCES_DIR, dataDir: pipeline.DATA_DIR, outDir: api.DIST_DIR, baseUrl: pipeline.PUBLIC_BASE_URL }, defaultEffects());
}

const repo = resolve(import.meta.dirname, '..');
const server = supervise({
  name: 'server',
  command: process.execPath,
  args: [...process.execArgv, ...SERVER_NODE_FLAGS, join(repo, 'bin/serve.ts')],
  env: { ...process.env, CHOKEPOINT_SUPERVISED: '1' },
  finalCodes: [EXIT_CONFIG],
  log: (m) => console.error(`[start] ${m}`),
});

let builder: Supervised | undefined;
if (every !== 'off') {
  // The first scheduled build runs after one interval: the one above (or the existing build) is fresh.
  const delay = setTimeout(() => {
    builder = supervise({
      name: 'rebuild loop',
      command: process.execPath,
      args: [join(repo, 'bin/build.ts'), '--every', every],
      env: process.env,
      log: (m) => console.error(`[start] ${m}`),
    });
  }, parseInterval(every));
  delay.unref();
  say(`rebuilding every ${every}`);
}

const stop = () => void Promise.all([server.stop(), builder?.stop()]).then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
