import { BRIEFING_LANGS, type Briefing, type Event } from '../../contract/content.ts';
import type { BuildWriter } from '../publish.ts';
import { ATOM_TYPE, briefingsFeed, eventsFeed } from './feeds.ts';
import { llmsTxt } from './llms.ts';
import { buildOpenApi, type RateLimitQuotas } from './openapi.ts';
import { API_CATALOG_TYPE, apiCatalog, securityTxt, serverCard } from './well-known.ts';

export interface DiscoveryInput {
  /** Public base URL, without a trailing slash. */
  baseUrl: string;
  /** Version of the service (package version): info.version of the OpenAPI document, version of the server card. */
  version: string;
  /** Build time: security.txt expires 180 days later. */
  now: Date;
  briefings: Briefing[];
  events: Event[];
  /** Contact URIs for security.txt (SECURITY_CONTACT); default mailto:security@chokepoint.example. */
  securityContact?: string | readonly string[];
  /** The rate limits the server runs with (RATE_LIMIT_DATA, RATE_LIMIT_ASK; 0 = off), as the OpenAPI document, llms.txt and the server card state them; default 60 and 10. */
  rateLimits?: RateLimitQuotas;
  /** How often the data is rebuilt (REBUILD_EVERY), as the OpenAPI document and llms.txt state it; undefined the default, null no schedule. */
  rebuildEveryMs?: number | null | undefined;
}

export const JSON_UTF8 = 'application/json; charset=utf-8';
export const TEXT_UTF8 = 'text/plain; charset=utf-8';
export const MARKDOWN_UTF8 = 'text/markdown; charset=utf-8';

/** Every path this stage writes, with its content type (the API serves them as they are). */
export const DISCOVERY_FILES: Readonly<Record<string, string>> = {
  'openapi.json': JSON_UTF8,
  '.well-known/api-catalog': API_CATALOG_TYPE,
  '.well-known/mcp/server-card.json': JSON_UTF8,
  '.well-known/mcp/server-card': JSON_UTF8,
  '.well-known/mcp.json': JSON_UTF8,
  '.well-known/security.txt': TEXT_UTF8,
  'llms.txt': MARKDOWN_UTF8,
  ...Object.fromEntries(BRIEFING_LANGS.map((l) => [`feeds/briefings-${l}.atom`, ATOM_TYPE])),
  'feeds/events.atom': ATOM_TYPE,
};

const newestDate = (dates: readonly string[]) => [...dates].sort().at(-1);

/**
 * Write the machine-readable contract and the discovery files into the build: the OpenAPI
 * document, the three /.well-known files (the server card twice), /llms.txt and the Atom feeds.
 * Everything comes from the zod contract (contract/api.ts) and the tool registry (contract/tools.ts).
 */
export async function publishDiscovery(writer: BuildWriter, x: DiscoveryInput): Promise<void> {
  const baseUrl = x.baseUrl.replace(/\/+$/, '');
  const limits = x.rateLimits ? { rateLimits: x.rateLimits } : {};
  await writer.raw(
    'openapi.json',
    JSON.stringify(buildOpenApi({ baseUrl, version: x.version, ...limits, rebuildEveryMs: x.rebuildEveryMs }), null, 2),
    JSON_UTF8,
  );
  await writer.raw('.well-known/api-catalog', JSON.stringify(apiCatalog(baseUrl), null, 2), API_CATALOG_TYPE);
  // Compact: agents fetch it whole (the tools' schemas are most of it).
  const card = JSON.stringify(serverCard({ baseUrl, version: x.version, ...limits }));
  await writer.raw('.well-known/mcp/server-card.json', card, JSON_UTF8);
  await writer.raw('.well-known/mcp/server-card', card, JSON_UTF8);
  await writer.raw('.well-known/mcp.json', card, JSON_UTF8);
  await writer.raw('.well-known/security.txt', securityTxt({ baseUrl, now: x.now, ...(x.securityContact ? { contact: x.securityContact } : {}) }), TEXT_UTF8);
  await writer.raw('llms.txt', llmsTxt({ baseUrl, ...limits, rebuildEveryMs: x.rebuildEveryMs }), MARKDOWN_UTF8);
  // Feeds change only when their entries do (atom:updated is the newest entry, the build time only for an empty feed).
  for (const lang of BRIEFING_LANGS) {
    const own = x.briefings.filter((b) => b.lang === lang);
    const updated = newestDate(own.map((b) => b.published_at)) ?? x.now;
    await writer.raw(`feeds/briefings-${lang}.atom`, briefingsFeed({ baseUrl, lang, briefings: own, updated }), ATOM_TYPE);
  }
  const eventsUpdated = newestDate(x.events.map((e) => e.date)) ?? x.now;
  await writer.raw('feeds/events.atom', eventsFeed({ baseUrl, events: x.events, updated: eventsUpdated }), ATOM_TYPE);
}
