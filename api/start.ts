import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runBuild } from '../pipeline/build.ts';
import { parseInterval, readPipelineEnv } from '../pipeline/config.ts';
import { defaultEffects } from '../pipeline/effects.ts';
import { readApiEnv } from './env.ts';
import { startServer } from './server.ts';

/**
 * `npm start`: the whole service on one port. Builds first when no build exists, serves, and
 * keeps rebuilding every REBUILD_EVERY (default 15m; 'off' to disable) in a child process, so a
 * build's memory never counts against the server's and a failed build never touches it.
 */
const api = readApiEnv();
const pipeline = readPipelineEnv();
const every = process.env.REBUILD_EVERY ?? '15m';
if (every !== 'off') parseInterval(every);

if (!existsSync(join(api.DIST_DIR, 'current'))) {
  console.log('[start] no build yet: building from the sources first');
  await runBuild({ sourcesDir: pipeline.SOURCES_DIR, dataDir: pipeline.DATA_DIR, outDir: api.DIST_DIR, baseUrl: pipeline.PUBLIC_BASE_URL }, defaultEffects());
}
const running = await startServer(api);

let child: ChildProcess | undefined;
if (every !== 'off') {
  const repo = resolve(import.meta.dirname, '..');
  // The first scheduled build runs after one interval: the one above (or the existing build) is fresh.
  const delay = setTimeout(() => {
    child = spawn(join(repo, 'node_modules/.bin/tsx'), [join(repo, 'pipeline/cli.ts'), '--every', every], { stdio: 'inherit', env: process.env });
  }, parseInterval(every));
  delay.unref();
  console.log(`[start] rebuilding every ${every}`);
}

const stop = () => {
  child?.kill('SIGTERM');
  void running.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
