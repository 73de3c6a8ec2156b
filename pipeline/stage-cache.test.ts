import { createHash } from 'node:crypto';
import { appendFile, cp, readFile, readlink, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { DATA_DIR, SOURCES_DIR, readJson, tempDir, testEffects } from '../test/support.ts';
import { runBuild } from './build.ts';

/** Starting from the shared test build (site and search included), as the live build to reuse from. */
async function distCopy() {
  const dist = await tempDir('stage-cache');
  await cp(inject('distDir'), dist, { recursive: true, verbatimSymlinks: true });
  return dist;
}

describe('cached stages', () => {
  it('reuse the search index and the site, byte for byte, when nothing they read changed', async () => {
    const dist = await distCopy();
    const before = readJson(join(dist, 'current/manifest.json'));
    const fx = testEffects(new Date('2026-11-22T00:15:00Z'));
    const r = await runBuild({ sourcesDir: SOURCES_DIR, dataDir: DATA_DIR, outDir: dist, baseUrl: 'https://chokepoint.test' }, fx);
    expect(fx.lines.find((l) => l.includes('search index'))).toMatch(/unchanged, 3 files reused/);
    expect(fx.lines.find((l) => l.includes('✓ site'))).toMatch(/unchanged, \d+ files reused/);
    const after = readJson(join(dist, 'current/manifest.json'));
    expect(after.stages).toEqual(before.stages);
    // Pages name the day of their figures, never the build: the copy is the page a new run would make.
    const home = await readFile(join(dist, 'current/site/en/index.html'), 'utf8');
    expect(home).toBe(await readFile(join(dist, 'builds', before.build, 'site/en/index.html'), 'utf8'));
    expect(home).toContain('datetime="2026-11-22"');
    expect(home).not.toContain(before.build);
    for (const [path, f] of Object.entries(after.files as Record<string, { sha256: string }>))
      if (path.startsWith('site/')) expect(f.sha256, path).toBe(before.files[path].sha256);
    expect(await readlink(join(dist, 'current'))).toBe(join('builds', r.build));
    // The contract files do not name the build either: same bytes, same ETag, nothing for a cache to refetch.
    for (const f of ['openapi.json', 'llms.txt', '.well-known/mcp/server-card']) expect(after.files[f].sha256, f).toBe(before.files[f].sha256);
  });

  it('rebuild the site when the content changes', async () => {
    const dist = await distCopy();
    const data = await tempDir('data-changed');
    await cp(DATA_DIR, data, { recursive: true });
    const file = join(data, 'scenarios/hormuz-closure.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('  en: Closure of the Strait of Hormuz', '  en: Closure of the Strait of Hormuz (revised)'));
    const before = readJson(join(dist, 'current/manifest.json'));
    const fx = testEffects(new Date('2026-11-22T00:15:00Z'));
    await runBuild({ sourcesDir: SOURCES_DIR, dataDir: data, outDir: dist, baseUrl: 'https://chokepoint.test' }, fx);
    const after = readJson(join(dist, 'current/manifest.json'));
    expect(after.stages.site).not.toBe(before.stages.site);
    expect(after.stages.search).not.toBe(before.stages.search);
    expect(await readFile(join(dist, 'current/site/en/scenarios/index.html'), 'utf8')).toContain('(revised)');
  });

  it('are checked against the live manifest before reuse: a damaged output makes the stage run again', async () => {
    const dist = await distCopy();
    // What a crash or a second build writing the same folder leaves (issue 20, finding 4).
    await appendFile(join(await realpath(join(dist, 'current')), 'search/index.json'), ' ');
    const fx = testEffects(new Date('2026-11-22T00:15:00Z'));
    const r = await runBuild({ sourcesDir: SOURCES_DIR, dataDir: DATA_DIR, outDir: dist, baseUrl: 'https://chokepoint.test' }, fx);
    expect(fx.lines.find((l) => l.includes('search index'))).toMatch(
      /\d+ documents, .* \(not reused: search\/index\.json in the live build does not match its manifest\)/,
    );
    expect(fx.lines.find((l) => l.includes('✓ site'))).toMatch(/unchanged, \d+ files reused/);
    const manifest = readJson(join(dist, 'current/manifest.json'));
    expect(manifest.build).toBe(r.build);
    for (const path of Object.keys(manifest.files).filter((p) => p.startsWith('search/'))) {
      const bytes = await readFile(join(dist, 'current', path));
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(manifest.files[path].sha256);
    }
  });
});
