import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Effects, Logger } from '../pipeline/effects.ts';
import type { SiteSwitches } from '../pipeline/site-stage.ts';

export const REPO = resolve(import.meta.dirname, '..');
export const SOURCES_DIR = process.env.SOURCES_DIR ?? resolve(REPO, '../shared/sources');
export const DATA_DIR = join(REPO, 'data');
export const FROZEN_NOW = new Date('2026-11-22T00:00:00Z');
/** For builds that never serve pages (BuildOptions.site, CHOKEPOINT_SITE=off): the site stage (Astro, ~15 s) runs once, in the shared test build. */
export const NO_SITE: SiteSwitches = { skip: true };

export const tempDir = (prefix: string) => mkdtemp(join(tmpdir(), `chokepoint-${prefix}-`));

/** Effects with a frozen clock and a logger that keeps what it was told, for assertions. */
export function testEffects(now = FROZEN_NOW): Effects & { lines: string[] } {
  const lines: string[] = [];
  const log: Logger = { info: (m) => lines.push(m), warn: (m) => lines.push(`WARN ${m}`) };
  return { now: () => now, log, fetch: () => Promise.reject(new Error('no network in tests')), lines };
}

/** The tests' CSV reader, independent of the pipeline's own parsing. */
export { readCsv } from './mirror-lookup.ts';

export const readJson = <T = any>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T; // eslint-disable-line @typescript-eslint/no-explicit-any
