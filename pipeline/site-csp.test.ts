import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { inlineCode } from './site-stage.ts';

/** The pages' CSP allows scripts and styles from our origin only: the site stage keeps code out of the HTML. */
describe('no inline code in the pages', () => {
  it.each([
    ['<script type="module">const a = 1;</script>', 'script (const a = 1;)'],
    ['<script>alert(1)</script>', 'script (alert(1))'],
    ['<style>p{color:red}</style>', '<style> (p{color:red})'],
    ['<script type="module" src="/_astro/a.js"></script>', null],
    ['<script type="application/json" data-spec>{"a":1}</script>', null],
    ['<p style="height:10px">no element of code</p>', null],
  ])('%s → %s', (html, found) => {
    expect(inlineCode(html)).toBe(found);
  });

  it('every page of the real build holds none (Astro’s small scripts are written as files)', async () => {
    const site = join(inject('distDir'), 'current', 'site');
    const pages = (await readdir(site, { recursive: true })).filter((f) => f.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const p of pages) {
      const inline = inlineCode(await readFile(join(site, p), 'utf8'));
      if (inline) found.push(`${p}: ${inline}`);
    }
    expect(found).toEqual([]);
  });
});
