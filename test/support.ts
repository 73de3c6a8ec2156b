import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Effects, Logger } from '../pipeline/effects.ts';

export const REPO = resolve(import.meta.dirname, '..');
export const SOURCES_DIR = process.env.SOURCES_DIR ?? resolve(REPO, '../shared/sources');
export const DATA_DIR = join(REPO, 'data');
export const FROZEN_NOW = new Date('2026-11-22T00:00:00Z');

export const tempDir = (prefix: string) => mkdtemp(join(tmpdir(), `chokepoint-${prefix}-`));

/** Effects with a frozen clock and a logger that keeps what it was told, for assertions. */
export function testEffects(now = FROZEN_NOW): Effects & { lines: string[] } {
  const lines: string[] = [];
  const log: Logger = { info: (m) => lines.push(m), warn: (m) => lines.push(`WARN ${m}`) };
  return { now: () => now, log, fetch: () => Promise.reject(new Error('no network in tests')), lines };
}

/** A plain CSV reader for tests, independent of the pipeline's own parsing (quotes, doubled quotes). */
export function readCsv(file: string): Record<string, string>[] {
  const text = readFileSync(file, 'utf8').replace(/\r\n/g, '\n');
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') endCell();
    else if (ch === '\n') {
      endCell();
      rows.push(row);
      row = [];
    } else cell += ch;
  }
  if (cell || row.length) {
    endCell();
    rows.push(row);
  }
  const [header, ...body] = rows;
  return body.filter((r) => r.length > 1).map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? ''])));
}

export const readJson = <T = any>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T; // eslint-disable-line @typescript-eslint/no-explicit-any
