/**
 * Every page type of the readout site in the four languages, on a phone (390 px) and a laptop
 * (1366 px), in Debian's Chromium: the page answers in its language, nothing overflows the
 * viewport, the console stays clean and axe-core finds no serious or critical violation.
 * A screenshot of each is kept in test-results/screenshots/pages/.
 */
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Browser } from 'playwright-core';
import { launchChromium } from './browser.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGS, type Lang } from '../contract/languages.ts';
import { REPO } from './support.ts';
import { startTestServer } from './http.ts';

const SHOTS = join(REPO, 'test-results', 'screenshots', 'pages');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const WIDTHS = [390, 1366] as const;

let api: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = async <T = any>(path: string): Promise<T> => {
  const res = await fetch(`${api.url}${path}`);
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
};

/** One page of each type, by language: ids taken from the API so the test follows the data. */
async function pageTypes(lang: Lang): Promise<[string, string][]> {
  const commodities = (await json<{ data: { slug: string }[] }>('/v1/commodities')).data;
  const storage = (await json<{ data: { country: string }[] }>('/v1/reserves?commodity=gas')).data;
  const briefing = (await json<{ data: { id: string }[] }>(`/v1/briefings?lang=${lang}&limit=1`)).data[0];
  const area = storage.find((r) => r.country === 'de')?.country ?? storage[0]!.country;
  return [
    ['home', `/${lang}/`],
    ['commodities', `/${lang}/commodities/`],
    ['commodity', `/${lang}/commodities/${commodities.find((c) => c.slug === 'energy.oil')?.slug ?? commodities[0]!.slug}/`],
    ['countries', `/${lang}/countries/`],
    ['country', `/${lang}/countries/DEU/`],
    ['reserves', `/${lang}/reserves/`],
    ['reserve', `/${lang}/reserves/gas/${area}/`],
    ['embed', `/${lang}/embed/reserves/gas/${area}/fill/`],
    ['scenarios', `/${lang}/scenarios/`],
    ['events', `/${lang}/events/`],
    ['briefings', `/${lang}/briefings/`],
    ...(briefing ? ([['briefing', `/${lang}/briefings/${briefing.id}/`]] as [string, string][]) : []),
    ['search', `/${lang}/search/?q=${encodeURIComponent('cobalt')}`],
    ['methodology', `/${lang}/docs/methodology/`],
    ['api', `/${lang}/docs/api/`],
  ];
}

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
}

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  api = await startTestServer();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await api?.close();
});

describe.each(LANGS)('site pages in %s', (lang) => {
  it.each(WIDTHS)(`every page type at %i px: its language, no overflow, no console error, no serious axe violation`, async (width) => {
    const problems: string[] = [];
    for (const [type, path] of await pageTypes(lang)) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      page.setDefaultTimeout(15_000);
      const errors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(e.message));
      try {
        const res = await page.goto(`${api.url}${path}`, { waitUntil: 'load', timeout: 20_000 });
        if (res?.status() !== 200) {
          problems.push(`${path}: status ${res?.status()}`);
          continue;
        }
        if ((await page.getAttribute('html', 'lang')) !== lang) problems.push(`${path}: <html lang> is not ${lang}`);
        const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'));
        if (overflow > 0) problems.push(`${path} at ${width} px: the page is ${overflow} px wider than the viewport`);
        await page.addScriptTag({ path: AXE });
        const axe = (await page.evaluate("axe.run({ resultTypes: ['violations'] })")) as AxeResult;
        for (const v of axe.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical'))
          problems.push(
            `${path} at ${width} px: ${v.impact} ${v.id} (${v.help}) on ${v.nodes
              .slice(0, 3)
              .map((n) => n.target.join(' '))
              .join(', ')}`,
          );
        if (errors.length) problems.push(`${path}: console errors: ${errors.join(' | ')}`);
        await page.screenshot({ path: join(SHOTS, `${lang}-${type}-${width}.png`), fullPage: true });
      } finally {
        await page.close();
      }
    }
    expect(problems).toEqual([]);
  });
});
