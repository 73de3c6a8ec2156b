import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { fileForUrl, urlForFile } from '../contract/layout.ts';
import { startTestServer } from './http.ts';

/**
 * contract/layout.ts names each build file's public address once (urlForFile, which the Worker's
 * asset layer is written from) and each address's file (fileForUrl, which the Node app serves
 * from): over a real build they are inverses, and Node answers every such address with the file.
 */
const current = join(inject('distDir'), 'current');
const files = (readdirSync(current, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
  .filter((d) => d.isFile())
  .map((d) => relative(current, join(d.parentPath, d.name)))
  .sort();

describe('build files and public addresses', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('fileForUrl(urlForFile(f)) is f for every file given an address; the API’s files have none', () => {
    const addressed = files.filter((f) => urlForFile(f) !== null);
    expect(addressed.length).toBeGreaterThan(1000);
    for (const f of addressed) expect(fileForUrl(urlForFile(f)!), f).toBe(f);
    for (const f of files.filter((x) => x.startsWith('v1/') || x.startsWith('data/') || x.startsWith('search/'))) expect(urlForFile(f), f).toBeNull();
    expect(fileForUrl('/v1/commodities')).toBeNull();
    expect(fileForUrl('/fr/')).toBe('site/fr/index.html');
    expect(urlForFile('docs/methodology')).toBe('/docs/methodology.md');
  });

  it('the Node server answers each such address with the file’s bytes (one file in 40, and the first of every folder)', async () => {
    const served = files.filter((f) => urlForFile(f) !== null && !/\.(br|gz)$/.test(f));
    const kind = (f: string) => f.split('/')[0];
    const sample = served.filter((f, i) => i % 40 === 0 || kind(served[i - 1] ?? '') !== kind(f));
    expect(sample.some((f) => f.startsWith('site/'))).toBe(true);
    expect(sample.some((f) => f.startsWith('docs/'))).toBe(true);
    for (const f of sample) {
      const res = await fetch(`${server.url}${urlForFile(f)}`, { headers: { 'accept-encoding': 'identity' } });
      expect(res.status, f).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(current, f))), f).toBe(true);
    }
  });
});
