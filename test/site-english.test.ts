/**
 * No English on a French, German or Spanish page outside what the page marks as English
 * (`lang="en"`): one page of each type per language, read in Debian's Chromium from the build's
 * HTML (scripts off, so the text is what the build wrote), checked for English function words
 * (test/english-text.ts). Issue 35: the footer's licence sentence, the reason on country pages
 * with no reading and the charts' source lines were English on every such page.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { englishIn, englishOnPages } from './english-text.ts';

/** A page of each type; COD has no stress reading (its reason is said in words), DEU has every section. */
const PAGES = (lang: string) => [
  'index.html',
  'commodities/index.html',
  'commodities/energy.oil/index.html',
  'commodities/metals.vanadium/index.html',
  'countries/index.html',
  'countries/DEU/index.html',
  'countries/COD/index.html',
  'reserves/index.html',
  'reserves/gas/de/index.html',
  'embed/reserves/gas/de/fill/index.html',
  'scenarios/index.html',
  'events/index.html',
  'briefings/index.html',
  `briefings/2026-02-16-cobalt-quota-regime-${lang}/index.html`,
  'search/index.html',
  'docs/methodology/index.html',
  'docs/api/index.html',
];

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

describe('English on pages in other languages', () => {
  it('the checker finds English where a page does not mark it, and nothing in text marked lang="en"', async () => {
    expect(englishIn('Données au 20 août 2026. Reuse requires attribution with a link back to')).toHaveLength(3);
    expect(englishIn('Les données de consommation de THE ; Daten der THE')).toEqual([]);
    const problems = await englishOnPages(browser, [
      { name: 'unmarked', html: '<html lang="fr"><body><p>Licence : no energy balance for this country.</p></body></html>' },
      { name: 'marked', html: '<html lang="fr"><body><p>Titre : <span lang="en">Strait of Hormuz closed by the war</span></p><code>the</code></body></html>' },
    ]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^unmarked: .*for this country/);
  });

  it.each(['fr', 'de', 'es'])('finds none on a page of each type in %s', async (lang) => {
    const site = join(inject('distDir'), 'current', 'site', lang);
    const problems = await englishOnPages(
      browser,
      PAGES(lang).map((p) => ({ name: `${lang}/${p}`, html: readFileSync(join(site, p), 'utf8') })),
    );
    expect(problems).toEqual([]);
  });
});
