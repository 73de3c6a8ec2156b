import type { FetchLine } from './fetch/polite.ts';
import { createLogger } from '../lib/log.ts';

/** What a build needs from the outside world, injected so that builds are testable and reproducible. */
export interface Effects {
  now(): Date;
  log: Logger;
  fetch: typeof fetch;
  /** One structured line per publisher fetch of a live build (pipeline/fetch/polite.ts); absent: not logged. */
  fetchLog?: (line: FetchLine) => void;
}

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
}

/** Logs each step with its duration: `[build] ✓ prices  0.21s  36 series`. */
export async function timed<T>(log: Logger, name: string, fn: () => Promise<T>, detail?: (result: T) => string): Promise<T> {
  const started = performance.now();
  const result = await fn();
  const secs = ((performance.now() - started) / 1000).toFixed(2);
  log.info(`✓ ${name.padEnd(26)} ${secs.padStart(6)}s${detail ? `  ${detail(result)}` : ''}`);
  return result;
}

export const consoleLogger: Logger = {
  info: (m) => console.log(`[build] ${m}`),
  warn: (m) => console.warn(`[build] ⚠ ${m}`),
};

export const silentLogger: Logger = { info: () => {}, warn: () => {} };

export function defaultEffects(log: Logger = consoleLogger): Effects {
  const fetchLogger = createLogger({ name: 'fetch' });
  return { now: () => new Date(), log, fetch: globalThis.fetch, fetchLog: (line) => fetchLogger.info(line, 'fetch') };
}
