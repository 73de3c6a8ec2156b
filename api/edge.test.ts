import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { createApp } from './app.ts';
import { loadBuild } from './build.ts';
import { StaticBuildSource } from './build-store.ts';

/** Every module api/app.ts reaches through static imports (type-only imports are erased). */
function importGraph(entry: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const visit = (file: string) => {
    if (graph.has(file)) return;
    const text = readFileSync(file, 'utf8');
    const specs = [...text.matchAll(/^import\s+(?!type\b)[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
    graph.set(file, specs);
    for (const s of specs) if (s.startsWith('.')) visit(resolve(dirname(file), s));
  };
  visit(entry);
  return graph;
}

describe('the app runs wherever fetch does (edge runtimes)', () => {
  it('imports nothing Node-specific', () => {
    const offenders = [...importGraph(resolve(import.meta.dirname, 'app.ts'))].flatMap(([file, specs]) =>
      specs
        .filter((s) => s.startsWith('node:') || s.startsWith('@hono/node-server'))
        .map((s) => `${file.replace(resolve(import.meta.dirname, '..'), '')} → ${s}`),
    );
    expect(offenders).toEqual([]);
  });

  it('answers through app.request() from a build read by any function', async () => {
    const dir = join(inject('distDir'), 'current');
    const app = createApp({ source: new StaticBuildSource(await loadBuild((p) => readFile(join(dir, p)))), baseUrl: 'https://edge.test' });
    const res = await app.request('/v1/reserves?commodity=gas&country=de');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { country: string } }).data.country).toBe('de');
  });
});
