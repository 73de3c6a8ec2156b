import {
  type CallToolResult,
  type ContentBlock,
  isInitializeRequest,
  type JSONRPCMessage,
  LATEST_PROTOCOL_VERSION,
  McpServer,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Transport,
} from '@modelcontextprotocol/server';
import { registerAppTool } from '@modelcontextprotocol/ext-apps/server';
import { z } from 'zod';
import { MCP_CAPABILITIES, RESOURCE_LINK_SINCE, serverName, TOOLS, toolDescriptors } from '../../contract/tools.ts';
import { perBuild } from '../build.ts';
import type { McpServerDeps } from './deps.ts';
import { ApiError } from '../problem.ts';
import { registerApps } from './apps/index.ts';
import { registerPrompts } from './prompts.ts';
import { registerResources, RESOURCE_NOT_FOUND, RESOURCE_TEMPLATES } from './resources.ts';
import { argumentsText, errorText, explained, resultText, type ToolLink } from './tools/common.ts';
import { suggest } from '../../lib/suggest.ts';
import { TOOL_MODULES } from './tools/index.ts';

const INSTRUCTIONS = [
  'Chokepoint: open data on supply stress for raw materials and energy (strategic reserves, prices, country exposure, crisis scenarios, geopolitical events, briefings). Read-only.',
  'Start with list_commodities to learn the commodity codes; a commodity is its code, slug or name (gas, energy.gas, Erdgas), a country its ISO 3166-1 code or name (DEU, de, UK, Allemagne; `eu` for the EU gas aggregate).',
  'Each result comes as text (a short summary: the figures with their date, unit and sources, links to the full data) and as structuredContent (the whole object). Read a briefing found by search_briefings with resources/read on its chokepoint://briefing/{lang}/{id} URI.',
  'Every result carries as_of, license (CC-BY-4.0) and attribution: cite Chokepoint with a link when you reuse figures. What each field means: resource chokepoint://reference/fields; how the stress index and its bands are made: chokepoint://reference/methodology.',
  'Tool calls, resource reads, prompts, completions and pings count against the data rate limit of your IP (shared with the HTTP API); a session ends after a while without one of those, and after its maximum lifetime in any case.',
].join('\n');

/**
 * Cache hints of the 2026-07-28 results (the SDK sends none to older revisions): lists and reads
 * may be kept by any cache for the rebuild interval (15 min, as s-maxage of the data routes),
 * after which a new build may have changed them.
 */
const CACHE_TTL_MS = 15 * 60 * 1000;
const CACHE_HINTS = Object.fromEntries(
  (['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read', 'server/discover'] as const).map((m) => [
    m,
    { ttlMs: CACHE_TTL_MS, cacheScope: 'public' as const },
  ]),
);

/** The tools whose work is a search (spelling correction, ranking): through the work gate, as /v1/search. */
const GATED_TOOLS: ReadonlySet<string> = new Set(['search_briefings']);

let descriptors: ReturnType<typeof toolDescriptors> | undefined;
/** tools/list: the very descriptors the server card is generated from (same names, schemas, annotations, app links). */
const toolList = () => (descriptors ??= toolDescriptors());

/** Name and version as the server card of a build gives them (the card is generated from the same registry). */
const cardIdentity = perBuild((b) => {
  const file = b.files.get('.well-known/mcp/server-card');
  const card = file ? (JSON.parse(new TextDecoder().decode(file.body)) as { name?: string; version?: string }) : {};
  return { name: card.name ?? serverName(b.manifest.base_url), version: card.version ?? '0.0.0', base: b.manifest.base_url };
});
function identity(deps: McpServerDeps): { name: string; version: string; base: string } {
  const b = deps.source.current();
  return b ? cardIdentity(b) : { name: serverName(deps.baseUrl), version: '0.0.0', base: deps.baseUrl };
}

/** What a session negotiated in `initialize`: the protocol revision (as the SDK answers it). */
interface Negotiated {
  protocolVersion: string;
}

/** The revision the SDK answers an initialize request with: the client's when supported, else the latest. */
const negotiate = (requested: unknown) =>
  typeof requested === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;

/** Any JSON object: the SDK hands the arguments over as they came, and the handler checks them with the tool's schema. */
const ANY_ARGUMENTS = z.looseObject({});

/**
 * The content blocks of a result: the text (summary, figures, notes, links, citation), then, for
 * clients of a revision that knows them, a resource_link per link.
 */
function contentOf(text: string, links: readonly ToolLink[], negotiated: Negotiated): ContentBlock[] {
  const withLinks = negotiated.protocolVersion >= RESOURCE_LINK_SINCE;
  return [
    { type: 'text', text },
    ...(withLinks
      ? links.map((l) => ({
          type: 'resource_link' as const,
          uri: l.uri,
          name: l.name,
          title: l.title,
          mimeType: l.mimeType,
          ...(l.description ? { description: l.description } : {}),
        }))
      : []),
  ];
}

/** One MCP server (one per session): the ten tools, the resource templates, the apps and the prompts, over the current build. */
export function createMcpServer(deps: McpServerDeps, opts: { protocolVersion?: string | undefined } = {}): McpServer {
  const log = deps.log ?? (() => {});
  const { name, version, base } = identity(deps);
  const mcp = new McpServer({ name, title: 'Chokepoint', version, websiteUrl: `${base}/` }, { instructions: INSTRUCTIONS, cacheHints: CACHE_HINTS });
  // A stateless server (api/mcp/stateless.ts) never sees the initialize request: it is told the
  // revision from the request's MCP-Protocol-Version header.
  const negotiated: Negotiated = { protocolVersion: opts.protocolVersion ? negotiate(opts.protocolVersion) : LATEST_PROTOCOL_VERSION };

  for (const spec of TOOLS) {
    const tool = TOOL_MODULES[spec.name] as { run(b: unknown, args: unknown): ReturnType<(typeof TOOL_MODULES)[typeof spec.name]['run']> };
    // The rate limit is applied before the call reaches here (gate.ts).
    const handler = async (raw: Record<string, unknown>): Promise<CallToolResult> => {
      const b = deps.source.current();
      if (!b) return { isError: true, content: [{ type: 'text', text: 'no build has been published yet; try again in 30 seconds' }] };
      const parsed = spec.inputSchema.safeParse(raw);
      if (!parsed.success) return { isError: true, content: [{ type: 'text', text: argumentsText(spec.name, spec.inputSchema, raw, parsed.error.issues) }] };
      try {
        const run = () => tool.run(b, parsed.data);
        const outcome = await (deps.work && GATED_TOOLS.has(spec.name) ? deps.work(run) : run());
        const structured = outcome.structured as Record<string, unknown>;
        const text = resultText(b, { ...outcome, structured });
        return { structuredContent: structured, content: contentOf(text, outcome.links ?? [], negotiated) };
      } catch (err) {
        if (err instanceof ApiError) {
          // A refusal that says when to retry (the work gate's 503) gives the seconds in _meta too.
          const retry = err.headers['retry-after'];
          return { isError: true, content: [{ type: 'text', text: errorText(b, err) }], ...(retry ? { _meta: { retryAfterSeconds: Number(retry) } } : {}) };
        }
        log(`MCP tool ${spec.name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        return { isError: true, content: [{ type: 'text', text: `${spec.name} failed unexpectedly; the error has been logged` }] };
      }
    };
    const config = {
      title: spec.title,
      description: spec.description,
      // Checked by the handler with spec.inputSchema, so that a refusal is one short text (argumentsText), not the SDK's.
      inputSchema: ANY_ARGUMENTS,
      outputSchema: spec.outputSchema,
      annotations: { title: spec.title, ...spec.annotations },
    };
    // A tool with an app goes through ext-apps' registerAppTool, which links it to its ui:// resource.
    if (spec.app) registerAppTool(mcp, spec.name, { ...config, _meta: { ui: { resourceUri: spec.app } } }, handler as never);
    else mcp.registerTool(spec.name, config, handler as never);
  }
  // The SDK would derive the JSON Schemas itself (draft-07); list exactly what the card publishes.
  mcp.server.setRequestHandler('tools/list', () => ({ tools: toolList() as never }));

  registerApps(mcp);
  registerResources(mcp, deps);
  registerPrompts(mcp, deps);
  // The registrations announce listChanged: true; nothing changes at runtime. The capabilities
  // are the server card's (logging here also registers the SDK's logging/setLevel handler).
  mcp.server.registerCapabilities(MCP_CAPABILITIES);

  // The revision the session speaks, read off the client's initialize request as it passes: a
  // result links its data as resource_link blocks only for revisions that have them. And the
  // errors the SDK itself raises, said once and short on their way out (sayOnce).
  const connect = mcp.connect.bind(mcp);
  mcp.connect = async (transport: Transport) => {
    await connect(transport);
    const onmessage = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (isInitializeRequest(message)) negotiated.protocolVersion = negotiate(message.params.protocolVersion);
      onmessage?.(message, extra);
    };
    const send = transport.send.bind(transport);
    transport.send = (message, options) => send(sayOnce(message), options);
  };
  return mcp;
}

const SDK_PREFIX = /^(?:MCP error -?\d+: )+/;
const PROMPTS = ['country_supply_risk_briefing', 'commodity_stress_explainer', 'reserve_outlook'];

/** An error message of the SDK in the form of ours: `Tool x not found` → the problem, the accepted form, suggestions. */
function sdkMessage(message: string): { message: string; code?: number } {
  const m = message.replace(SDK_PREFIX, '');
  let x: RegExpExecArray | null;
  if ((x = /^Tool (.+) not found$/.exec(m))) {
    const names = TOOLS.map((t) => t.name);
    return { message: explained(`unknown tool '${x[1]}'`, `one of the ${names.length} tools of tools/list`, suggest(x[1]!, names, 5)) };
  }
  if ((x = /^Prompt (.+) not found$/.exec(m)))
    return { message: explained(`unknown prompt '${x[1]}'`, `one of ${PROMPTS.join(', ')}`, suggest(x[1]!, PROMPTS, 5)) };
  if ((x = /^Resource (.+) not found$/.exec(m) ?? /^Resource not found: (.+)$/.exec(m)))
    return {
      code: RESOURCE_NOT_FOUND,
      message: explained(
        `unknown resource '${x[1]}'`,
        `a URI of ${Object.values(RESOURCE_TEMPLATES).join(', ')}, or one of the ui://chokepoint/ apps (resources/list names them all)`,
        [],
      ),
    };
  return { message: m };
}

/**
 * The SDK's McpError puts "MCP error <code>: " before its message, and a client's McpError puts it
 * again ("MCP error -32602: MCP error -32602: Prompt x not found"); a tool result it makes from
 * such an error starts with it. Outgoing errors and error results are sent without it, the SDK's
 * own refusals in the form of ours (the problem, the accepted form, suggestions).
 */
function sayOnce(message: JSONRPCMessage): JSONRPCMessage {
  if ('error' in message) {
    const { message: text, code } = sdkMessage(message.error.message);
    if (text === message.error.message && !code) return message;
    return { ...message, error: { ...message.error, message: text, ...(code ? { code } : {}) } };
  }
  if ('result' in message && message.result.isError === true && Array.isArray(message.result.content)) {
    const content = (message.result.content as { type: string; text?: string }[]).map((c) =>
      c.type === 'text' && c.text && SDK_PREFIX.test(c.text) ? { ...c, text: sdkMessage(c.text).message } : c,
    );
    return { ...message, result: { ...message.result, content } };
  }
  return message;
}
