import { spawn, type ChildProcess } from 'node:child_process';
import { createLogger, exitWhenFlushed, type Logger } from '../lib/log.ts';

/**
 * A minimal process supervisor for `npm run serve` and `npm start`: runs a child, and when it
 * dies (a crash, a heap out-of-memory, a SIGKILL) starts it again after a back-off that doubles
 * from `minBackoffMs` to `maxBackoffMs` and starts over once a child has stayed up `stableMs`.
 * Every start, exit and restart is logged (a structured line with the child's name, pid, exit
 * code or signal, uptime and back-off). A child that exits with one of `finalCodes` (a
 * configuration it refuses) is not restarted: the supervisor gives up with that code.
 *
 * The child gets an IPC channel: when the supervisor goes away, however it went, the child sees
 * the channel close and shuts down instead of holding the port as an orphan.
 */
export interface SuperviseOptions {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Default: stdout at info, named `supervisor`. */
  logger?: Logger;
  minBackoffMs?: number;
  maxBackoffMs?: number;
  stableMs?: number;
  finalCodes?: number[];
  /** Called when the child exits with a final code (default: exit the supervisor with it). */
  onGiveUp?: (code: number) => void;
}

export interface Supervised {
  /** The running child, if any. */
  child(): ChildProcess | undefined;
  /** Children started so far minus one. */
  restarts(): number;
  /** Stop supervising: SIGTERM the child, SIGKILL after `graceMs`; resolves when it has exited. */
  stop(graceMs?: number): Promise<void>;
}

export function supervise(opts: SuperviseOptions): Supervised {
  const logger = opts.logger ?? createLogger({ name: 'supervisor' });
  const min = opts.minBackoffMs ?? 1000;
  const max = opts.maxBackoffMs ?? 30_000;
  const stable = opts.stableMs ?? 60_000;
  const finals = new Set(opts.finalCodes ?? []);
  let current: ChildProcess | undefined;
  let backoff = min;
  let starts = 0;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let exited: Promise<void> = Promise.resolve();

  const start = () => {
    timer = undefined;
    if (stopping) return;
    const startedAt = Date.now();
    const child = spawn(opts.command, opts.args, { stdio: ['inherit', 'inherit', 'inherit', 'ipc'], env: opts.env ?? process.env, cwd: opts.cwd });
    current = child;
    starts++;
    const fields = { child: opts.name, child_pid: child.pid ?? null };
    logger.info({ ...fields, restarts: starts - 1 }, `started ${opts.name} (pid ${child.pid})${starts > 1 ? `, restart ${starts - 1}` : ''}`);
    exited = new Promise<void>((resolveExit) => {
      child.once('error', (err) => logger.error({ ...fields, err }, `${opts.name} could not be started: ${err.message}`));
      child.once('exit', (code, signal) => {
        current = undefined;
        resolveExit();
        const upMs = Date.now() - startedAt;
        const how = signal ? `signal ${signal}` : `code ${code}`;
        const exit = { ...fields, code, signal, up_s: Math.round(upMs / 100) / 10 };
        if (stopping) {
          logger.info(exit, `${opts.name} (pid ${child.pid}) stopped (${how})`);
          return;
        }
        if (code !== null && finals.has(code)) {
          logger.error(exit, `${opts.name} (pid ${child.pid}) refused its configuration (code ${code}); not restarting`);
          (opts.onGiveUp ?? ((c: number) => exitWhenFlushed(logger, c)))(code);
          return;
        }
        if (upMs >= stable) backoff = min;
        logger.error(
          { ...exit, backoff_ms: backoff },
          `${opts.name} (pid ${child.pid}) died (${how}) after ${(upMs / 1000).toFixed(1)} s; restarting in ${backoff} ms`,
        );
        timer = setTimeout(start, backoff);
        backoff = Math.min(backoff * 2, max);
      });
    });
  };
  start();

  return {
    child: () => current,
    restarts: () => Math.max(0, starts - 1),
    async stop(graceMs = 10_000) {
      stopping = true;
      if (timer) clearTimeout(timer);
      const child = current;
      if (!child) return;
      child.kill('SIGTERM');
      const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(kill);
    },
  };
}

/**
 * In a supervised child: shut down with `stop` when the supervisor's IPC channel closes (the
 * supervisor died or was killed), so no orphan keeps the port.
 */
export function exitWithSupervisor(stop: () => void): void {
  if (!process.send) return;
  process.once('disconnect', stop);
}
