import { z } from 'zod';
import { CommodityListResponse, CommoditySheetResponse } from './commodities.ts';
import { CommodityGroup, DateString, Meta, envelope } from './common.ts';
import { LANGS, langList } from './languages.ts';
import { BriefingSchema, EVENT_CATEGORIES, EventSchema, SCENARIO_STATUSES, ScenarioSchema } from './content.ts';
import { CountryProfileResponse } from './countries.ts';
import { INPUT_LIMITS as L, maxLength } from './limits.ts';
import { Frequency, ReserveMetric, ReserveResponse, TimeSeriesResponse } from './reserves.ts';

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

export const Format = z.enum(['json', 'csv']).optional().describe('Response format; `csv` is the same as `Accept: text/csv`');
export const CommodityParam = z
  .string()
  .max(...maxLength(L.commodity))
  .transform(lower)
  .pipe(z.string().regex(/^([a-z]+\.)?[a-z0-9]+$/, 'expected a commodity code such as gas or oil (a slug such as energy.gas is accepted too)'))
  .describe('Commodity code, e.g. `gas`, `oil` (case-insensitive; the slug `energy.gas` is accepted too)')
  .meta({ examples: ['gas'] });
export const CountryParam = z
  .string()
  .max(...maxLength(L.country))
  .transform(lower)
  .pipe(z.string().regex(/^[a-z]{2,3}$/, 'expected an ISO 3166-1 country code such as de (alpha-2) or DEU (alpha-3)'))
  .describe('Country, ISO 3166-1 alpha-2 (`de`; `eu` for the EU aggregate); alpha-3 is accepted too (case-insensitive)')
  .meta({ examples: ['de'] });
const LangParam = enumText().pipe(z.enum(LANGS)).describe(`Language: ${langList()}`);

export const ListCommoditiesQuery = z.strictObject({
  group: enumText().pipe(CommodityGroup).optional().describe('Only this group: energy, metals or agri'),
  format: Format,
});

export const ReserveQuery = z.strictObject({ commodity: CommodityParam, country: CountryParam });

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
    .regex(/^[A-Za-z]{2,3}$/, 'expected an ISO 3166-1 code: three letters (DEU) or two (DE)')
    .describe('ISO 3166-1 alpha-3 (DEU); alpha-2 (DE) is accepted too, case-insensitive')
    .meta({ examples: ['DEU'] }),
});
export const CommodityPath = z.strictObject({
  slug: z
    .string()
    .max(...maxLength(L.commodity))
    .regex(/^[A-Za-z]+\.[A-Za-z0-9]+$/, 'expected a slug <group>.<code> such as energy.gas')
    .describe('Commodity slug `<group>.<code>`, e.g. `energy.gas` (case-insensitive)')
    .meta({ examples: ['metals.cobalt'] }),
});

export const ScenariosQuery = z.strictObject({
  status: enumText().pipe(z.enum(SCENARIO_STATUSES)).optional().describe('Only scenarios with this status'),
  commodity: CommodityParam.optional().describe('Only scenarios that concern this commodity (code or slug)'),
  format: Format,
});

export const EventsQuery = z
  .strictObject({
    since: CalendarDate.optional().describe('Events on or after this date; default: 90 days before the newest event'),
    until: CalendarDate.optional().describe('Events on or before this date'),
    category: enumText().pipe(z.enum(EVENT_CATEGORIES)).optional().describe('One category'),
    commodity: CommodityParam.optional().describe('Only events tagged with this commodity (code or slug)'),
    country: CountryParam.optional().describe('Only events tagged with this country (alpha-2 or alpha-3)'),
    limit: intParam(1, 500, 50),
    format: Format,
  })
  .superRefine((q, ctx) => {
    if (q.since && q.until && q.until < q.since) ctx.addIssue({ code: 'custom', path: ['until'], message: `must not be before since (${q.since})` });
  });

export const BriefingsQuery = z.strictObject({
  lang: LangParam.optional().default('en'),
  limit: intParam(1, 50, 10),
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
  limit: intParam(1, 50, 10),
  type: enumText()
    .pipe(z.enum(['briefing', 'scenario']))
    .optional()
    .describe('Only briefings or only scenarios'),
  lang: LangParam.optional().describe('Only documents in this language'),
});

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

export const SearchHit = z.strictObject({
  type: z.enum(['briefing', 'scenario']),
  id: z.string(),
  lang: z.enum(LANGS),
  title: z.string(),
  snippet: z.string().describe('Matching passage; matched terms are wrapped in <mark>…</mark>'),
  score: z.number(),
  url: z.string().describe('API address of the hit'),
});
export const SearchResponse = envelope(z.array(SearchHit));

export const Citation = z.strictObject({
  id: z.string(),
  type: z.string().describe('What is cited: commodity, reserve, country, scenario, event, briefing'),
  title: z.string(),
  url: z.string(),
  quote: z.string().describe('The figure or passage taken from the record'),
});
export const Answer = z.strictObject({
  answer: z.string(),
  lang: z.enum(LANGS),
  citations: z.array(Citation),
  confidence: z.number().min(0).max(1),
  mode: z.enum(['grounded', 'llm']),
});
export const AskResponse = envelope(Answer);

export const EventListResponse = envelope(z.array(EventSchema));
export const ScenarioListResponse = envelope(z.array(ScenarioSchema));
export const BriefingListResponse = envelope(z.array(BriefingSchema));

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
    description: 'Current reserve of one commodity in one country: fill percentage, volume, capacity, days of cover and the target that applies.',
    tag: 'Reserves',
    query: ReserveQuery,
    response: ReserveResponse,
    csv: false,
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
    description: 'Producers, consumers, flows, concentration, price history and the stress reading with every component.',
    tag: 'Commodities',
    params: CommodityPath,
    response: CommoditySheetResponse,
    csv: false,
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
    description: 'Events that bear on supply, newest first. Without `since`, the 90 days before the newest event.',
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
    description: 'Latest briefings in one language, newest first.',
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
    query: SearchQuery,
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
    body: AskBody,
    response: AskResponse,
    csv: false,
    policy: 'ask',
    example: '/v1/ask',
  },
];

export { Meta, DateString };
