import type { z } from 'zod';
import type { Meta, Point } from '../../../contract/common.ts';
import { docOf } from '../../../contract/json-schema.ts';
import type { ToolName, TOOLS } from '../../../contract/tools.ts';
import { suggest } from '../../../lib/suggest.ts';
import type { LoadedBuild } from '../../build.ts';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { ApiError } from '../../problem.ts';
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
 * What a tool computes: the structured result (checked against its output schema), a one-line
 * summary, the figures as text, and links to the full data. The server makes the text block of
 * the MCP result from the last three (resultText), so that a host passing only text to its model
 * passes the data too.
 */
export interface ToolOutcome<N extends ToolName> {
  structured: ToolOutput<N>;
  /** One sentence: what the result says, its main figures. */
  summary: string;
  /** The data as compact text (tables, a series in brief); absent: the JSON of the result when it is small. */
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

export const pct = (x: number | null | undefined, digits = 1) => (x === null || x === undefined ? 'n/a' : `${x.toFixed(digits)} %`);
export const num = (x: number | null | undefined) => (x === null || x === undefined ? 'n/a' : String(Math.round(x * 100) / 100));
/** A 0–1 share as a percentage: 0.9497 → `95 %`. */
export const share = (x: number | null | undefined, digits = 0) => (x === null || x === undefined ? 'n/a' : `${(x * 100).toFixed(digits)} %`);

// ——— the result as text ——————————————————————————————————————————————————————————————————

/** Keys of a result that are not its data: said once in the footer (or not at all) rather than in the figures. */
const META_KEYS = new Set(['as_of', 'license', 'attribution', 'sources', 'notes']);
/** A result whose data, as JSON, is at most this long is given as that JSON. */
export const SMALL_JSON_CHARS = 2000;

/** The data of a result, without the keys every result carries. */
export function dataOf(structured: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(structured).filter(([k]) => !META_KEYS.has(k)));
}

const cell = (v: unknown) =>
  v === null || v === undefined || v === ''
    ? 'n/a'
    : String(v)
        .replace(/\|/g, '\\|')
        .replace(/\s*\n\s*/g, ' ');

/** A Markdown table: every model reads it, and it costs a fraction of the JSON of the same rows. */
export function table(head: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');
}

/** How many points of a series the text gives in full; a longer one is given in brief, with its last SERIES_TAIL points. */
export const SERIES_INLINE = 60;
export const SERIES_TAIL = 12;

/**
 * A series as text: every point when it is short; else its span, first and last values, its
 * minimum and maximum with their dates and its last SERIES_TAIL points (the whole series is in
 * the structured result and at the links).
 */
export function seriesText(label: string, points: readonly Point[], unit: string): string {
  if (!points.length) return `${label}: no observation.`;
  const first = points[0]!;
  const last = points.at(-1)!;
  if (points.length <= SERIES_INLINE) return `${label} (${unit}), ${points.length} points:\n${points.map((p) => `${p.date} ${num(p.value)}`).join('\n')}`;
  let min = first;
  let max = first;
  for (const p of points) {
    if (p.value < min.value) min = p;
    if (p.value > max.value) max = p;
  }
  return [
    `${label} (${unit}): ${points.length} points from ${first.date} to ${last.date}; first ${num(first.value)}, last ${num(last.value)}, min ${num(min.value)} on ${min.date}, max ${num(max.value)} on ${max.date}.`,
    `Last ${SERIES_TAIL} points:`,
    ...points.slice(-SERIES_TAIL).map((p) => `${p.date} ${num(p.value)}`),
  ].join('\n');
}

/**
 * The text block of a tool result: the summary, the figures (or the JSON of the data when it is
 * small), the notes, the links, and the footer with the date, the licence and how to cite.
 */
export function resultText(
  b: LoadedBuild,
  outcome: { structured: Record<string, unknown>; summary: string; figures?: string; links?: readonly ToolLink[] },
): string {
  const s = outcome.structured;
  const figures = outcome.figures ?? JSON.stringify(dataOf(s));
  const notes = (s.notes as string[] | undefined) ?? [];
  // Links the figures already name (a search hit's resource) are not listed twice.
  const links = (outcome.links ?? []).filter((l) => !figures.includes(l.uri));
  return [
    outcome.summary,
    figures,
    notes.length ? `Notes:\n${notes.map((n) => `- ${n}`).join('\n')}` : null,
    links.length ? `Full data:\n${links.map((l) => `- ${l.title}: ${l.uri}`).join('\n')}` : null,
    footer(b, (s.as_of as string | null | undefined) ?? null),
  ]
    .filter((x): x is string => !!x)
    .join('\n\n');
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
