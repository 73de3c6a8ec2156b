/**
 * The MCP Apps in real Chromium (Debian's, through playwright-core), as a host renders them: the
 * ui:// resource read with the official SDK client, loaded into a sandboxed iframe of a host page
 * that enforces the extension's default CSP (no network), hosted by ext-apps' own AppBridge
 * (ui/initialize → ui/notifications/initialized → tool-input, tool-result), and the chart checked
 * against the tool's structuredContent, in light and dark, with no console error and no request.
 * UPDATE_DOCS=1 also writes the screenshots of docs/img/ and the example result of docs/mcp.md.
 */
import { build } from 'esbuild';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type Browser, type Page } from 'playwright-core';
import { launchChromium } from '../../test/browser.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_APPS } from '../../contract/tools.ts';
import { fillBlocks } from '../../pipeline/methodology-doc.ts';
import { REPO } from '../../test/support.ts';
import { startTestServer } from '../../test/http.ts';
import { MAX_BARS } from './apps/country-exposures.ts';
import { bundleView, VIEW_SCRIPT_MODULE, viewScriptModule } from './apps/bundle.ts';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/ext-apps';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SHOTS = join(REPO, 'test-results', 'screenshots');
const DOC = join(REPO, 'docs', 'mcp.md');
const HOST = 'https://host.test/';
/** The CSP a host applies when a ui:// resource declares no domain (SEP-1865, "Restrictive Default"). */
const DEFAULT_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'; frame-src 'self'";

let api: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
let client: Client;

/** The sample calls: one per app, the tool result a host would pass to it. */
const SAMPLES = [
  {
    app: MCP_APPS.apps.reserveSeries,
    tool: 'get_reserve_timeseries',
    args: { commodity: 'gas', country: 'de', from: '2025-09-01', to: '2026-08-31' },
    shot: 'mcp-app-reserve',
  },
  { app: MCP_APPS.apps.commodityHistory, tool: 'get_commodity', args: { slug: 'oil' }, shot: 'mcp-app-commodity' },
  { app: MCP_APPS.apps.countryExposures, tool: 'get_country_profile', args: { iso: 'USA' }, shot: 'mcp-app-country' },
] as const;

/**
 * The host side: ext-apps' own AppBridge over its PostMessageTransport, bundled for the page. It
 * answers the View's ui/initialize with the host context, then sends the tool input and result
 * once the View says it is initialized, and sizes the frame as the View reports.
 */
const HOST_ENTRY = `
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import { config } from 'zod/v4/core';
config({ jitless: true });
const { args, result, theme } = window.sample;
const frame = document.getElementById('app');
window.sizes = [];
const bridge = new AppBridge(null, { name: 'test-host', version: '1.0.0' }, {}, {
  hostContext: { theme, displayMode: 'inline', containerDimensions: { maxWidth: 640, maxHeight: 900 }, locale: 'en-GB', platform: 'web' },
});
bridge.oninitialized = () => {
  window.view = { info: bridge.getAppVersion(), capabilities: bridge.getAppCapabilities() };
  bridge.sendToolInput({ arguments: args });
  bridge.sendToolResult(result);
};
bridge.onsizechange = ({ height }) => {
  if (height === undefined) return;
  window.sizes.push(height);
  frame.style.height = height + 'px';
};
bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
`;
let hostScript: string;

/** The host page: a sandboxed iframe holding the app, and the AppBridge. */
function hostPage(appHtml: string, args: Json, result: CallToolResult, theme: 'light' | 'dark'): string {
  const attr = appHtml.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  const sample = JSON.stringify({ args, result, theme }).replace(/</g, '\\u003c');
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><style>body{margin:0;background:${theme === 'dark' ? '#0d0d0d' : '#f4f4f4'}}iframe{border:0;width:640px;height:200px;display:block}</style></head>
<body><iframe id="app" sandbox="allow-scripts" srcdoc="${attr}"></iframe><script>window.sample=${sample};</script><script>${hostScript.replace(/<\//g, '<\\/')}</script></body></html>`;
}

interface Rendered {
  page: Page;
  errors: string[];
  requests: string[];
}

async function render(sample: (typeof SAMPLES)[number], theme: 'light' | 'dark'): Promise<Rendered & { result: CallToolResult & { structuredContent: Json } }> {
  const result = (await client.callTool({ name: sample.tool, arguments: sample.args })) as CallToolResult & { structuredContent: Json };
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  const { contents } = await client.readResource({ uri: sample.app });
  const html = (contents[0] as { text: string }).text;
  const page = await browser.newPage({ viewport: { width: 680, height: 900 }, colorScheme: theme });
  // Generous: Chromium shares the machine with the rest of the suite; nothing here measures time.
  page.setDefaultTimeout(30_000);
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => {
    if (r.url() !== HOST) requests.push(r.url());
  });
  await page.route('**/*', (route) =>
    route.request().url() === HOST
      ? route.fulfill({
          status: 200,
          headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': DEFAULT_CSP },
          body: hostPage(html, sample.args, result, theme),
        })
      : route.abort(),
  );
  await page.goto(HOST, { waitUntil: 'load' });
  await page.frameLocator('#app').locator('svg').first().waitFor();
  // The host has resized the frame to the app's reported height.
  await page.waitForFunction(() => (globalThis as unknown as { sizes: number[] }).sizes.length > 0);
  return { page, errors, requests, result };
}

const pairs = (points: string | null) => (points ?? '').trim().split(/\s+/).filter(Boolean).length;

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  api = await startTestServer();
  client = new Client({ name: 'apps-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`)));
  browser = await launchChromium();
  const host = await build({
    stdin: { contents: HOST_ENTRY, resolveDir: REPO, loader: 'js' },
    bundle: true,
    write: false,
    format: 'iife',
    minify: true,
    logLevel: 'error',
  });
  hostScript = host.outputFiles[0]!.text;
});

afterAll(async () => {
  await browser?.close();
  await client?.close();
  await api?.close();
});

describe('MCP Apps render their chart from a tool result, as a host shows them', () => {
  it.each(['light', 'dark'] as const)('the reserve series (%s)', async (theme) => {
    const { page, errors, requests, result } = await render(SAMPLES[0], theme);
    const frame = page.frameLocator('#app');
    const sc = result.structuredContent;
    // The line has every point of the result, and the chart names and describes itself.
    const line = frame.locator('svg polyline');
    expect(await line.count()).toBe(1);
    expect(pairs(await line.getAttribute('points'))).toBe(sc.points.length);
    expect(await line.getAttribute('data-points')).toBe(String(sc.points.length));
    expect(await frame.locator('svg').getAttribute('role')).toBe('img');
    expect(await frame.locator('svg title').textContent()).toBe('Fill level, gas reserve, DE (%)');
    const last = sc.points.at(-1);
    expect(await frame.locator('svg desc').textContent()).toContain(
      `to ${last.date}: last ${last.value.toLocaleString('en-GB', { maximumFractionDigits: 1 })} %`,
    );
    expect(await frame.locator('h1').textContent()).toContain('gas reserve');
    expect(await frame.locator('footer').textContent()).toContain(`Data as of ${sc.as_of}`);
    // Dark or light as the host says.
    const bg = await frame
      .locator('body')
      .evaluate((b) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(b).backgroundColor);
    expect(bg).toBe(theme === 'dark' ? 'rgb(22, 24, 27)' : 'rgb(255, 255, 255)');
    // The View introduced itself to the AppBridge, and reported a height that fits the chart.
    const view = (await page.evaluate(() => (globalThis as unknown as { view: Json }).view)) as Json;
    expect(view).toEqual({ info: { name: 'chokepoint-reserve-series', version: '1.0.0' }, capabilities: { availableDisplayModes: ['inline'] } });
    const height = ((await page.evaluate(() => (globalThis as unknown as { sizes: number[] }).sizes)) as number[]).at(-1)!;
    expect(height).toBeGreaterThan(150);
    expect(height).toBeLessThan(600);
    expect((await page.locator('#app').boundingBox())!.height).toBe(height);
    if (theme === 'light') {
      // Hovering reads a point off the line.
      const box = (await frame.locator('svg').boundingBox())!;
      await page.mouse.move(box.x + box.width - 20, box.y + box.height / 2);
      expect(await frame.locator('svg text.v').textContent()).toMatch(/^\d{4}-\d{2}-\d{2}: [\d.,]+ %$/);
      await page.mouse.move(0, 0);
    }
    await shoot(page, `${SAMPLES[0].shot}-${theme}`);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    await page.close();
  });

  it.each(['light', 'dark'] as const)("a commodity's price and stress history (%s)", async (theme) => {
    const { page, errors, requests, result } = await render(SAMPLES[1], theme);
    const frame = page.frameLocator('#app');
    const sc = result.structuredContent;
    const lines = frame.locator('svg polyline');
    expect(await lines.count()).toBe(2);
    expect(pairs(await lines.nth(0).getAttribute('points'))).toBe(sc.price_history.points.length);
    expect(pairs(await lines.nth(1).getAttribute('points'))).toBe((sc.stress_history as Json[]).filter((p) => p.index !== null).length);
    expect(await frame.locator('svg title').allTextContents()).toEqual([
      `Price, ${sc.price_history.frequency} (${sc.price_history.currency}/${sc.price_history.unit})`,
      'Stress index, monthly (0–100)',
    ]);
    for (const band of ['moderate', 'high', 'severe']) expect(await frame.locator('svg text', { hasText: band }).count(), band).toBe(1);
    expect(await frame.locator('h1').textContent()).toBe(`${sc.name} — price and supply stress`);
    await shoot(page, `${SAMPLES[1].shot}-${theme}`);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    await page.close();
  });

  it.each(['light', 'dark'] as const)("a country's exposures (%s)", async (theme) => {
    const { page, errors, requests, result } = await render(SAMPLES[2], theme);
    const frame = page.frameLocator('#app');
    const sc = result.structuredContent;
    const all = [
      ...(sc.exposures as Json[]).filter((e) => e.import_dependence !== null).map((e) => [e.commodity, e.import_dependence]),
      ...(sc.mineral_exposures as Json[]).filter((m) => m.net_import_reliance !== null).map((m) => [m.commodity, m.net_import_reliance]),
    ].sort((a, b) => b[1] - a[1]);
    expect(all.length).toBeGreaterThan(MAX_BARS);
    const bars = frame.locator('svg rect[data-value]');
    expect(await bars.count()).toBe(MAX_BARS);
    const drawn = await bars.evaluateAll((rs) => rs.map((r) => [r.getAttribute('data-commodity'), Number(r.getAttribute('data-value'))]));
    expect(drawn.map((d) => d[1])).toEqual(all.slice(0, MAX_BARS).map((a) => a[1]));
    expect(new Set(drawn.map((d) => d[0])).size).toBe(MAX_BARS);
    expect(await frame.locator('svg title').textContent()).toBe(`${sc.name}: share of consumption imported, by commodity`);
    expect(await frame.locator('main').textContent()).toContain(`${all.length - MAX_BARS} smaller exposures in the data.`);
    await shoot(page, `${SAMPLES[2].shot}-${theme}`);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    await page.close();
  });

  it('shows the text of an error result instead of a chart', async () => {
    const { contents } = await client.readResource({ uri: MCP_APPS.apps.reserveSeries });
    const error: CallToolResult = { isError: true, content: [{ type: 'text', text: 'no gas reserve is published for Japan (jp). Accepted: …' }] };
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    await page.route('**/*', (route) =>
      route.fulfill({
        status: 200,
        headers: { 'content-type': 'text/html', 'content-security-policy': DEFAULT_CSP },
        body: hostPage((contents[0] as { text: string }).text, {}, error, 'light'),
      }),
    );
    await page.goto(HOST);
    await expect.poll(() => page.frameLocator('#app').locator('main').textContent()).toContain('no gas reserve is published for Japan');
    expect(await page.frameLocator('#app').locator('svg').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});

/** A screenshot of the app frame into test-results/, and with UPDATE_DOCS=1 the light ones into docs/img/. */
async function shoot(page: Page, name: string) {
  const frame = page.locator('#app');
  await frame.screenshot({ path: join(SHOTS, `${name}.png`) });
  if (process.env.UPDATE_DOCS && name.endsWith('-light')) {
    await mkdir(join(REPO, 'docs', 'img'), { recursive: true });
    await frame.screenshot({ path: join(REPO, 'docs', 'img', `${name.replace(/-light$/, '')}.png`) });
  }
}

describe('the View bundle', () => {
  it('is ext-apps at the MCP Apps revision the contract names, and the committed bundle is view.ts built (UPDATE_DOCS=1 rewrites it)', async () => {
    expect(LATEST_PROTOCOL_VERSION).toBe(MCP_APPS.protocolVersion);
    const wanted = viewScriptModule(await bundleView());
    if (process.env.UPDATE_DOCS) writeFileSync(VIEW_SCRIPT_MODULE, wanted);
    expect(readFileSync(VIEW_SCRIPT_MODULE, 'utf8') === wanted, 'run UPDATE_DOCS=1 npx vitest run api/mcp/apps.test.ts').toBe(true);
    for (const app of Object.values(MCP_APPS.apps)) {
      const { contents } = await client.readResource({ uri: app });
      const html = (contents[0] as { text: string; mimeType: string }).text;
      expect(contents[0]!.mimeType).toBe(MCP_APPS.mimeType);
      // Self-contained: inline scripts only, nothing to load (the pages below also make no request).
      expect(html).not.toMatch(/<script[^>]*\bsrc=|<link\b|\bimport\(/);
    }
  });
});

describe('docs/mcp.md', () => {
  it('shows a real tool result: its text block, its links and its structuredContent (UPDATE_DOCS=1 rewrites it)', async () => {
    const sample = SAMPLES[0];
    const r = (await client.callTool({ name: sample.tool, arguments: sample.args })) as CallToolResult & { structuredContent: Json };
    const sc = r.structuredContent;
    const shown = { ...sc, points: [...sc.points.slice(0, 2), `… ${sc.points.length - 4} more …`, ...sc.points.slice(-2)], sources: [sc.sources[0], '…'] };
    const block = [
      '```text',
      `tools/call get_reserve_timeseries ${JSON.stringify(sample.args)}`,
      '```',
      '',
      'The text block (`content[0]`), what a host that keeps only text gives its model:',
      '',
      '```text',
      (r.content[0] as { text: string }).text,
      '```',
      '',
      'Then one `resource_link` block per address (clients of revision 2025-06-18 and later):',
      '',
      '```json',
      ...r.content.filter((c) => c.type === 'resource_link').map((c) => JSON.stringify(c)),
      '```',
      '',
      '`structuredContent`, the whole object (points and sources shortened here), which the app draws:',
      '',
      '```json',
      JSON.stringify(shown, null, 2),
      '```',
    ].join('\n');
    const doc = readFileSync(DOC, 'utf8');
    expect(doc).toContain('<!-- generated:tool-result -->');
    const filled = fillBlocks(doc, { 'tool-result': block });
    if (process.env.UPDATE_DOCS) {
      writeFileSync(DOC, filled);
      return;
    }
    expect(filled === doc, 'the example result of docs/mcp.md is out of date: run UPDATE_DOCS=1 npx vitest run api/mcp/apps.test.ts').toBe(true);
    for (const png of ['mcp-app-reserve', 'mcp-app-commodity', 'mcp-app-country']) {
      expect(existsSync(join(REPO, 'docs', 'img', `${png}.png`)), png).toBe(true);
      expect(doc).toContain(`img/${png}.png`);
    }
  });
});
