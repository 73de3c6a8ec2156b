import { LICENSE, LICENSE_URL } from '../../contract/common.ts';
import { MCP_CAPABILITIES, MCP_PROTOCOL_VERSIONS, MCP_STATELESS_VERSION, serverName, toolDescriptors } from '../../contract/tools.ts';
import { DEFAULT_RATE_LIMITS, DEFAULT_SECURITY_CONTACT } from '../../lib/config.ts';
import { attributionRule, RATE_LIMIT_WINDOW_SECONDS, type RateLimitQuotas } from './openapi.ts';
import { sitePage } from '../../contract/site.ts';

/** Media type of the API catalog: a linkset with the RFC 9727 profile (RFC 9264 §5, RFC 9727 §4.2). */
export const API_CATALOG_PROFILE = 'https://www.rfc-editor.org/info/rfc9727';
export const API_CATALOG_TYPE = `application/linkset+json; profile="${API_CATALOG_PROFILE}"`;
export const OPENAPI_LINK_TYPE = 'application/vnd.oai.openapi+json;version=3.1';

/** A link target object of an RFC 9264 JSON linkset. */
export interface LinkTarget {
  href: string;
  type?: string;
  title?: string;
  hreflang?: string[];
}
export type LinkContext = { anchor: string } & Record<string, string | LinkTarget[]>;
export interface Linkset {
  linkset: LinkContext[];
}

/**
 * `/.well-known/api-catalog` (RFC 9727): an RFC 9264 linkset whose context is the v1 API, with
 * its description (OpenAPI), documentation (human guide, /llms.txt), metadata (licence, terms)
 * and status (/healthz); a second context describes the MCP server by its server card.
 */
export function apiCatalog(baseUrl: string): Linkset {
  return {
    linkset: [
      {
        anchor: `${baseUrl}/v1/`,
        'service-desc': [{ href: `${baseUrl}/openapi.json`, type: OPENAPI_LINK_TYPE, title: 'OpenAPI 3.1 description of Chokepoint v1' }],
        'service-doc': [
          { href: `${baseUrl}${sitePage('en', '/docs/api/')}`, type: 'text/html', title: 'API guide' },
          { href: `${baseUrl}/llms.txt`, type: 'text/markdown', title: 'Guide for language models' },
        ],
        'service-meta': [{ href: LICENSE_URL, type: 'text/html', title: `Licence: ${LICENSE}, attribution with a backlink required` }],
        status: [{ href: `${baseUrl}/healthz`, type: 'application/json', title: 'Health and freshness of the published data' }],
        license: [{ href: LICENSE_URL, type: 'text/html', title: LICENSE }],
      },
      {
        anchor: `${baseUrl}/bulk/`,
        describedby: [
          {
            href: `${baseUrl}/bulk/datapackage.json`,
            type: 'application/json',
            title: 'Bulk package: every table as Parquet and CSV (Frictionless Data Package)',
          },
        ],
        'service-doc': [{ href: `${baseUrl}${sitePage('en', '/docs/bulk/')}`, type: 'text/html', title: 'Bulk data and vintages' }],
        'predecessor-version': [{ href: `${baseUrl}/vintages/index.json`, type: 'application/json', title: 'Past packages (vintages), newest first' }],
        license: [{ href: LICENSE_URL, type: 'text/html', title: LICENSE }],
      },
      {
        anchor: `${baseUrl}/mcp`,
        'service-desc': [{ href: `${baseUrl}/.well-known/mcp/server-card`, type: 'application/json', title: 'MCP server card' }],
        'service-doc': [{ href: `${baseUrl}/llms.txt`, type: 'text/markdown', title: 'Guide for language models (MCP tools included)' }],
        status: [{ href: `${baseUrl}/healthz`, type: 'application/json' }],
      },
    ],
  };
}

export interface ServerCardOptions {
  baseUrl: string;
  version: string;
  /** MCP protocol versions the remote endpoint supports. */
  protocolVersions?: readonly string[];
  /** Server capabilities as in the MCP initialize result; default: MCP_CAPABILITIES, as the server announces them. */
  capabilities?: Record<string, Record<string, unknown>>;
  /** The rate limits the server runs with (RATE_LIMIT_DATA, RATE_LIMIT_ASK; 0 = off); default 60 and 10. */
  rateLimits?: RateLimitQuotas;
}

export { MCP_PROTOCOL_VERSIONS } from '../../contract/tools.ts';
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

/** What the service is, in the registry's 100 characters (server.json) and as the card's first sentence. */
export const MCP_SHORT_DESCRIPTION = 'Open data on supply stress for raw materials and energy: reserves, prices, exposure, scenarios.';

/**
 * The remote endpoints, as the server card and the registry's server.json name them: Streamable
 * HTTP (the stateless 2026-07-28 revision and the initialize revisions) and SSE (the initialize
 * revisions only), both at `/mcp`.
 */
export function mcpRemotes(baseUrl: string, protocolVersions: readonly string[] = MCP_PROTOCOL_VERSIONS) {
  const url = `${baseUrl}/mcp`;
  return [
    { type: 'streamable-http', url, supportedProtocolVersions: [MCP_STATELESS_VERSION, ...protocolVersions] },
    { type: 'sse', url, supportedProtocolVersions: [...protocolVersions] },
  ];
}

/**
 * The MCP server card (`/.well-known/mcp/server-card.json`, same bytes at
 * `/.well-known/mcp/server-card` and `/.well-known/mcp.json`), following the shape of the server
 * card proposal (SEP-1649, continued as SEP-2127, still a draft): `$schema`, `name`, `version`,
 * `description`, `title`, `websiteUrl`, `remotes` (transport type and URL), `capabilities`,
 * `tools` (exactly what tools/list answers); licence and documentation links go in `_meta`.
 */
export function serverCard({
  baseUrl,
  version,
  protocolVersions = MCP_PROTOCOL_VERSIONS,
  capabilities,
  rateLimits = DEFAULT_RATE_LIMITS,
}: ServerCardOptions): Record<string, unknown> {
  const quota = rateLimits.data;
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: serverName(baseUrl),
    version,
    title: 'Chokepoint',
    description:
      `${MCP_SHORT_DESCRIPTION} Read-only and anonymous; ` +
      `tool calls, resource reads, prompts, completions and pings ${quota > 0 ? `count against the data rate limit (${quota} per minute per client IP)` : 'are not rate limited on this server (the data rate limit is off)'}. Data ${LICENSE}, attribution with a link back required.`,
    websiteUrl: `${baseUrl}/`,
    remotes: mcpRemotes(baseUrl, protocolVersions).map((r) => ({ ...r, authentication: { required: false, schemes: [] as string[] } })),
    capabilities: capabilities ?? MCP_CAPABILITIES,
    tools: toolDescriptors(),
    _meta: {
      license: LICENSE,
      licenseUrl: LICENSE_URL,
      attribution: attributionRule(baseUrl),
      documentation: [
        { href: `${baseUrl}${sitePage('en', '/docs/api/')}`, type: 'text/html', title: 'API guide' },
        { href: `${baseUrl}/llms.txt`, type: 'text/markdown', title: 'Guide for language models' },
        { href: `${baseUrl}/openapi.json`, type: 'application/json', title: 'OpenAPI 3.1 description of the HTTP API' },
      ],
      rateLimit: quota > 0 ? { policy: 'data', quota, windowSeconds: RATE_LIMIT_WINDOW_SECONDS } : { policy: 'data', enabled: false },
    },
  };
}

export const REGISTRY_SERVER_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/**
 * `server.json` for the MCP registry (schema 2025-12-11): the card's name (reverse DNS of the
 * host of PUBLIC_BASE_URL), title, version, website and remotes, and the registry's short
 * description. A remote-only server: no packages.
 */
export function registryServerJson({ baseUrl, version }: { baseUrl: string; version: string }): Record<string, unknown> {
  return {
    $schema: REGISTRY_SERVER_SCHEMA,
    name: serverName(baseUrl),
    title: 'Chokepoint',
    description: MCP_SHORT_DESCRIPTION,
    version,
    websiteUrl: `${baseUrl}/`,
    remotes: mcpRemotes(baseUrl).map(({ type, url }) => ({ type, url })),
  };
}

export interface SecurityTxtOptions {
  baseUrl: string;
  /** The build time; Expires is 180 days later. */
  now: Date;
  /** Contact URIs (mailto:, https:, tel:), e.g. SECURITY_CONTACT's; default mailto:security@chokepoint.example. A bare e-mail address gets mailto:. */
  contact?: string | readonly string[];
}

export const SECURITY_TXT_DAYS = 180;
export { DEFAULT_SECURITY_CONTACT };

const asContactUri = (c: string) => (/^[a-z][a-z0-9+.-]*:/i.test(c) ? c : c.includes('@') ? `mailto:${c}` : `https://${c}`);

/** `/.well-known/security.txt` (RFC 9116), regenerated at each build so Expires stays in the future. */
export function securityTxt({ baseUrl, now, contact }: SecurityTxtOptions): string {
  const given = contact ?? [DEFAULT_SECURITY_CONTACT];
  const contacts = (typeof given === 'string' ? [given] : [...given])
    .map((c) => c.trim())
    .filter(Boolean)
    .map(asContactUri);
  if (contacts.length === 0) contacts.push(DEFAULT_SECURITY_CONTACT);
  const expires = new Date(now.getTime() + SECURITY_TXT_DAYS * 86_400_000);
  const lines = [
    '# Chokepoint: how to report a security vulnerability.',
    '# Please do not test against the service with load or destructive tools; it is read-only and rate limited.',
    ...contacts.map((c) => `Contact: ${c}`),
    `Expires: ${expires.toISOString()}`,
    `Canonical: ${baseUrl}/.well-known/security.txt`,
    `Policy: ${baseUrl}${sitePage('en', '/docs/security/')}`,
    'Preferred-Languages: en, fr, de, es',
  ];
  return `${lines.join('\n')}\n`;
}
