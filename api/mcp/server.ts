import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TOOLS } from '../../contract/tools.ts';
import { serverName, toolDescriptors } from '../../contract/tools.ts';
import { perBuild } from '../build.ts';
import type { McpServerDeps } from './deps.ts';
import { ApiError } from '../problem.ts';
import { registerPrompts } from './prompts.ts';
import { registerResources } from './resources.ts';
import { errorText } from './tools/common.ts';
import { TOOL_MODULES } from './tools/index.ts';

const INSTRUCTIONS = [
  'Chokepoint: open data on supply stress for raw materials and energy (strategic reserves, prices, country exposure, crisis scenarios, geopolitical events, briefings). Read-only.',
  'Start with list_commodities to learn the commodity codes; countries are ISO 3166-1 codes (alpha-3 DEU or alpha-2 de; `eu` for the EU gas aggregate).',
  'Every result carries as_of, license (CC-BY-4.0) and attribution: cite Chokepoint with a link when you reuse figures.',
  'Tool calls, resource reads, prompts, completions and pings count against the data rate limit of your IP (shared with the HTTP API); a session ends after a while without one of those, and after its maximum lifetime in any case.',
].join('\n');

let descriptors: ReturnType<typeof toolDescriptors> | undefined;
/** tools/list: the very descriptors the server card is generated from (same names, schemas, annotations). */
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

/** One MCP server (one per session): the ten tools, the resource templates and the prompts, over the current build. */
export function createMcpServer(deps: McpServerDeps): McpServer {
  const log = deps.log ?? (() => {});
  const { name, version, base } = identity(deps);
  const mcp = new McpServer({ name, title: 'Chokepoint', version, websiteUrl: `${base}/` }, { instructions: INSTRUCTIONS });

  for (const spec of TOOLS) {
    const tool = TOOL_MODULES[spec.name] as { run(b: unknown, args: unknown): ReturnType<(typeof TOOL_MODULES)[typeof spec.name]['run']> };
    // The rate limit is applied before the call reaches here (gate.ts).
    const handler = async (args: unknown): Promise<CallToolResult> => {
      const b = deps.source.current();
      if (!b) return { isError: true, content: [{ type: 'text', text: 'no build has been published yet; try again in 30 seconds' }] };
      try {
        const { structured, summary } = await tool.run(b, args);
        return { structuredContent: structured as Record<string, unknown>, content: [{ type: 'text', text: summary }] };
      } catch (err) {
        if (err instanceof ApiError) return { isError: true, content: [{ type: 'text', text: errorText(b, err) }] };
        log(`MCP tool ${spec.name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        return { isError: true, content: [{ type: 'text', text: `${spec.name} failed unexpectedly; the error has been logged` }] };
      }
    };
    mcp.registerTool(
      spec.name,
      {
        title: spec.title,
        description: spec.description,
        inputSchema: spec.inputSchema,
        outputSchema: spec.outputSchema,
        annotations: { title: spec.title, ...spec.annotations },
      },
      handler as never,
    );
  }
  // The SDK would derive the JSON Schemas itself (draft-07); list exactly what the card publishes.
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList() as never }));

  registerResources(mcp, deps);
  registerPrompts(mcp, deps);
  // The registrations announce listChanged: true; nothing changes at runtime (as the server card says).
  mcp.server.registerCapabilities({ tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } });
  return mcp;
}
