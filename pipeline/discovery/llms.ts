import { BULK_RESOURCES } from '../../contract/bulk.ts';
import type { z } from 'zod';
import { ASK_MAX_BODY_BYTES, ROUTES, type RouteSpec } from '../../contract/api.ts';
import { LICENSE } from '../../contract/common.ts';
import { MCP_APPS, TOOLS } from '../../contract/tools.ts';
import { docOf, shapeOf } from '../../contract/json-schema.ts';
import { DATA_CACHE_CONTROL } from '../../contract/http.ts';
import { DEFAULT_RATE_LIMITS } from '../../lib/config.ts';
import { attributionRule, LANGS_ALL, policyHeader, policyText, type RateLimitQuotas } from './openapi.ts';
import { LANG_LABEL } from '../../contract/languages.ts';
import { sitePage } from '../../contract/site.ts';
import { rebuildEvery } from '../../lib/i18n/every.ts';

/** One-line Markdown: collapse newlines so a description never breaks a list item. */
const oneLine = (s: string) => s.replace(/\s*\n\s*/g, ' ').trim();

function routeParams(r: RouteSpec): string[] {
  const lines: string[] = [];
  const add = (where: string, shape: Record<string, z.ZodType>) => {
    for (const [name, field] of Object.entries(shape)) {
      const required = where === 'path' || !field.safeParse(undefined).success;
      lines.push(`  - \`${name}\` (${where}, ${required ? 'required' : 'optional'}): ${oneLine(docOf(field).description ?? '')}`);
    }
  };
  add('path', shapeOf(r.params));
  add('query', shapeOf(r.query));
  if (r.body) {
    for (const [name, field] of Object.entries(shapeOf(r.body)))
      lines.push(`  - \`${name}\` (JSON body, required): ${oneLine(docOf(field).description ?? '')}`);
  }
  return lines;
}

function routeEntry(r: RouteSpec, baseUrl: string): string[] {
  const method = r.method.toUpperCase();
  const url = `${baseUrl}${r.example}`;
  const lines = [`- [${method} ${r.path}](${url}): ${r.summary}. ${oneLine(r.description)}`];
  lines.push(...routeParams(r));
  if (r.method === 'get') lines.push(`  - Example: \`GET ${url}\``);
  else lines.push(`  - Example: \`curl -X POST ${url} -H 'content-type: application/json' -d '{"q":"How full is gas storage in Germany?"}'\``);
  if (r.csv) lines.push('  - Also answers in CSV: `Accept: text/csv` or `format=csv`.');
  return lines;
}

/** `/llms.txt`: a Markdown guide to the API for language models (https://llmstxt.org). */
/**
 * `rateLimits`: as the server is configured (RATE_LIMIT_DATA, RATE_LIMIT_ASK; 0 = off), default 60 and 10;
 * `rebuildEveryMs`: REBUILD_EVERY, default 15 minutes, null for no schedule (nothing said).
 */
export function llmsTxt({
  baseUrl,
  rateLimits = DEFAULT_RATE_LIMITS,
  rebuildEveryMs,
}: {
  baseUrl: string;
  rateLimits?: RateLimitQuotas;
  rebuildEveryMs?: number | null;
}): string {
  const every = rebuildEvery(rebuildEveryMs);
  const firstOn = (['data', 'ask'] as const).find((p) => rateLimits[p] > 0);
  const out: string[] = [
    '# Chokepoint',
    '',
    '> Open, anonymous, read-only data API on supply stress for raw materials and energy: tracked commodities with prices and a 0–100 stress index, strategic reserves (gas storage, oil), country exposure profiles, crisis scenarios, tagged geopolitical events and editorial briefings in English, French, German and Spanish; plus search, a cited question endpoint and an MCP server for AI agents.',
    '',
    `Base URL: ${baseUrl} — every data route starts with \`/v1/\`. No key, token or SDK. Responses are JSON (UTF-8, snake_case) shaped \`{ "data": …, "meta": { as_of, generated_at, build, license, attribution, sources, count } }\`; \`meta.as_of\` is the date of the newest observation behind the payload, \`meta.sources\` names every upstream publisher with \`data_as_of\`, \`freshness\` (current, late, stale, historical, discontinued) and \`expected_next\` (rule: ${baseUrl}${sitePage('en', '/docs/freshness/')}).${every ? ` The data is rebuilt ${every}.` : ''}`,
    '',
    'Identifiers are case-insensitive on input and canonical on output: a commodity slug is `<group>.<code>` (`energy.gas`, `metals.cobalt`, `agri.wheat`); the code alone (`gas`, `oil`, `cobalt`) is accepted wherever a commodity is asked for (`energy.oil` is crude oil, priced as Brent; `energy.gas` is natural gas in Europe). A country is accepted as ISO 3166-1 alpha-2 or alpha-3 (`de`, `DEU`), by its name in English, French, German or Spanish (`Germany`, `Allemagne`) or a common abbreviation (`UK`, `UAE`); `eu` is the EU aggregate for reserves; answers use alpha-2 for reserves and alpha-3 for profiles. A commodity is also found by its name or an alias in those languages (`Kobalt`). An unknown identifier gets a 404 with at most five suggestions. Dates are `YYYY-MM-DD`. Unknown query parameters are refused with 400.',
    '',
    '## API routes',
    '',
  ];
  for (const r of ROUTES) out.push(...routeEntry(r, baseUrl));
  out.push(
    '',
    '## MCP server',
    '',
    `- Endpoint: \`${baseUrl}/mcp\` — Streamable HTTP (POST JSON-RPC messages) and the HTTP+SSE transport (GET opens the event stream, which names the URL to POST to) on the same path. No authentication.`,
    `- [Server card](${baseUrl}/.well-known/mcp/server-card): the tools with their input and output JSON Schemas.`,
    `- Tool arguments use the HTTP parameter names. Tool calls, resource reads, prompts, completions and pings ${policyText('data', rateLimits, () => 'count against the data rate limit', 'are not rate limited on this server')}; sessions expire when idle and after one hour.`,
    '- Each tool result has a text block with the figures themselves (a summary line, tables or the JSON, links to the full data as JSON and CSV) and `structuredContent` with the whole object.',
    '- Resources: `chokepoint://commodity/{slug}`, `chokepoint://country/{iso}`, `chokepoint://reserve/{commodity}/{country}` and `chokepoint://briefing/{lang}/{id}` (one briefing as Markdown; `search_briefings` hits name theirs).',
    `- MCP Apps (\`${MCP_APPS.extension}\`): ${TOOLS.filter((t) => t.app)
      .map((t) => `\`${t.name}\``)
      .join(', ')} link a \`ui://\` chart (\`${MCP_APPS.mimeType}\`) that a host supporting the extension shows beside the result.`,
    '',
    `### Tools (${TOOLS.length})`,
    '',
  );
  for (const t of TOOLS) {
    const args = Object.entries(shapeOf(t.inputSchema))
      .map(([name, field]) => `\`${name}\`${field.safeParse(undefined).success ? '?' : ''}`)
      .join(', ');
    out.push(`- \`${t.name}\`(${args}): ${oneLine(t.description)}${t.route ? ` Mirrors \`${t.route}\`.` : ''}`);
  }
  out.push(
    '',
    '## Licence and attribution',
    '',
    `- ${attributionRule(baseUrl)}`,
    `- Every response carries a \`Link\` header with rel="license" and rel="cite-as"; \`meta.license\` is "${LICENSE}" and \`meta.attribution\` holds the text to cite.`,
    '- Figures are real, from public sources; nothing is invented. When you quote a figure, quote its date (`as_of`) and source; when its source is late, stale or historical (`meta.sources[].freshness`, `meta.notes`), say how old it is.',
    '',
    '## Rate limits and caching',
    '',
    `- Per client IP: data routes 1–9 and MCP tool calls ${policyText('data', rateLimits, (q) => `${q} requests per minute (policy \`data\`)`, 'not rate limited on this server (policy `data` off)')}; POST /v1/ask ${policyText('ask', rateLimits, (q) => `${q} per minute (policy \`ask\`)`, 'not rate limited on this server (policy `ask` off)')}.`,
    firstOn
      ? `- Headers: \`RateLimit-Policy: ${policyHeader(firstOn, rateLimits[firstOn])}\` and \`RateLimit: "${firstOn}";r=<remaining>;t=<seconds to reset>\`; a 429 carries \`Retry-After\` (seconds).`
      : '- No RateLimit headers are sent: every rate-limit policy is off on this server.',
    `- Data routes send \`Cache-Control: ${DATA_CACHE_CONTROL}\`, a strong \`ETag\` and \`Last-Modified\`; send \`If-None-Match\` to get 304. /v1/ask and /mcp are \`no-store\`.`,
    `- POST /v1/ask needs \`content-type: application/json\` and a body of at most ${ASK_MAX_BODY_BYTES} bytes.`,
    '',
    '## Errors',
    '',
    '- RFC 9457 problem details, `application/problem+json`: `type`, `title`, `status`, `detail`, `instance`; `errors: [{ param, message }]` for invalid parameters; `suggestions` with the nearest valid identifiers for an unknown commodity or country.',
    '- 400 invalid parameter (the detail names it and the accepted form), 404 unknown resource, 405 wrong method (with `Allow`), 406 unacceptable `Accept`, 413 body too large, 415 wrong content type, 429 rate limited (type `https://iana.org/assignments/http-problem-types#quota-exceeded`, names the policy), 503 no data published yet.',
    '',
    '## Bulk data and vintages',
    '',
    `- [Data package](${baseUrl}/bulk/datapackage.json): every table as Parquet and CSV under \`/bulk/<table>.parquet|csv\` (${BULK_RESOURCES.map((r) => r.name).join(', ')}), described as a Frictionless Data Package. One request per file, whatever its size: use it instead of paging the API.`,
    `- [Vintages](${baseUrl}/vintages/index.json): past packages, kept when figures change, at \`/vintages/<build id>/<file>\` (immutable; \`/vintages/<YYYY-MM-DD>/<file>\` redirects to that day's newest); \`revisions\` lists every headline value a publisher revised. Guide: ${baseUrl}${sitePage('en', '/docs/bulk/')}.`,
    '',
    '## Docs',
    '',
    `- [OpenAPI 3.1 document](${baseUrl}/openapi.json): every route, parameter and response schema.`,
    `- [API guide](${baseUrl}${sitePage('en', '/docs/api/')}): the same for humans, with curl examples.`,
    `- [API catalog](${baseUrl}/.well-known/api-catalog): RFC 9727 linkset of the above.`,
    `- [Health](${baseUrl}/healthz): build in service, its age and the state of every source.`,
    '',
    '## Website',
    '',
    `- [Readout site](${baseUrl}${sitePage('en', '/')}): the same data for people, in ${LANGS_ALL.map((l) => `[${LANG_LABEL[l]}](${baseUrl}${sitePage(l, '/')})`).join(', ')}; each page is at the same path under each language (\`/fr/commodities/metals.cobalt/\`), and \`/\` goes to the language the browser prefers. The charts' data: \`/commodities/<slug>/<chart>.csv\`, \`/countries/<ISO3>/<chart>.csv\`.`,
    '',
    '## Optional',
    '',
    ...LANGS_ALL.map((l) => `- [Briefings feed (${l})](${baseUrl}/feeds/briefings-${l}.atom): Atom 1.0, newest first.`),
    `- [Events feed](${baseUrl}/feeds/events.atom): Atom 1.0, newest first, each entry linking to its public source.`,
    `- [security.txt](${baseUrl}/.well-known/security.txt): how to report a vulnerability.`,
    '',
  );
  return out.join('\n');
}
