import type { z } from 'zod';
import type { Meta } from '../../../contract/common.ts';
import type { ToolName, TOOLS } from '../../../contract/tools.ts';
import type { LoadedBuild } from '../../build.ts';
import type { ApiError } from '../../problem.ts';

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
 * An API error as the text of an isError tool result. An unknown commodity or country lists
 * every valid identifier (the model can pick one and call again); other errors list what their
 * problem details suggest or allow.
 */
export function errorText(b: LoadedBuild, err: ApiError): string {
  const first = err.extras.errors?.[0];
  let options: string[] | undefined;
  if (first?.message === 'unknown commodity') options = b.commodities.map((c) => (first.param === 'slug' ? c.slug : c.code));
  else if (first?.message === 'unknown or uncovered country code') options = [...b.countries.values()].map((c) => c.iso3);
  else options = err.extras.suggestions?.length ? err.extras.suggestions : err.extras.allowed;
  const detail = /[.?!]$/.test(err.detail) ? err.detail : `${err.detail}.`;
  return options?.length ? `${detail} Valid options: ${options.join(', ')}.` : detail;
}
