import { type ListResourcesResult, McpServer, ProtocolErrorCode, type ReadResourceResult, type Resource, ResourceTemplate } from '@modelcontextprotocol/server';
import type { LoadedBuild } from '../build.ts';
import { ApiError } from '../problem.ts';
import type { Envelope } from '../queries/answer.ts';
import { getCommodity } from '../queries/commodities.ts';
import { getBriefing } from '../queries/content.ts';
import { getCountry } from '../queries/countries.ts';
import { getTimeseries } from '../queries/reserves.ts';
import { resolveCommodity, resolveCountry, resolveReserve } from '../resolve.ts';
import type { McpServerDeps } from './deps.ts';
import { APP_RESOURCE_META, APPS } from './apps/index.ts';
import { explained, errorText, identifierArg, rpcError } from './tools/common.ts';
import { briefingUri } from './tools/search_briefings.ts';
import { fieldsText, methodologyText, REFERENCE } from './reference.ts';
import { CommodityParam, CommodityPath, CountryParam, CountryPath } from '../../contract/api.ts';
import { LANGS, type Lang } from '../../contract/languages.ts';
import { MCP_APPS } from '../../contract/tools.ts';

/**
 * JSON-RPC error code for an unknown resource: -32602 with `data: { uri }`, as the 2026-07-28
 * specification requires and the SDK v2 sends on every revision (it rewrites the -32002 of
 * earlier drafts; clients accept both).
 */
export const RESOURCE_NOT_FOUND = -32602;
const JSON_MIME = 'application/json';
const MARKDOWN_MIME = 'text/markdown';

export const RESOURCE_TEMPLATES = {
  commodity: 'chokepoint://commodity/{slug}',
  country: 'chokepoint://country/{iso}',
  reserve: 'chokepoint://reserve/{commodity}/{country}',
  briefing: 'chokepoint://briefing/{lang}/{id}',
} as const;

/** resources/list answers at most this many resources per page, with a cursor to the next. */
export const RESOURCES_PAGE_SIZE = 100;

/** How many days of a reserve's history its resource holds. */
export const RESERVE_RESOURCE_DAYS = 365;

function currentBuild(deps: McpServerDeps): LoadedBuild {
  const b = deps.source.current();
  if (!b) throw rpcError(-32603, 'no build has been published yet; try again in 30 seconds');
  return b;
}

/** A URI template variable, percent-decoded (`United%20Kingdom` → `United Kingdom`). */
const one = (v: string | string[] | undefined) => {
  const raw = (Array.isArray(v) ? v[0] : v) ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
};
const startsWith = (prefix: string) => (x: string) => x.toLowerCase().startsWith(prefix.trim().toLowerCase());

/** A query's error as the MCP "resource not found" error, with the accepted form and the nearest identifiers. */
function read(b: LoadedBuild, uri: URL, run: () => ResourceText, mimeType = JSON_MIME): ReadResourceResult {
  try {
    return { contents: [{ uri: uri.href, mimeType, text: run().text }] };
  } catch (err) {
    if (err instanceof ApiError) throw rpcError(RESOURCE_NOT_FOUND, `${uri.href}: ${errorText(b, err)}`, { uri: uri.href });
    throw err;
  }
}

const decoder = new TextDecoder();
const text = (a: { file?: { body: Uint8Array }; envelope(): Envelope<unknown> }) => (a.file ? decoder.decode(a.file.body) : JSON.stringify(a.envelope()));

/** A resource's canonical URI and its JSON text. Each throws the query's ApiError for an unknown identifier. */
export interface ResourceText {
  uri: string;
  text: string;
}

export function commodityResource(b: LoadedBuild, input: string): ResourceText {
  const slug = identifierArg(CommodityPath.shape.slug, 'slug', input);
  const answer = getCommodity(b, { slug });
  return { uri: `chokepoint://commodity/${resolveCommodity(b, slug, 'slug')}`, text: text(answer) };
}

export function countryResource(b: LoadedBuild, input: string): ResourceText {
  const iso = identifierArg(CountryPath.shape.iso, 'iso', input);
  const answer = getCountry(b, { iso });
  return { uri: `chokepoint://country/${resolveCountry(b, iso, 'iso').iso3}`, text: text(answer) };
}

export function reserveResource(b: LoadedBuild, commodityInput: string, countryInput: string): ResourceText {
  const commodity = identifierArg(CommodityParam, 'commodity', commodityInput);
  const country = identifierArg(CountryParam, 'country', countryInput);
  const key = resolveReserve(b, commodity, country);
  const [code, iso2] = key.split('/') as [string, string];
  return { uri: `chokepoint://reserve/${key}`, text: text(getTimeseries(b, { commodity: code, country: iso2, ...reserveWindow(b, key)! })) };
}

/**
 * One briefing as Markdown: its title, date, language, summary and body, what it covers, its
 * other languages (as resource URIs) and the attribution. `id` may be the briefing's id or its
 * translation key (`chokepoint://briefing/fr/2026-08-20-eu-gas-storage-winter-2026`).
 */
export function briefingResource(b: LoadedBuild, langInput: string, idInput: string): ResourceText {
  const lang = langInput.trim().toLowerCase();
  if (!(LANGS as readonly string[]).includes(lang)) {
    throw rpcError(ProtocolErrorCode.InvalidParams, explained(`lang: '${langInput}' is not a language of the briefings`, `one of ${LANGS.join(', ')}`, []));
  }
  const { data, meta } = getBriefing(b, lang as Lang, idInput);
  const others = [...b.briefings.entries()].flatMap(([l, set]) =>
    l === lang ? [] : set.items.filter((x) => x.translation_key === data.translation_key).map((x) => `${l}: ${briefingUri(l, x.id)}`),
  );
  const text = [
    `# ${data.title}`,
    '',
    `Published ${data.published_at} · ${data.lang} · id ${data.id}`,
    data.commodities.length || data.countries.length ? `Covers: ${[...data.commodities, ...data.countries].join(', ')}` : null,
    others.length ? `Other languages: ${others.join('; ')}` : null,
    '',
    `> ${data.summary}`,
    '',
    data.body,
    '',
    '---',
    meta.attribution,
  ]
    .filter((x): x is string => x !== null)
    .join('\n');
  return { uri: briefingUri(data.lang, data.id), text };
}

/** The reserve series a resource holds: the main metric over the last RESERVE_RESOURCE_DAYS days up to its newest observation. */
export function reserveWindow(b: LoadedBuild, key: string): { from: string; to: string } | null {
  const series = b.reserves.get(key)?.series;
  const metric = series?.metrics.fill_pct ?? series?.metrics.volume;
  const last = metric?.points.at(-1)?.date;
  if (!last) return null;
  return { from: new Date(Date.parse(last) - RESERVE_RESOURCE_DAYS * 86_400_000).toISOString().slice(0, 10), to: last };
}

/** Every resource of a build, in the order resources/list pages through them: the apps, then each template's. */
/** The reference material (reference.ts): static Markdown, listed after the apps. */
const REFERENCES = [
  {
    uri: REFERENCE.methodology,
    name: 'reference-methodology',
    title: 'Stress index: the method in brief',
    description: 'How the stress index is made: the band thresholds, the components with their weights, freshness and contribution.',
    text: (base: string) => methodologyText(base),
  },
  {
    uri: REFERENCE.fields,
    name: 'reference-fields',
    title: 'Fields of the tool results',
    description: 'What each field of each tool result means, from the output schemas.',
    text: () => fieldsText(),
  },
];

export function allResources(b: LoadedBuild): Resource[] {
  return [
    ...APPS.map((a) => ({ uri: a.uri, name: a.name, title: a.title, description: a.description, mimeType: MCP_APPS.mimeType, _meta: APP_RESOURCE_META })),
    ...REFERENCES.map(({ uri, name, title, description }) => ({ uri, name, title, description, mimeType: MARKDOWN_MIME })),
    ...commodityResources(b),
    ...countryResources(b),
    ...reserveResources(b),
    ...briefingResources(b),
  ];
}

const commodityResources = (b: LoadedBuild): Resource[] =>
  b.commodities.map((c) => ({
    uri: `chokepoint://commodity/${c.slug}`,
    name: `commodity-${c.slug}`,
    title: `${c.name} — commodity sheet`,
    mimeType: JSON_MIME,
  }));
const countryResources = (b: LoadedBuild): Resource[] =>
  [...b.countries.values()].map((c) => ({
    uri: `chokepoint://country/${c.iso3}`,
    name: `country-${c.iso3}`,
    title: `${c.name} — country profile`,
    mimeType: JSON_MIME,
  }));
const reserveResources = (b: LoadedBuild): Resource[] =>
  [...b.reserves.keys()].sort().map((k) => ({
    uri: `chokepoint://reserve/${k}`,
    name: `reserve-${k.replace('/', '-')}`,
    title: `${k.split('/')[0]} reserve, ${k.split('/')[1]} — last ${RESERVE_RESOURCE_DAYS} days`,
    mimeType: JSON_MIME,
  }));
const briefingResources = (b: LoadedBuild): Resource[] =>
  LANGS.flatMap((lang) =>
    (b.briefings.get(lang)?.items ?? []).map((x) => ({
      uri: briefingUri(lang, x.id),
      name: `briefing-${x.id}`,
      title: `${x.title} (${x.published_at}, ${lang})`,
      description: x.summary,
      mimeType: MARKDOWN_MIME,
    })),
  );

/** The opaque cursor of resources/list: the offset of the next page, and the build it was counted in. */
const cursorOf = (offset: number, build: string) =>
  btoa(JSON.stringify({ o: offset, b: build }))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
function offsetOf(cursor: string | undefined, build: string): number {
  if (cursor === undefined) return 0;
  try {
    const c = JSON.parse(atob(cursor.replace(/-/g, '+').replace(/_/g, '/'))) as { o?: unknown; b?: unknown };
    if (typeof c.o === 'number' && Number.isInteger(c.o) && c.o >= 0) return c.b === build ? c.o : 0;
  } catch {
    // refused below
  }
  throw rpcError(ProtocolErrorCode.InvalidParams, 'cursor: not a cursor this server gave; list again without one');
}

/** One page of resources/list; a cursor from an older build starts the list again (the resources may have changed). */
export function resourcesPage(b: LoadedBuild, cursor: string | undefined): ListResourcesResult {
  const all = allResources(b);
  const offset = offsetOf(cursor, b.manifest.build);
  const next = offset + RESOURCES_PAGE_SIZE;
  return { resources: all.slice(offset, next), ...(next < all.length ? { nextCursor: cursorOf(next, b.manifest.build) } : {}) };
}

/**
 * Resource templates: commodity sheets, country profiles and reserve series, each the same JSON
 * (`{ data, meta }`) as the HTTP route it names in its description, and briefings as Markdown.
 * resources/list pages through them all (apps included), RESOURCES_PAGE_SIZE at a time.
 */
export function registerResources(mcp: McpServer, deps: McpServerDeps): void {
  mcp.registerResource(
    'commodity-sheet',
    new ResourceTemplate(RESOURCE_TEMPLATES.commodity, {
      list: () => ({ resources: commodityResources(currentBuild(deps)) }),
      complete: { slug: (v) => (deps.source.current()?.commodities.map((c) => c.slug) ?? []).filter(startsWith(v)) },
    }),
    {
      title: 'Commodity sheet',
      description:
        'Full sheet of one commodity (slug such as energy.gas; a code or name resolves too): producers, consumers, reserves in the ground, concentration, flows, price history, stress with every component. Same JSON as GET /v1/commodities/{slug}.',
      mimeType: JSON_MIME,
    },
    (uri, vars) => {
      const b = currentBuild(deps);
      return read(b, uri, () => commodityResource(b, one(vars.slug)));
    },
  );

  mcp.registerResource(
    'country-profile',
    new ResourceTemplate(RESOURCE_TEMPLATES.country, {
      list: () => ({ resources: countryResources(currentBuild(deps)) }),
      complete: { iso: (v) => [...(deps.source.current()?.countries.values() ?? [])].map((c) => c.iso3).filter(startsWith(v)) },
    }),
    {
      title: 'Country profile',
      description:
        'Profile of one country (ISO 3166-1 alpha-3 such as DEU; alpha-2, an abbreviation or a name resolves too): supply stress, exposures, autonomy, supplier concentration, production shares, reserves. Same JSON as GET /v1/countries/{iso}.',
      mimeType: JSON_MIME,
    },
    (uri, vars) => {
      const b = currentBuild(deps);
      return read(b, uri, () => countryResource(b, one(vars.iso)));
    },
  );

  mcp.registerResource(
    'reserve-series',
    new ResourceTemplate(RESOURCE_TEMPLATES.reserve, {
      list: () => ({ resources: reserveResources(currentBuild(deps)) }),
      complete: {
        commodity: (v) => [...new Set([...(deps.source.current()?.reserves.keys() ?? [])].map((k) => k.split('/')[0]!))].filter(startsWith(v)),
        country: (v, ctx) => {
          const c = ctx?.arguments?.commodity;
          return [...(deps.source.current()?.reserves.keys() ?? [])]
            .filter((k) => !c || k.startsWith(`${c}/`))
            .map((k) => k.split('/')[1]!)
            .filter(startsWith(v));
        },
      },
    }),
    {
      title: 'Reserve series',
      description: `The last ${RESERVE_RESOURCE_DAYS} days of one strategic reserve's main metric (fill_pct; volume for the US SPR) up to its newest observation, at native frequency (commodity gas or oil, country alpha-2 or eu). Same JSON as GET /v1/reserves/timeseries?commodity=…&country=…&from=…&to=….`,
      mimeType: JSON_MIME,
    },
    (uri, vars) => {
      const b = currentBuild(deps);
      return read(b, uri, () => reserveResource(b, one(vars.commodity), one(vars.country)));
    },
  );

  mcp.registerResource(
    'briefing',
    new ResourceTemplate(RESOURCE_TEMPLATES.briefing, {
      list: () => ({ resources: briefingResources(currentBuild(deps)) }),
      complete: {
        lang: (v) => LANGS.filter(startsWith(v)),
        id: (v, ctx) => {
          const b = deps.source.current();
          const lang = ctx?.arguments?.lang?.toLowerCase();
          return [...(b?.briefings.entries() ?? [])].flatMap(([l, set]) => (!lang || l === lang ? set.items.map((x) => x.id) : [])).filter(startsWith(v));
        },
      },
    }),
    {
      title: 'Briefing',
      description:
        "One editorial briefing in one language (en, fr, de, es), as Markdown: title, date, summary, body, what it covers and the URIs of its other languages. The id is the briefing's (search_briefings and GET /v1/briefings give it) or its translation key.",
      mimeType: MARKDOWN_MIME,
    },
    (uri, vars) => {
      const b = currentBuild(deps);
      return read(b, uri, () => briefingResource(b, one(vars.lang), one(vars.id)), MARKDOWN_MIME);
    },
  );

  for (const r of REFERENCES)
    mcp.registerResource(r.name, r.uri, { title: r.title, description: r.description, mimeType: MARKDOWN_MIME }, (uri) => ({
      contents: [{ uri: uri.href, mimeType: MARKDOWN_MIME, text: r.text(currentBuild(deps).manifest.base_url) }],
    }));

  // One list of every resource, in pages (the SDK's own handler answers them all at once).
  mcp.server.setRequestHandler('resources/list', (request) => resourcesPage(currentBuild(deps), request.params?.cursor));
}
