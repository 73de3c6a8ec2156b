import { z } from 'zod';
import { CommodityListResponse, CommoditySheetResponse } from './commodities.ts';
import { CommodityGroup, CommoditySlug, DateString, Iso3, Meta, envelope } from './common.ts';
import { LANGS, langList } from './languages.ts';
import { BriefingSchema, EVENT_CATEGORIES, EventSchema, LocalizedEventSchema, SCENARIO_STATUSES, ScenarioSchema, TRANSLATION_LANGS } from './content.ts';
import { CountryProfileResponse } from './countries.ts';
import { INPUT_LIMITS as L, LIST_DEFAULTS, maxLength } from './limits.ts';
import { Frequency, Reserve, ReserveMetric, ReserveResponse, TimeSeriesResponse } from './reserves.ts';

/**
 * The request side of the contract: one entry per route, with the parameters it accepts (query
 * strings arrive as text, so these schemas parse text), what it answers, and the words that
 * document it. The API validates with these, the OpenAPI document and the MCP tools are
 * generated from them.
 */

const lower = (s: string) => s.trim().toLowerCase();
/** Lone UTF-16 surrogates: text that is not valid Unicode (JSON can carry them as escapes). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const validText = (s: string) => !LONE_SURROGATE.test(s);

/** A date parameter: a real calendar date, bounded in length before it is parsed. */
export const CalendarDate = DateString.max(...maxLength(L.date)).describe('Date, YYYY-MM-DD');

const intParam = (min: number, max: number, def: number) =>
  z
    .string()
    .max(...maxLength(L.integer))
    .regex(/^\d+$/, `expected a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .optional()
    .default(def)
    .describe(`Integer ${min}–${max} (default ${def})`);

/** An enumerated text parameter: at most INPUT_LIMITS.enumValue characters, lower-cased, then checked. */
const enumText = () =>
  z
    .string()
    .max(...maxLength(L.enumValue))
    .transform(lower);

/**
 * The `format` parameter of a route: `json` everywhere, `csv` where the route has a CSV form
 * (ROUTES[].csv). Anything else is one 400 naming the formats the route offers.
 */
const formatParam = (csv: boolean) =>
  enumText()
    .pipe(z.enum(csv ? ['json', 'csv'] : ['json'], { error: csv ? 'must be json or csv' : 'must be json' }))
    .optional()
    .describe(csv ? 'Response format: `json` (default) or `csv`, the same as `Accept: text/csv`' : 'Response format: `json` only; this route has no CSV form')
    .meta({ examples: [csv ? 'csv' : 'json'] });
/** `format` on a route with a CSV form. */
export const Format = formatParam(true);
/** `format` on a route without one: `json` is accepted, `csv` refused with 400. */
export const JsonFormat = formatParam(false);

/**
 * Text that may name a commodity or a country: letters of any script (with their accents),
 * digits, spaces and the punctuation names carry (`Côte d’Ivoire`, `Urea (nitrogen fertiliser)`,
 * `Bosnia & Herzegovina`, `U.K.`). What it names is decided by the resolver (api/resolve.ts).
 */
const NAME_TEXT = /^[\p{L}\p{N}][\p{L}\p{M}\p{N} .,'’&()/-]*$/u;
const COMMODITY_FORM = 'expected a commodity code (gas), slug (energy.gas) or name (natural gas, Erdgas)';
const COUNTRY_FORM = 'expected an ISO 3166-1 code (DE or DEU) or a country name (Germany, Allemagne)';
const trimmed = (s: string) => s.trim();

export const CommodityParam = z
  .string()
  .max(...maxLength(L.commodity))
  .transform(lower)
  .pipe(z.string().regex(NAME_TEXT, COMMODITY_FORM))
  .describe('Commodity code (`gas`), slug (`energy.gas`) or name in en, fr, de or es (`Kobalt`); case-insensitive')
  .meta({ examples: ['gas'] });
export const CountryParam = z
  .string()
  .max(...maxLength(L.country))
  .transform(lower)
  .pipe(z.string().regex(NAME_TEXT, COUNTRY_FORM))
  .describe(
    'Country: ISO 3166-1 alpha-2 (`de`; `eu` for the EU aggregate) or alpha-3, a common abbreviation (`UK`) or name in en, fr, de or es (`Allemagne`); case-insensitive',
  )
  .meta({ examples: ['de'] });

/**
 * Common country abbreviations that are not ISO 3166-1 codes, and a few former or colloquial
 * names, → alpha-3. Kept small on purpose: everything else is an ISO code or a name of the
 * country in one of the four languages. Keys are written as the resolver compares text: lower
 * case, without accents, dots or apostrophes.
 */
export const COUNTRY_ABBREVIATIONS: ReadonlyMap<string, string> = new Map([
  ['uk', 'GBR'],
  ['great britain', 'GBR'],
  ['britain', 'GBR'],
  ['ger', 'DEU'],
  ['america', 'USA'],
  ['united states of america', 'USA'],
  ['uae', 'ARE'],
  ['ksa', 'SAU'],
  ['drc', 'COD'],
  ['prc', 'CHN'],
  ['rok', 'KOR'],
  ['dprk', 'PRK'],
  ['rsa', 'ZAF'],
  ['turkey', 'TUR'],
  ['burma', 'MMR'],
  ['holland', 'NLD'],
  ['czech republic', 'CZE'],
  ['ivory coast', 'CIV'],
  ['russian federation', 'RUS'],
]);

/** What names the EU aggregate where a reserve is asked for (the country `eu`), in the four languages. */
export const EU_NAMES: ReadonlySet<string> = new Set(['eu', 'eu27', 'european union', 'union europeenne', 'europaische union', 'union europea']);

const LangParam = enumText().pipe(z.enum(LANGS)).describe(`Language: ${langList()}`);

export const ListCommoditiesQuery = z.strictObject({
  group: enumText().pipe(CommodityGroup).optional().describe('Only this group: energy, metals or agri'),
  format: Format,
});

/** What identifies a reserve (also the arguments of the MCP tool get_reserve). */
export const ReserveQuery = z.strictObject({
  commodity: CommodityParam,
  country: CountryParam.optional().describe(`${CountryParam.description}. Omit it for every country's reserve of the commodity`),
});
/** GET /v1/reserves: the reserve, and the response format. */
export const ReservesQuery = ReserveQuery.extend({ format: Format });

export const TimeSeriesQuery = z
  .strictObject({
    commodity: CommodityParam,
    country: CountryParam,
    from: CalendarDate.describe('First date of the series (inclusive)').meta({ examples: ['2025-01-01'] }),
    to: CalendarDate.optional().describe('Last date (inclusive); default: today'),
    metric: enumText()
      .pipe(ReserveMetric)
      .optional()
      .describe('fill_pct, volume or days_of_cover; default fill_pct, or volume for a reserve without a fill percentage (the US SPR)'),
    frequency: enumText().pipe(Frequency).optional().describe("daily, weekly or monthly (default: the series' own); each period is its last observation"),
    format: Format,
  })
  .superRefine((q, ctx) => {
    if (q.to && q.to < q.from) ctx.addIssue({ code: 'custom', path: ['to'], message: `must not be before from (${q.from})` });
  });

export const CountryPath = z.strictObject({
  iso: z
    .string()
    .max(...maxLength(L.country))
    .transform(trimmed)
    .pipe(z.string().regex(NAME_TEXT, COUNTRY_FORM))
    .describe('Country: ISO 3166-1 alpha-3 (`DEU`) or alpha-2, a common abbreviation (`UK`) or name in en, fr, de or es (`Allemagne`); case-insensitive')
    .meta({ examples: ['DEU'] }),
});
/** GET /v1/countries/{iso}: JSON only (a profile is a set of differently shaped tables). */
export const CountryQuery = z.strictObject({ format: JsonFormat });
export const CommodityPath = z.strictObject({
  slug: z
    .string()
    .max(...maxLength(L.commodity))
    .transform(trimmed)
    .pipe(z.string().regex(NAME_TEXT, COMMODITY_FORM))
    .describe('Commodity slug `<group>.<code>` (`energy.gas`), code (`gas`) or name in en, fr, de or es (`Kobalt`); case-insensitive')
    .meta({ examples: ['metals.cobalt'] }),
});
/** GET /v1/commodities/{slug}: JSON, or the sheet's price history as CSV. */
export const CommoditySheetQuery = z.strictObject({ format: Format });

export const ScenariosQuery = z.strictObject({
  status: enumText().pipe(z.enum(SCENARIO_STATUSES)).optional().describe('Only scenarios with this status'),
  commodity: CommodityParam.optional().describe('Only scenarios that concern this commodity (code or slug)'),
  format: Format,
});

export const EventsQuery = z
  .strictObject({
    since: CalendarDate.optional().describe(`Events on or after this date; default: ${LIST_DEFAULTS.events.sinceDays} days before the newest event`),
    until: CalendarDate.optional().describe('Events on or before this date'),
    category: enumText().pipe(z.enum(EVENT_CATEGORIES)).optional().describe('One category'),
    commodity: CommodityParam.optional().describe('Only events tagged with this commodity (code or slug)'),
    country: CountryParam.optional().describe('Only events tagged with this country (alpha-2 or alpha-3)'),
    limit: intParam(1, LIST_DEFAULTS.events.maxLimit, LIST_DEFAULTS.events.limit),
    lang: LangParam.optional().describe(
      `Language of each event's title and summary: ${langList()}; default en, whose records carry every translation under \`translations\``,
    ),
    format: Format,
  })
  .superRefine((q, ctx) => {
    if (q.since && q.until && q.until < q.since) ctx.addIssue({ code: 'custom', path: ['until'], message: `must not be before since (${q.since})` });
  });

export const BriefingsQuery = z.strictObject({
  lang: LangParam.optional().default(LIST_DEFAULTS.briefings.lang),
  limit: intParam(1, LIST_DEFAULTS.briefings.maxLimit, LIST_DEFAULTS.briefings.limit),
  format: Format,
});

export const SearchQuery = z.strictObject({
  q: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(...maxLength(L.searchQuery))
    .refine(validText, 'is not valid Unicode text')
    .describe(`What to search for, in any of ${langList()}`)
    .meta({ examples: ['cobalt export ban'] }),
  limit: intParam(1, LIST_DEFAULTS.search.maxLimit, LIST_DEFAULTS.search.limit),
  type: enumText()
    .pipe(z.enum(['briefing', 'scenario']))
    .optional()
    .describe('Only briefings or only scenarios'),
  lang: LangParam.optional().describe('Only documents in this language'),
});
/** GET /v1/search: the search, and the response format (JSON only). */
export const SearchRouteQuery = SearchQuery.extend({ format: JsonFormat });

export const AskBody = z.strictObject({
  q: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(...maxLength(L.askQuestion))
    .refine(validText, 'is not valid Unicode text')
    .describe(`A question about the data, in ${langList()}`)
    .meta({ examples: ["How full is Germany's gas storage?"] }),
});
export const ASK_MAX_BODY_BYTES = 4096;
/** POST /v1/ask takes its question in the body; the query string may only say `format=json`. */
export const AskQuery = z.strictObject({ format: JsonFormat });

export const SearchHit = z.strictObject({
  type: z.enum(['briefing', 'scenario']),
  id: z.string(),
  lang: z.enum(LANGS),
  title: z.string(),
  snippet: z.string().describe('The best-matching passage, plain text (not HTML-escaped)'),
  highlights: z
    .array(z.array(z.number().int().min(0)).length(2))
    .describe('The matched words in `snippet`: [start, end) offsets in UTF-16 code units (JavaScript string indices), in order'),
  score: z.number().min(0).max(1).describe('Absolute relevance, 0–1, comparable across queries (docs/search.md); hits under 0.35 are not returned'),
  url: z.string().describe('API address of the hit'),
});
export const SearchResponse = envelope(z.array(SearchHit));

export const Citation = z.strictObject({
  id: z.string(),
  type: z.string().describe('What is cited: commodity, reserve, country, scenario, event, briefing'),
  title: z.string(),
  url: z.string().describe('API address that returns every field and value of `quote`'),
  quote: z.string().describe('Fields and values exactly as the record at `url` returns them (no figure computed from them: those are in `derived`)'),
});
export const DerivedFigure = z.strictObject({
  label: z.enum(['difference', 'change', 'change_pct', 'age_days', 'rank', 'count']).describe('What the figure is'),
  value: z.number(),
  unit: z.string().describe('Unit of `value` (USD/bbl, percentage points, points, %, days; empty for a rank)'),
  arithmetic: z.string().describe('How `value` follows from cited values, e.g. "95.29 − 86.48" or "(13543.19 − 9532.98) / 9532.98 × 100"'),
  citations: z.array(z.string()).describe('`id`s of the citations whose values it uses'),
});
export const Answer = z.strictObject({
  answer: z.string(),
  lang: z.enum(LANGS),
  citations: z.array(Citation),
  derived: z.array(DerivedFigure).describe('Figures of the answer computed from cited values (differences, changes, ages, ranks), with their arithmetic'),
  confidence: z.number().min(0).max(1),
  mode: z.enum(['grounded', 'llm']),
});
export const AskResponse = envelope(Answer);

/**
 * `meta.query` of the list routes with defaulted parameters: every parameter that shaped the
 * answer, after defaults and resolution (a commodity as its slug, a country as alpha-3). A
 * request without parameters and one that spells the defaults out carry the same `query` (and
 * get the same body).
 */
export const EventsQueryEcho = z
  .strictObject({
    since: DateString.optional().describe(
      `The effective start date (default: ${LIST_DEFAULTS.events.sinceDays} days before the newest event; absent when there is no event)`,
    ),
    until: DateString.optional(),
    category: z.enum(EVENT_CATEGORIES).optional(),
    commodity: CommoditySlug.optional(),
    country: Iso3.optional(),
    limit: z.number().int().describe(`The effective limit (default ${LIST_DEFAULTS.events.limit})`),
    lang: z.enum(TRANSLATION_LANGS).optional().describe('The language of the titles and summaries, when not English'),
  })
  .describe('The parameters that produced this answer, defaults applied');
export const BriefingsQueryEcho = z
  .strictObject({
    lang: z.enum(LANGS),
    limit: z.number().int().describe(`The effective limit (default ${LIST_DEFAULTS.briefings.limit})`),
  })
  .describe('The parameters that produced this answer, defaults applied');
export type EventsQueryEcho = z.infer<typeof EventsQueryEcho>;
export type BriefingsQueryEcho = z.infer<typeof BriefingsQueryEcho>;

// `query` is optional: the full sets the API filters (data/events.json, data/briefings/<lang>.json) share these schemas.
/** The published sets of events (data/events.json, v1/events.json): in English, each with its translations. */
export const EventSetFile = z.strictObject({ data: z.array(EventSchema), meta: Meta.extend({ query: EventsQueryEcho.optional() }) });
export const EventListResponse = z.strictObject({
  data: z
    .array(z.union([EventSchema, LocalizedEventSchema]))
    .describe('Events in English with their translations, or, with `lang` fr, de or es, each in that language'),
  meta: Meta.extend({ query: EventsQueryEcho.optional() }),
});
export const ScenarioListResponse = envelope(z.array(ScenarioSchema));
export const BriefingListResponse = z.strictObject({ data: z.array(BriefingSchema), meta: Meta.extend({ query: BriefingsQueryEcho.optional() }) });

/** Every country's current reserve of one commodity (GET /v1/reserves without `country`). */
export const ReserveListResponse = envelope(z.array(Reserve).describe("Every country's current reserve of the commodity, the EU aggregate included"));
/** GET /v1/reserves: one Reserve with `country`, the list without it. */
export const GetReserveResponse = z
  .union([ReserveResponse, ReserveListResponse])
  .describe("With `country`: that reserve. Without `country`: every country's current reserve of the commodity, as a list of the same Reserve objects");

export const Problem = z
  .object({
    type: z.string().describe('URI of the problem type'),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string().describe('The request path'),
    errors: z
      .array(z.strictObject({ param: z.string(), message: z.string() }))
      .optional()
      .describe('Each invalid parameter'),
    suggestions: z.array(z.string()).optional().describe('The nearest valid identifiers (404)'),
    allowed: z.array(z.string()).optional().describe('Accepted values'),
    policy: z.string().optional().describe('The rate-limit policy that was exceeded (429)'),
    request_id: z.string().optional().describe('The X-Request-Id of the request (quote it when reporting a problem)'),
  })
  .describe('RFC 9457 problem details');

export interface RouteSpec {
  operationId: string;
  method: 'get' | 'post';
  path: string;
  summary: string;
  description: string;
  tag: string;
  query?: z.ZodType;
  params?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  csv: boolean;
  policy: 'data' | 'ask';
  example: string;
}

export const ROUTES: readonly RouteSpec[] = [
  {
    operationId: 'listCommodities',
    method: 'get',
    path: '/v1/commodities',
    summary: 'List tracked commodities',
    description: 'Every tracked commodity with its current price, stress index and last update.',
    tag: 'Commodities',
    query: ListCommoditiesQuery,
    response: CommodityListResponse,
    csv: true,
    policy: 'data',
    example: '/v1/commodities?group=metals',
  },
  {
    operationId: 'getReserve',
    method: 'get',
    path: '/v1/reserves',
    summary: 'Current strategic reserve',
    description:
      "Current reserve of one commodity in one country: fill percentage, volume, capacity, days of cover and the target that applies. Without `country`, every country's current reserve of the commodity (the EU aggregate included), as a list.",
    tag: 'Reserves',
    query: ReservesQuery,
    response: GetReserveResponse,
    csv: true,
    policy: 'data',
    example: '/v1/reserves?commodity=gas&country=de',
  },
  {
    operationId: 'getReserveTimeseries',
    method: 'get',
    path: '/v1/reserves/timeseries',
    summary: 'Reserve time series',
    description: 'A normalised series of one reserve metric over a date range, optionally resampled to weekly or monthly (last observation of each period).',
    tag: 'Reserves',
    query: TimeSeriesQuery,
    response: TimeSeriesResponse,
    csv: true,
    policy: 'data',
    example: '/v1/reserves/timeseries?commodity=gas&country=de&from=2026-01-01&metric=fill_pct&frequency=weekly',
  },
  {
    operationId: 'getCountry',
    method: 'get',
    path: '/v1/countries/{iso}',
    summary: 'Country profile',
    description: 'Stress index, exposures, autonomy (self-sufficiency), supplier concentration, production shares and reserves of one country.',
    tag: 'Countries',
    params: CountryPath,
    query: CountryQuery,
    response: CountryProfileResponse,
    csv: false,
    policy: 'data',
    example: '/v1/countries/DEU',
  },
  {
    operationId: 'getCommodity',
    method: 'get',
    path: '/v1/commodities/{slug}',
    summary: 'Commodity sheet',
    description:
      'Producers, consumers, flows, concentration, price history and the stress reading with every component. As CSV (`format=csv`), the price history.',
    tag: 'Commodities',
    params: CommodityPath,
    query: CommoditySheetQuery,
    response: CommoditySheetResponse,
    csv: true,
    policy: 'data',
    example: '/v1/commodities/metals.cobalt',
  },
  {
    operationId: 'listScenarios',
    method: 'get',
    path: '/v1/scenarios',
    summary: 'Crisis scenarios',
    description: 'Forward-looking crisis scenarios with probability, severity, status and status history.',
    tag: 'Scenarios',
    query: ScenariosQuery,
    response: ScenarioListResponse,
    csv: true,
    policy: 'data',
    example: '/v1/scenarios?status=elevated',
  },
  {
    operationId: 'listEvents',
    method: 'get',
    path: '/v1/events',
    summary: 'Tagged geopolitical events',
    description: `Events that bear on supply, newest first. Without \`since\`, the ${LIST_DEFAULTS.events.sinceDays} days before the newest event; at most \`limit\` (default ${LIST_DEFAULTS.events.limit}). \`meta.query\` gives the parameters used.`,
    tag: 'Events',
    query: EventsQuery,
    response: EventListResponse,
    csv: true,
    policy: 'data',
    example: '/v1/events?since=2025-01-01&category=policy',
  },
  {
    operationId: 'listBriefings',
    method: 'get',
    path: '/v1/briefings',
    summary: 'Editorial briefings',
    description: `Latest briefings in one language, newest first (default: the ${LIST_DEFAULTS.briefings.limit} newest in English). \`meta.query\` gives the parameters used.`,
    tag: 'Briefings',
    query: BriefingsQuery,
    response: BriefingListResponse,
    csv: true,
    policy: 'data',
    example: '/v1/briefings?lang=fr&limit=5',
  },
  {
    operationId: 'search',
    method: 'get',
    path: '/v1/search',
    summary: 'Search briefings and scenarios',
    description: 'Hybrid (keyword and semantic) search over briefings and scenarios in every language.',
    tag: 'Search',
    query: SearchRouteQuery,
    response: SearchResponse,
    csv: false,
    policy: 'data',
    example: '/v1/search?q=cobalt+export+ban',
  },
  {
    operationId: 'ask',
    method: 'post',
    path: '/v1/ask',
    summary: 'Ask a question',
    description: 'A natural-language answer from the data, every figure cited. Body `{ "q": "…" }`, `content-type: application/json`, at most 4 KiB.',
    tag: 'Ask',
    query: AskQuery,
    body: AskBody,
    response: AskResponse,
    csv: false,
    policy: 'ask',
    example: '/v1/ask',
  },
];

export { Meta, DateString };
