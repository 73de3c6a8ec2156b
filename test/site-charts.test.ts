/**
 * The charts in real Chromium (Debian's, through playwright-core), over the real server and the
 * shared test build: values on hover and keys against the API's JSON, the time range, comparing
 * countries, SVG and PNG downloads, the embed pages and their code, the four languages, and text
 * that stays readable on a phone. Mostly through the embed pages (/{lang}/embed/<chart>/).
 */
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, type Locator, type Page } from 'playwright-core';
import { launchChromium } from './browser.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from './support.ts';
import { startTestServer } from './http.ts';
import { chartMessages } from '../site/src/i18n/chart-messages.ts';
import { date as dateIn } from '../lib/format.ts';

const SHOTS = join(REPO, 'test-results', 'screenshots');
const BASE = 'https://chokepoint.test';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };
const DAY = 86_400_000;

let api: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
const errors: string[] = [];

interface Point {
  date: string;
  value: number;
}
interface Meta {
  license: string;
  license_url: string;
  attribution: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = async <T = any>(path: string): Promise<T> => {
  const res = await fetch(`${api.url}${path}`);
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
};

/** The site's numbers: fixed digits in the locale, U+2212 for minus. */
const fmt = (x: number, digits: number, locale = 'en-GB') =>
  new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x).replace(/^-/, '−');
/** The site's dates: 20 Aug 2026 in English (Sep, as lib/format.ts writes it). */
const day = (d: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })
    .format(new Date(`${d}T00:00:00Z`))
    .replace('Sept', 'Sep');
const ms = (d: string) => Date.parse(`${d}T00:00:00Z`);

async function open(path: string, name: string, viewport = DESKTOP): Promise<Page> {
  const page = await browser.newPage({ viewport });
  page.setDefaultTimeout(10_000);
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${path}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`${path}: ${e.message}`));
  const res = await page.goto(`${api.url}${path}`, { waitUntil: 'load', timeout: 15_000 });
  expect(res?.status(), path).toBe(200);
  await page.screenshot({ path: join(SHOTS, `charts-${name}.png`), fullPage: true });
  return page;
}

/** A page's own path, wherever the site puts it now: under its language, or at the root. */
async function pagePath(path: string): Promise<string> {
  const res = await fetch(`${api.url}/en${path}`);
  await res.arrayBuffer();
  return res.status === 200 ? `/en${path}` : path;
}

const overflow = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');

/** The smallest text drawn in a chart, in CSS pixels on screen (its font size times any SVG scaling). */
const smallestText = (page: Page) =>
  page.evaluate<number>(`Math.min(...[...document.querySelectorAll('svg.chart text')]
    .filter((t) => t.getBoundingClientRect().width > 0 && getComputedStyle(t).display !== 'none')
    .map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a))`);

const tipDate = async (fig: Locator) => ((await fig.locator('.chart-tip strong').textContent()) ?? '').trim();
const tipValue = async (fig: Locator, kind: string) => ((await fig.locator(`.chart-tip .tip-row[data-kind="${kind}"] b`).textContent()) ?? '').trim();
const plot = async (fig: Locator) => (await fig.locator('svg.chart').boundingBox())!;
/** The time of the date the tooltip shows (V8 reads "6 May 2026"). */
const shownTime = async (fig: Locator) => Date.parse(`${await tipDate(fig)} UTC`);

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  api = await startTestServer();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await api?.close();
});

describe('charts people can work with', () => {
  const EU = '/en/embed/reserves/gas/eu/long/';
  let eu: { first_date: string; name: string };
  let weekly: Point[];
  beforeAll(async () => {
    eu = (await json('/v1/reserves?commodity=gas&country=eu')).data;
    weekly = (await json(`/v1/reserves/timeseries?commodity=gas&country=eu&from=${eu.first_date}&frequency=weekly`)).data.points;
  });

  it('an embed page is the chart alone: title, source, licence with the backlink, a link to the full page; readable at 390 and 1366 px', async () => {
    const { meta } = await json<{ meta: Meta }>('/v1/reserves?commodity=gas&country=eu');
    for (const [vp, name] of [
      [PHONE, 'embed-eu-long-390'],
      [DESKTOP, 'embed-eu-long-1366'],
    ] as const) {
      const page = await open(EU, name, vp);
      expect(await page.locator('nav, header, .site-header, .site-footer').count()).toBe(0);
      const title = `${eu.name}: fill since ${eu.first_date.slice(0, 4)}`;
      expect(await page.locator('h1').textContent()).toBe(title);
      const svg = page.locator('svg.chart');
      expect(await svg.getAttribute('role')).toBe('img');
      expect(await svg.locator('title').first().textContent()).toBe(title);
      expect((await svg.locator('desc').first().textContent())?.length).toBeGreaterThan(20);
      expect(await page.locator('.chart-source').textContent()).toContain('Gas Infrastructure Europe');
      const credit = (await page.locator('.embed-credit').textContent())!.replace(/\s+/g, ' ');
      expect(credit).toContain(meta.attribution);
      expect(meta.attribution).toContain(`${BASE}/`);
      expect(await page.locator(`.embed-credit a[rel=license][href="${meta.license_url}"]`).textContent()).toBe(meta.license);
      const back = page.locator('a[data-testid=full-page]');
      expect(await back.getAttribute('target')).toBe('_top');
      expect(await back.getAttribute('href')).toBe(`${BASE}/en/reserves/gas/eu/`);
      expect(await overflow(page)).toBeLessThanOrEqual(1);
      if (vp === PHONE) expect(await smallestText(page)).toBeGreaterThanOrEqual(11);
      await page.close();
    }
  });

  it('hovering and the arrow keys give the date and the value of the API', async () => {
    for (const [vp, name] of [
      [PHONE, 'hover-390'],
      [DESKTOP, 'hover-1366'],
    ] as const) {
      const page = await open(EU, `eu-long-${name}`, vp);
      const fig = page.locator('figure[data-chart]');
      const byDay = new Map(weekly.map((p) => [day(p.date), p]));
      // Hover over a point two thirds along: the tooltip names a week of the API's series and its value.
      const box = await plot(fig);
      await page.mouse.move(box.x + box.width * 0.66, box.y + box.height / 2);
      const hovered = byDay.get(await tipDate(fig));
      expect(hovered, await tipDate(fig)).toBeDefined();
      expect(await tipValue(fig, 'main')).toBe(`${fmt(hovered!.value, 2)} %`);
      expect(Math.abs(ms(hovered!.date) - (ms(weekly[0]!.date) + 0.66 * (ms(weekly.at(-1)!.date) - ms(weekly[0]!.date))))).toBeLessThan(30 * DAY);
      await page.screenshot({ path: join(SHOTS, `charts-${name}.png`) });
      // The keys, from the focus: End, one step back, Home; the live region says the same.
      await fig.locator('.chart-box').focus();
      await page.keyboard.press('End');
      const last = weekly.at(-1)!;
      expect(await tipDate(fig)).toBe(day(last.date));
      expect(await tipValue(fig, 'main')).toBe(`${fmt(last.value, 2)} %`);
      expect(await fig.locator('.chart-status').textContent()).toBe(`${day(last.date)}: Fill ${fmt(last.value, 2)} %`);
      await page.keyboard.press('ArrowLeft');
      expect(await tipDate(fig)).toBe(day(weekly.at(-2)!.date));
      expect(await tipValue(fig, 'main')).toBe(`${fmt(weekly.at(-2)!.value, 2)} %`);
      await page.keyboard.press('Home');
      expect(await tipDate(fig)).toBe(day(weekly[0]!.date));
      expect(await tipValue(fig, 'main')).toBe(`${fmt(weekly[0]!.value, 2)} %`);
      expect(await fig.locator('.chart-box').getAttribute('aria-label')).toMatch(/arrow keys/);
      await page.close();
    }
  });

  it('the time range shows the last years only, and All brings the whole series back', async () => {
    const page = await open(EU, 'range-1366');
    const fig = page.locator('figure[data-chart]');
    const buttons = fig.locator('.chart-range button');
    expect(await buttons.allTextContents()).toEqual(['1 y', '5 y', '10 y', 'All']);
    const last = ms(weekly.at(-1)!.date);
    for (const years of [1, 5]) {
      await fig.locator(`button[data-range="${years}"]`).click();
      expect(await fig.locator(`button[data-range="${years}"]`).getAttribute('aria-pressed')).toBe('true');
      expect(await fig.locator('button[data-range="0"]').getAttribute('aria-pressed')).toBe('false');
      await fig.locator('.chart-box').focus();
      await page.keyboard.press('Home');
      const first = weekly.find((p) => ms(p.date) >= last - years * 365.25 * DAY)!;
      expect(await tipDate(fig)).toBe(day(first.date));
      expect(await tipValue(fig, 'main')).toBe(`${fmt(first.value, 2)} %`);
    }
    // One year is drawn with month ticks, the whole series with years.
    await fig.locator('button[data-range="1"]').click();
    expect((await fig.locator('svg.chart text.tick').allTextContents()).some((s) => /^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)/.test(s))).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'charts-range-1y.png') });
    await fig.locator('button[data-range="0"]').click();
    expect((await fig.locator('svg.chart text.tick').allTextContents()).some((s) => /^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)/.test(s))).toBe(false);
    await fig.locator('.chart-box').focus();
    await page.keyboard.press('Home');
    expect(await tipDate(fig)).toBe(day(weekly[0]!.date));
    await page.close();

    // A series of less than a year offers no range.
    const year = await open('/en/embed/reserves/gas/eu/fill/', 'embed-eu-fill-1366');
    expect(await year.locator('.chart-range').count()).toBe(0);
    await year.close();
  });

  it('comparing: France drawn beside the EU in its own colour, its newest value the API’s, and removable', async () => {
    const fr = (await json<{ data: { points: Point[] } }>(`/v1/reserves/timeseries?commodity=gas&country=fr&from=${eu.first_date}&frequency=weekly`)).data
      .points;
    for (const [vp, name] of [
      [PHONE, 'compare-390'],
      [DESKTOP, 'compare-1366'],
    ] as const) {
      const page = await open(EU, `eu-long-${name}-before`, vp);
      const fig = page.locator('figure[data-chart]');
      const select = fig.getByLabel('Compare with');
      expect(await select.locator('option[value=fr]').textContent()).toBe('France');
      expect(await select.locator('option[value=eu]').count()).toBe(0);
      await select.selectOption('fr');
      const item = fig.locator('.chart-legend li[data-country=fr]');
      await item.waitFor();
      expect((await item.textContent())?.trim()).toMatch(/^France/);
      expect(await fig.locator('svg.chart path.line-c1').count()).toBe(1);
      expect(await fig.locator('.chart-status').textContent()).toBe('France added to the chart');
      // France's newest week, read with the keys on the last year.
      await fig.locator('button[data-range="1"]').click();
      const newest = fr.at(-1)!;
      const box = await plot(fig);
      const t0 = ms(weekly.find((p) => ms(p.date) >= ms(weekly.at(-1)!.date) - 365.25 * DAY)!.date);
      const t1 = ms(weekly.at(-1)!.date);
      await page.mouse.move(box.x + ((ms(newest.date) - t0) / (t1 - t0)) * box.width, box.y + box.height / 2);
      await fig.locator('.chart-box').focus();
      // The pointer lands within a week or two of it: the keys finish the way.
      for (let i = 0; i < 8 && (await tipDate(fig)) !== day(newest.date); i++)
        await page.keyboard.press((await shownTime(fig)) > ms(newest.date) ? 'ArrowLeft' : 'ArrowRight');
      expect(await tipDate(fig)).toBe(day(newest.date));
      expect(await tipValue(fig, 'c1')).toBe(`${fmt(newest.value, 2)} %`);
      await page.screenshot({ path: join(SHOTS, `charts-${name}.png`) });
      await item.getByRole('button', { name: 'Remove France' }).click();
      expect(await fig.locator('svg.chart path.line-c1').count()).toBe(0);
      expect(await fig.locator('.chart-legend li[data-country]').count()).toBe(0);
      expect(await overflow(page)).toBeLessThanOrEqual(1);
      await page.close();
    }
  });

  it('comparing bars: French words, another country’s import dependence beside Germany’s, as the API gives it', async () => {
    const page = await open('/fr/embed/countries/DEU/import-dependence/', 'embed-deu-dependence-fr-390', PHONE);
    expect(await page.locator('html').getAttribute('lang')).toBe('fr');
    expect(await page.locator('h1').textContent()).toContain('Allemagne');
    const fig = page.locator('figure[data-chart]');
    const { data: de } = await json<{ data: { exposures: { commodity: string; import_dependence: number | null }[] } }>('/v1/countries/DEU');
    const { data: fr } = await json<{ data: { exposures: { commodity: string; import_dependence: number | null }[] } }>('/v1/countries/FRA');
    const shown = de.exposures.filter((e) => e.import_dependence !== null);
    const pc = (x: number | null) => (x === null ? '—' : `${fmt(x * 100, 0, 'fr-FR')}\u202f%`);
    expect(await fig.locator('svg.chart rect.bar-main').count()).toBe(shown.filter((e) => e.import_dependence! > 0).length);
    await fig.getByLabel('Comparer avec').selectOption('FRA');
    await fig.locator('.chart-legend li[data-country=FRA]').waitFor();
    const frBy = new Map(fr.exposures.map((e) => [e.commodity, e.import_dependence]));
    const values = await fig.locator('svg.chart text.bvalue').allTextContents();
    // Each commodity: Germany's bar, then France's.
    expect(values).toEqual(shown.flatMap((e) => [pc(e.import_dependence), pc(frBy.get(e.commodity) ?? null)]));
    expect(await fig.locator('svg.chart rect.bar-c1').count()).toBe(shown.filter((e) => (frBy.get(e.commodity) ?? 0) > 0).length);
    expect(await smallestText(page)).toBeGreaterThanOrEqual(11);
    expect(await overflow(page)).toBeLessThanOrEqual(1);
    await page.screenshot({ path: join(SHOTS, 'charts-compare-bars-fr-390.png'), fullPage: true });
    await page.close();
  });

  it('languages: German months and numbers in the tooltip, French months on the axis', async () => {
    const { data: oil } = await json<{ data: { stress_history: { date: string; index: number | null }[] } }>('/v1/commodities/energy.oil');
    const page = await open('/de/embed/commodities/energy.oil/stress-history/', 'embed-oil-history-de-1366');
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    const fig = page.locator('figure[data-chart]');
    expect(await fig.locator('.chart-range button[data-range="0"]').textContent()).toBe('Alle');
    await fig.locator('.chart-box').focus();
    await page.keyboard.press('End');
    const last = oil.stress_history.findLast((p) => p.index !== null)!;
    const month = new Intl.DateTimeFormat('de-DE', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${last.date}T00:00:00Z`));
    expect(await tipDate(fig)).toBe(month);
    expect(await tipValue(fig, 'main')).toBe(fmt(last.index!, 1, 'de-DE'));
    await page.close();

    const fr = await open('/fr/embed/reserves/gas/eu/fill/', 'embed-eu-fill-fr-390', PHONE);
    const ticks = await fr.locator('svg.chart text.tick').allTextContents();
    expect(ticks.some((s) => s.startsWith('janv.'))).toBe(true);
    expect(await smallestText(fr)).toBeGreaterThanOrEqual(11);
    await fr.close();
  });

  it('downloads: a standalone SVG with the title, source and licence drawn in, and a PNG at twice its size', async () => {
    const path = await pagePath('/countries/DEU/');
    const page = await open(path, 'country-deu-1366');
    const fig = page.locator('figure#countries-deu-stress-history');
    const title = (await fig.locator('svg.chart title').first().textContent())!;
    const { meta } = await json<{ meta: Meta }>('/v1/countries/DEU');
    const [svgFile] = await Promise.all([page.waitForEvent('download'), fig.getByRole('button', { name: 'Download the chart as SVG' }).click()]);
    expect(svgFile.suggestedFilename()).toBe('chokepoint-countries-deu-stress-history.svg');
    const svg = readFileSync((await svgFile.path())!, 'utf8');
    expect(svg.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain(`>${title.replace(/&/g, '&amp;')}</text>`);
    expect(svg).toContain('Chokepoint stress index');
    expect(svg).toContain(meta.license);
    expect(svg).toContain(`${BASE}/`);
    // Standalone: no class needs a stylesheet, every text carries its size and colour, the font is named.
    expect(svg).not.toContain('class=');
    expect(svg).toMatch(/<svg [^>]*font-family="system-ui/);
    for (const text of svg.match(/<text [^>]*>/g)!) expect(text).toMatch(/fill="#[0-9a-f]{6}".*font-size="\d+"|font-size="\d+".*fill="#[0-9a-f]{6}"/);
    const [width, height] = [Number(/ width="(\d+)"/.exec(svg)![1]), Number(/ height="(\d+)"/.exec(svg)![1])];
    // It parses as XML and draws alone, at its size.
    const viewer = await browser.newPage();
    const drawn = await viewer.evaluate(async (text: string) => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the browser's globals (no DOM types in the tests' lib)
      const w = globalThis as any;
      const doc = new w.DOMParser().parseFromString(text, 'image/svg+xml');
      const img = new w.Image();
      img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
      await img.decode();
      return { error: doc.getElementsByTagName('parsererror').length as number, w: img.naturalWidth as number, h: img.naturalHeight as number };
    }, svg);
    expect(drawn).toEqual({ error: 0, w: width, h: height });
    await viewer.close();

    const [pngFile] = await Promise.all([page.waitForEvent('download'), fig.getByRole('button', { name: 'Download the chart as PNG' }).click()]);
    expect(pngFile.suggestedFilename()).toBe('chokepoint-countries-deu-stress-history.png');
    const png = readFileSync((await pngFile.path())!);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.length).toBeGreaterThan(20_000);
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([2 * width, 2 * height]);
    await page.close();
  });

  it('embed code under a chart: an iframe of its embed page, copied with one button', async () => {
    const path = await pagePath('/countries/DEU/');
    const context = await browser.newContext({ viewport: PHONE });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: api.url });
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(`${path}: ${e.message}`));
    await page.goto(`${api.url}${path}`, { waitUntil: 'load' });
    const fig = page.locator('figure#countries-deu-stress-history');
    const { data: p } = await json<{ data: { name: string } }>('/v1/countries/DEU');
    await fig.locator('details.chart-embed summary').click();
    const code = await fig.locator('details.chart-embed textarea').inputValue();
    expect(code).toMatch(
      new RegExp(
        `^<iframe src="${BASE}/en/embed/countries/DEU/stress-history/" title="${p.name}: stress index at each month end, [^"]+" width="100%" height="\\d+" loading="lazy"`,
      ),
    );
    const embed = await fetch(`${api.url}/en/embed/countries/DEU/stress-history/`);
    expect(embed.status).toBe(200);
    expect(embed.headers.get('content-type')).toBe('text/html; charset=utf-8');
    await embed.arrayBuffer();
    await fig.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => fig.locator('.chart-status').textContent()).toBe('Embed code copied');
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(code);
    expect(await smallestText(page)).toBeGreaterThanOrEqual(11);
    expect(await overflow(page)).toBeLessThanOrEqual(1);
    await page.screenshot({ path: join(SHOTS, 'charts-embed-code-390.png'), fullPage: true });
    await context.close();
  });

  it('without the script, the build’s drawing and table stand, text at its CSS size', async () => {
    const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${api.url}${EU}`, { waitUntil: 'load' });
    expect(await page.locator('svg.chart path.line-main').count()).toBe(1);
    expect(await page.locator('.chart-controls').isHidden()).toBe(true);
    expect(await smallestText(page)).toBeGreaterThanOrEqual(11);
    expect(await overflow(page)).toBeLessThanOrEqual(1);
    await page.screenshot({ path: join(SHOTS, 'charts-no-js-390.png'), fullPage: true });
    await context.close();
  });

  it('a French commodity page writes its price axis and values in French: 2\u202f000, not 2,000', async () => {
    const { data: al } = await json<{ data: { price_history: { points: Point[] } } }>('/v1/commodities/metals.aluminium');
    const page = await open('/fr/commodities/metals.aluminium/', 'commodity-aluminium-fr-1366');
    const fig = page.locator('figure#commodities-metals-aluminium-price');
    await page.locator('figure#commodities-metals-aluminium-price[data-ready]').waitFor();
    const ticks = await fig.locator('svg.chart text.tick').allTextContents();
    // Aluminium costs 2,000 to 4,000 USD/t: its value ticks have four digits, grouped the French way.
    const thousands = ticks.filter((x) => /^\d{1,3}(\u202f\d{3})+$/.test(x));
    expect(thousands.length, ticks.join(' | ')).toBeGreaterThanOrEqual(2);
    for (const x of thousands) expect(x).toBe(new Intl.NumberFormat('fr-FR').format(Number(x.replace(/\u202f/g, ''))));
    expect(ticks.filter((x) => /\d[,.]\d{3}/.test(x))).toEqual([]);
    // The values on the keys, as the API gives them, and the chart's downloads and embed code.
    await fig.locator('.chart-box').focus();
    await page.keyboard.press('End');
    const last = al.price_history.points.at(-1)!;
    expect(await tipValue(fig, 'main')).toBe(fmt(last.value, 0, 'fr-FR'));
    const m = chartMessages('fr');
    for (const f of ['SVG', 'PNG']) expect(await fig.getByRole('button', { name: m.downloadAs(f) }).isVisible()).toBe(true);
    expect(await fig.locator('details.chart-embed textarea').inputValue()).toContain(`${BASE}/fr/embed/commodities/metals.aluminium/price/`);
    await page.close();
  });

  it('a briefing shows the chart of each series it quotes (at most four), each with its downloads', async () => {
    type Series = { metric: 'price' | 'gas_storage' | 'producer_share' | 'us_spr'; commodity: string | null; area: string | null; dates: string[] };
    const { data: list } = await json<{ data: { id: string; series: Series[] }[] }>('/v1/briefings?lang=fr&limit=50');
    const keyOf = (s: Series) =>
      s.metric === 'price'
        ? `commodities/${s.commodity}/price`
        : s.metric === 'gas_storage'
          ? `reserves/gas/${s.area}/fill`
          : s.metric === 'producer_share'
            ? `commodities/${s.commodity}/producers`
            : 'reserves/oil/us/stock';
    // A chart exists when its embed page does (only charts with data have one).
    const exists = async (key: string) => {
      const res = await fetch(`${api.url}/fr/embed/${key}/`);
      await res.arrayBuffer();
      return res.status === 200;
    };
    const idOf = (key: string) => key.replace(/[^a-zA-Z0-9]+/g, '-').toLowerCase();
    const expected = new Map<string, string[]>();
    for (const b of list) {
      const keys: string[] = [];
      for (const s of b.series) if (keys.length < 4 && !keys.includes(keyOf(s)) && (await exists(keyOf(s)))) keys.push(keyOf(s));
      expected.set(b.id, keys);
      const html = await (await fetch(`${api.url}/fr/briefings/${b.id}/`)).text();
      const section = /<section[^>]*data-testid="briefing-charts"[^]*?<\/section>/.exec(html)?.[0] ?? '';
      expect(
        [...section.matchAll(/<figure [^>]*\bid="([^"]+)"/g)].map((x) => x[1]),
        b.id,
      ).toEqual(keys.map(idOf));
    }
    expect([...expected.values()].some((k) => k.length === 4)).toBe(true);
    expect(list.some((b) => new Set(b.series.map(keyOf)).size > 4)).toBe(true);

    const m = chartMessages('fr');
    for (const b of list
      .filter((x) => x.series.some((s) => s.metric === 'gas_storage') && x.series.some((s) => s.metric === 'producer_share' || s.metric === 'price'))
      .slice(0, 1)) {
      const page = await open(`/fr/briefings/${b.id}/`, 'briefing-charts-fr-1366');
      const figs = page.locator('[data-testid=briefing-charts] figure[data-chart]');
      expect(await figs.count()).toBe(expected.get(b.id)!.length);
      for (const fig of await figs.all()) {
        await expect.poll(() => fig.getAttribute('data-ready')).toBe('');
        for (const f of ['SVG', 'PNG']) expect(await fig.getByRole('button', { name: m.downloadAs(f) }).isVisible()).toBe(true);
      }
      await page.close();
    }
  });

  it('a briefing marks the days it quotes on its charts, in the page and in the downloaded SVG', async () => {
    type Series = { metric: string; dates: string[] };
    const { data: list } = await json<{ data: { id: string; series: Series[] }[] }>('/v1/briefings?lang=fr&limit=50');
    const b = list.find((x) => x.series.some((s) => s.metric === 'us_spr'))!;
    const quoted = b.series.find((s) => s.metric === 'us_spr')!.dates;
    const { data: spr } = await json<{ data: { points: Point[] } }>('/v1/reserves/timeseries?commodity=oil&country=us&metric=volume&from=2000-01-01');
    // The SPR is weekly: each day quoted is one of its weeks.
    const weeks = new Set(spr.points.map((p) => p.date));
    expect(quoted.length).toBeGreaterThan(1);
    expect(quoted.every((d) => weeks.has(d))).toBe(true);
    const page = await open(`/fr/briefings/${b.id}/`, 'briefing-spr-fr-1366');
    const fig = page.locator('figure#reserves-oil-us-stock');
    await page.locator('figure#reserves-oil-us-stock[data-ready]').waitFor();
    expect(await fig.locator('svg.chart circle.day').evaluateAll((els) => els.map((e) => e.getAttribute('data-day')))).toEqual(quoted);
    const labels = await fig.locator('svg.chart text.day-label').allTextContents();
    expect(labels.length).toBeGreaterThan(0);
    for (const l of labels) expect(quoted.map((d) => dateIn(d, 'fr'))).toContain(l);
    expect(await fig.locator('figcaption').textContent()).toContain(quoted.map((d) => dateIn(d, 'fr')).join(', '));
    const [file] = await Promise.all([page.waitForEvent('download'), fig.getByRole('button', { name: chartMessages('fr').downloadAs('SVG') }).click()]);
    const svg = readFileSync((await file.path())!, 'utf8');
    expect(svg).not.toContain('class=');
    for (const d of quoted) expect(svg).toMatch(new RegExp(`<circle (?=[^>]*data-day="${d}")(?=[^>]*fill="#b35c00")`));
    // The newest day is always named (labels are placed newest first).
    expect(svg).toContain(`>${dateIn(quoted.at(-1)!, 'fr')}</text>`);
    await page.close();
  });

  it('a country page fits a 320 px phone: the comparison goes under its label rather than past the edge', async () => {
    // German names the countries longest: its select was the widest.
    for (const lang of ['en', 'fr', 'de', 'es']) {
      const page = await open(`/${lang}/countries/DEU/`, `country-deu-${lang}-320`, { width: 320, height: 800 });
      await expect.poll(() => page.locator('figure[data-chart]:not([data-ready])').count()).toBe(0);
      expect(await overflow(page), lang).toBe(0);
      for (const select of await page.locator('select[data-compare]').all()) {
        const box = (await select.boundingBox())!;
        expect(box.x + box.width, lang).toBeLessThanOrEqual(320);
      }
      await page.screenshot({ path: join(SHOTS, `charts-country-deu-${lang}-320.png`), fullPage: true });
      await page.close();
    }
  });

  it('logged no console errors', () => {
    expect(errors).toEqual([]);
  });
});
