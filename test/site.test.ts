/**
 * The readout site in real Chromium (Debian's, through playwright-core): every page type, checked
 * against the API's JSON, with its links, console errors, transferred bytes and a screenshot.
 */
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, type Locator, type Page } from 'playwright-core';
import { launchChromium } from './browser.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DATA_DIR, REPO } from './support.ts';
import { LANGS, type Lang } from '../contract/languages.ts';
import { date as dateIn, num as numIn, pct as pctIn } from '../lib/format.ts';
import { t } from '../site/src/i18n/messages.ts';
import { startTestServer } from './http.ts';

const SHOTS = join(REPO, 'test-results', 'screenshots');
const BUDGET = 150 * 1024;
const HTML_CACHE = 'public, max-age=60, s-maxage=900, stale-while-revalidate=900';

let api: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
/** Transferred bytes and console errors per page opened, checked at the end. */
const weights = new Map<string, number>();
const errors: string[] = [];

/** Data downloads (JSON, CSV, feeds) are not part of a page's weight. */
const isDownload = (url: string) => {
  const u = new URL(url);
  return u.pathname.startsWith('/v1/') || /\.(csv|json|atom)$/.test(u.pathname);
};

interface Opened {
  page: Page;
  bytes: () => Promise<number>;
}

async function open(path: string, name: string, viewport = { width: 1280, height: 900 }, shot = true): Promise<Opened> {
  const page = await browser.newPage({ viewport });
  page.setDefaultTimeout(10_000);
  const sizes: Promise<number>[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${path}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`${path}: ${e.message}`));
  page.on('response', (r) => {
    if (isDownload(r.url()) || r.status() >= 300) return;
    sizes.push(
      r.body().then(
        (b) => b.length + 300,
        () => 0,
      ),
    ); // body + a typical header block
  });
  const res = await page.goto(`${api.url}${path}`, { waitUntil: 'load', timeout: 15_000 });
  expect(res?.status(), path).toBe(200);
  const bytes = async () => {
    const n = (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
    weights.set(path, n);
    return n;
  };
  // A record for people, not a speed check: the top 6,000 px of the page (the methodology guide is over
  // 18,000 px tall, and a full screenshot of it took 15 s on a loaded machine).
  if (shot) {
    const height = (await page.evaluate('document.documentElement.scrollHeight')) as number;
    const clip = { x: 0, y: 0, width: viewport.width, height: Math.min(height, 6_000) };
    // 150 s as in test/site-pages.test.ts: Chromium lays out the whole guide first, slow beside a loaded suite.
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true, clip, timeout: 150_000 });
  }
  return { page, bytes };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = async <T = any>(path: string): Promise<T> => {
  const res = await fetch(`${api.url}${path}`);
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
};
/** One page of each type in `lang`, the ids taken from the API. */
async function pageTypes(lang: Lang): Promise<[string, string][]> {
  const { data: briefs } = await json<{ data: { id: string }[] }>(`/v1/briefings?lang=${lang}&limit=1`);
  return [
    ['home', `/${lang}/`],
    ['commodities', `/${lang}/commodities/`],
    ['commodity', `/${lang}/commodities/agri.urea/`],
    ['countries', `/${lang}/countries/`],
    ['country', `/${lang}/countries/DEU/`],
    ['reserves', `/${lang}/reserves/`],
    ['reserve', `/${lang}/reserves/oil/us/`],
    ['scenarios', `/${lang}/scenarios/`],
    ['events', `/${lang}/events/`],
    ['briefings', `/${lang}/briefings/`],
    ['briefing', `/${lang}/briefings/${briefs[0]!.id}/`],
    ['search', `/${lang}/search/`],
    ['methodology', `/${lang}/docs/methodology/`],
    ['api', `/${lang}/docs/api/`],
  ];
}
const text = async (page: Page, sel: string) => ((await page.locator(sel).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();
/** The site's number format: fixed decimals, U+2212 for minus. */
const fmt = (x: number, d: number) => new Intl.NumberFormat('en-GB', { minimumFractionDigits: d, maximumFractionDigits: d }).format(x).replace(/^-/, '−');

type HistoryPoint = { date: string; index: number | null; band: string | null };
const ms = (d: string) => Date.parse(`${d}T00:00:00Z`);
/** Where a date falls across the history chart's width, 0–1 (the axis runs from the first month's start to the last month end). */
const across = (h: HistoryPoint[], d: string) => (ms(d) - ms(`${h[0]!.date.slice(0, 7)}-01`)) / (ms(h.at(-1)!.date) - ms(`${h[0]!.date.slice(0, 7)}-01`));
const box = async (l: Locator) => (await l.boundingBox())!;

/**
 * What a reader of a "Stress index history" section sees: the chart with the four bands named, a
 * table row per month, its CSV, the method version with working links to the methodology.
 */
async function checkHistory(page: Page, history: HistoryPoint[], version: string, name: string, kind: 'commodity' | 'country' = 'commodity') {
  expect(await text(page, '#h-hist')).toBe('Stress index history');
  const sec = page.locator('section[data-testid=stress-history]');
  const svg = sec.locator('svg.chart');
  expect(await svg.getAttribute('role')).toBe('img');
  expect(await svg.locator('title').first().textContent()).toContain(`${name}: stress index at each month end`);
  expect(await svg.isVisible()).toBe(true);
  // Commodities read 0–100; a country the percent of its primary energy at risk (methodology 3.0.0).
  const bands =
    kind === 'commodity' ? ['Low < 25', 'Moderate 25–50', 'High 50–75', 'Severe ≥ 75'] : ['Low < 0.5 %', 'Moderate 0.5–2 %', 'High 2–7 %', 'Severe ≥ 7 %'];
  for (const band of bands) expect(await svg.locator('text', { hasText: band }).isVisible(), band).toBe(true);
  // The data table: every month, newest first, the index in the site's number format.
  const rows = sec.locator('details table tbody tr');
  expect(await rows.count()).toBe(history.length);
  const newest = [...history].reverse().find((p) => p.index !== null)!;
  // (textContent: the table sits in a closed <details>, so it has no rendered text)
  expect(await sec.locator(`details table tbody tr:has(td:text-is("${newest.date}")) td:nth-child(2)`).textContent()).toBe(fmt(newest.index!, 1));
  // The chart's CSV: this history, one row a month.
  const csvHref = (await sec.locator('figure a[type="text/csv"]').getAttribute('href'))!;
  const csv = await fetch(`${api.url}${csvHref}`);
  expect(csv.status, csvHref).toBe(200);
  expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  const lines = (await csv.text()).trim().split('\r\n');
  expect(lines[0]).toBe('date,index,band,coverage');
  expect(lines.length - 1).toBe(history.length);
  // The method version, and links that answer: the methodology's sections, every history in one CSV.
  const method = sec.locator('[data-testid=history-method]');
  expect(await text(page, 'section[data-testid=stress-history] [data-testid=history-method]')).toContain(`Method version ${version}`);
  const doc = await (await fetch(`${api.url}/en/docs/methodology/`)).text();
  for (const href of await method
    .locator('a[href^="/en/docs/methodology/#"]')
    .evaluateAll((as: { getAttribute(name: string): string | null }[]) => as.map((a) => a.getAttribute('href')!))) {
    expect(doc, href).toContain(`id="${href.split('#')[1]}"`);
  }
  const all = await fetch(`${api.url}${await method.locator('a[type="text/csv"]').getAttribute('href')}`);
  expect(all.status).toBe(200);
  expect((await all.text()).split('\r\n')[0]).toBe('id,date,index,band,coverage');
  return { sec, svg };
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

describe('the readout site', () => {
  it('home: rankings, EU storage, events, briefings and freshness from the API; footer with the day of the figures and licence', async () => {
    const { page, bytes } = await open('/en/', 'home');
    const list = await json<{
      data: { name: string; stress_index: number | null }[];
      meta: { generated_at: string; build: string; attribution: string; license_url: string };
    }>('/v1/commodities');
    // Ties (oil, LNG and urea all read the physical floor's 75) are ordered by name, as the home page orders them.
    const top = [...list.data].sort((a, b) => (b.stress_index ?? -1) - (a.stress_index ?? -1) || a.name.localeCompare(b.name))[0]!;
    expect(await text(page, 'ol.rank li a')).toBe(top.name);
    const eu = await json<{ data: { fill_pct: number } }>('/v1/reserves?commodity=gas&country=eu');
    expect(await text(page, '[data-testid=eu-fill]')).toBe(`${fmt(eu.data.fill_pct, 1)} %`);
    const events = await json<{ data: { title: string }[] }>('/v1/events?limit=5');
    expect(await text(page, 'section[aria-labelledby=ev] h3')).toBe(events.data[0]!.title);
    const briefs = await json<{ data: { title: string }[] }>('/v1/briefings?lang=en&limit=1');
    expect(await text(page, 'section[aria-labelledby=br] h3')).toBe(briefs.data[0]!.title);
    expect(await page.locator('section[aria-labelledby=fresh] tbody tr').count()).toBeGreaterThanOrEqual(10);
    expect(await page.locator('svg.chart title').first().textContent()).toContain('European Union');

    const footer = await text(page, 'footer');
    // The footer dates the page by its data (issue 35: it gave the build day as the figures' date):
    // the newest observation behind the page, each source's own under "By source", and the build
    // day only as "rebuilt on". It names the day, never the build: a page is reused unchanged by
    // the next build of the same day.
    const health = await json<{ sources: { id: string; data_as_of: string | null; expected_next: string | null }[] }>('/healthz');
    const built = list.meta.generated_at.slice(0, 10);
    const newest = health.sources
      .map((s) => s.data_as_of ?? '')
      .sort()
      .at(-1)!;
    expect(await page.locator('[data-testid=data-date] > time').first().getAttribute('datetime')).toBe(newest);
    expect(newest < built).toBe(true);
    expect(await page.locator('[data-testid=rebuilt-on]').getAttribute('datetime')).toBe(built);
    expect(await page.locator('[data-testid=data-date] li[data-source]').count()).toBe(health.sources.filter((s) => s.data_as_of).length);
    expect(footer).toContain(`Page rebuilt on ${dateIn(built, 'en')}`);
    // The interval the build was given (the test build: REBUILD_EVERY unset, 15 minutes; pipeline/build.test.ts sets one).
    expect(footer).toContain("from the publishers' files every 15 minutes (the build being served:");
    expect(footer).not.toMatch(/Figures as of/);
    expect(footer).not.toContain(list.meta.build);
    expect(footer).toContain('Reuse requires attribution with a link back to https://chokepoint.test/. Upstream sources keep their own terms.');
    // The sources overdue on the build day are named at the top of the home page.
    const overdue = health.sources.filter((s) => s.expected_next !== null && s.expected_next < built).map((s) => s.id);
    expect(overdue.length).toBeGreaterThan(3);
    expect(await page.locator('[data-testid=overdue] a[data-source]').evaluateAll((as) => as.map((a) => a.getAttribute('data-source')))).toEqual(
      expect.arrayContaining(overdue),
    );
    expect(await page.locator('[data-testid=overdue] a[data-source]').count()).toBe(overdue.length);
    expect(await page.locator(`footer a[rel=license][href="${list.meta.license_url}"]`).count()).toBe(1);
    expect(await page.locator('footer a[href="https://chokepoint.test/"]').count()).toBe(1);
    expect(await bytes()).toBeLessThan(BUDGET);

    // Every internal link on the home page answers (pages, JSON and CSV alike).
    const hrefs = await page
      .locator('a[href^="/"]')
      .evaluateAll((as: { getAttribute(name: string): string | null }[]) => [...new Set(as.map((a) => a.getAttribute('href')!.split('#')[0]!))]);
    expect(hrefs.length).toBeGreaterThan(60);
    const broken: string[] = [];
    for (const h of hrefs) {
      const res = await fetch(`${api.url}${h}`, { headers: { accept: 'text/html,application/json;q=0.9,*/*;q=0.8' } });
      if (res.status !== 200) broken.push(`${h} → ${res.status}`);
      await res.arrayBuffer();
    }
    expect(broken).toEqual([]);
    await page.close();
  });

  it('commodity page: when the physical floor sets the index (oil, Hormuz 2026), the page says so with the API’s figures', async () => {
    const { data: oil } = await json<{ data: { stress: { index: number; physical_floor: number | null; components: { contribution: number | null }[] } } }>(
      '/v1/commodities/energy.oil',
    );
    const sum = oil.stress.components.reduce((t, k) => t + (k.contribution ?? 0), 0);
    expect(oil.stress.physical_floor).toBe(oil.stress.index);
    expect(oil.stress.physical_floor!).toBeGreaterThan(sum);
    const html = await (await fetch(`${api.url}/en/commodities/energy.oil/`)).text();
    expect(html).toContain(
      `data-testid="physical-floor">The points add up to ${fmt(sum, 1)}, but supply is lost on a route with no detour (Hormuz): the physical floor, ${fmt(oil.stress.physical_floor!, 1)}, sets the index.`,
    );
    // Cobalt has no measured route: no floor, no note.
    expect(await (await fetch(`${api.url}/en/commodities/metals.cobalt/`)).text()).not.toContain('physical-floor');
  });

  it('commodity page: the top producer and its share, the stress index and the price chart match the sheet', async () => {
    const { page, bytes } = await open('/en/commodities/metals.cobalt/', 'commodity-cobalt');
    const { data: c } = await json<{
      data: { name: string; stress_index: number; producers: { entries: { name: string; share: number }[] }; stress: { components: { name: string }[] } };
    }>('/v1/commodities/metals.cobalt');
    expect(await text(page, 'h1')).toContain(c.name);
    // The footer dates the page by the sheet's newest observation, each of its sources by its own.
    const { meta: sheetMeta } = await json<{ meta: { as_of: string; sources: { id: string; data_as_of: string | null }[] } }>('/v1/commodities/metals.cobalt');
    expect(await page.locator('[data-testid=data-date] > time').first().getAttribute('datetime')).toBe(sheetMeta.as_of);
    for (const src of sheetMeta.sources.filter((x) => x.data_as_of))
      expect(await page.locator(`[data-testid=data-date] li[data-source="${src.id}"] time`).getAttribute('datetime')).toBe(src.data_as_of);
    const top = c.producers.entries[0]!;
    expect(await text(page, '[data-testid=top-producer]')).toBe(top.name);
    expect(await text(page, '[data-testid=top-share]')).toContain(`${fmt(top.share * 100, 1)} %`);
    expect(await text(page, '[data-testid=stress]')).toBe(fmt(c.stress_index, 1));
    expect(await text(page, '[data-testid=table-producers] tbody tr th')).toBe(top.name);
    for (const k of c.stress.components) expect(await page.getByRole('rowheader', { name: k.name }).count()).toBe(1);
    // Charts have text alternatives and link to their data.
    const charts = page.locator('svg.chart');
    expect(await charts.count()).toBeGreaterThanOrEqual(3);
    for (const svg of await charts.all()) {
      expect(await svg.getAttribute('role')).toBe('img');
      expect((await svg.locator('title').first().textContent())?.length).toBeGreaterThan(5);
    }
    const csv = await fetch(`${api.url}/commodities/metals.cobalt/producers.csv`);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect((await csv.text()).split('\r\n')[1]).toContain(top.name);
    expect(await bytes()).toBeLessThan(BUDGET);
    await page.close();
  });

  it('country page: stress, exposures and gas storage match the profile and the reserve', async () => {
    const { page, bytes } = await open('/en/countries/DEU/', 'country-deu');
    const { data: p } = await json<{ data: { name: string; stress_index: number; exposures: unknown[] } }>('/v1/countries/DEU');
    const { data: r } = await json<{ data: { fill_pct: number } }>('/v1/reserves?commodity=gas&country=de');
    expect(await text(page, 'h1')).toContain(p.name);
    expect(await text(page, '[data-testid=stress]')).toBe(fmt(p.stress_index, 1));
    expect(await text(page, '[data-testid=gas-fill]')).toBe(`${fmt(r.fill_pct, 1)} %`);
    expect(await page.locator('section[aria-labelledby=h-dep] tbody tr').count()).toBe(p.exposures.length);
    expect(await bytes()).toBeLessThan(BUDGET);
    await page.close();
  });

  it("stress history, oil: the monthly index over the bands with the backtest's Hormuz 2026 crisis window shaded and named", async () => {
    const { page, bytes } = await open('/en/commodities/energy.oil/', 'commodity-oil-history');
    const { data: c } = await json<{ data: { name: string; stress: { methodology_version: string }; stress_history: HistoryPoint[] } }>(
      '/v1/commodities/energy.oil',
    );
    const { sec, svg } = await checkHistory(page, c.stress_history, c.stress.methodology_version, c.name);
    // The crisis window as documented in data/backtest.yaml: in the list under the chart, with its months and source…
    const doc = parse(readFileSync(join(DATA_DIR, 'backtest.yaml'), 'utf8')) as {
      crises: { commodity: string; from: string; to: string; label: string; source_url: string }[];
    };
    const w = doc.crises.find((x) => x.commodity === 'energy.oil' && x.from.startsWith('2026') && /Hormuz/.test(x.label))!;
    expect(w).toMatchObject({ from: '2026-04', to: '2026-05' });
    const item = sec.locator(`[data-testid=crisis-windows] li[data-from="${w.from}"][data-to="${w.to}"]`);
    expect(await item.count()).toBe(1);
    const said = (await item.innerText()).replace(/\s+/g, ' ');
    expect(said).toContain(w.label);
    expect(said).toContain('Apr 2026 – May 2026');
    expect(await item.locator('a').getAttribute('href')).toBe(w.source_url);
    // …and shaded on the chart at those months, under the same number.
    const key = (await item.locator('.key').textContent())!.trim();
    const shade = svg.locator('rect.window').filter({ has: page.locator('title', { hasText: w.label }) });
    expect(await shade.count()).toBe(1);
    const [s, area] = await Promise.all([box(shade), box(svg)]);
    expect(s.width).toBeGreaterThan(4);
    const mid = (s.x + s.width / 2 - area.x) / area.width;
    expect(Math.abs(mid - across(c.stress_history, '2026-04-30'))).toBeLessThan(0.01);
    expect(await svg.locator('text.wkey', { hasText: new RegExp(`^${key}$`) }).isVisible()).toBe(true);
    // The table marks the window's months with its number.
    expect(await sec.locator(`details table tbody tr:has(td:text-is("2026-04-30")) td:last-child`).textContent()).toBe(key);
    expect(await bytes()).toBeLessThan(BUDGET);
    await page.close();

    // On a phone the chart keeps its text size (no viewBox scaling) and the window stays visible.
    const wide = await open('/en/commodities/energy.oil/', 'commodity-oil-history-1366', { width: 1366, height: 900 });
    const phone = await open('/en/commodities/energy.oil/', 'commodity-oil-history-mobile', { width: 390, height: 844 });
    const tick = (p: Page) => box(p.locator('section[data-testid=stress-history] svg text.tick').first());
    const [big, small] = await Promise.all([tick(wide.page), tick(phone.page)]);
    expect(small.height).toBeGreaterThanOrEqual(12);
    expect(Math.abs(small.height - big.height)).toBeLessThanOrEqual(1);
    const phoneShade = phone.page.locator('section[data-testid=stress-history] rect.window').filter({ has: phone.page.locator('title', { hasText: w.label }) });
    expect((await box(phoneShade)).width).toBeGreaterThan(4);
    const overflow = await phone.page.evaluate(() => {
      const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
    expect(overflow).toBeLessThanOrEqual(1);
    await wide.page.close();
    await phone.page.close();
  });

  it("stress history, country: Germany's share of energy at risk at every month end, gaps only before transits are measured", async () => {
    const { page, bytes } = await open('/en/countries/DEU/', 'country-deu-history');
    const { data: p } = await json<{ data: { name: string; stress: { methodology_version: string }; stress_history: HistoryPoint[] } }>('/v1/countries/DEU');
    await checkHistory(page, p.stress_history, p.stress.methodology_version, p.name, 'country');
    // Once indexed (energy balance published, Hormuz transits measured against a normal), never a gap.
    const first = p.stress_history.findIndex((h) => h.index !== null);
    expect(first).toBeGreaterThanOrEqual(0);
    expect(p.stress_history.slice(first).every((h) => h.index !== null)).toBe(true);
    expect(await page.locator('section[data-testid=stress-history] [data-testid=history-gaps]').count()).toBe(first > 0 ? 1 : 0);
    expect(await bytes()).toBeLessThan(BUDGET);
    await page.close();
  });

  it('the United States page shows its mineral import reliance and sources as the API gives them', async () => {
    const { page } = await open('/en/countries/USA/', 'country-usa-minerals');
    const { data: p } = await json<{
      data: { mineral_exposures: { commodity: string; net_import_reliance_printed: string; suppliers: { name: string }[] }[] };
    }>('/v1/countries/USA');
    const cobalt = p.mineral_exposures.find((m) => m.commodity === 'metals.cobalt')!;
    const row = page.locator('section[data-testid=mineral-exposure] tbody tr:has(a:text-is("Cobalt"))');
    expect(await row.locator('td:nth-child(2)').textContent()).toBe(`${cobalt.net_import_reliance_printed} %`);
    expect(await row.locator('td:nth-child(3)').textContent()).toContain(cobalt.suppliers.find((s) => s.name !== 'Other countries')!.name);
    expect(await page.locator('section[data-testid=mineral-exposure] tbody tr').count()).toBe(p.mineral_exposures.length);
    await page.close();
  });

  it('stress history, commodity: months without an index are a gap with a note, never a zero', async () => {
    // The first commodity whose history has both indexed and unindexed months (which one depends on the data's reach).
    type Sheet = { data: { name: string; stress: { methodology_version: string }; stress_history: HistoryPoint[] } };
    const { data: list } = await json<{ data: { slug: string }[] }>('/v1/commodities');
    let slug = '';
    let c: Sheet['data'] | undefined;
    for (const x of list) {
      const { data } = await json<Sheet>(`/v1/commodities/${x.slug}`);
      if (data.stress_history.some((h) => h.index === null) && data.stress_history.some((h) => h.index !== null)) {
        slug = x.slug;
        c = data;
        break;
      }
    }
    expect(c, 'a commodity with gaps in its history').toBeDefined();
    const { page } = await open(`/en/commodities/${slug}/`, 'gaps-history');
    const { sec } = await checkHistory(page, c!.stress_history, c!.stress.methodology_version, c!.name);
    const missing = c!.stress_history.filter((h) => h.index === null);
    expect(missing.length).toBeGreaterThan(0);
    expect(await text(page, 'section[data-testid=stress-history] [data-testid=history-gaps]')).toContain(
      `No index in ${missing.length} of ${c!.stress_history.length} months`,
    );
    const row = sec.locator(`details table tbody tr:has(td:text-is("${missing.at(-1)!.date}"))`);
    expect(await row.locator('td:nth-child(2)').textContent()).toBe('—');
    expect(await row.locator('td:nth-child(3)').textContent()).toBe('no index');
    await page.close();
  });

  it('reserves: the DE page shows the API fill, the chart links its JSON and CSV', async () => {
    const { page, bytes } = await open('/en/reserves/gas/de/', 'reserve-gas-de');
    const { data: r } = await json<{ data: { fill_pct: number; name: string; target: { fill_pct: number } } }>('/v1/reserves?commodity=gas&country=de');
    expect(await text(page, 'h1')).toBe(r.name);
    expect(await text(page, '[data-testid=fill]')).toBe(`${fmt(r.fill_pct, 2)} %`);
    const csvHref = await page.locator('figure a[type="text/csv"]').first().getAttribute('href');
    expect(csvHref).toMatch(/^\/v1\/reserves\/timeseries\?commodity=gas&country=de&.*format=csv/);
    const csv = await fetch(`${api.url}${csvHref}`);
    expect(csv.status).toBe(200);
    expect(await bytes()).toBeLessThan(BUDGET);
    await page.close();

    const index = await open('/en/reserves/', 'reserves');
    expect(await index.page.locator('tr[data-reserve^="gas/"]').count()).toBe(18);
    expect(await index.bytes()).toBeLessThan(BUDGET);
    await index.page.close();
  });

  it('freshness: a stale series shows its note on the US SPR page and the home page; the table shows both statuses', async () => {
    type Ref = { id: string; data_as_of: string | null; freshness: string; expected_next: string | null };
    const dmy = (d: string) =>
      new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${d}T00:00:00Z`));

    // The SPR (EIA weekly data to 27 Feb 2026; the test build's clock is 22 Nov 2026): a visible note above the figures.
    const spr = await open('/en/reserves/oil/us/', 'reserve-oil-us');
    const { meta: sprMeta } = await json<{ meta: { sources: Ref[] } }>('/v1/reserves?commodity=oil&country=us');
    const weekly = sprMeta.sources.find((s) => s.id === 'eia-weekly-petroleum')!;
    expect(weekly).toMatchObject({ data_as_of: '2026-02-27', freshness: 'stale', expected_next: '2026-03-11' });
    const note = spr.page.locator('[data-testid=age-note][data-source=eia-weekly-petroleum]');
    await expect.poll(() => note.count()).toBe(1);
    expect(await note.isVisible()).toBe(true);
    expect(await note.getAttribute('data-freshness')).toBe('stale');
    expect(await text(spr.page, '[data-testid=age-note]')).toMatch(
      /EIA weekly data ends 27 Feb 2026, 9 months ago \(stale; the next release was due by 11 Mar 2026\)/,
    );
    // The note comes before the figures it qualifies.
    const [noteY, kpiY] = await Promise.all([note.boundingBox(), spr.page.locator('.kpis').first().boundingBox()]);
    expect(noteY!.y).toBeLessThan(kpiY!.y);
    await spr.page.close();

    // Home: the EU storage figure and chart carry the AGSI+ note; the table gives load status and freshness per source.
    const { page } = await open('/en/', 'home-freshness');
    const eu = await json<{ data: { as_of: string }; meta: { sources: Ref[] } }>('/v1/reserves?commodity=gas&country=eu');
    const agsi = eu.meta.sources.find((s) => s.id === 'gie-agsi-gas-storage')!;
    expect(agsi.freshness).toBe('stale');
    const homeNote = page.locator('[data-testid=age-note][data-source=gie-agsi-gas-storage]');
    expect(await homeNote.isVisible()).toBe(true);
    expect(await homeNote.textContent()).toContain(`AGSI+ storage data ends ${dmy(eu.data.as_of)}`);
    expect(await text(page, '.kpi:has([data-testid=eu-fill]) .sub')).toMatch(/stale$/);
    const health = await json<{ sources: { id: string; freshness: string }[] }>('/healthz');
    const rows = page.locator('[data-testid=freshness-table] tbody tr');
    expect(await rows.count()).toBe(health.sources.length);
    const row = async (id: string) => (await page.locator(`[data-testid=freshness-table] tr[data-source="${id}"]`).innerText()).replace(/\s+/g, ' ');
    expect(await row('eia-weekly-petroleum')).toMatch(/27 Feb 2026 9 months ago Stale \d+ days overdue; was due 11 Mar 2026 Loaded/);
    expect(await row('eurostat-gas-imports-by-partner')).toMatch(/31 Dec 2020 .*Historical \(will not update\) Loaded/);
    expect(await row('usgs-mcs-2026')).toMatch(/Current next due 4 Feb 2027 Loaded/);
    expect(await page.locator('[data-testid=freshness-table] td[data-freshness=current]').count()).toBeLessThan(5);
    for (const s of health.sources) expect(await page.locator(`tr[data-source="${s.id}"] td[data-freshness="${s.freshness}"]`).count(), s.id).toBe(1);

    // A deadline already past is reported as passed, not as days to go from the reading's date.
    const caption = await text(page, 'section[aria-labelledby=eu-gas] figcaption');
    expect(caption).toMatch(/Target 90 % by 1 Nov 2026: passed\. On 20 Aug 2026, the newest day with data, storage was [\d.]+ % full/);
    expect(caption).not.toMatch(/points to go in/);
    await page.close();

    // The Russian-gas chart is labelled as 2011–2020 history.
    const de = await open('/en/countries/DEU/', 'country-deu-freshness');
    expect(await text(de.page, '#h-ru')).toBe('Russian gas in imports, 2011–2020 (history)');
    expect(await text(de.page, '[data-testid=history-note]')).toMatch(/^History, not a current figure/);
    await de.page.close();
  });

  it('scenarios board: every scenario in the column of its status', async () => {
    const { page, bytes } = await open('/en/scenarios/', 'scenarios');
    const { data } = await json<{ data: { id: string; status: string; title: string }[] }>('/v1/scenarios');
    expect(await page.locator('article.scenario').count()).toBe(data.length);
    for (const s of data) expect(await text(page, `section[data-status=${s.status}] article#${s.id} h3`)).toBe(s.title);
    expect(await bytes()).toBeLessThan(BUDGET);
    await page.close();
  });

  it('events timeline: renders every event, filters by category and commodity', async () => {
    const { page, bytes } = await open('/en/events/', 'events');
    const all = await json<{ data: unknown[] }>('/v1/events?since=1900-01-01&limit=500');
    const items = page.locator('#timeline li[data-category]');
    expect(await items.count()).toBe(all.data.length);
    const sanctions = await json<{ data: unknown[] }>('/v1/events?since=1900-01-01&limit=500&category=sanction');
    await page.getByRole('button', { name: 'sanction' }).click();
    await expect.poll(() => page.locator('#timeline li[data-category]:visible').count()).toBe(sanctions.data.length);
    expect(await page.getByRole('button', { name: 'sanction' }).getAttribute('aria-pressed')).toBe('true');
    expect(page.url()).toContain('category=sanction');
    await page.getByRole('button', { name: 'All' }).click();
    await page.locator('#f-commodity').selectOption('metals.cobalt');
    const cobalt = await json<{ data: unknown[] }>('/v1/events?since=1900-01-01&limit=500&commodity=metals.cobalt');
    await expect.poll(() => page.locator('#timeline li[data-category]:visible').count()).toBe(cobalt.data.length);
    await page.screenshot({ path: join(SHOTS, 'events-filtered.png') });
    expect(await bytes()).toBeLessThan(BUDGET);
    await page.close();
  });

  it('briefings: per language, with a language switch between versions', async () => {
    const { page, bytes } = await open('/en/briefings/', 'briefings-en');
    const en = await json<{ data: { id: string; title: string; translation_key: string }[] }>('/v1/briefings?lang=en&limit=50');
    expect(await page.locator('[data-testid=briefing-list] > li').count()).toBe(en.data.length);
    await page.getByRole('navigation', { name: 'Language' }).getByRole('link', { name: 'Français' }).click();
    await page.waitForURL('**/fr/briefings/');
    const fr = await json<{ data: { id: string; title: string; translation_key: string }[] }>('/v1/briefings?lang=fr&limit=50');
    expect(await text(page, '[data-testid=briefing-list] h2')).toBe(fr.data[0]!.title);
    expect(await bytes()).toBeLessThan(BUDGET);
    await page.close();

    // One briefing, then the same briefing in German.
    const b = en.data[0]!;
    const one = await open(`/en/briefings/${b.id}/`, 'briefing-en');
    expect(await text(one.page, 'h1')).toBe(b.title);
    // Weighed before the switch: the budget is one page's, and the switch loads a second page in this tab.
    expect(await one.bytes()).toBeLessThan(BUDGET);
    await one.page.getByRole('navigation', { name: 'Language' }).getByRole('link', { name: 'Deutsch' }).click();
    const de = await json<{ data: { id: string; title: string; translation_key: string }[] }>('/v1/briefings?lang=de&limit=50');
    const twin = de.data.find((x) => x.translation_key === b.translation_key)!;
    await one.page.waitForURL(`**/de/briefings/${twin.id}/`);
    expect(await text(one.page, 'h1')).toBe(twin.title);
    expect(await one.page.locator('html').getAttribute('lang')).toBe('de');
    await one.page.close();
    // The German page weighed alone.
    const other = await open(`/de/briefings/${twin.id}/`, 'briefing-de');
    expect(await other.bytes()).toBeLessThan(BUDGET);
    await other.page.close();
  });

  it('methodology and API docs: rendered guides, every route from /openapi.json with curl, MCP snippet, licence', async () => {
    const m = await open('/en/docs/methodology/', 'methodology');
    expect(await text(m.page, 'h1')).toMatch(/methodology/i);
    expect(await m.page.locator('article.prose table').count()).toBeGreaterThan(0);
    const anchor = await m.page.locator('nav.toc-nav a').first().getAttribute('href');
    expect(await m.page.locator(`[id="${anchor!.slice(1)}"]`).count()).toBe(1);
    expect(await m.bytes()).toBeLessThan(BUDGET);
    await m.page.close();

    const { page, bytes } = await open('/en/docs/api/', 'api-docs');
    const doc = await json<{ paths: Record<string, Record<string, unknown>> }>('/openapi.json');
    const body = await text(page, 'main');
    for (const path of Object.keys(doc.paths).filter((p) => p.startsWith('/v1/'))) expect(body, path).toContain(path);
    expect(await page.locator('pre code', { hasText: 'curl -s' }).count()).toBeGreaterThanOrEqual(10);
    expect(await text(page, '#mcp ~ pre')).toContain('"url": "https://chokepoint.test/mcp"');
    expect(await text(page, 'section[aria-labelledby=licence]')).toContain('CC-BY-4.0');
    expect(await bytes()).toBeLessThan(BUDGET);
    await page.close();
  }, 180_000); // several long pages in a browser: minutes on a loaded machine, not a speed check

  it('search box: typing a query shows the hits of /v1/search', async () => {
    const { page, bytes } = await open('/en/search/', 'search');
    await page.locator('#q').fill('cobalt');
    // The page's language: the English versions of the briefings and scenarios.
    const hits = await json<{ data: { title: string }[] }>('/v1/search?q=cobalt&lang=en&limit=20');
    expect(hits.data.length).toBeGreaterThan(0);
    await expect.poll(() => page.locator('#hits li').count(), { timeout: 8_000 }).toBe(hits.data.length);
    expect(await text(page, '#hits li h2')).toBe(hits.data[0]!.title);
    await page.screenshot({ path: join(SHOTS, 'search-hits.png') });
    // The header's search box leads there too (a plain form: no JavaScript needed to submit).
    await page.goto(`${api.url}/en/commodities/`);
    await page.locator('#site-q').fill('nickel');
    await page.locator('#site-q').press('Enter');
    await page.waitForURL('**/en/search/?q=nickel');
    await expect.poll(() => page.locator('#hits li').count(), { timeout: 8_000 }).toBeGreaterThan(0);
    expect(await bytes()).toBeLessThan(BUDGET);
    await page.close();
  });

  it("the search page and the header's search box search in the page's language", async () => {
    const { page } = await open('/fr/search/', 'search-fr');
    await page.locator('#q').fill('cobalt');
    const hits = await json<{ data: { title: string; lang: string }[] }>('/v1/search?q=cobalt&lang=fr&limit=20');
    expect(hits.data.length).toBeGreaterThan(0);
    expect(hits.data.every((h) => h.lang === 'fr')).toBe(true);
    await expect.poll(() => page.locator('#hits li').count(), { timeout: 8_000 }).toBe(hits.data.length);
    expect(await text(page, '#hits li h2')).toBe(hits.data[0]!.title);
    expect(await page.locator('#hits li[lang=fr]').count()).toBe(hits.data.length);
    expect(await text(page, '#search-status')).toContain('résultat');
    await page.goto(`${api.url}/de/commodities/`);
    expect(await page.locator('#site-q').getAttribute('placeholder')).toBe(t('de').search.boxPlaceholder);
    await page.locator('#site-q').fill('Kupfer');
    await page.locator('#site-q').press('Enter');
    await page.waitForURL('**/de/search/?q=Kupfer');
    await expect.poll(() => page.locator('#hits li').count(), { timeout: 8_000 }).toBeGreaterThan(0);
    expect(await page.locator('#hits li:not([lang=de])').count()).toBe(0);
    await page.close();
  });

  it('pages read well on a phone', async () => {
    const { page } = await open('/en/', 'home-mobile', { width: 390, height: 844 });
    const overflow = await page.evaluate(() => {
      const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
    expect(overflow).toBeLessThanOrEqual(1);
    await page.close();
  });

  it('serves pages with their cache headers, assets immutable, a 404 page for browsers', async () => {
    const home = await fetch(`${api.url}/en/`);
    expect(home.headers.get('cache-control')).toBe(HTML_CACHE);
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(home.headers.get('link')).toContain('rel="cite-as"');
    const css = /href="(\/_astro\/[^"]+\.css)"/.exec(await home.text())![1]!;
    const asset = await fetch(`${api.url}${css}`);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const again = await fetch(`${api.url}/en/`, { headers: { 'if-none-match': home.headers.get('etag')! } });
    expect(again.status).toBe(304);
    const bare = await fetch(`${api.url}/en/commodities/metals.cobalt`, { redirect: 'manual' });
    expect(bare.status).toBe(308);
    expect(bare.headers.get('location')).toBe('/en/commodities/metals.cobalt/');
    const missing = await fetch(`${api.url}/no/such/page/`, { headers: { accept: 'text/html' } });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('Page not found');
    const missingFr = await fetch(`${api.url}/fr/no/such/page/`, { headers: { accept: 'text/html' } });
    expect(missingFr.status).toBe(404);
    const fr404 = await missingFr.text();
    expect(fr404).toContain('<html lang="fr"');
    expect(fr404).toContain('Page introuvable');
    const problem = await fetch(`${api.url}/no/such/page/`);
    expect(problem.headers.get('content-type')).toContain('application/problem+json');
    expect((await fetch(`${api.url}/docs/api.md`)).headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    // The charts' data stay at their addresses, outside the languages.
    expect((await fetch(`${api.url}/commodities/metals.cobalt/price.csv`)).status).toBe(200);
    expect((await fetch(`${api.url}/countries/stress-history.csv`)).status).toBe(200);
  });

  it('redirects the addresses from before the language prefixes: / by Accept-Language, every old page to its English page', async () => {
    const go = (path: string, headers: Record<string, string> = {}) => fetch(`${api.url}${path}`, { redirect: 'manual', headers });
    const root = await go('/', { 'accept-language': 'fr-CH, fr;q=0.9, en;q=0.8' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/fr/');
    expect(root.headers.get('vary')).toContain('Accept-Language');
    expect(root.headers.get('cache-control')).toMatch(/^private/);
    expect((await go('/?utm=x', { 'accept-language': 'pt-BR, de;q=0.5' })).headers.get('location')).toBe('/de/?utm=x');
    expect((await go('/', { 'accept-language': 'it' })).headers.get('location')).toBe('/en/');
    const { data: briefs } = await json<{ data: { id: string }[] }>('/v1/briefings?lang=es&limit=1');
    const moved: [string, string][] = [
      ['/commodities/', '/en/commodities/'],
      ['/commodities/metals.cobalt/?ref=bookmark', '/en/commodities/metals.cobalt/?ref=bookmark'],
      ['/countries/DEU', '/en/countries/DEU/'],
      ['/reserves/gas/de/', '/en/reserves/gas/de/'],
      ['/scenarios/', '/en/scenarios/'],
      ['/events/?category=sanction', '/en/events/?category=sanction'],
      ['/docs/methodology/', '/en/docs/methodology/'],
      ['/docs/api/guide/', '/en/docs/api/guide/'],
      ['/search/?q=cobalt', '/en/search/?q=cobalt'],
      ['/briefings/', '/en/briefings/'],
      ['/briefings/es/', '/es/briefings/'],
      [`/briefings/es/${briefs[0]!.id}/`, `/es/briefings/${briefs[0]!.id}/`],
    ];
    for (const [from, to] of moved) {
      const res = await go(from, { 'accept-language': 'de' });
      expect(res.status, from).toBe(301);
      expect(res.headers.get('location'), from).toBe(to);
      const there = await fetch(`${api.url}${to}`);
      expect(there.status, to).toBe(200);
      await there.arrayBuffer();
    }
    // HEAD as GET; an address that never was a page is still a 404.
    expect((await fetch(`${api.url}/countries/`, { method: 'HEAD', redirect: 'manual' })).status).toBe(301);
    expect((await go('/commodities/metals.unobtainium/', { accept: 'text/html' })).status).toBe(404);
  });

  it('in French, German and Spanish, every page type has its language, its navigation, footer and search box, and no horizontal overflow at 390 or 1366 px', async () => {
    const overflow = (page: Page) => page.evaluate('document.documentElement.scrollWidth - window.innerWidth') as Promise<number>;
    const problems: string[] = [];
    for (const lang of LANGS.filter((l) => l !== 'en')) {
      const m = t(lang);
      const nav = [
        m.nav.home,
        m.nav.commodities,
        m.nav.countries,
        m.nav.reserves,
        m.nav.scenarios,
        m.nav.events,
        m.nav.briefings,
        m.nav.methodology,
        m.nav.api,
      ];
      for (const [type, path] of await pageTypes(lang)) {
        const { page, bytes } = await open(path, `${lang}-${type}`, { width: 1366, height: 900 }, false);
        const where = `${path} (${type})`;
        if ((await page.getAttribute('html', 'lang')) !== lang) problems.push(`${where}: <html lang> is not ${lang}`);
        const links = (await page.locator('nav.site-nav a').allTextContents()).map((x) => x.trim());
        if (JSON.stringify(links) !== JSON.stringify(nav)) problems.push(`${where}: navigation ${JSON.stringify(links)}`);
        if (!(await text(page, 'footer')).includes(m.footer.tagline.replace(/\s+/g, ' '))) problems.push(`${where}: footer not in ${lang}`);
        if ((await page.locator('#site-q').getAttribute('placeholder')) !== m.search.boxPlaceholder) problems.push(`${where}: search box not in ${lang}`);
        if ((await page.locator('form.search-form button').textContent())?.trim() !== m.search.button) problems.push(`${where}: search button not in ${lang}`);
        if ((await page.locator('form.search-form').getAttribute('action')) !== `/${lang}/search/`) problems.push(`${where}: search goes elsewhere`);
        if ((await overflow(page)) > 0) problems.push(`${where}: wider than 1366 px`);
        // Narrowed to a phone's width: the charts draw again for it (their script, after a resize), then nothing is wider.
        await page.setViewportSize({ width: 390, height: 844 });
        let over = await overflow(page);
        for (let i = 0; over > 0 && i < 20; i++) {
          await page.waitForTimeout(150);
          over = await overflow(page);
        }
        if (over > 0) problems.push(`${where}: wider than 390 px by ${over} px`);
        expect(await bytes()).toBeLessThan(BUDGET);
        await page.close();
      }
    }
    expect(problems).toEqual([]);
  }, 240_000); // 3 languages × every page type × 2 widths: minutes on a loaded machine, not a speed check

  it("writes numbers and dates in the page's language: a German decimal comma, French spaces, Spanish month names", async () => {
    const raw = async (page: Page, sel: string) => ((await page.locator(sel).first().textContent()) ?? '').trim();
    const { data: p } = await json<{ data: { stress_index: number } }>('/v1/countries/DEU');
    const { data: r } = await json<{ data: { fill_pct: number } }>('/v1/reserves?commodity=gas&country=de');
    const de = await open('/de/countries/DEU/', 'de-country-deu');
    expect(await raw(de.page, '[data-testid=stress]')).toBe(numIn(p.stress_index, 1, 'de'));
    expect(await raw(de.page, '[data-testid=stress]')).toMatch(/^\d+,\d$/);
    expect(await raw(de.page, '[data-testid=gas-fill]')).toBe(pctIn(r.fill_pct, 1, 'de'));
    expect(await raw(de.page, '[data-testid=gas-fill]')).toMatch(/^\d+,\d\u00a0%$/);
    await de.page.close();
    const { data: eu } = await json<{ data: { fill_pct: number } }>('/v1/reserves?commodity=gas&country=eu');
    const fr = await open('/fr/', 'fr-home');
    expect(await raw(fr.page, '[data-testid=eu-fill]')).toBe(pctIn(eu.fill_pct, 1, 'fr'));
    expect(await raw(fr.page, '[data-testid=eu-fill]')).toMatch(/^\d+,\d\u202f%$/);
    expect(await raw(fr.page, 'footer [data-testid=data-date]')).toContain('\u202f:');
    await fr.page.close();
    const es = await open('/es/reserves/gas/de/', 'es-reserve-gas-de');
    const day = (await es.page.locator('footer [data-testid=rebuilt-on]').getAttribute('datetime'))!;
    expect(await raw(es.page, 'footer [data-testid=rebuilt-on]')).toBe(dateIn(day, 'es'));
    expect(await raw(es.page, '[data-testid=fill]')).toBe(pctIn(r.fill_pct, 2, 'es'));
    await es.page.close();
  });

  it('names the versions of a page in the other languages (hreflang, canonical), and the language switch keeps the page', async () => {
    const BASE = 'https://chokepoint.test';
    const { data: c } = await json<{ data: { names: Record<Lang, string> } }>('/v1/commodities/metals.cobalt');
    const { page } = await open('/fr/commodities/metals.cobalt/', 'fr-commodity-cobalt');
    const alternates = await page
      .locator('link[rel=alternate][hreflang]')
      .evaluateAll((ls: { getAttribute(n: string): string | null }[]) => ls.map((l) => [l.getAttribute('hreflang'), l.getAttribute('href')]));
    expect(alternates).toEqual([...LANGS.map((l) => [l, `${BASE}/${l}/commodities/metals.cobalt/`]), ['x-default', `${BASE}/en/commodities/metals.cobalt/`]]);
    expect(await page.locator('link[rel=canonical]').getAttribute('href')).toBe(`${BASE}/fr/commodities/metals.cobalt/`);
    for (const [, href] of alternates) expect((await fetch(`${api.url}${new URL(href!).pathname}`)).status, href!).toBe(200);
    const sw = page.getByRole('navigation', { name: t('fr').chrome.languageNav });
    expect(await sw.locator('[aria-current=page]').textContent()).toBe('Français');
    await sw.getByRole('link', { name: 'Deutsch' }).click();
    await page.waitForURL('**/de/commodities/metals.cobalt/');
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    expect(await text(page, 'h1')).toContain(c.names.de);
    await page.close();

    // A briefing: its versions are the translations (each with its own id), and the switch goes to each.
    const es = await json<{ data: { id: string; translation_key: string; title: string }[] }>('/v1/briefings?lang=es&limit=1');
    const fr = await json<{ data: { id: string; translation_key: string; title: string }[] }>('/v1/briefings?lang=fr&limit=50');
    const twin = fr.data.find((b) => b.translation_key === es.data[0]!.translation_key)!;
    const b = await open(`/es/briefings/${es.data[0]!.id}/`, 'es-briefing');
    expect(await b.page.locator('link[rel=alternate][hreflang=fr]').getAttribute('href')).toBe(`${BASE}/fr/briefings/${twin.id}/`);
    await b.page
      .getByRole('navigation', { name: t('es').chrome.languageNav })
      .getByRole('link', { name: 'Français' })
      .click();
    await b.page.waitForURL(`**/fr/briefings/${twin.id}/`);
    expect(await text(b.page, 'h1')).toBe(twin.title);
    await b.page.close();

    // Every page of every language in the sitemap, with its alternates.
    const map = await fetch(`${api.url}/sitemap.xml`);
    expect(map.status).toBe(200);
    expect(map.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const xml = await map.text();
    for (const l of LANGS) expect(xml).toContain(`<loc>${BASE}/${l}/countries/DEU/</loc>`);
    expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="es" href="${BASE}/es/countries/DEU/"/>`);
  });

  it("shows text that exists only in English as English, inside the page's language, and says so; events in the page's language", async () => {
    const { page } = await open('/de/docs/methodology/', 'de-methodology');
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    expect(await page.locator('article.prose').getAttribute('lang')).toBe('en');
    expect(await text(page, '[data-testid=english-only]')).toBe(t('de').docs.englishOnly);
    expect(await text(page, 'h1')).toMatch(/methodology/i);
    await page.close();
    // Events are written in the four languages: the Spanish timeline shows the Spanish text, unmarked.
    const ev = await open('/es/events/', 'es-events');
    const first = ev.page.locator('#timeline li[data-category]').first();
    const newest = await json<{ data: { id: string; title: string }[] }>('/v1/events?limit=1&lang=es');
    expect(await first.getAttribute('id')).toBe(newest.data[0]!.id);
    expect(await first.locator('h3').getAttribute('lang')).toBeNull();
    expect((await first.locator('h3').textContent())?.trim()).toBe(newest.data[0]!.title);
    expect(await first.locator('.cat').textContent()).toMatch(new RegExp(`^(${Object.values(t('es').events.category).join('|')})$`));
    await ev.page.close();
  }, 180_000); // several long pages in a browser: minutes on a loaded machine, not a speed check

  it('stayed within budget with no console errors', () => {
    expect(errors).toEqual([]);
    for (const [path, n] of weights) expect(n, path).toBeLessThan(BUDGET);
    console.log(`site page weights (KB): ${[...weights].map(([p, n]) => `${p} ${(n / 1024).toFixed(1)}`).join(', ')}`);
  });
});
