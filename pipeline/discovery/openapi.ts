import { BULK_RESOURCES } from '../../contract/bulk.ts';
import { z } from 'zod';
import { Health, HealthUnavailable } from '../../contract/health.ts';
import { PROBLEM_TYPES } from '../../contract/problems.ts';
import { ASK_MAX_BODY_BYTES, AskBody, Answer, Citation, Problem, ROUTES, SearchHit, type RouteSpec } from '../../contract/api.ts';
import { CommodityListEntry, CommoditySheet, Concentration, Flow, Names, Price, ShareTable } from '../../contract/commodities.ts';
import { LICENSE, LICENSE_URL, Meta, METHODOLOGY_VERSION, SourceRef } from '../../contract/common.ts';
import { BriefingSchema, EventSchema, LocalizedEventSchema, ScenarioSchema, StatusChangeSchema } from '../../contract/content.ts';
import { Autonomy, CountryProfile, Exposure } from '../../contract/countries.ts';
import { Reserve, TimeSeries } from '../../contract/reserves.ts';
import { CommodityStress, EventContribution, StressComponent } from '../../contract/stress.ts';
import { TOOLS } from '../../contract/tools.ts';
import { DATA_CACHE_CONTROL, EXPOSED_HEADERS } from '../../contract/http.ts';
import { CSV_COLUMNS } from '../../contract/csv.ts';
import { docOf, jsonSchemaOf, parameterSchema, shapeOf, type JsonSchema } from '../../contract/json-schema.ts';
import { DEFAULT_RATE_LIMITS } from '../../lib/config.ts';
import { limitHeader, policyHeader, RATE_LIMIT_WINDOW_SECONDS, refusalDetail, type RateLimitPolicy } from '../../contract/rate-limits.ts';
import { sitePage } from '../../contract/site.ts';
import { rebuildEvery } from '../../lib/i18n/every.ts';

export interface OpenApiOptions {
  /** Public base URL of the service, without a trailing slash (https://chokepoint.example). */
  baseUrl: string;
  /** Version of the API description (the package version). */
  version: string;
  /** The rate limits the server runs with (RATE_LIMIT_DATA, RATE_LIMIT_ASK); default 60 and 10. */
  rateLimits?: RateLimitQuotas;
  /** How often the data is rebuilt (REBUILD_EVERY): undefined the default, null no schedule (nothing said). */
  rebuildEveryMs?: number | null;
}

/**
 * Requests per minute per client IP of each rate-limit policy, as configured for the server
 * (lib/config.ts: RATE_LIMIT_DATA, RATE_LIMIT_ASK); 0 means the policy is off. The discovery
 * files describe these, so they say what the running server does.
 */
export type RateLimitQuotas = Record<RateLimitPolicy, number>;
export { policyHeader, RATE_LIMIT_WINDOW_SECONDS };

/** How the documents word one policy: its quota, or that it is off. */
export function policyText(policy: keyof RateLimitQuotas, limits: RateLimitQuotas, on: (quota: number) => string, off: string): string {
  return limits[policy] > 0 ? on(limits[policy]) : off;
}

export const LANGS_ALL = ['en', 'fr', 'de', 'es'] as const;

/** The attribution rule, worded once for every discovery file. */
export function attributionRule(baseUrl: string): string {
  return `Chokepoint's data and indicators are licensed ${LICENSE} (${LICENSE_URL}). Reuse requires attribution — "Source: Chokepoint (${baseUrl}/)" — with a link back to ${baseUrl}/. Each upstream source keeps its publisher's terms, named per payload in meta.sources.`;
}

/** Shared schemas, by component name. The route responses are added as `<OperationId>Response`. */
const COMPONENTS: ReadonlyArray<readonly [string, z.ZodType]> = [
  ['Meta', Meta],
  ['SourceRef', SourceRef],
  ['Problem', Problem],
  ['Names', Names],
  ['Price', Price],
  ['CommodityListEntry', CommodityListEntry],
  ['CommoditySheet', CommoditySheet],
  ['ShareTable', ShareTable],
  ['Flow', Flow],
  ['Concentration', Concentration],
  ['CommodityStress', CommodityStress],
  ['StressComponent', StressComponent],
  ['EventContribution', EventContribution],
  ['Reserve', Reserve],
  ['TimeSeries', TimeSeries],
  ['CountryProfile', CountryProfile],
  ['Exposure', Exposure],
  ['Autonomy', Autonomy],
  ['Scenario', ScenarioSchema],
  ['StatusChange', StatusChangeSchema],
  ['Event', EventSchema],
  ['LocalizedEvent', LocalizedEventSchema],
  ['Briefing', BriefingSchema],
  ['SearchHit', SearchHit],
  ['Citation', Citation],
  ['Answer', Answer],
];

const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
export const responseComponentName = (r: RouteSpec) => `${pascal(r.operationId)}Response`;
const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** Every shared schema and route response as JSON Schema, cross-referenced through #/components/schemas. */
function componentSchemas(): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of COMPONENTS) registry.add(schema, { id });
  for (const r of ROUTES) registry.add(r.response, { id: responseComponentName(r) });
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', uri: (id) => `#/components/schemas/${id}` }) as {
    schemas: Record<string, JsonSchema>;
  };
  const out: Record<string, JsonSchema> = {};
  for (const [id, s] of Object.entries(schemas)) {
    const { $schema: _s, $id: _i, ...rest } = s;
    out[id] = rest;
  }
  out.AskRequest = jsonSchemaOf(AskBody, 'input');
  out.Health = jsonSchemaOf(Health);
  out.HealthUnavailable = jsonSchemaOf(HealthUnavailable);
  return out;
}

/** Example values for parameters the route examples do not show. */
const FALLBACK_EXAMPLES: Record<string, string> = {
  commodity: 'gas',
  country: 'de',
  group: 'metals',
  to: '2026-03-31',
  since: '2025-01-01',
  until: '2025-12-31',
  metric: 'fill_pct',
  frequency: 'weekly',
  status: 'elevated',
  category: 'policy',
  format: 'csv',
  lang: 'en',
  type: 'briefing',
  q: 'cobalt export ban',
};

function exampleFor(r: RouteSpec, name: string, field: z.ZodType, schema: JsonSchema): unknown {
  const fromRoute = new URL(r.example, 'https://x.invalid').searchParams.get(name);
  if (fromRoute !== null) return fromRoute;
  const doc = docOf(field);
  if (doc.example !== undefined) return doc.example;
  if (FALLBACK_EXAMPLES[name] !== undefined) return FALLBACK_EXAMPLES[name];
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  return undefined;
}

function parameters(r: RouteSpec): JsonSchema[] {
  const out: JsonSchema[] = [];
  const add = (where: 'query' | 'path', shape: Record<string, z.ZodType>) => {
    for (const [name, field] of Object.entries(shape)) {
      const schema = parameterSchema(field);
      const required = where === 'path' || !field.safeParse(undefined).success;
      const description = docOf(field).description ?? name;
      const example = exampleFor(r, name, field, schema);
      out.push({ name, in: where, required, description, schema, ...(example !== undefined ? { example } : {}) });
    }
  };
  add('path', shapeOf(r.params));
  add('query', shapeOf(r.query));
  return out;
}

const IDENTIFIER_PARAMS = new Set(['commodity', 'country', 'iso', 'slug']);
const canBeUnknown = (r: RouteSpec) => [...Object.keys(shapeOf(r.query)), ...Object.keys(shapeOf(r.params))].some((n) => IDENTIFIER_PARAMS.has(n));

function operation(r: RouteSpec, baseUrl: string, limits: RateLimitQuotas): JsonSchema {
  const quota = limits[r.policy];
  // A policy that is off sends no RateLimit headers.
  const rateHeaders = quota > 0 ? { RateLimit: ref('headers', 'RateLimit'), 'RateLimit-Policy': ref('headers', 'RateLimit-Policy') } : {};
  const okHeaders =
    r.method === 'get'
      ? {
          ETag: ref('headers', 'ETag'),
          'Last-Modified': ref('headers', 'Last-Modified'),
          'Cache-Control': ref('headers', 'Cache-Control'),
          Link: ref('headers', 'Link'),
          ...rateHeaders,
          'X-Request-Id': ref('headers', 'X-Request-Id'),
        }
      : {
          'Cache-Control': ref('headers', 'Cache-Control-No-Store'),
          Link: ref('headers', 'Link'),
          ...rateHeaders,
          'X-Request-Id': ref('headers', 'X-Request-Id'),
        };
  const content: JsonSchema = { 'application/json': { schema: ref('schemas', responseComponentName(r)) } };
  if (r.csv) {
    content['text/csv'] = {
      schema: {
        type: 'string',
        description: `The items of \`data\` as CSV (RFC 4180, UTF-8, CRLF, header row), always these columns in this order: ${CSV_COLUMNS[r.operationId as keyof typeof CSV_COLUMNS]?.join(', ') ?? ''}. Licence and attribution: the Link header.`,
      },
    };
  }
  const responses: JsonSchema = {
    200: { description: r.summary, headers: okHeaders, content },
  };
  if (r.method === 'get') responses[304] = ref('responses', 'NotModified');
  responses[400] = ref('responses', 'BadRequest');
  if (canBeUnknown(r)) responses[404] = ref('responses', 'NotFound');
  responses[405] = ref('responses', 'MethodNotAllowed');
  if (r.method === 'get') responses[406] = ref('responses', 'NotAcceptable');
  if (r.body) {
    responses[413] = ref('responses', 'PayloadTooLarge');
    responses[415] = ref('responses', 'UnsupportedMediaType');
  }
  responses[429] = ref('responses', 'TooManyRequests');
  responses[503] = ref('responses', 'ServiceUnavailable');

  const exampleUrl = `${baseUrl}${r.example}`;
  const exampleLine =
    r.method === 'get'
      ? `Example: \`GET ${exampleUrl}\``
      : `Example: \`curl -X POST ${exampleUrl} -H 'content-type: application/json' -d '{"q":"How full is gas storage in Germany?"}'\``;
  const notes = [
    r.description,
    '',
    exampleLine,
    '',
    `${quota > 0 ? `Rate limit: policy "${r.policy}", ${quota} requests per ${RATE_LIMIT_WINDOW_SECONDS} s per client IP.` : `Rate limit: none (policy "${r.policy}" is off on this server).`}${r.csv ? ' Also answers in CSV (`Accept: text/csv` or `format=csv`).' : ''}`,
  ];
  const op: JsonSchema = {
    operationId: r.operationId,
    summary: r.summary,
    description: notes.join('\n'),
    tags: [r.tag],
    parameters: [...parameters(r), ...(r.method === 'get' ? [ref('parameters', 'IfNoneMatch')] : [])],
    responses,
    ...(quota > 0 ? { 'x-rate-limit-policy': r.policy } : {}),
    'x-example-url': exampleUrl,
  };
  if (r.body) {
    op.requestBody = {
      required: true,
      description: `JSON object \`{ "q": "…" }\`: q is 1–500 characters. \`content-type: application/json\` is required (otherwise 415); the body may be at most ${ASK_MAX_BODY_BYTES} bytes (4 KiB; otherwise 413).`,
      content: {
        'application/json': {
          schema: ref('schemas', 'AskRequest'),
          example: { q: "How full is Germany's gas storage?" },
        },
      },
    };
  }
  return op;
}

function problemResponse(
  status: keyof typeof PROBLEM_TYPES,
  description: string,
  detail: string,
  extra: JsonSchema = {},
  headers: JsonSchema = {},
): JsonSchema {
  const type = PROBLEM_TYPES[status];
  return {
    description,
    headers: { 'Cache-Control': ref('headers', 'Cache-Control-No-Store'), 'X-Request-Id': ref('headers', 'X-Request-Id'), ...headers },
    content: {
      'application/problem+json': {
        schema: ref('schemas', 'Problem'),
        example: { type, title: description, status, detail, instance: '/v1/reserves', ...extra, request_id: '0b6f3c52-6a1e-4f7e-9d3b-2c8a51f0e4a7' },
      },
    },
  };
}

function components(limits: RateLimitQuotas): JsonSchema {
  const str = { type: 'string' };
  const on = (['data', 'ask'] as const).filter((p) => limits[p] > 0);
  const first = on[0];
  const where = { data: 'on data routes', ask: 'on /v1/ask' };
  return {
    schemas: componentSchemas(),
    parameters: {
      IfNoneMatch: {
        name: 'If-None-Match',
        in: 'header',
        required: false,
        description: 'ETag of a copy you already hold; the answer is 304 Not Modified with no body while it is current.',
        schema: str,
        example: '"3f2a9c0d1e7b4a5f8c6d2e1f0a9b8c7d"',
      },
    },
    headers: {
      ETag: { description: 'Strong validator: a hash of the body. Send it back in If-None-Match.', schema: str },
      'Last-Modified': { description: 'When the build that produced the response was generated (HTTP date).', schema: str },
      'Cache-Control': { description: `\`${DATA_CACHE_CONTROL}\` on data routes.`, schema: str, example: DATA_CACHE_CONTROL },
      'Cache-Control-No-Store': { description: '`no-store` on /v1/ask, /mcp, /healthz, /metrics and error responses.', schema: str, example: 'no-store' },
      Link: {
        description: `The licence and the backlink reusers must give: \`<${LICENSE_URL}>; rel="license", <{base}/>; rel="cite-as"\`.`,
        schema: str,
      },
      RateLimit: {
        description: first
          ? `IETF RateLimit header fields draft: remaining requests (r) and seconds until the window resets (t) for the policy, e.g. \`${limitHeader(first, Math.max(0, limits[first] - 3), 42)}\`.`
          : 'IETF RateLimit header fields draft. Not sent: every rate-limit policy is off on this server.',
        schema: str,
        ...(first ? { example: limitHeader(first, Math.max(0, limits[first] - 3), 42) } : {}),
      },
      'RateLimit-Policy': {
        description: first
          ? `The quota (q) per window (w, seconds): ${on.map((p) => `\`${policyHeader(p, limits[p])}\` ${where[p]}`).join(', ')}.${on.length < 2 ? ` The ${first === 'data' ? 'ask' : 'data'} policy is off on this server.` : ''}`
          : 'The quota (q) per window (w, seconds). Not sent: every rate-limit policy is off on this server.',
        schema: str,
        ...(first ? { example: policyHeader(first, limits[first]) } : {}),
      },
      'Retry-After': { description: 'Seconds to wait before retrying (429, 503).', schema: { type: 'integer' }, example: 30 },
      Allow: { description: 'The methods the path accepts (405).', schema: str, example: 'GET, HEAD, OPTIONS' },
      'X-Request-Id': {
        description:
          'Names the request (also `request_id` in a problem body): the one the client sent when it is at most 64 characters of A-Z a-z 0-9 . _ -, else a fresh UUID.',
        schema: str,
        example: '0b6f3c52-6a1e-4f7e-9d3b-2c8a51f0e4a7',
      },
    },
    responses: {
      NotModified: {
        description: 'Not modified: the ETag in If-None-Match is current. No body.',
        headers: { ETag: ref('headers', 'ETag'), 'Last-Modified': ref('headers', 'Last-Modified'), 'Cache-Control': ref('headers', 'Cache-Control') },
      },
      BadRequest: problemResponse(400, 'Invalid request', 'metric: expected one of fill_pct, volume, days_of_cover', {
        errors: [{ param: 'metric', message: 'expected one of fill_pct, volume, days_of_cover' }],
      }),
      NotFound: problemResponse(404, 'Not found', "unknown commodity 'gass'; did you mean gas?", { suggestions: ['gas'] }),
      MethodNotAllowed: problemResponse(
        405,
        'Method not allowed',
        'DELETE is not allowed on /v1/reserves; use GET',
        { allowed: ['GET', 'HEAD', 'OPTIONS'] },
        { Allow: ref('headers', 'Allow') },
      ),
      NotAcceptable: problemResponse(406, 'Not acceptable', 'this route answers application/json (and text/csv for lists and series)'),
      PayloadTooLarge: problemResponse(413, 'Request body too large', `the body may be at most ${ASK_MAX_BODY_BYTES} bytes`),
      UnsupportedMediaType: problemResponse(415, 'Unsupported media type', 'send the question as JSON with content-type: application/json (got text/plain)'),
      TooManyRequests: problemResponse(
        429,
        'Too many requests',
        first
          ? refusalDetail(first, { allowed: false, limit: limits[first], remaining: 0, resetSeconds: 42, windowSeconds: RATE_LIMIT_WINDOW_SECONDS })
          : 'too many connections open from this client address',
        first ? { policy: first } : {},
        { 'Retry-After': ref('headers', 'Retry-After'), RateLimit: ref('headers', 'RateLimit'), 'RateLimit-Policy': ref('headers', 'RateLimit-Policy') },
      ),
      ServiceUnavailable: problemResponse(
        503,
        'Service unavailable',
        'no build has been published yet; try again shortly',
        {},
        { 'Retry-After': ref('headers', 'Retry-After') },
      ),
    },
  };
}

function infoDescription(baseUrl: string, limits: RateLimitQuotas, rebuildEveryMs: number | null | undefined): string {
  const every = rebuildEvery(rebuildEveryMs);
  const anyOn = limits.data > 0 || limits.ask > 0;
  return [
    'Open data on supply stress for raw materials and energy: tracked commodities, strategic reserves, country profiles, crisis scenarios, tagged geopolitical events and editorial briefings, plus search, a question endpoint and an MCP server for AI agents.',
    '',
    'Public, anonymous and read-only: no key, token or SDK. JSON in UTF-8, snake_case; every data response is `{ "data": …, "meta": { as_of, generated_at, build, license, attribution, sources, count } }`.' +
      (every ? ` The data is rebuilt ${every}.` : ''),
    '',
    `**Licence.** ${attributionRule(baseUrl)} Every response carries \`Link: <${LICENSE_URL}>; rel="license", <${baseUrl}/>; rel="cite-as"\`.`,
    '',
    `**Rate limits** per client IP: data routes and MCP data messages (tool calls, resource reads, prompts, completions, pings) ${policyText('data', limits, (q) => `${q}/minute (policy \`data\`)`, 'not rate limited on this server (policy `data` off)')}, POST /v1/ask ${policyText('ask', limits, (q) => `${q}/minute (policy \`ask\`)`, 'not rate limited on this server (policy `ask` off)')}${anyOn ? ', announced in `RateLimit` and `RateLimit-Policy` headers; 429 comes with `Retry-After`' : ''}.`,
    '',
    `**Caching.** Data routes send \`Cache-Control: ${DATA_CACHE_CONTROL}\`, a strong \`ETag\` and \`Last-Modified\`; \`If-None-Match\` gives 304. /v1/ask and /mcp are \`no-store\`. Bodies are content-stable: a rebuild in which no figure changed serves the same bytes under the same ETag (\`meta.generated_at\` and \`meta.build\` name the build in which the content last changed; the serving build is in the \`X-Build\` header and /healthz). Every /v1 response sends \`Vary: Accept\` (the format is decided once: \`format=\` wins, then Accept with q-values); prebuilt files of 1 KiB and more are also sent brotli- or gzip-compressed by Accept-Encoding, with \`Vary: Accept-Encoding\` and an ETag per encoding. An invalid percent-encoding or non-UTF-8 bytes anywhere in the URL get a 400.`,
    '',
    '**Errors** are RFC 9457 problem details (`application/problem+json`) with `type`, `title`, `status`, `detail`, `instance`, `request_id` (the `X-Request-Id` of the request, which every response carries; a client may send its own), and `errors: [{ param, message }]` for invalid parameters or `suggestions` for unknown identifiers. Unknown query parameters are refused (400).',
    '',
    `**CORS** is open (\`Access-Control-Allow-Origin: *\`, no credentials); exposed headers: ${EXPOSED_HEADERS.join(', ')}.`,
    '',
    '**Versioning.** The major version is in the path (`/v1/`). Within v1 changes are additive only: new fields, parameters, routes and enum values may appear, so clients must ignore fields they do not know. A breaking change comes only in a new version; the old one is announced for retirement with `Deprecation` and `Sunset` headers (RFC 9745, RFC 8594) and in the changelog (/docs/changelog), with at least six months between the announcement and the sunset date.',
    '',
    `**Discovery.** [/.well-known/api-catalog](${baseUrl}/.well-known/api-catalog) (RFC 9727), [/.well-known/mcp/server-card](${baseUrl}/.well-known/mcp/server-card), [/.well-known/security.txt](${baseUrl}/.well-known/security.txt), [/llms.txt](${baseUrl}/llms.txt), Atom feeds under /feeds/.`,
    '',
    `Methodology version ${METHODOLOGY_VERSION}. The build being served (its id and time) is named by /healthz and by every response's headers, not in this document, so it changes only when the contract does.`,
  ].join('\n');
}

const TAGS: JsonSchema[] = [
  { name: 'Commodities', description: 'Tracked commodities: price, stress index, producers, consumers, flows' },
  { name: 'Reserves', description: 'Strategic reserves: gas storage, strategic petroleum reserve' },
  { name: 'Countries', description: 'Country profiles: exposure, autonomy, supplier concentration' },
  { name: 'Scenarios', description: 'Forward-looking crisis scenarios' },
  { name: 'Events', description: 'Tagged geopolitical and physical events' },
  { name: 'Briefings', description: 'Editorial briefings in en, fr, de, es' },
  { name: 'Search', description: 'Hybrid search over briefings and scenarios' },
  { name: 'Ask', description: 'Questions answered from the data, every figure cited' },
  { name: 'MCP', description: 'Model Context Protocol server for AI agents' },
  { name: 'Discovery', description: 'The contract, discovery files, feeds and health' },
];

function staticFile(summary: string, description: string, contentType: string, schema: JsonSchema = { type: 'string' }): JsonSchema {
  return {
    get: {
      tags: ['Discovery'],
      summary,
      description,
      responses: {
        200: {
          description: summary,
          headers: { ETag: ref('headers', 'ETag'), 'Last-Modified': ref('headers', 'Last-Modified'), 'Cache-Control': ref('headers', 'Cache-Control') },
          content: { [contentType]: { schema } },
        },
        304: ref('responses', 'NotModified'),
        503: ref('responses', 'ServiceUnavailable'),
      },
    },
  };
}

function extraPaths(baseUrl: string, limits: RateLimitQuotas): Record<string, JsonSchema> {
  const mcpDescription = [
    'Model Context Protocol endpoint for AI agents. Not a REST resource: it speaks JSON-RPC 2.0 over two transports on this one path —',
    'Streamable HTTP (POST JSON-RPC messages here; answers are `application/json` or a `text/event-stream`; the session id travels in `Mcp-Session-Id`), and',
    'the HTTP+SSE transport (GET opens an event stream whose first `endpoint` event names the URL to POST messages to).',
    '',
    `Tools (${TOOLS.length}): ${TOOLS.map((t) => `\`${t.name}\``).join(', ')}. Their input and output schemas are in the server card at ${baseUrl}/.well-known/mcp/server-card.`,
    '',
    `${policyText('data', limits, (q) => `Tool calls, resource reads, prompts, completions and pings count against the \`data\` rate limit (${q}/minute per client IP).`, 'Tool calls, resource reads, prompts, completions and pings are not rate limited on this server (the `data` policy is off).')} Responses are \`no-store\`. Sessions are capped, expire when idle and after one hour; a batch holds at most 10 messages. The endpoint checks \`Host\` and \`Origin\`.`,
  ].join('\n');
  const sse = { 'text/event-stream': { schema: { type: 'string' } } };
  const jsonRpc = {
    type: 'object',
    description: 'A JSON-RPC 2.0 message (or batch) of the Model Context Protocol',
    properties: { jsonrpc: { const: '2.0' }, id: {}, method: { type: 'string' }, params: { type: 'object' } },
  };
  return {
    '/healthz': {
      get: {
        tags: ['Discovery'],
        operationId: 'healthz',
        summary: 'Health and freshness',
        description: 'Status of the service, the build it serves, its age and the state of every source. Not rate limited; `no-store`.',
        responses: {
          200: { description: 'A build is being served (status ok or degraded)', content: { 'application/json': { schema: ref('schemas', 'Health') } } },
          503: { description: 'No build published yet', content: { 'application/json': { schema: ref('schemas', 'HealthUnavailable') } } },
        },
      },
    },
    '/metrics': {
      get: {
        tags: ['Discovery'],
        operationId: 'metrics',
        summary: 'Server metrics',
        description:
          'Counters of the server process in the Prometheus text exposition format 0.0.4: `chokepoint_http_requests_total{route,status}` (route = the route pattern, e.g. `/v1/commodities/:slug`, or `site`/`other`), `chokepoint_rate_limited_total{policy}`, `chokepoint_build_age_seconds`, `chokepoint_build_info{build}`, connection counts and the Node process metrics. Not rate limited; `no-store`.',
        responses: {
          200: {
            description: 'The metrics',
            headers: { 'Cache-Control': ref('headers', 'Cache-Control-No-Store'), 'X-Request-Id': ref('headers', 'X-Request-Id') },
            content: { 'text/plain; version=0.0.4': { schema: { type: 'string' } } },
          },
        },
      },
    },
    '/openapi.json': staticFile('This OpenAPI 3.1 document', 'Generated at build time from the same zod schemas the API validates with.', 'application/json', {
      type: 'object',
    }),
    '/.well-known/api-catalog': {
      ...staticFile(
        'API catalog (RFC 9727)',
        'RFC 9264 linkset: service-desc (this document), service-doc (docs, /llms.txt), service-meta (licence), status (/healthz).',
        'application/linkset+json',
        { type: 'object' },
      ),
      head: {
        tags: ['Discovery'],
        summary: 'API catalog link',
        description: 'Answers with `Link: </.well-known/api-catalog>; rel="api-catalog"`.',
        responses: {
          200: {
            description: 'The catalog exists',
            headers: { Link: { description: '`</.well-known/api-catalog>; rel="api-catalog"`', schema: { type: 'string' } } },
          },
        },
      },
    },
    '/.well-known/mcp/server-card': staticFile(
      'MCP server card',
      'Name, version, remote endpoint and transports, capabilities, the tools with their JSON Schemas, licence.',
      'application/json',
      { type: 'object' },
    ),
    '/.well-known/mcp/server-card.json': staticFile('MCP server card', 'The same bytes as /.well-known/mcp/server-card.', 'application/json', {
      type: 'object',
    }),
    '/.well-known/mcp.json': staticFile('MCP server card (alias)', 'The same bytes as /.well-known/mcp/server-card.', 'application/json', { type: 'object' }),
    '/.well-known/security.txt': staticFile('security.txt (RFC 9116)', 'How to report a vulnerability.', 'text/plain'),
    '/llms.txt': staticFile('Guide for language models', 'Markdown guide to the API, the MCP tools, limits and licence (llms.txt proposal).', 'text/markdown'),
    '/feeds/briefings-{lang}.atom': {
      ...staticFile('Briefings feed', 'Atom 1.0 feed of the briefings in one language, newest first.', 'application/atom+xml'),
      parameters: [
        {
          name: 'lang',
          in: 'path',
          required: true,
          description: 'Language: en, fr, de or es',
          schema: { type: 'string', enum: [...LANGS_ALL] },
          example: 'en',
        },
      ],
    },
    '/bulk/{file}': {
      ...staticFile(
        'Bulk package file',
        `The current build's tables as Parquet and CSV and their Frictionless descriptor (docs/bulk.md). One request per file against the data limit.`,
        'application/octet-stream',
      ),
      parameters: [
        {
          name: 'file',
          in: 'path',
          required: true,
          description: 'datapackage.json, or <table>.parquet / <table>.csv',
          schema: { type: 'string', enum: ['datapackage.json', ...BULK_RESOURCES.flatMap((r) => [`${r.name}.parquet`, `${r.name}.csv`])] },
          example: 'prices.parquet',
        },
      ],
    },
    '/vintages/index.json': staticFile(
      'Vintage index',
      'Every kept vintage (a past bulk package whose figures differed from the one before), newest first, with its methodology version and source hashes.',
      'application/json',
      { type: 'object' },
    ),
    '/vintages/{vintage}/{file}': {
      ...staticFile(
        'Vintage file',
        'A file of a past bulk package, unchanged (cached for a year). A date (YYYY-MM-DD) instead of a build id redirects (307) to the newest vintage of that day.',
        'application/octet-stream',
      ),
      parameters: [
        {
          name: 'vintage',
          in: 'path',
          required: true,
          description: 'A build id from /vintages/index.json, or a date',
          schema: { type: 'string' },
          example: '20261123T202240Z-361b0678',
        },
        { name: 'file', in: 'path', required: true, description: 'As in /bulk/{file}', schema: { type: 'string' }, example: 'revisions.csv' },
      ],
    },
    '/feeds/events.atom': staticFile(
      'Events feed',
      'Atom 1.0 feed of the tagged events, newest first, each linking to its public source.',
      'application/atom+xml',
    ),
    '/mcp': {
      get: {
        tags: ['MCP'],
        operationId: 'mcpStream',
        summary: 'MCP event stream (SSE transport, or server-to-client stream of Streamable HTTP)',
        description: mcpDescription,
        responses: {
          200: { description: 'An event stream', content: sse },
          400: ref('responses', 'BadRequest'),
          429: ref('responses', 'TooManyRequests'),
          503: ref('responses', 'ServiceUnavailable'),
        },
      },
      post: {
        tags: ['MCP'],
        operationId: 'mcpMessage',
        summary: 'MCP JSON-RPC message (Streamable HTTP, or the message endpoint of the SSE transport)',
        description: mcpDescription,
        requestBody: { required: true, content: { 'application/json': { schema: jsonRpc } } },
        responses: {
          200: { description: 'A JSON-RPC response, or an event stream of them', content: { 'application/json': { schema: jsonRpc }, ...sse } },
          202: { description: 'Accepted (a notification or response from the client)' },
          400: ref('responses', 'BadRequest'),
          404: { description: 'Unknown or expired session: initialise a new one' },
          413: ref('responses', 'PayloadTooLarge'),
          415: ref('responses', 'UnsupportedMediaType'),
          429: ref('responses', 'TooManyRequests'),
          503: ref('responses', 'ServiceUnavailable'),
        },
      },
    },
  };
}

/** The OpenAPI 3.1.0 document of the service, generated from ROUTES, the zod contract and TOOLS. */
export function buildOpenApi({ baseUrl, version, rateLimits = DEFAULT_RATE_LIMITS, rebuildEveryMs }: OpenApiOptions): Record<string, unknown> {
  const paths: Record<string, JsonSchema> = {};
  for (const r of ROUTES) {
    const item = (paths[r.path] ??= {});
    item[r.method] = operation(r, baseUrl, rateLimits);
  }
  Object.assign(paths, extraPaths(baseUrl, rateLimits));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Chokepoint',
      summary: 'Open data on supply stress for raw materials and energy',
      version,
      description: infoDescription(baseUrl, rateLimits, rebuildEveryMs),
      contact: { name: 'Chokepoint', url: `${baseUrl}${sitePage('en', '/docs/api/')}` },
      license: { name: LICENSE, identifier: LICENSE },
      'x-methodology-version': METHODOLOGY_VERSION,
    },
    servers: [{ url: baseUrl, description: 'Production' }],
    tags: TAGS,
    externalDocs: { description: 'API guide', url: `${baseUrl}${sitePage('en', '/docs/api/')}` },
    paths,
    components: components(rateLimits),
  };
}
