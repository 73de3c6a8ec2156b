import type { BuildSource } from '../build-store.ts';

/** What an MCP server needs from the process that hosts it. */
export interface McpServerDeps {
  source: BuildSource;
  /** Used for the server name until a build (which carries its own base URL) is loaded. */
  baseUrl: string;
  log?: (msg: string) => void;
  /**
   * The process's work gate (api/work-gate.ts), shared with /v1/search and /v1/ask: the tools that
   * search run through it, each call of a batch on its own, and a call it refuses is a tool error
   * saying when to retry. Absent: they run at once.
   */
  work?: <T>(work: () => T | Promise<T>) => Promise<T>;
}
