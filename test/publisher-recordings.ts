/**
 * Test support: the publishers' real answers recorded in ../shared/publishers (PUBLISHERS_DIR), read
 * in place and never copied into the repository, and the mirror in ../shared/sources (SOURCES_DIR)
 * their parsed values are compared with. RECORDINGS.md there says where each recording comes from.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'csv-parse/sync';

const repoRoot = resolve(import.meta.dirname, '..');
export const PUBLISHERS_DIR = process.env.PUBLISHERS_DIR ?? resolve(repoRoot, '../shared/publishers');
export const MIRROR_DIR = process.env.SOURCES_DIR ?? resolve(repoRoot, '../shared/sources');

/** The exact bytes of one recording, e.g. recording('worldbank-pink-sheet/CMO-Historical-Data-Monthly.2026-06-02.xlsx'). */
export function recording(path: string): Buffer {
  return readFileSync(join(PUBLISHERS_DIR, path));
}

/**
 * A fetch that answers each request whose URL matches a rule with that rule's body (a recording's
 * bytes or a documented fixture), 404 otherwise, and keeps the URLs asked for. The adapters' HTTP
 * behaviour (retries, timeouts) belongs to the fetch they are handed; this stands in for the publisher.
 */
export function replayFetch(rules: readonly { url: RegExp; body: Buffer | string; status?: number; headers?: Record<string, string> }[]) {
  const asked: string[] = [];
  const fetchImpl: typeof fetch = async (input) => {
    const url = input instanceof Request ? input.url : String(input);
    asked.push(url);
    const rule = rules.find((r) => r.url.test(url));
    if (!rule) return new Response('not recorded', { status: 404 });
    const body = typeof rule.body === 'string' ? rule.body : new Uint8Array(rule.body);
    return new Response(body, { status: rule.status ?? 200, headers: rule.headers });
  };
  return { fetch: fetchImpl, asked };
}

/** A CSV's records as objects keyed by the header (csv-parse: RFC 4180, BOM dropped, blank lines skipped). */
export function readCsvRecords(file: string): Record<string, string>[] {
  const [header = [], ...body] = parse(readFileSync(file), { bom: true, skip_empty_lines: true, relax_column_count: true, relax_quotes: true }) as string[][];
  return body.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
}

/**
 * Compare two tables of numbers keyed the same way: how many keys they share, the largest absolute
 * difference on those, and the keys present on one side only.
 */
export function compareByKey(ours: ReadonlyMap<string, number>, theirs: ReadonlyMap<string, number>) {
  let shared = 0;
  let maxDiff = 0;
  let worst = '';
  for (const [k, v] of ours) {
    const w = theirs.get(k);
    if (w === undefined) continue;
    shared++;
    const d = Math.abs(v - w);
    if (d > maxDiff) [maxDiff, worst] = [d, k];
  }
  return { shared, maxDiff, worst, onlyOurs: [...ours.keys()].filter((k) => !theirs.has(k)), onlyTheirs: [...theirs.keys()].filter((k) => !ours.has(k)) };
}
