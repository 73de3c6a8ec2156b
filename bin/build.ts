import { parseArgs } from 'node:util';
import { runBuild } from '../pipeline/build.ts';
import { defaultEffects } from '../pipeline/effects.ts';
import { BuildLockedError } from '../pipeline/lock.ts';
import { exitWithSupervisor } from '../api/supervise.ts';
import { buildSettings, ConfigError, EXIT_CONFIG, parseInterval, readConfig, type Config } from '../lib/config.ts';

/** Exit status when another build holds DIST_DIR (EX_TEMPFAIL): try again later. */
const EXIT_LOCKED = 75;

const USAGE = `Usage: npm run build -- [--download [--force]] [--every 15m]

Loads every source into DuckDB, computes the indicators, validates every output against the
contract and publishes the build atomically under DIST_DIR (default dist/, live build: dist/current).

  --download     fetch each source from its publisher instead of reading SOURCES_DIR, when
                 its cadence says a new release can exist (as DATA_SOURCE=live does)
  --force        with --download: ask every source now, without validators (a full refresh)
  --every <d>    keep rebuilding every <d> (15m, 90s, 1h); a failed build is logged and the
                 previous one keeps serving
  --wait <d>     when another build of the same DIST_DIR is running, wait up to <d> for it
                 (default: refuse at once, exit status 75, naming its pid)
  --help         this text

Environment: SOURCES_DIR, DATA_DIR, DIST_DIR, PUBLIC_BASE_URL, RATE_LIMIT_DATA, RATE_LIMIT_ASK, the
publishers' API keys and the rest of the build's variables (README, lib/config.ts); a bad value
stops the build at once (exit status 78).`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      download: { type: 'boolean', default: false },
      force: { type: 'boolean', default: false },
      every: { type: 'string' },
      wait: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  let config: Config;
  try {
    config = readConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`[build] ${err.message}`);
    return EXIT_CONFIG;
  }
  if (values.force && !values.download && config.DATA_SOURCE !== 'live') throw new Error('--force goes with --download (or DATA_SOURCE=live)');
  const fx = defaultEffects();
  const lockWaitMs = values.wait ? parseInterval(values.wait, '--wait') : 0;
  const once = async (): Promise<number> => {
    try {
      const settings = buildSettings(config);
      const live = { ...settings.live, force: values.force };
      // The interval this loop keeps is the one the texts of the build state.
      const every = values.every ? { rebuildEveryMs: parseInterval(values.every) } : {};
      const r = await runBuild({ ...settings, ...every, download: values.download || settings.download, live, lockWaitMs }, fx);
      const stale = r.sources.filter((s) => s.status === 'stale' || s.status === 'unavailable');
      fx.log.info(
        `published build ${r.build}: ${r.files} files in ${(r.durationMs / 1000).toFixed(1)}s${stale.length ? `; ${stale.length} source(s) stale or unavailable` : ''}`,
      );
      return 0;
    } catch (err) {
      if (err instanceof BuildLockedError) {
        fx.log.warn(`build not started: ${err.message}`);
        return EXIT_LOCKED;
      }
      fx.log.warn(`build failed, the previous build keeps serving: ${err instanceof Error ? err.message : String(err)}`);
      return 1;
    }
  };
  if (!values.every) return once();

  const interval = parseInterval(values.every);
  let stopping = false;
  let wait: { timer: NodeJS.Timeout; wake: () => void } | undefined;
  const stop = () => {
    stopping = true;
    if (wait) clearTimeout(wait.timer);
    wait?.wake();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // Run by `npm start`: stop with the supervisor rather than build on as an orphan.
  exitWithSupervisor(stop);
  while (!stopping) {
    await once();
    if (stopping) break;
    fx.log.info(`next build in ${values.every}`);
    // The timer is what keeps the process alive between builds: it must stay ref'd (an unref'd
    // one let the loop exit with 0 after its first build; issue 35).
    await new Promise<void>((wake) => (wait = { timer: setTimeout(wake, interval), wake }));
    wait = undefined;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`[build] ${err instanceof Error ? err.message : String(err)}`);
    console.error(USAGE);
    process.exit(2);
  },
);
