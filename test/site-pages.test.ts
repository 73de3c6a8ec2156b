/**
 * Every page type of the readout site in the four languages, on a phone (390 px) and a laptop
 * (1366 px), in Debian's Chromium: the page answers in its language, nothing overflows the
 * viewport, the console stays clean and axe-core finds no serious or critical violation.
 * A screenshot of each is kept in test-results/screenshots/pages/. Every page is served with its
 * Content-Security-Policy and breaks none of it (a violation is a console error, and is collected
 * by its event too); an embed page may be framed by another origin, any other page may not.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
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
const axeSource = readFile(AXE, 'utf8');
/** Collects the page's CSP violations (securitypolicyviolation events) in window.__cspViolations. */
const CSP_WATCH = `window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline')));`;

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
  it.each(WIDTHS)(
    `every page type at %i px: its language, no overflow, no console error, no serious axe violation`,
    async (width) => {
      const problems: string[] = [];
      for (const [type, path] of await pageTypes(lang)) {
        const page = await browser.newPage({ viewport: { width, height: 900 } });
        page.setDefaultTimeout(15_000);
        const errors: string[] = [];
        page.on('console', (m) => {
          if (m.type() === 'error') errors.push(m.text());
        });
        page.on('pageerror', (e) => errors.push(e.message));
        // Run by the browser before the page's own scripts, whatever its CSP allows.
        await page.addInitScript(CSP_WATCH);
        try {
          const res = await page.goto(`${api.url}${path}`, { waitUntil: 'load', timeout: 20_000 });
          if (res?.status() !== 200) {
            problems.push(`${path}: status ${res?.status()}`);
            continue;
          }
          const csp = res.headers()['content-security-policy'] ?? '';
          if (!csp.includes("script-src 'self'") || !csp.includes("style-src 'self'")) problems.push(`${path}: Content-Security-Policy is "${csp}"`);
          if ((await page.getAttribute('html', 'lang')) !== lang) problems.push(`${path}: <html lang> is not ${lang}`);
          const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'));
          if (overflow > 0) problems.push(`${path} at ${width} px: the page is ${overflow} px wider than the viewport`);
          // Evaluated through the debugging protocol: an injected <script> would be refused by the CSP.
          await page.evaluate(await axeSource);
          const axe = (await page.evaluate("axe.run({ resultTypes: ['violations'] })")) as AxeResult;
          for (const v of axe.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical'))
            problems.push(
              `${path} at ${width} px: ${v.impact} ${v.id} (${v.help}) on ${v.nodes
                .slice(0, 3)
                .map((n) => n.target.join(' '))
                .join(', ')}`,
            );
          const violations = (await page.evaluate('window.__cspViolations')) as string[];
          if (violations.length) problems.push(`${path}: CSP violations: ${violations.join(' | ')}`);
          if (errors.length) problems.push(`${path}: console errors: ${errors.join(' | ')}`);
          await page.screenshot({ path: join(SHOTS, `${lang}-${type}-${width}.png`), fullPage: true, timeout: 150_000 });
        } finally {
          await page.close();
        }
      }
      expect(problems).toEqual([]);
      // A walk over every page type with axe, not a speed check: on a loaded machine it takes minutes
      // (a full-page screenshot alone took over 60 s once, beside the rest of the suite).
    },
    600_000,
  );
});

describe('framing', () => {
  let host: Server;
  let hostUrl = '';
  beforeAll(async () => {
    // Another origin (localhost, not 127.0.0.1) with a page that frames two of ours.
    host = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><title>host</title><iframe id="embed" src="${api.url}/en/embed/reserves/gas/de/fill/"></iframe><iframe id="page" src="${api.url}/en/reserves/gas/de/"></iframe>`,
      );
    });
    await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
    hostUrl = `http://localhost:${(host.address() as { port: number }).port}/`;
  });
  afterAll(() => new Promise<void>((r) => host.close(() => r())));

  it('an embed page may be framed by another origin; a normal page may not', async () => {
    const embed = await fetch(`${api.url}/en/embed/reserves/gas/de/fill/`);
    expect(embed.headers.get('content-security-policy')).toContain('frame-ancestors *');
    expect(embed.headers.get('x-frame-options')).toBeNull();
    const normal = await fetch(`${api.url}/en/reserves/gas/de/`);
    expect(normal.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(normal.headers.get('x-frame-options')).toBe('DENY');

    const page = await browser.newPage();
    try {
      await page.goto(hostUrl, { waitUntil: 'load', timeout: 20_000 });
      const frameOf = async (id: string) => (await page.$(`#${id}`))!.contentFrame();
      const [embedFrame, pageFrame] = [await frameOf('embed'), await frameOf('page')];
      // The embed draws its chart; the refused page is Chromium's error page, with none of ours.
      expect(await embedFrame!.locator('svg').count()).toBeGreaterThan(0);
      expect(await pageFrame!.locator('main').count()).toBe(0);
    } finally {
      await page.close();
    }
  });
});
