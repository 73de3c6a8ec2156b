import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILD_STEPS } from './build.ts';
import { importClosure } from './code-hash.ts';
import { checkGraph, describeGraph, stepOf } from './dag.ts';
import { GIVEN } from './steps/values.ts';

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

describe('the build graph (pipeline/build.ts BUILD_STEPS)', () => {
  it('is in an order its declared inputs allow, each value made once', () => {
    expect(() => checkGraph(BUILD_STEPS, GIVEN)).not.toThrow();
  });

  it('refuses a step that reads what no earlier step makes, and a value made twice', () => {
    type V = { a: number; b: number; c: number };
    const step = stepOf<V>();
    const make = step({ name: 'make b', inputs: ['a'], outputs: ['b'], run: ({ a }) => ({ b: a + 1 }) });
    const read = step({ name: 'read c', inputs: ['c'], outputs: ['b'], run: ({ c }) => ({ b: c }) });
    expect(() => checkGraph([read], ['a'])).toThrow("step 'read c' reads 'c', which no earlier step produces");
    expect(() => checkGraph([make, make], ['a'])).toThrow("'b' is produced twice");
  });

  it('has every step module of pipeline/steps in it, once', async () => {
    const names = readdirSync(join(REPO, 'pipeline/steps')).flatMap((f) => /^(.+)\.step\.ts$/.exec(f)?.[1] ?? []);
    const declared = await Promise.all(names.map(async (n) => ((await import(`./steps/${n}.step.ts`)) as { default: unknown }).default));
    expect(new Set(declared)).toEqual(new Set(BUILD_STEPS));
    expect(declared).toHaveLength(BUILD_STEPS.length);
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

/**
 * A cached step keys on its module's import closure as esbuild finds it (pipeline/code-hash.ts);
 * checked here against an independent reading of the imports: a module the closure missed would
 * be code that can change while the step is reused.
 */
describe('cached steps key on the code they run', () => {
  it('the search index: its closure holds every module it imports', async () => {
    const closure = new Set(await importClosure(['pipeline/steps/search.step.ts']));
    expect(closure).toContain('pipeline/search/stage.ts');
    expect([...runtimeClosure(['pipeline/steps/search.step.ts'])].filter((f) => !closure.has(f))).toEqual([]);
  });

  it('the site: its closure holds the stage it imports when it runs and every module a page imports', async () => {
    const pages = filesOf('site/src').filter((f) => /\.(ts|astro)$/.test(f));
    const closure = new Set(await importClosure(['pipeline/steps/site.step.ts', ...pages]));
    expect(closure).toContain('pipeline/site-stage.ts');
    expect(closure).toContain('lib/format.ts');
    expect([...runtimeClosure(['pipeline/steps/site.step.ts', 'pipeline/site-stage.ts', ...pages])].filter((f) => !closure.has(f))).toEqual([]);
  });
});
