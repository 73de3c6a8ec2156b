import type { z } from 'zod';
import type { Meta } from '../../../contract/common.ts';
import type { ToolName, TOOLS } from '../../../contract/tools.ts';
import type { LoadedBuild } from '../../build.ts';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ApiError } from '../../problem.ts';
import { MAX_SUGGESTIONS, UnknownIdentifier } from '../../resolve.ts';

type ToolOf<N extends ToolName> = Extract<(typeof TOOLS)[number], { name: N }>;
export type ToolArgs<N extends ToolName> = z.output<ToolOf<N>['inputSchema']>;
export type ToolOutput<N extends ToolName> = z.input<ToolOf<N>['outputSchema']>;

/** What a tool computes: the structured result (checked against its output schema) and a short summary for the text channel. */
export interface ToolOutcome<N extends ToolName> {
  structured: ToolOutput<N>;
  summary: string;
}

/** One MCP tool: the name of its spec in contract/tools.ts and the function that answers it from a build. */
export interface ToolModule<N extends ToolName = ToolName> {
  name: N;
  run(b: LoadedBuild, args: ToolArgs<N>): ToolOutcome<N> | Promise<ToolOutcome<N>>;
}

export function defineTool<N extends ToolName>(name: N, run: (b: LoadedBuild, args: ToolArgs<N>) => ToolOutcome<N> | Promise<ToolOutcome<N>>): ToolModule<N> {
  return { name, run };
}

/** as_of, license, attribution, sources (with their freshness) and notes of a tool result, from the meta of the HTTP answer it mirrors. */
export function resultMeta(meta: Meta, notes: string[] = []) {
  const all = [...(meta.notes ?? []), ...notes];
  return { as_of: meta.as_of, license: meta.license, attribution: meta.attribution, sources: meta.sources, ...(all.length ? { notes: all } : {}) };
}

/** The sources of several answers, once each (a source whose series end on different dates appears once per date). */
export function mergedSources(metas: readonly Meta[]): Meta['sources'] {
  const seen = new Map<string, Meta['sources'][number]>();
  for (const m of metas) for (const s of m.sources) if (!seen.has(`${s.id}|${s.data_as_of}`)) seen.set(`${s.id}|${s.data_as_of}`, s);
  return [...seen.values()];
}

/** The last sentence of every summary: date, licence, where to cite. */
export function footer(b: LoadedBuild, asOf: string | null): string {
  return `${asOf ? `Data as of ${asOf}. ` : ''}${b.commodityMeta.license}: cite Chokepoint (${b.manifest.base_url}/). Full result in structuredContent.`;
}

export const pct = (x: number | null | undefined, digits = 1) => (x === null || x === undefined ? 'n/a' : `${x.toFixed(digits)} %`);
export const num = (x: number | null | undefined) => (x === null || x === undefined ? 'n/a' : String(Math.round(x * 100) / 100));

/**
 * An API error as the text of an isError tool result (and of a prompt's or resource's JSON-RPC
 * error): the problem, then what is accepted, then at most five suggestions, each said once. An
 * unknown commodity or country comes from the one resolver (api/resolve.ts), as over HTTP.
 */
export function errorText(_b: LoadedBuild, err: ApiError): string {
  if (err instanceof UnknownIdentifier) {
    return `${sentence(err.problem)} Accepted: ${err.accepted}.${err.labelled.length ? ` Did you mean: ${err.labelled.join(', ')}?` : ''}`;
  }
  const detail = sentence(err.detail);
  const options = (err.extras.suggestions?.length ? err.extras.suggestions : err.extras.allowed)?.slice(0, MAX_SUGGESTIONS);
  return options?.length ? `${detail} Valid options: ${options.join(', ')}.` : detail;
}

const sentence = (s: string) => (/[.?!]$/.test(s) ? s : `${s}.`);

/**
 * A JSON-RPC error whose message is sent as given. McpError prefixes its message with
 * "MCP error <code>: ", which the SDK would send on the wire, and the client's McpError adds the
 * prefix again ("MCP error -32602: MCP error -32602: …").
 */
export function rpcError(code: number, message: string, data?: unknown): McpError {
  const err = new McpError(code, message, data);
  err.message = message;
  return err;
}

/**
 * An identifier from a resource URI or a prompt argument, checked with its HTTP parameter's
 * contract schema (length limit first, then the characters names may have) before it is resolved;
 * a refusal is an invalid-params error naming the argument.
 */
export function identifierArg(schema: z.ZodType<string, string>, name: string, value: string): string {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw rpcError(ErrorCode.InvalidParams, `${name}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}
