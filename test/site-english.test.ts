/**
 * No English on a French, German or Spanish page outside what the page marks as English
 * (`lang="en"`): every page the build writes in each language, read in Debian's Chromium from the build's
 * HTML (scripts off, so the text is what the build wrote), checked for English function words
 * (test/english-text.ts). Issue 35: the footer's licence sentence, the reason on country pages
 * with no reading and the charts' source lines were English on every such page.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { englishIn, englishOnPages } from './english-text.ts';

/** Every HTML page the build wrote for `lang`, relative to its folder. */
function pagesOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((p) => p.endsWith('.html'))
    .sort();
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

describe('English on pages in other languages', () => {
  it('the checker finds English where a page does not mark it, and nothing in text marked lang="en"', async () => {
    expect(englishIn('Données au 20 août 2026. Reuse requires attribution with a link back to')).toHaveLength(4);
    expect(englishIn('Les données de consommation de THE ; Daten der THE')).toEqual([]);
    const problems = await englishOnPages(browser, [
      { name: 'unmarked', html: '<html lang="fr"><body><p>Licence : no energy balance for this country.</p></body></html>' },
      { name: 'marked', html: '<html lang="fr"><body><p>Titre : <span lang="en">Strait of Hormuz closed by the war</span></p><code>the</code></body></html>' },
    ]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^unmarked: .*for this country/);
  });

  // Every page of the build, not a sample: about 850 a language, a few minutes in all on a loaded machine.
  it.each(['fr', 'de', 'es'])(
    'finds none on any page in %s',
    async (lang) => {
      const site = join(inject('distDir'), 'current', 'site', lang);
      const pages = pagesOf(site);
      // Every type of page is there: the walk did not miss a folder.
      for (const p of [
        'index.html',
        'events/index.html',
        'countries/COD/index.html',
        'commodities/metals.vanadium/index.html',
        'embed/reserves/gas/de/fill/index.html',
      ]) {
        expect(pages).toContain(p);
      }
      expect(pages.length).toBeGreaterThan(500);
      const problems = await englishOnPages(
        browser,
        pages.map((p) => ({ name: `${lang}/${p}`, html: readFileSync(join(site, p), 'utf8') })),
      );
      expect(problems).toEqual([]);
    },
    900_000,
  );
});

describe('events in the language of the page', () => {
  it('the French timeline shows the French title and summary, not English marked lang="en"', async () => {
    const html = readFileSync(join(inject('distDir'), 'current', 'site', 'fr', 'events', 'index.html'), 'utf8');
    const context = await browser.newContext({ javaScriptEnabled: false });
    await context.route('**/*', (r) => r.abort());
    try {
      const page = await context.newPage();
      await page.setContent(html, { waitUntil: 'domcontentloaded' });
      const item = page.locator('li[id="2022-09-26-nord-stream-damage"]');
      await expect(item.locator('h3').textContent()).resolves.toBe('Des explosions endommagent les gazoducs Nord Stream dans la Baltique');
      await expect(item.locator('h3').getAttribute('lang')).resolves.toBeNull();
      await expect(item.locator('h3 + p').textContent()).resolves.toMatch(/^Des explosions sous-marines ont rompu les deux lignes de Nord Stream 1/);
      expect(await page.locator('[lang="en"]', { hasText: 'Explosions damage the Nord Stream' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});

describe("numbers in the page's language", () => {
  it.each([
    ['fr', '0,5\u202f%'],
    ['de', '0,5\u00a0%'],
    ['es', '0,5\u00a0%'],
    ['en', '0.5 %'],
  ])('the country band labels of the stress chart in %s read %s', (lang, bound) => {
    const html = readFileSync(join(inject('distDir'), 'current', 'site', lang, 'countries', 'DEU', 'index.html'), 'utf8');
    const labels = [...html.matchAll(/<text class="zlabel zlabel-(low|moderate)"[^>]*>([^<]*)<\/text>/g)].map((m) => m[2]!);
    expect(labels).toHaveLength(2);
    expect(labels[0]).toMatch(new RegExp(`&lt; ${bound}$`));
    expect(labels[1]).toMatch(new RegExp(`^\\S+ ${bound.replace('\u202f%', '').replace('\u00a0%', '').replace(' %', '')}–2`));
    if (lang !== 'en') expect(html).not.toContain('0.5 %');
  });
});
