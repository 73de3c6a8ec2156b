import { describe, expect, it } from 'vitest';
import type { ManifestFile } from '../contract/manifest.ts';
import type { StaticFile } from './build.ts';
import { ColdFiles, isColdOnNode } from './cold-files.ts';

const entry = (bytes: number): ManifestFile => ({ sha256: 'a'.repeat(64), bytes, content_type: 'text/html; charset=utf-8' });

function files(sizes: Record<string, number>, maxBytes: number) {
  const reads: string[] = [];
  const cold = new ColdFiles(
    new Map(Object.entries(sizes).map(([p, n]) => [p, entry(n)])),
    async (path, e) => {
      reads.push(path);
      return { body: new Uint8Array(e.bytes), etag: `"${path}"`, contentType: e.content_type } satisfies StaticFile;
    },
    maxBytes,
  );
  return { cold, reads };
}

describe('files read from disk when asked', () => {
  it('reads a file once, then answers from memory; concurrent requests share one read', async () => {
    const { cold, reads } = files({ 'site/en/index.html': 100 }, 1000);
    const [a, b] = await Promise.all([cold.get('site/en/index.html'), cold.get('site/en/index.html')]);
    expect(a).toBe(b);
    expect(await cold.get('site/en/index.html')).toBe(a);
    expect(reads).toEqual(['site/en/index.html']);
  });

  it('keeps the most recently used within its budget and reads an evicted file again', async () => {
    const { cold, reads } = files({ a: 200, b: 200, c: 200, d: 200, e: 200 }, 1000);
    for (const p of ['a', 'b', 'c', 'd', 'e']) await cold.get(p);
    await cold.get('a'); // a is now the most recent; b is the oldest
    await cold.get('b'); // still held: 5 × 200 fits
    expect(reads).toEqual(['a', 'b', 'c', 'd', 'e']);
    // 400 bytes hold four files of 100: the fifth pushes out the least recently used (b, as a was used after it).
    const { cold: small, reads: smallReads } = files({ a: 100, b: 100, c: 100, d: 100, e: 100 }, 400);
    for (const p of ['a', 'b', 'c', 'd', 'a', 'e', 'a', 'b']) await small.get(p);
    expect(smallReads).toEqual(['a', 'b', 'c', 'd', 'e', 'b']);
  });

  it('never keeps a file larger than a quarter of the budget, and knows which files exist', async () => {
    const { cold, reads } = files({ big: 600 }, 1000);
    await cold.get('big');
    await cold.get('big');
    expect(reads).toEqual(['big', 'big']);
    expect(cold.has('big')).toBe(true);
    expect(cold.has('other')).toBe(false);
    expect(await cold.get('other')).toBeUndefined();
  });

  it('a failed read is not kept: the next request reads again', async () => {
    let fail = true;
    const cold = new ColdFiles(
      new Map([['x', entry(10)]]),
      async (_p, e) => {
        if (fail) throw new Error('EIO');
        return { body: new Uint8Array(e.bytes), etag: '"x"', contentType: e.content_type };
      },
      1000,
    );
    await expect(cold.get('x')).rejects.toThrow('EIO');
    fail = false;
    expect((await cold.get('x'))?.body.byteLength).toBe(10);
  });

  it('on Node, the pages and bulk downloads are cold; the API files and the site assets stay in memory', () => {
    expect(isColdOnNode('site/fr/commodities/metals.cobalt/index.html')).toBe(true);
    expect(isColdOnNode('bulk/chokepoint.parquet')).toBe(true);
    expect(isColdOnNode('site/_astro/index.abc123.css')).toBe(false);
    expect(isColdOnNode('v1/commodities/metals.cobalt.json')).toBe(false);
  });
});
