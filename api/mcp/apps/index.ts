import { registerAppResource } from '@modelcontextprotocol/ext-apps/server';
import type { McpUiResourceMeta } from '@modelcontextprotocol/ext-apps';
import type { McpServer } from '@modelcontextprotocol/server';
import { MCP_APPS } from '../../../contract/tools.ts';
import { COMMODITY_HISTORY_HTML } from './commodity-history.ts';
import { COUNTRY_EXPOSURES_HTML } from './country-exposures.ts';
import { RESERVE_SERIES_HTML } from './reserve-series.ts';

/** One MCP App: a `ui://` resource holding a self-contained HTML page that draws one tool's result. */
export interface McpApp {
  uri: string;
  name: string;
  title: string;
  description: string;
  /** The tool whose result it draws. */
  tool: string;
  html: string;
}

export const APPS: readonly McpApp[] = [
  {
    uri: MCP_APPS.apps.reserveSeries,
    name: 'reserve-series-app',
    title: 'Reserve series chart',
    description: 'Draws the series of a get_reserve_timeseries result (fill level, volume or days of cover) as a line chart.',
    tool: 'get_reserve_timeseries',
    html: RESERVE_SERIES_HTML,
  },
  {
    uri: MCP_APPS.apps.commodityHistory,
    name: 'commodity-history-app',
    title: 'Commodity price and stress chart',
    description: "Draws a get_commodity result: the commodity's price history above its monthly stress index.",
    tool: 'get_commodity',
    html: COMMODITY_HISTORY_HTML,
  },
  {
    uri: MCP_APPS.apps.countryExposures,
    name: 'country-exposures-app',
    title: 'Country import exposure chart',
    description: "Draws a get_country_profile result: the country's import dependence per commodity, largest first, with the main supplier.",
    tool: 'get_country_profile',
    html: COUNTRY_EXPOSURES_HTML,
  },
];

/**
 * `_meta.ui` of an app resource: no external origin at all (the host's restrictive default CSP
 * suffices), and a border and background from the host.
 */
export const APP_RESOURCE_META: { ui: McpUiResourceMeta } = { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } };

/**
 * The apps as MCP resources, through ext-apps' registerAppResource (MIME type
 * text/html;profile=mcp-app): resources/read gives the page.
 */
export function registerApps(mcp: McpServer): void {
  for (const app of APPS) {
    registerAppResource(
      mcp,
      app.name,
      app.uri,
      { title: app.title, description: app.description, mimeType: MCP_APPS.mimeType, _meta: APP_RESOURCE_META },
      (uri) => ({
        contents: [{ uri: uri.href, mimeType: MCP_APPS.mimeType, text: app.html, _meta: APP_RESOURCE_META }],
      }),
    );
  }
}
