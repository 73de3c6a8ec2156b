import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILD_STEPS, GIVEN, STAGE_CODE } from './build.ts';
import { checkGraph, describeGraph, stepOf } from './dag.ts';

const REPO = resolve(import.meta.dirname, '..');
const ARCHITECTURE = join(REPO, 'docs/architecture.md');

/** Files under a folder (or the file itself), repository-relative. */
function filesOf(path: string): string[] {
  const full = join(REPO, path);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return [path];
  return readdirSync(full, { withFileTypes: true }).flatMap((e) => (e.name.startsWith('.') ? [] : filesOf(join(path, e.name))));
}

/**
 * The modules a set of files runs, following relative value imports (type-only imports change
 * no output, so they do not count), .astro front matter included.
 */
function runtimeClosure(entries: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file) || !/\.(ts|astro|mjs)$/.test(file)) continue;
    seen.add(file);
    const text = readFileSync(join(REPO, file), 'utf8');
    for (const m of text.matchAll(/^\s*import\s+(type\s+)?[^'"]*?['"](\.{1,2}\/[^'"]+)['"]/gm)) {
      if (m[1]) continue;
      let target = normalize(join(dirname(file), m[2]!));
      if (!existsSync(join(REPO, target))) for (const ext of ['.ts', '.astro', '/index.ts']) if (existsSync(join(REPO, target + ext))) target += ext;
      queue.push(relative(REPO, join(REPO, target)));
    }
  }
  return seen;
}

const covered = (file: string, code: readonly string[]) => code.some((c) => file === c || file.startsWith(`${c}/`));

describe('the build graph (pipeline/build.ts BUILD_STEPS)', () => {
  it('is in an order its declared inputs allow, each value made once', () => {
    expect(() => checkGraph(BUILD_STEPS, GIVEN)).not.toThrow();
  });

  it('refuses a step that reads what no earlier step makes, and a value made twice', () => {
    type V = { a: number; b: number; c: number };
    const step = stepOf<V>();
    const make = step({ name: 'make b', inputs: ['a'], output: 'b', run: ({ a }) => a + 1 });
    const read = step({ name: 'read c', inputs: ['c'], output: 'b', run: ({ c }) => c });
    expect(() => checkGraph([read], ['a'])).toThrow("step 'read c' reads 'c', which no earlier step produces");
    expect(() => checkGraph([make, make], ['a'])).toThrow("'b' is produced twice");
  });

  it('is the graph docs/architecture.md prints (UPDATE_DOCS=1 rewrites it)', () => {
    const block = ['```text', ...describeGraph(BUILD_STEPS), '```'].join('\n');
    const doc = readFileSync(ARCHITECTURE, 'utf8');
    const re = /<!-- build-graph:start -->\n[\s\S]*?\n<!-- build-graph:end -->/;
    const want = `<!-- build-graph:start -->\n${block}\n<!-- build-graph:end -->`;
    if (process.env.UPDATE_DOCS === '1') writeFileSync(ARCHITECTURE, doc.replace(re, want));
    expect(readFileSync(ARCHITECTURE, 'utf8').match(re)?.[0]).toBe(want);
  });
});

describe('cached stages key on the code they run (STAGE_CODE)', () => {
  it('the search index stage: every module it imports is in its key', () => {
    const closure = runtimeClosure(['pipeline/search/stage.ts']);
    expect(closure.size).toBeGreaterThan(3);
    expect([...closure].filter((f) => !covered(f, STAGE_CODE.search))).toEqual([]);
  });

  it('the site stage: every module a page imports is in its key', () => {
    const closure = runtimeClosure(['pipeline/site-stage.ts', ...filesOf('site/src')]);
    expect(closure.has('lib/format.ts')).toBe(true);
    expect([...closure].filter((f) => !covered(f, STAGE_CODE.site))).toEqual([]);
  });
});
