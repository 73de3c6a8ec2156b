import type { BuildSource } from '../build-store.ts';

/** What an MCP server needs from the process that hosts it. */
export interface McpServerDeps {
  source: BuildSource;
  /** Used for the server name until a build (which carries its own base URL) is loaded. */
  baseUrl: string;
  log?: (msg: string) => void;
}
