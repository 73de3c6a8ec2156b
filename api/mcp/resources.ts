import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { LoadedBuild } from '../build.ts';
import { ApiError } from '../problem.ts';
import type { Envelope } from '../queries/answer.ts';
import { getCommodity } from '../queries/commodities.ts';
import { getCountry } from '../queries/countries.ts';
import { getTimeseries } from '../queries/reserves.ts';
import { resolveCommodity, resolveCountry, resolveReserve } from '../resolve.ts';
import type { McpServerDeps } from './deps.ts';
import { errorText, identifierArg, rpcError } from './tools/common.ts';
import { CommodityParam, CommodityPath, CountryParam, CountryPath } from '../../contract/api.ts';

/** JSON-RPC error code for an unknown resource (MCP specification, resources). */
export const RESOURCE_NOT_FOUND = -32002;
const JSON_MIME = 'application/json';

export const RESOURCE_TEMPLATES = {
  commodity: 'chokepoint://commodity/{slug}',
  country: 'chokepoint://country/{iso}',
  reserve: 'chokepoint://reserve/{commodity}/{country}',
} as const;

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
function read(b: LoadedBuild, uri: URL, run: () => ResourceText): ReadResourceResult {
  try {
    return { contents: [{ uri: uri.href, mimeType: JSON_MIME, text: run().text }] };
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

/** The reserve series a resource holds: the main metric over the last RESERVE_RESOURCE_DAYS days up to its newest observation. */
export function reserveWindow(b: LoadedBuild, key: string): { from: string; to: string } | null {
  const series = b.reserves.get(key)?.series;
  const metric = series?.metrics.fill_pct ?? series?.metrics.volume;
  const last = metric?.points.at(-1)?.date;
  if (!last) return null;
  return { from: new Date(Date.parse(last) - RESERVE_RESOURCE_DAYS * 86_400_000).toISOString().slice(0, 10), to: last };
}

/**
 * Resource templates: commodity sheets, country profiles and reserve series, each the same JSON
 * (`{ data, meta }`) as the HTTP route it names in its description.
 */
export function registerResources(mcp: McpServer, deps: McpServerDeps): void {
  mcp.registerResource(
    'commodity-sheet',
    new ResourceTemplate(RESOURCE_TEMPLATES.commodity, {
      list: () => {
        const b = currentBuild(deps);
        return {
          resources: b.commodities.map((c) => ({
            uri: `chokepoint://commodity/${c.slug}`,
            name: `commodity-${c.slug}`,
            title: `${c.name} — commodity sheet`,
            mimeType: JSON_MIME,
          })),
        };
      },
      complete: { slug: (v) => (deps.source.current()?.commodities.map((c) => c.slug) ?? []).filter(startsWith(v)) },
    }),
    {
      title: 'Commodity sheet',
      description:
        'Full sheet of one commodity (slug such as energy.gas): producers, consumers, reserves in the ground, concentration, flows, price history, stress with every component. Same JSON as GET /v1/commodities/{slug}.',
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
      list: () => {
        const b = currentBuild(deps);
        return {
          resources: [...b.countries.values()].map((c) => ({
            uri: `chokepoint://country/${c.iso3}`,
            name: `country-${c.iso3}`,
            title: `${c.name} — country profile`,
            mimeType: JSON_MIME,
          })),
        };
      },
      complete: { iso: (v) => [...(deps.source.current()?.countries.values() ?? [])].map((c) => c.iso3).filter(startsWith(v)) },
    }),
    {
      title: 'Country profile',
      description:
        'Profile of one country (ISO 3166-1 alpha-3 such as DEU): supply stress, exposures, autonomy, supplier concentration, production shares, reserves. Same JSON as GET /v1/countries/{iso}.',
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
      list: () => {
        const b = currentBuild(deps);
        return {
          resources: [...b.reserves.keys()].sort().map((k) => ({
            uri: `chokepoint://reserve/${k}`,
            name: `reserve-${k.replace('/', '-')}`,
            title: `${k.split('/')[0]} reserve, ${k.split('/')[1]} — last ${RESERVE_RESOURCE_DAYS} days`,
            mimeType: JSON_MIME,
          })),
        };
      },
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
}
