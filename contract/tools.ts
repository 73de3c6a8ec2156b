import { z } from 'zod';
import { jsonSchemaOf, outlineSchema, withoutDatePatterns, type JsonSchema } from './json-schema.ts';
import {
  CountryPath,
  CommodityParam,
  CommodityPath,
  EventsQuery,
  ListCommoditiesQuery,
  ReserveQuery,
  ScenariosQuery,
  SearchHit,
  SearchQuery,
  TimeSeriesQuery,
} from './api.ts';
import { CommodityListEntry, CommoditySheet, Price } from './commodities.ts';
import { CommodityCode, CommodityGroup, CommoditySlug, DateString, Lang, LICENSE, SourceRef } from './common.ts';
import { EVENT_CATEGORIES, EventSchema, LocalizedEventSchema, SCENARIO_STATUSES, ScenarioSchema } from './content.ts';
import { CountryProfile } from './countries.ts';
import { Frequency, Reserve, ReserveMetric, TimeSeries } from './reserves.ts';
import { LIST_DEFAULTS } from './limits.ts';

/**
 * The MCP tool registry (SPEC §6): ten read-only tools over the same data as the HTTP routes.
 * Argument names are the HTTP parameter names; input schemas are derived from the request
 * schemas in contract/api.ts (minus `format`, and with `limit` taking a JSON number), output
 * schemas from the response data schemas. The MCP server registers these as they are (the MCP
 * SDK 1.x takes zod objects), and the server card and /llms.txt are generated from them.
 *
 * Tool results are plain objects (MCP structured content must be an object): a single record for
 * the get_* tools, `{ <items>: [...], count }` for the list and search tools; every one carries
 * `as_of`, `license` and `attribution` (ToolResultMeta).
 */

export interface ToolAnnotations {
  readonly readOnlyHint: true;
  readonly openWorldHint: false;
}

export interface ToolSpec<N extends string = string, I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  readonly name: N;
  readonly title: string;
  /** For a language model: what the tool returns and when to use it. */
  readonly description: string;
  readonly inputSchema: I;
  readonly outputSchema: O;
  readonly annotations: ToolAnnotations;
  /** Path of the HTTP route in ROUTES the tool mirrors, if any (search_briefings is /v1/search with type=briefing). */
  readonly route?: string;
  /**
   * Arguments of the tool that its route does not take (named like a parameter of another
   * route): `lang` and `limit` where a tool keeps its answer in one language or short.
   */
  readonly toolOnlyArgs?: readonly string[];
  /** The MCP App (`ui://` resource, MCP_APPS) that renders the tool's structured result as a chart. */
  readonly app?: string;
}

const READ_ONLY: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

function tool<N extends string, I extends z.ZodObject, O extends z.ZodObject>(spec: Omit<ToolSpec<N, I, O>, 'annotations'>): ToolSpec<N, I, O> {
  return { ...spec, annotations: READ_ONLY };
}

/**
 * MCP protocol revisions of the `initialize` handshake (the official SDK's, less its pre-release
 * 2024-10-07), newest first. In `initialize` the client names the revision it wants; the server
 * answers with that one when it is listed here, else with the newest, and the client may then
 * disconnect.
 */
export const MCP_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
/** The stateless revision (no initialize, no session; the revision named in each request's `_meta`), served over Streamable HTTP beside the others. */
export const MCP_STATELESS_VERSION = '2026-07-28';
/** The first revision with `resource_link` content blocks: older clients get the addresses in the text only. */
export const RESOURCE_LINK_SINCE = '2025-06-18';

/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension, SEP-1865, revision 2026-01-26): a tool
 * names a `ui://` resource of MIME type `text/html;profile=mcp-app` in `_meta.ui.resourceUri`,
 * and a host that supports the extension renders it beside the result, passing it the tool
 * result over postMessage. Hosts without it ignore `_meta` and keep the text and the data.
 */
export const MCP_APPS = {
  extension: 'io.modelcontextprotocol/ui',
  mimeType: 'text/html;profile=mcp-app',
  protocolVersion: '2026-01-26',
  apps: {
    reserveSeries: 'ui://chokepoint/reserve-series.html',
    commodityHistory: 'ui://chokepoint/commodity-history.html',
    countryExposures: 'ui://chokepoint/country-exposures.html',
  },
} as const;

/**
 * The capabilities the server announces (initialize, server/discover) and the server card
 * publishes: tools, resources and prompts that change only with a build (no listChanged, no
 * subscriptions), completions of prompt arguments and resource template variables, logging
 * (`logging/setLevel` is accepted; the server sends no log notifications), and MCP Apps.
 */
export const MCP_CAPABILITIES = {
  tools: { listChanged: false },
  resources: { listChanged: false },
  prompts: { listChanged: false },
  completions: {},
  logging: {},
  extensions: { [MCP_APPS.extension]: { mimeTypes: [MCP_APPS.mimeType] } },
};

/** The reference resources (api/mcp/reference.ts) that tool descriptions point to for what is too long to say there. */
export const MCP_REFERENCE = {
  methodology: 'chokepoint://reference/methodology',
  fields: 'chokepoint://reference/fields',
} as const;
const METHOD_NOTE = ` Bands and method: resource ${MCP_REFERENCE.methodology}.`;

/** `limit` as a tool argument: a JSON number (a numeric string is accepted too), same bounds and default as the HTTP parameter. */
const toolLimit = (max: number, def: number) =>
  z.coerce
    .number()
    .int()
    .min(1, 'must be at least 1')
    .max(max, `must be at most ${max}`)
    .optional()
    .default(def)
    .describe(`How many results, 1–${max} (default ${def})`);

/**
 * An HTTP enum parameter (text, lower-cased, then checked) as a tool argument: the enum itself,
 * so its JSON Schema lists the accepted values; same description as the HTTP parameter.
 */
const canonical = <E extends z.ZodEnum>(values: E, http: z.ZodType) => values.optional().describe(http.description ?? '');

// The HTTP query schemas minus `format` (tools always answer JSON). `.omit()` is refused on objects
// with refinements, so the shapes are copied and the cross-field checks restated.
const { format: _tsFormat, ...timeSeriesShape } = TimeSeriesQuery.shape;
const { format: _evFormat, limit: _evLimit, ...eventsShape } = EventsQuery.shape;
const { format: _lcFormat, ...listCommoditiesShape } = ListCommoditiesQuery.shape;
/** Bounds of the `limit` of the list tools whose routes return every item (scenarios, commodities). */
export const TOOL_LIST_LIMITS = { scenarios: { limit: 50, maxLimit: 100 }, commodities: { limit: 100, maxLimit: 100 } } as const;
/** Longest cursor accepted: an opaque page token of a list tool (its `next_cursor`) is far shorter. */
export const TOOL_CURSOR_MAX = 200;
/** `cursor` of the paged list tools: where the next page starts, as the previous page's `next_cursor` gave it. */
const toolCursor = z
  .string()
  .max(TOOL_CURSOR_MAX, `at most ${TOOL_CURSOR_MAX} characters`)
  .optional()
  .describe('next_cursor of the previous page, with the same other arguments; absent: the first page');
/** `lang` of the tools whose content is written in several languages: one language, English by default. */
const toolLang = (what: string) => Lang.optional().default('en').describe(`Language of ${what}: en (default), fr, de or es`);
const { format: _scFormat, ...scenariosShape } = ScenariosQuery.shape;
const { type: _srType, limit: _srLimit, ...searchShape } = SearchQuery.shape;

export const GetReserveInput = ReserveQuery;

export const GetReserveTimeseriesInput = z
  .strictObject({ ...timeSeriesShape, metric: canonical(ReserveMetric, timeSeriesShape.metric), frequency: canonical(Frequency, timeSeriesShape.frequency) })
  .superRefine((q, ctx) => {
    if (q.to && q.to < q.from) ctx.addIssue({ code: 'custom', path: ['to'], message: `must not be before from (${q.from})` });
  });

export const ListEventsInput = z
  .strictObject({
    ...eventsShape,
    category: canonical(z.enum(EVENT_CATEGORIES), eventsShape.category),
    limit: toolLimit(LIST_DEFAULTS.events.maxLimit, LIST_DEFAULTS.events.limit),
  })
  .superRefine((q, ctx) => {
    if (q.since && q.until && q.until < q.since) ctx.addIssue({ code: 'custom', path: ['until'], message: `must not be before since (${q.since})` });
  });

export const ListCommoditiesInput = z.strictObject({
  ...listCommoditiesShape,
  group: canonical(CommodityGroup, listCommoditiesShape.group),
  limit: toolLimit(TOOL_LIST_LIMITS.commodities.maxLimit, TOOL_LIST_LIMITS.commodities.limit),
  cursor: toolCursor,
});
export const ListScenariosInput = z.strictObject({
  ...scenariosShape,
  status: canonical(z.enum(SCENARIO_STATUSES), scenariosShape.status),
  lang: toolLang('the titles and summaries'),
  limit: toolLimit(TOOL_LIST_LIMITS.scenarios.maxLimit, TOOL_LIST_LIMITS.scenarios.limit),
  cursor: toolCursor,
});
export const SearchBriefingsInput = z.strictObject({
  ...searchShape,
  lang: toolLang('the briefings searched (the query itself may be in any of them)'),
  limit: toolLimit(LIST_DEFAULTS.search.maxLimit, LIST_DEFAULTS.search.limit),
});
export const GetCountryProfileInput = CountryPath;
export const GetCommodityInput = CommodityPath;
export const GetPriceInput = z.strictObject({
  commodity: CommodityParam.describe('Commodity code (`oil`, `gas`, `copper`) or slug (`energy.oil`), case-insensitive'),
});
export const CompareCountriesInput = z.strictObject({
  countries: z
    .array(CountryPath.shape.iso)
    .min(2, 'give at least 2 countries')
    .max(10, 'give at most 10 countries')
    .describe('2 to 10 countries: ISO 3166-1 alpha-3 (`DEU`) or alpha-2 (`fr`), a common abbreviation (`UK`) or a name in en, fr, de or es (`Italia`)')
    .meta({ examples: [['DEU', 'FRA', 'ITA']] }),
});

/** get_price: the latest price with the commodity it belongs to. */
export const PriceResult = Price.extend({ slug: CommoditySlug, code: CommodityCode, name: z.string().describe('Commodity name, in English') }).describe(
  'Latest price of one commodity: value, currency, unit, date (as_of), benchmark and 1-year change',
);

/** compare_countries: one row per country, the comparable parts of each profile. */
export const CountryComparison = CountryProfile.pick({
  iso3: true,
  iso2: true,
  name: true,
  stress_index: true,
  stress_band: true,
  exposures: true,
  autonomy: true,
  supplier_concentration: true,
  reserves: true,
  updated_at: true,
  url: true,
}).describe('The comparable parts of one country profile');

const count = z.number().int().nonnegative().describe('Number of items returned');

/**
 * What every tool result carries beside its data: the date of the newest observation behind it,
 * the licence and the attribution a reuser must give, and notes (caveats, and how a long result
 * was shortened). A record that has its own `as_of` (a reserve, a price) keeps it.
 */
export const ToolResultMeta = {
  as_of: DateString.nullable().describe('Date of the newest observation behind the result (null when it has none)'),
  license: z.literal(LICENSE).describe('Licence of the data'),
  attribution: z.string().describe('Attribution text with the backlink, required on reuse'),
  notes: z
    .array(z.string())
    .optional()
    .describe('Caveats that apply to the result (late, stale or historical sources among them), and how a long result was shortened'),
  sources: z
    .array(SourceRef)
    .describe("The upstream sources behind the result, as in the HTTP answer's meta.sources: each with data_as_of, retrieved_at, freshness and expected_next"),
};

function withResultMeta<O extends z.ZodObject>(o: O) {
  const { as_of, ...rest } = ToolResultMeta;
  const extended = 'as_of' in o.shape ? o.extend(rest) : o.extend({ as_of, ...rest });
  return o.description ? extended.describe(o.description) : extended;
}

/** get_reserve: with `country`, that reserve's fields; without it, `reserves` (every country's current reserve of the commodity) and `count`. */
export const GetReserveResult = withResultMeta(
  Reserve.omit({ as_of: true })
    .partial()
    .extend({
      // Items are described, not spelled out again: the full Reserve schema twice would double the tool's schema (tools/list size).
      reserves: z
        .array(z.looseObject({ country: Reserve.shape.country }))
        .optional()
        .describe("Without `country`: every country's current reserve of the commodity (the EU aggregate included), each with the fields of a single reserve"),
      count: count.optional().describe('Without `country`: the number of reserves'),
    }),
).describe(
  "With `country`: one reserve (every field of Reserve, as_of the date of the reading). Without `country`: `reserves`, every country's current reserve of the commodity, and `count`",
);
export const GetPriceResult = withResultMeta(PriceResult);
export const GetCountryProfileResult = withResultMeta(CountryProfile);
export const GetCommodityResult = withResultMeta(CommoditySheet);
export const GetReserveTimeseriesResult = withResultMeta(TimeSeries);
export const CompareCountriesResult = withResultMeta(z.strictObject({ countries: z.array(CountryComparison).describe('In the order requested') }));
const total = z.number().int().nonnegative().describe('How many items match, over all pages');
const nextCursor = z.string().nullable().describe('Pass as cursor for the next page; null on the last page');
export const ListCommoditiesResult = withResultMeta(z.strictObject({ commodities: z.array(CommodityListEntry), count, total, next_cursor: nextCursor }));

/** A scenario in one language: the title and summary in `lang`, without the other translations. */
export const LocalizedScenario = ScenarioSchema.omit({ translations: true })
  .extend({
    lang: Lang.describe('Language of title and summary'),
    title: z.string().describe('Title, in `lang`'),
    summary: z.string().describe('What would happen and what it would do to supply, in `lang`'),
  })
  .describe('A crisis scenario in one language, with its probability, severity and status history');
/**
 * A scenario as list_scenarios gives it: in one language, with the date its current status began
 * instead of the whole status history (which GET /v1/scenarios carries), so that a list an agent
 * asks for stays small.
 */
export const ScenarioListItem = LocalizedScenario.omit({ status_history: true })
  .extend({ status_since: DateString.describe('Date the current status began (the full history: GET /v1/scenarios)') })
  .describe('A crisis scenario in one language, with its probability, severity and current status');
export const ListScenariosResult = withResultMeta(
  z.strictObject({ scenarios: z.array(ScenarioListItem).describe('In the order of GET /v1/scenarios'), count, total, next_cursor: nextCursor }),
);
export const ListEventsResult = withResultMeta(
  z.strictObject({
    events: z
      .array(z.union([EventSchema, LocalizedEventSchema]))
      .describe('Newest first; in English with every translation, or with `lang` fr, de or es, title and summary in that language'),
    count,
  }),
);
/** A search hit of search_briefings: the /v1/search hit, and the MCP resource that holds the briefing. */
export const BriefingHit = SearchHit.extend({
  resource: z.string().describe('URI of the briefing as an MCP resource (chokepoint://briefing/{lang}/{id}): read it with resources/read'),
});
export const SearchBriefingsResult = withResultMeta(
  z.strictObject({
    results: z.array(BriefingHit).describe('Best match first, as GET /v1/search?type=briefing ranks them; every hit is a briefing'),
    count,
  }),
);

export const TOOLS = [
  tool({
    name: 'get_reserve',
    title: 'Current strategic reserve',
    description:
      "Current strategic reserve of one commodity in one country: fill %, volume, capacity, days of cover, target, seasonal norm, date. Without country: every country's current reserve of it, EU aggregate included. Reserves exist for gas (EU countries, `eu`) and oil (`us`); other pairs are refused with the ones that exist. History: get_reserve_timeseries.",
    inputSchema: GetReserveInput,
    outputSchema: GetReserveResult,
    route: '/v1/reserves',
  }),
  tool({
    name: 'get_price',
    title: 'Latest commodity price',
    description:
      'Latest price of one commodity: value, currency, unit, date, benchmark, 1-year change. Refused for a commodity without a public price series (the error names priced ones). History: get_commodity.',
    inputSchema: GetPriceInput,
    outputSchema: GetPriceResult,
    route: '/v1/commodities',
  }),
  tool({
    name: 'compare_countries',
    title: 'Compare countries',
    description:
      '2 to 10 countries side by side: stress index and band, import dependence and main suppliers per commodity, autonomy, supplier concentration (HHI), reserves. One country in full: get_country_profile.',
    inputSchema: CompareCountriesInput,
    outputSchema: CompareCountriesResult,
  }),
  tool({
    name: 'list_scenarios',
    title: 'Crisis scenarios',
    description:
      'Crisis scenarios (e.g. Strait of Hormuz closure): probability 0–1, severity 1–5, status and its history, commodities and countries concerned. Filter by status or commodity; title and summary in lang; pages of limit with total, the next with cursor=next_cursor.',
    inputSchema: ListScenariosInput,
    outputSchema: ListScenariosResult,
    route: '/v1/scenarios',
    toolOnlyArgs: ['lang', 'limit', 'cursor'],
  }),
  tool({
    name: 'search_briefings',
    title: 'Search briefings',
    description:
      'Search the editorial briefings of one language (the query may be in en, fr, de or es): best hits with snippet and score, ranked as GET /v1/search?type=briefing. Each hit names its resource chokepoint://briefing/{lang}/{id}; read it for the whole text.',
    inputSchema: SearchBriefingsInput,
    outputSchema: SearchBriefingsResult,
    route: '/v1/search',
  }),
  tool({
    name: 'get_country_profile',
    title: 'Country profile',
    description:
      "Full profile of one country: supply stress index with each commodity's contribution, exposures (import dependence, main suppliers), autonomy, supplier concentration, share of world production, reserves. Refused for a country not covered (suggestions given)." +
      METHOD_NOTE,
    inputSchema: GetCountryProfileInput,
    outputSchema: GetCountryProfileResult,
    route: '/v1/countries/{iso}',
    app: MCP_APPS.apps.countryExposures,
  }),
  tool({
    name: 'list_commodities',
    title: 'Tracked commodities',
    description:
      'Every tracked commodity (energy, metals, agri): slug, code, latest price, stress index 0–100 and band, last update. Call it first to learn the codes; filter by group; pages of limit, the next with cursor=next_cursor.' +
      METHOD_NOTE,
    inputSchema: ListCommoditiesInput,
    outputSchema: ListCommoditiesResult,
    route: '/v1/commodities',
    toolOnlyArgs: ['limit', 'cursor'],
  }),
  tool({
    name: 'get_commodity',
    title: 'Commodity sheet',
    description:
      'Full sheet of one commodity: producers and consumers with shares, reserves in the ground, concentration (HHI), largest trade flows, price history (daily shortened to monthly; the full series is linked), monthly stress history, stress index with every component.' +
      METHOD_NOTE,
    inputSchema: GetCommodityInput,
    outputSchema: GetCommodityResult,
    route: '/v1/commodities/{slug}',
    app: MCP_APPS.apps.commodityHistory,
  }),
  tool({
    name: 'get_reserve_timeseries',
    title: 'Reserve time series',
    description:
      'One reserve metric (fill_pct, volume, days_of_cover) of one commodity and country between two dates, at its own frequency or weekly/monthly. Without frequency, a series over 400 points is resampled (a note says so) and the full series is linked as JSON and CSV.',
    inputSchema: GetReserveTimeseriesInput,
    outputSchema: GetReserveTimeseriesResult,
    route: '/v1/reserves/timeseries',
    app: MCP_APPS.apps.reserveSeries,
  }),
  tool({
    name: 'list_events',
    title: 'Geopolitical events',
    description:
      'Events that bear on supply (conflict, sanction, catastrophe, policy, infrastructure), newest first: date, summary, commodities, countries, public source. Default: the 90 days before the newest event. Filter by dates, category, commodity, country.',
    inputSchema: ListEventsInput,
    outputSchema: ListEventsResult,
    route: '/v1/events',
  }),
] as const;

export type Tool = (typeof TOOLS)[number];
export type ToolName = Tool['name'];

/** The tool of that name, or undefined. */
export function toolByName(name: string): Tool | undefined {
  return TOOLS.find((t) => t.name === name);
}

/** Reverse-DNS server name with one slash, as the MCP registry and server cards want it: chokepoint.example → example.chokepoint/chokepoint. */
export function serverName(baseUrl: string): string {
  const host = new URL(baseUrl).hostname;
  const reversed = /^[\d.]+$/.test(host) || !host.includes('.') ? host : host.split('.').reverse().join('.');
  return `${reversed}/chokepoint`;
}

/**
 * `_meta` of a tool with an MCP App: `ui.resourceUri`, and the flat `ui/resourceUri` key that
 * hosts written before the extension's 2026-01-26 revision read (as the extension's own
 * registerAppTool sets both).
 */
export function appMeta(app: string | undefined): Record<string, unknown> | undefined {
  return app ? { ui: { resourceUri: app }, 'ui/resourceUri': app } : undefined;
}

/** The tools as an MCP `tools/list` would show them: JSON Schemas of the zod input and output schemas, and the app of those that have one. */
export function toolDescriptors(): Array<{
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}> {
  return TOOLS.map((t) => {
    const meta = appMeta(t.app);
    return {
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: withoutDatePatterns(jsonSchemaOf(t.inputSchema, 'input')),
      outputSchema: outlineSchema(jsonSchemaOf(t.outputSchema, 'output')),
      annotations: { title: t.title, ...t.annotations },
      ...(meta ? { _meta: meta } : {}),
    };
  });
}
