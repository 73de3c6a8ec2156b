import type { z } from 'zod';
import type { Meta, Point } from '../../../contract/common.ts';
import { docOf } from '../../../contract/json-schema.ts';
import type { ToolName, TOOLS } from '../../../contract/tools.ts';
import { numUpTo } from '../../../lib/format.ts';
import { suggest } from '../../../lib/suggest.ts';
import type { LoadedBuild } from '../../build.ts';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { ApiError } from '../../problem.ts';
import { ExplainedError, MAX_SUGGESTIONS } from '../../resolve.ts';

type ToolOf<N extends ToolName> = Extract<(typeof TOOLS)[number], { name: N }>;
export type ToolArgs<N extends ToolName> = z.output<ToolOf<N>['inputSchema']>;
export type ToolOutput<N extends ToolName> = z.input<ToolOf<N>['outputSchema']>;

/** A link of a tool result to the full data: an HTTP address (JSON, CSV) or an MCP resource. */
export interface ToolLink {
  uri: string;
  name: string;
  title: string;
  mimeType: string;
  description?: string;
}

/**
 * What a tool computes: the structured result (checked against its output schema), a short
 * summary for a person, for a list one line per item, and links to the full data. The server
 * makes the text block of the MCP result from the last three (resultText); the data itself is
 * in structuredContent.
 */
export interface ToolOutcome<N extends ToolName> {
  structured: ToolOutput<N>;
  /** A few lines: what the result says, its main figures with their date and unit. */
  summary: string;
  /** A list's items, one short line each (the rest of each item is in structuredContent). */
  figures?: string;
  /** Where the full data is: long series as JSON and CSV over HTTP, records as MCP resources. */
  links?: ToolLink[];
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

/** The last sentence of every result text: the date of the data, the licence, and how to cite. */
export function footer(b: LoadedBuild, asOf: string | null): string {
  return `${asOf ? `Data as of ${asOf}. ` : ''}Source: Chokepoint (${b.manifest.base_url}/), ${b.commodityMeta.license}: cite it with a link when you reuse these figures.`;
}

// ——— the result as text ——————————————————————————————————————————————————————————————————

/** How many sources the text names before "and N more" (every one is in structuredContent.sources). */
const SOURCES_NAMED = 3;

/** The publishers behind a result, once each, with the newest observation of theirs it uses. */
export function sourcesLine(sources: Meta['sources'] | undefined): string | null {
  if (!sources?.length) return null;
  const newest = new Map<string, string | null>();
  for (const s of sources) {
    const name = `${s.publisher} (${s.dataset})`;
    const prev = newest.get(name);
    if (prev === undefined || (s.data_as_of && (!prev || s.data_as_of > prev))) newest.set(name, s.data_as_of);
  }
  const named = [...newest].slice(0, SOURCES_NAMED).map(([name, d]) => (d ? `${name}, data to ${d}` : name));
  const more = newest.size - named.length;
  return `Sources: ${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}.`;
}

/**
 * The text block of a tool result: a short summary for a person — the figures that answer the
 * call with their date and unit, one line per item of a list — then the notes, where the full
 * data is, the sources and the footer (date, licence, how to cite). The data itself is in
 * structuredContent and at the links, not repeated here.
 */
export function resultText(
  b: LoadedBuild,
  outcome: { structured: Record<string, unknown>; summary: string; figures?: string; links?: readonly ToolLink[] },
): string {
  const s = outcome.structured;
  const figures = outcome.figures ?? '';
  const notes = (s.notes as string[] | undefined) ?? [];
  // Links the lines already name (a search hit's resource) are not listed twice.
  const links = (outcome.links ?? []).filter((l) => !figures.includes(l.uri));
  return [
    outcome.summary,
    figures || null,
    notes.length ? `Notes:\n${notes.map((n) => `- ${n}`).join('\n')}` : null,
    links.length ? `Full data:\n${links.map((l) => `- ${l.title}: ${l.uri}`).join('\n')}` : null,
    sourcesLine(s.sources as Meta['sources'] | undefined),
    footer(b, (s.as_of as string | null | undefined) ?? null),
  ]
    .filter((x): x is string => !!x)
    .join('\n\n');
}

/** A series in one line: its span, first and last values, minimum and maximum with their dates. */
export function seriesLine(label: string, points: readonly Point[], unit: string): string {
  if (!points.length) return `${label}: no observation.`;
  const first = points[0]!;
  const last = points.at(-1)!;
  let min = first;
  let max = first;
  for (const p of points) {
    if (p.value < min.value) min = p;
    if (p.value > max.value) max = p;
  }
  return `${label} (${unit}): ${points.length} points, ${numUpTo(first.value)} on ${first.date} → ${numUpTo(last.value)} on ${last.date}; min ${numUpTo(min.value)} on ${min.date}, max ${numUpTo(max.value)} on ${max.date}.`;
}

/** Links to an HTTP address of the API as JSON and CSV (`path` with its query string). */
export function httpLinks(b: LoadedBuild, path: string, what: string, csv: boolean): ToolLink[] {
  const url = `${b.manifest.base_url}${path}`;
  const withFormat = (f: string) => `${url}${url.includes('?') ? '&' : '?'}format=${f}`;
  return [
    { uri: url, name: `${what} (JSON)`, title: `${what}, JSON`, mimeType: 'application/json' },
    ...(csv ? [{ uri: withFormat('csv'), name: `${what} (CSV)`, title: `${what}, CSV`, mimeType: 'text/csv' }] : []),
  ];
}

// ——— pages ———————————————————————————————————————————————————————————————————————————————————

/** A short fingerprint of a list query (its arguments but the page's), so that a cursor is used with the query that made it. */
function fingerprint(query: Record<string, unknown>): string {
  const text = JSON.stringify(Object.entries(query).sort(([a], [b]) => (a < b ? -1 : 1)));
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(36);
}

const encodeCursor = (offset: number, query: string) => btoa(`${offset}.${query}`).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
function decodeCursor(cursor: string): { offset: number; query: string } | null {
  try {
    const m = /^(\d{1,6})\.([0-9a-z]{1,13})$/.exec(atob(cursor.replace(/-/g, '+').replace(/_/g, '/')));
    return m ? { offset: Number(m[1]), query: m[2]! } : null;
  } catch {
    return null;
  }
}

/**
 * One page of a list tool's items: `limit` items from where `cursor` says (the first page
 * without one), and the opaque cursor of the next page (null on the last). The cursor names the
 * offset and the query it belongs to; with other filters, or not one of ours, it is refused.
 */
export function pageOf<T>(
  items: readonly T[],
  args: { limit?: number | undefined; cursor?: string | undefined } & Record<string, unknown>,
): { page: T[]; offset: number; next_cursor: string | null } {
  const { limit: asked, cursor, ...query } = args;
  const limit = asked ?? items.length;
  const fp = fingerprint(query);
  let offset = 0;
  if (cursor !== undefined) {
    const c = decodeCursor(cursor);
    if (!c || c.query !== fp || c.offset > items.length)
      throw new ApiError(400, 'cursor: not a next_cursor of this query (a cursor goes with the filters of the page that gave it)', {
        errors: [{ param: 'cursor', message: 'not a cursor of this query' }],
      });
    offset = c.offset;
  }
  const page = items.slice(offset, offset + limit);
  const end = offset + page.length;
  return { page, offset, next_cursor: end < items.length ? encodeCursor(end, fp) : null };
}

// ——— errors ——————————————————————————————————————————————————————————————————————————————

const sentence = (s: string) => (/[.?!]$/.test(s) ? s : `${s}.`);

/** The problem, the accepted form and at most five suggestions, each said once. */
export function explained(problem: string, accepted: string, suggestions: readonly string[]): string {
  const s = [...new Set(suggestions)].slice(0, MAX_SUGGESTIONS);
  return `${sentence(problem)} Accepted: ${accepted.replace(/\.$/, '')}.${s.length ? ` Did you mean: ${s.join(', ')}?` : ''}`;
}

/**
 * An API error as the text of an isError tool result (and of a prompt's or resource's JSON-RPC
 * error): the problem, then what is accepted, then at most five suggestions, each said once. The
 * resolver and the queries explain their refusals (ExplainedError); another refusal is its
 * detail with at most five options.
 */
export function errorText(_b: LoadedBuild, err: ApiError): string {
  if (err instanceof ExplainedError) return explained(err.problem, err.accepted, err.labelled);
  const detail = sentence(err.detail);
  const options = (err.extras.suggestions?.length ? err.extras.suggestions : err.extras.allowed)?.slice(0, MAX_SUGGESTIONS);
  return options?.length ? `${detail} Valid options: ${options.join(', ')}.` : detail;
}

const shown = (v: unknown) => (typeof v === 'string' ? `'${v.length > 60 ? `${v.slice(0, 60)}…` : v}'` : JSON.stringify(v));

/** The value at a path of the raw arguments (what the caller sent). */
function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let v = raw;
  for (const k of path) v = v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

/** Enum values nearest a wrong one: a value it starts with (`french` → fr) or that starts with it, then spelling. */
function nearestValues(value: unknown, values: readonly string[]): string[] {
  if (typeof value !== 'string') return [];
  const v = value.trim().toLowerCase();
  const prefix = values.filter((c) => v.startsWith(c) || c.startsWith(v));
  return [...new Set([...prefix, ...suggest(v, values, MAX_SUGGESTIONS)])];
}

/**
 * Invalid tool arguments as one short text: per problem (at most three), the argument and the
 * value given, the accepted form (the argument's own description, or the values of an enum) and
 * at most five suggestions. Replaces the SDK's "MCP error -32602: Input validation error: …".
 */
export function argumentsText(toolName: string, schema: z.ZodObject, raw: unknown, issues: readonly z.core.$ZodIssue[]): string {
  const shape = schema.shape as Record<string, z.ZodType>;
  const names = Object.keys(shape);
  const described = (arg: string) => {
    const field = shape[arg];
    return field ? (docOf(field).description ?? 'see the input schema') : 'see the input schema';
  };
  const parts = issues.slice(0, 3).map((issue) => {
    const arg = String(issue.path[0] ?? '');
    const at = issue.path.map(String).join('.');
    const value = valueAt(raw, issue.path);
    switch (issue.code) {
      case 'unrecognized_keys': {
        const keys = issue.keys;
        return explained(
          `${toolName} has no argument ${keys.map((k) => `'${k}'`).join(', ')}`,
          `the arguments ${names.join(', ')}`,
          keys.flatMap((k) => suggest(k, names, MAX_SUGGESTIONS)),
        );
      }
      case 'invalid_value': {
        const values = issue.values.map(String);
        return explained(
          `${at}: ${value === undefined ? 'missing' : `${shown(value)} is not accepted`}`,
          `one of ${values.join(', ')}`,
          nearestValues(value, values),
        );
      }
      case 'invalid_type':
        if (value === undefined) return explained(`${at}: required`, described(arg), []);
        return explained(`${at}: ${shown(value)} is not accepted (${issue.message})`, described(arg), []);
      default: {
        const message = issue.message;
        if (message.startsWith('expected ')) return explained(`${at}: ${shown(value)} is not accepted`, message.slice('expected '.length), []);
        return explained(`${at}: ${value === undefined ? '' : `${shown(value)} `}${message}`, described(arg), []);
      }
    }
  });
  const more = issues.length > 3 ? ` (${issues.length - 3} more problems)` : '';
  return `Invalid arguments for ${toolName}: ${parts.join(' ')}${more}`;
}

/**
 * A JSON-RPC error whose message is sent as given. McpError prefixes its message with
 * "MCP error <code>: ", which the SDK would send on the wire, and the client's McpError adds the
 * prefix again ("MCP error -32602: MCP error -32602: …").
 */
export function rpcError(code: number, message: string, data?: unknown): ProtocolError {
  const err = new ProtocolError(code, message, data);
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
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? 'invalid';
    throw rpcError(
      ProtocolErrorCode.InvalidParams,
      message.startsWith('expected ') ? explained(`${name}: ${shown(value)} is not accepted`, message.slice('expected '.length), []) : `${name}: ${message}`,
    );
  }
  return parsed.data;
}
