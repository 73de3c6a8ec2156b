import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import type { z } from 'zod';
import type { Citation } from '../../contract/api.ts';
import type { Reserve } from '../../contract/reserves.ts';
import { LIST_DEFAULTS } from '../../contract/limits.ts';
import { type ToolName, toolByName, toolDescriptors, TOOLS } from '../../contract/tools.ts';
import { fileData, type LoadedBuild } from '../build.ts';
import { errorText } from '../mcp/tools/common.ts';
import { TOOL_MODULES } from '../mcp/tools/index.ts';
import { ApiError } from '../problem.ts';
import { quoteNumbers } from './numbers.ts';
import type { Lang } from './text.ts';

/**
 * The model path's side of the MCP tools (api/mcp/tools): the ten tools offered to the model as
 * functions, a call validated with the tool's input schema and run by the MCP handler, its result
 * shortened to what the model is shown, and that result cut into citable records — each with the
 * API address that returns its figures and the figures as leaves (`fill_pct: 50.25`) the answer's
 * figures are matched against.
 */

/** At most this many characters of one tool result are shown to the model (about 4 000 tokens). */
export const MAX_RESULT_CHARS = 16_000;

let functions: ChatCompletionFunctionTool[] | undefined;
/** The ten tools as OpenAI functions: the names, descriptions and input JSON Schemas of MCP tools/list. */
export function modelTools(): ChatCompletionFunctionTool[] {
  return (functions ??= toolDescriptors().map((t) => ({
    type: 'function' as const,
    function: { name: t.name, description: t.description, parameters: t.inputSchema },
  })));
}

/** One figure-bearing field of a result: `volume: 123.85 TWh`, `fill_pct 2026-01-15: 45.3`. */
export interface Leaf {
  label: string;
  text: string;
  /** The numbers the field holds (the parts of its dates too). */
  nums: number[];
  /** The date of a series point (a time-series citation is narrowed to the points used). */
  date?: string;
}

/** One citable record of a result: a single record, a whole list, or one item of a list. */
export interface Unit {
  /** The item's identifier within its list (the model cites it as `{"call": n, "id": …}`); '' for the call as a whole. */
  key: string;
  id: string;
  type: string;
  title: string;
  /** The API address that returns the figures of the leaves used; null when none does as a whole (a comparison). */
  url: ((used: readonly Leaf[]) => string) | null;
  leaves: Leaf[];
}

/** A tool call the loop ran: its number (as the model cites it), and the records of its result. */
export interface ExecutedCall {
  n: number;
  name: ToolName;
  /** The whole call; its figures are in `list` (when the tool returns a list) and `items`. */
  units: Unit[];
  /** For a list result: the list as a whole (null when no address returns it: compare_countries). */
  list: Unit | null;
  items: Unit[];
}

/** The content of the tool message, and the call when it answered. */
export interface CallOutcome {
  content: string;
  call: ExecutedCall | null;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const issuesText = (issues: readonly z.core.$ZodIssue[]) =>
  issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`)
    .join('; ');

/**
 * Validate and run one call the model asked for. An unknown tool, arguments that are not JSON or
 * break the tool's input schema, and an API error (an unknown commodity…) come back as an error
 * the model reads and may correct; they are not citable.
 */
export async function runCall(b: LoadedBuild, n: number, name: string, rawArgs: string, lang: Lang): Promise<CallOutcome> {
  const fail = (error: string): CallOutcome => ({ content: JSON.stringify({ call: n, tool: name, error }), call: null });
  const spec = toolByName(name);
  if (!spec) return fail(`unknown tool ${JSON.stringify(name)}; the tools are ${TOOLS.map((t) => t.name).join(', ')}`);
  let raw: unknown;
  try {
    raw = rawArgs.trim() ? JSON.parse(rawArgs) : {};
  } catch {
    return fail('the arguments are not a JSON object');
  }
  // Multilingual content in the question's language unless the model asks for another.
  if (raw && typeof raw === 'object' && !Array.isArray(raw) && 'lang' in spec.inputSchema.shape && !('lang' in raw)) raw = { ...raw, lang };
  const parsed = spec.inputSchema.safeParse(raw);
  if (!parsed.success) return fail(`invalid arguments: ${issuesText(parsed.error.issues)}`);
  const args = parsed.data as Record<string, unknown>;
  let structured: Obj;
  try {
    const tool = TOOL_MODULES[spec.name] as { run(b: LoadedBuild, args: unknown): { structured: unknown } | Promise<{ structured: unknown }> };
    structured = (await tool.run(b, args)).structured as Obj;
  } catch (err) {
    if (err instanceof ApiError) return fail(errorText(b, err));
    return fail(`${name} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  const shown = shownResult(structured, lang);
  const call = recordsOf(b, n, spec.name, args, structured, shown);
  return { content: JSON.stringify({ call: n, tool: name, result: shown }), call };
}

// ——— what the model is shown ——————————————————————————————————————————————————————————

/**
 * Keys never shown: the licence and attribution (the API adds them), the sources, addresses
 * (citations are derived, not copied) and the character offsets of a search hit's highlights.
 */
const HIDDEN = (k: string) => k === 'license' || k === 'attribution' || k === 'sources' || k === 'url' || k.endsWith('_url') || k === 'highlights';

export const unmark = (s: string) =>
  s
    .replace(/<\/?mark>/g, '')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

/** Without hidden keys, snippets unmarked, names and translations only in the question's language (and English). */
function stripped(v: Json, lang: Lang, key = ''): Json {
  if (Array.isArray(v)) return v.map((x) => stripped(x, lang));
  if (typeof v === 'string') return key === 'snippet' ? unmark(v) : v;
  if (!isObj(v)) return v;
  if (key === 'names' || key === 'translations') {
    const own = v[lang];
    return lang === 'en' || own === undefined ? null : { [lang]: stripped(own, lang) };
  }
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) {
    if (HIDDEN(k)) continue;
    const s = stripped(x, lang, k);
    if (s !== null || x === null) out[k] = s;
  }
  return out;
}

/** A series of dated readings (points, a stress history), not a list of dated records (events have an id). */
const isSeries = (a: Json[]) => a.length > 1 && a.every((x) => isObj(x) && typeof x.date === 'string' && !('id' in x));

/** The lists a list tool returns: their items are what the model cites, shortened last. */
const ITEM_LISTS = new Set(['reserves', 'countries', 'scenarios', 'events', 'commodities', 'results']);

/** The arrays found at one path (the status histories of every scenario are one group): how many items each keeps. */
interface Group {
  series: boolean;
  items: boolean;
  /** Items kept per array (Infinity: all). */
  keep: number;
  /** Longest array of the group, and the characters the group takes in the last rendering. */
  longest: number;
  size: number;
}

/** A text cut at a word boundary before `max` characters (a number is never cut in two). */
function cut(s: string, max: number): string {
  if (s.length <= max) return s;
  const head = s.slice(0, max);
  const space = head.lastIndexOf(' ');
  return `${(space > max / 2 ? head.slice(0, space) : head.replace(/[\d.,]+$/, '')).trimEnd()}…`;
}

/** Evenly spaced, the newest kept: the shape of a series and its latest reading. */
const thin = <T>(a: readonly T[], k: number): T[] => Array.from({ length: k }, (_, i) => a[Math.round(((i + 1) * a.length) / k) - 1]!);

/** The result with every group cut to what it keeps and texts cut to `text` characters; `cutTexts` hears whether any was. */
function render(v: Json, path: string, groups: Map<string, Group>, text: number, cutTexts: { any: boolean }): Json {
  if (typeof v === 'string') {
    if (v.length <= text) return v;
    cutTexts.any = true;
    return cut(v, text);
  }
  if (Array.isArray(v)) {
    if (!v.some(isObj)) return v;
    const series = isSeries(v);
    let g = groups.get(path);
    if (!g) groups.set(path, (g = { series, items: !series && ITEM_LISTS.has(path), keep: Infinity, longest: 0, size: 0 }));
    g.longest = Math.max(g.longest, v.length);
    const a = v.length <= g.keep ? v : g.series ? thin(v, g.keep) : v.slice(0, g.keep);
    const out = a.map((x) => render(x, path, groups, text, cutTexts));
    g.size += JSON.stringify(out).length;
    return out;
  }
  if (!isObj(v)) return v;
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) out[k] = render(x, path ? `${path}.${k}` : k, groups, text, cutTexts);
  return out;
}

/**
 * Ever shorter forms of a result until one fits: texts cut, then the largest series or nested list
 * shortened by 30 % at a time, then texts cut shorter, and only then the items of a list tool.
 */
const STAGES = [
  { text: 300, series: 24, lists: 10, items: false },
  { text: 120, series: 12, lists: 5, items: false },
  { text: 120, series: 12, lists: 10, items: true },
  { text: 60, series: 6, lists: 3, items: true },
];

/** The result as the model sees it: compact, at most `max` characters when it can be, with notes saying how it was shortened. */
export function shownResult(structured: Obj, lang: Lang, max = MAX_RESULT_CHARS): Obj {
  const base = stripped(structured, lang) as Obj;
  const groups = new Map<string, Group>();
  let text = Infinity;
  const attempt = () => {
    for (const g of groups.values()) g.size = 0;
    const cutTexts = { any: false };
    const out = render(base, '', groups, text, cutTexts) as Obj;
    const notes: string[] = [];
    for (const [path, g] of groups)
      if (g.longest > g.keep)
        notes.push(
          g.series
            ? `${path}: ${g.keep} of ${g.longest} points shown, evenly spaced, the last kept; ask for a shorter period or a coarser frequency to see others`
            : `${path}: the first ${g.keep} of ${g.longest} shown; narrow the call (status, commodity, country, dates) to see others`,
        );
    if (cutTexts.any) notes.push(`long texts cut to about ${text} characters`);
    const shown = notes.length ? { ...out, notes: [...((out.notes as string[] | undefined) ?? []), ...notes] } : out;
    return { shown, fits: JSON.stringify(shown).length <= max };
  };
  let r = attempt();
  for (const stage of STAGES) {
    if (r.fits) break;
    text = stage.text;
    r = attempt();
    while (!r.fits) {
      let largest: Group | undefined;
      for (const g of groups.values()) {
        const floor = g.series ? stage.series : stage.lists;
        if ((g.items && !stage.items) || Math.min(g.keep, g.longest) <= floor) continue;
        if (!largest || g.size > largest.size) largest = g;
      }
      if (!largest) break;
      largest.keep = Math.max(largest.series ? stage.series : stage.lists, Math.ceil(Math.min(largest.keep, largest.longest) * 0.7));
      r = attempt();
    }
  }
  return r.shown;
}

// ——— citable records ————————————————————————————————————————————————————————————————

/** How an item of a list is named in a field label: its identifier, else its position. */
function itemKey(x: Json, i: number): string {
  if (isObj(x)) for (const k of ['id', 'iso3', 'country', 'code', 'slug', 'commodity', 'date', 'name']) if (typeof x[k] === 'string') return x[k] as string;
  return String(i);
}

/**
 * Keys whose values are not figures of the record: identifiers, the search score and the notes
 * (caveats about the data; some say how the tool shortened its result, which no address returns).
 */
const NOT_FIGURES = (k: string) =>
  k === 'id' || k === 'slug' || k === 'iso2' || k === 'iso3' || k === 'code' || k === 'commodity' || k === 'country' || k === 'score' || k === 'notes';

/** The fields of a shown result as leaves; `{date, value}` points and `{value, unit}` quantities are one leaf each. */
export function leavesOf(v: Json, label = '', out: Leaf[] = []): Leaf[] {
  if (v === null || v === undefined) return out;
  if (typeof v !== 'object') {
    const text = String(v);
    if (/\d/.test(text)) out.push({ label, text, nums: quoteNumbers(text) });
    return out;
  }
  if (Array.isArray(v)) {
    if (v.every((x) => !isObj(x) && !Array.isArray(x))) {
      // Numbers and codes as one field (seasonal_norm_years: 2021, 2022); sentences (notes) one each.
      if (v.some((x) => typeof x === 'string' && x.length > 40)) for (const x of v) leavesOf(x, label, out);
      else leavesOf(v.map(String).join(', '), label, out);
      return out;
    }
    v.forEach((x, i) => {
      if (isObj(x) && typeof x.date === 'string' && typeof x.value === 'number' && Object.keys(x).length === 2) {
        const series = label.replace(/\.points$/, '');
        out.push({ label: `${series} ${x.date}`, text: String(x.value), nums: [...quoteNumbers(x.date), x.value], date: x.date });
      } else leavesOf(x, `${label}[${itemKey(x, i)}]`, out);
    });
    return out;
  }
  const keys = Object.keys(v);
  if (typeof v.value === 'number' && typeof v.unit === 'string' && keys.length === 2) {
    out.push({ label, text: `${v.value} ${v.unit}`, nums: [v.value] });
    return out;
  }
  for (const k of keys) if (!NOT_FIGURES(k)) leavesOf(v[k]!, label ? `${label}.${k}` : k, out);
  return out;
}

const qs = (params: Record<string, unknown>) => {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
};
const fixed = (url: string) => () => url;
const str = (v: Json | undefined) => (typeof v === 'string' ? v : '');

/** The citable records of a call's result: where each figure can be fetched again over HTTP. */
export function recordsOf(b: LoadedBuild, n: number, name: ToolName, args: Record<string, unknown>, result: Obj, shown: Obj): ExecutedCall {
  const single = (u: Omit<Unit, 'key' | 'leaves'>, leaves = leavesOf(shown)): ExecutedCall => {
    const unit = { ...u, key: '', leaves };
    return { n, name, units: [unit], list: null, items: [unit] };
  };
  /** A list result: the list (count, as_of, notes) and one record per item shown. */
  const listed = (
    field: string,
    list: Omit<Unit, 'key' | 'leaves'> | null,
    item: (original: Obj, shownItem: Obj) => Omit<Unit, 'key' | 'leaves'>,
  ): ExecutedCall => {
    const originals = (result[field] as Obj[] | undefined) ?? [];
    const byKey = new Map(originals.map((o, i) => [itemKey(o, i), o]));
    const shownItems = (shown[field] as Obj[] | undefined) ?? [];
    const items = shownItems.map((s, i) => ({ ...item(byKey.get(itemKey(s, i)) ?? originals[i]!, s), key: itemKey(s, i), leaves: leavesOf(s) }));
    const { [field]: _items, ...rest } = shown;
    const listUnit = list ? { ...list, key: '', leaves: leavesOf(rest) } : null;
    return { n, name, units: [...(listUnit ? [listUnit] : []), ...items], list: listUnit, items };
  };
  switch (name) {
    case 'get_reserve': {
      const reserve = (r: Obj) => ({
        id: `${str(r.commodity)}/${str(r.country)}`,
        type: 'reserve',
        title: str(r.name),
        url: fixed(`/v1/reserves${qs({ commodity: r.commodity, country: r.country })}`),
      });
      if (!Array.isArray(result.reserves)) return single(reserve(result));
      const code = str((result.reserves[0] as Obj | undefined)?.commodity) || String(args.commodity);
      return listed(
        'reserves',
        { id: code, type: 'reserve', title: `Reserves of ${code}, every country`, url: fixed(`/v1/reserves${qs({ commodity: code })}`) },
        reserve,
      );
    }
    case 'get_reserve_timeseries': {
      const commodity = str(result.commodity);
      const country = str(result.country);
      const series = b.reserves.get(`${commodity}/${country}`)?.series;
      const name = fileData<Reserve>(b, `v1/reserves/${commodity}/${country}.json`)?.name ?? `${commodity} reserve, ${country}`;
      const resampled = series && result.frequency !== series.native_frequency ? str(result.frequency) : undefined;
      const leaves = leavesOf(shown).map((l) => (l.date ? { ...l, label: `${str(result.metric)} ${l.date}` } : l));
      return single(
        {
          id: `${commodity}/${country}`,
          type: 'reserve',
          title: `${name}: ${str(result.metric)}`,
          // The points used, and only them: from the first to the last (a resampled series keeps its frequency).
          url: (used) => {
            const dates = used.flatMap((l) => (l.date ? [l.date] : [])).sort();
            const from = dates[0] ?? str(result.from);
            const to = dates.at(-1) ?? str(result.to);
            const frequency = from === to ? undefined : resampled;
            return `/v1/reserves/timeseries${qs({ commodity, country, from, to, metric: result.metric, frequency })}`;
          },
        },
        leaves,
      );
    }
    case 'get_price':
    case 'get_commodity':
      return single({ id: str(result.slug), type: 'commodity', title: str(result.name), url: fixed(`/v1/commodities/${str(result.slug)}`) });
    case 'get_country_profile':
      return single({ id: str(result.iso3), type: 'country', title: str(result.name), url: fixed(`/v1/countries/${str(result.iso3)}`) });
    case 'compare_countries':
      return listed('countries', null, (c) => ({ id: str(c.iso3), type: 'country', title: str(c.name), url: fixed(`/v1/countries/${str(c.iso3)}`) }));
    case 'list_commodities':
      return listed(
        'commodities',
        { id: 'commodities', type: 'commodity', title: 'Commodities', url: fixed(`/v1/commodities${qs({ group: args.group })}`) },
        (c) => ({
          id: str(c.slug),
          type: 'commodity',
          title: str(c.name),
          url: fixed(`/v1/commodities/${str(c.slug)}`),
        }),
      );
    case 'list_scenarios':
      return listed(
        'scenarios',
        { id: 'scenarios', type: 'scenario', title: 'Scenarios', url: fixed(`/v1/scenarios${qs({ status: args.status, commodity: args.commodity })}`) },
        (s) => ({ id: str(s.id), type: 'scenario', title: str(s.title), url: fixed(`/v1/scenarios${qs({ status: s.status })}`) }),
      );
    case 'list_events': {
      const limit = args.limit === LIST_DEFAULTS.events.limit ? undefined : args.limit;
      // English is the default language of the events (lang=en is the same answer).
      const { since, until, category, commodity, country } = args;
      const lang = args.lang === 'en' ? undefined : args.lang;
      return listed(
        'events',
        { id: 'events', type: 'event', title: 'Events', url: fixed(`/v1/events${qs({ since, until, category, commodity, country, limit, lang })}`) },
        (e) => ({ id: str(e.id), type: 'event', title: str(e.title), url: fixed(`/v1/events${qs({ since: e.date, until: e.date, lang })}`) }),
      );
    }
    case 'search_briefings': {
      const limit = args.limit === LIST_DEFAULTS.search.limit ? undefined : args.limit;
      return listed(
        'results',
        {
          id: `search:${String(args.q)}`,
          type: 'briefing',
          title: `Briefings on "${String(args.q)}"`,
          url: fixed(`/v1/search${qs({ q: args.q, type: 'briefing', lang: args.lang, limit })}`),
        },
        (h) => ({ id: str(h.id), type: str(h.type) || 'briefing', title: str(h.title), url: fixed(str(h.url)) }),
      );
    }
  }
}

/** A leaf an answer used, with the values its figures matched (a long text is quoted around the first). */
export interface Used {
  leaf: Leaf;
  matched: number[];
}

/** A citation of the Answer contract: the record, its address, and the fields the answer used. */
export function citationOf(u: Unit, used: readonly Used[]): z.infer<typeof Citation> | null {
  if (!u.url) return null;
  const quote = used.length ? used.map(({ leaf, matched }) => `${leaf.label}: ${excerpt(leaf.text, matched)}`).join('; ') : defaultQuote(u);
  return { id: u.id, type: u.type, title: u.title, url: u.url(used.map((x) => x.leaf)), quote };
}

/** For a record cited for what it says rather than for a figure: its date and first figures, or its title. */
function defaultQuote(u: Unit): string {
  const preferred = u.leaves.filter((l) => /(^|\.)(as_of|date|value|fill_pct|stress_index|probability|severity|status|count|snippet|share)$/.test(l.label));
  const leaves = (preferred.length ? preferred : u.leaves).slice(0, 3);
  return leaves.length ? leaves.map((l) => `${l.label}: ${excerpt(l.text, [])}`).join('; ') : `title: ${u.title}`;
}

const QUOTE_CHARS = 240;

/** A text as quoted: whole when short, else the passage around the first figure the answer took from it. */
function excerpt(text: string, matched: readonly number[]): string {
  const s = text.replace(/\s+/g, ' ');
  if (s.length <= QUOTE_CHARS) return s;
  let at = 0;
  for (const m of s.matchAll(/-?\d+(?:\.\d+)?/g)) {
    if (matched.includes(Number(m[0]))) {
      at = m.index;
      break;
    }
  }
  if (at < QUOTE_CHARS / 2) return cut(s, QUOTE_CHARS);
  const start = s.lastIndexOf(' ', at - QUOTE_CHARS / 3) + 1;
  return `…${cut(s.slice(start), QUOTE_CHARS)}`;
}
