import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * Structured logs: one JSON object per line (pino), `level` as its name, `time` in ISO 8601, the
 * process id, and `name` saying which process wrote it (`api`, `supervisor`, `start`). The server,
 * its supervisor and `npm start` share one stdout, so `name` and `pid` tell their lines apart.
 */

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type { Logger, DestinationStream };

export interface LoggerOptions {
  name: string;
  /** Default 'info'; 'silent' writes nothing. */
  level?: LogLevel;
  /** Where the lines go (tests capture them); default stdout, written asynchronously. */
  destination?: DestinationStream;
  /** Write stdout synchronously (a last line before process.exit(), e.g. a refused configuration). */
  sync?: boolean;
}

/** stdout written asynchronously, flushed at exit: one per process, shared by every logger. */
let stdout: DestinationStream | undefined;
const discard: DestinationStream = { write: () => {} };

export function createLogger(opts: LoggerOptions): Logger {
  const level = opts.level ?? 'info';
  const destination =
    opts.destination ?? (level === 'silent' ? discard : opts.sync ? pino.destination({ sync: true }) : (stdout ??= pino.destination({ sync: false })));
  return pino(
    {
      name: opts.name,
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

/** LOG_LEVEL as a level, or an error naming the accepted values. */
export function parseLogLevel(value: string | undefined): LogLevel {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '') return 'info';
  if ((LOG_LEVELS as readonly string[]).includes(v)) return v as LogLevel;
  throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got ${JSON.stringify(value)})`);
}

/**
 * Exit once the lines written so far are out (the asynchronous stdout holds them briefly; a
 * stuck stdout does not hold the exit more than a second).
 */
export function exitWhenFlushed(logger: Logger, code: number): void {
  const exit = () => process.exit(code);
  setTimeout(exit, 1000);
  logger.flush(exit);
}
