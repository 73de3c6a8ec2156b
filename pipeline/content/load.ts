/**
 * Load the editorial content under data/: events (data/events/*.yaml, lists of events), scenarios
 * (data/scenarios/<id>.yaml, one per file) and briefings (data/briefings/<lang>/*.md, Markdown with
 * YAML front matter). Everything is validated; every problem found is collected and thrown at once
 * as a ContentError whose lines name the file and line, e.g.
 *   data/events/2022.yaml:12 commodities[1]: unknown commodity 'metals.cobalts' (did you mean metals.cobalt?)
 * The rules are written out for editors in docs/content.md.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { LineCounter, parseDocument, type Document } from 'yaml';
import { z } from 'zod';
import { DateString } from '../../contract/common.ts';
import {
  BRIEFING_LANGS,
  BriefingSchema,
  EVENT_CATEGORIES,
  EVENT_EFFECTS,
  EVENT_KINDS,
  EventSchema,
  SCENARIO_STATUSES,
  ScenarioSchema,
  TRANSLATION_LANGS,
  type Briefing,
  type BriefingLang,
  type Event,
  type Scenario,
} from '../../contract/content.ts';
import { resolveFigures, seriesOf, type FigureLookup } from './figures.ts';
import { checkStatusHistory } from './status.ts';
import { didYouMean } from '../../lib/suggest.ts';
import { lineOf, pathToString, type Path } from './yaml-lines.ts';
import { byLang } from '../../contract/languages.ts';

export interface LoadContentOptions {
  /** The data/ folder. */
  dataDir: string;
  /** Valid commodity slugs, canonical (lower case). */
  commodities: ReadonlySet<string>;
  /** Valid ISO 3166-1 alpha-3 codes, canonical (upper case). */
  countries: ReadonlySet<string>;
  /** Resolves the figure directives of briefings from the built data. */
  figures: FigureLookup;
  /**
   * Called with each briefing's raw text before its figures are resolved: a reason to leave it
   * out (its figures need a source that is unavailable in this build), or undefined to keep it.
   */
  skipBriefing?: (briefing: { file: string; text: string }) => string | undefined;
}

export interface Content {
  /** Newest first. */
  events: Event[];
  /** By id. */
  scenarios: Scenario[];
  /** Newest first (and so newest first within each language). */
  briefings: Briefing[];
  /** Briefings left out by `skipBriefing`, with the reason. */
  skipped: { file: string; reason: string }[];
}

export interface ContentProblem {
  /** File relative to the data folder's parent, e.g. 'data/events/2023.yaml'. */
  file: string;
  line?: number;
  /** Field inside the record, e.g. 'status_history[2]'. */
  path?: string;
  message: string;
}

/** One line per problem: 'data/scenarios/x.yaml:14 status_history[2]: …'. */
export function formatProblem(p: ContentProblem): string {
  const where = p.line === undefined ? p.file : `${p.file}:${p.line}`;
  return p.path ? `${where} ${p.path}: ${p.message}` : `${where} ${p.message}`;
}

/** Everything wrong with the editorial content, listed at once. */
export class ContentError extends Error {
  readonly problems: readonly ContentProblem[];
  constructor(problems: readonly ContentProblem[]) {
    const n = problems.length;
    super(`${n} problem${n === 1 ? '' : 's'} in the editorial content:\n${problems.map(formatProblem).join('\n')}`);
    this.name = 'ContentError';
    this.problems = problems;
  }
}

// ---------------------------------------------------------------------------------------------
// Input schemas: the shape of the files. Published records are checked again with the contract.

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const KEBAB_MESSAGE = 'is not kebab-case (lower-case letters, digits and single dashes)';
const text = z.string().trim().min(1);
const isoDate = DateString;
const kebab = z.string().regex(KEBAB, KEBAB_MESSAGE);
const codeList = z.array(z.string());

const I18n = byLang(text);

const EventInput = z.strictObject({
  id: kebab,
  date: isoDate,
  category: z.enum(EVENT_CATEGORIES),
  title: I18n,
  summary: I18n,
  commodities: codeList.min(1),
  countries: codeList,
  source_url: z.url({ protocol: /^https$/ }),
  source_name: text,
  effect: z.enum(EVENT_EFFECTS),
  kind: z.enum(EVENT_KINDS),
  ended_on: isoDate.optional(),
});

const ScenarioInput = z.strictObject({
  id: kebab,
  title: I18n,
  summary: I18n,
  commodities: codeList.min(1),
  countries: codeList,
  probability: z.number().min(0).max(1),
  severity: z.number().int().min(1).max(5),
  status: z.enum(SCENARIO_STATUSES),
  status_history: z.array(z.strictObject({ status: z.enum(SCENARIO_STATUSES), date: isoDate, note: text })).min(1),
  updated_at: isoDate.optional(),
});

const FrontMatter = z.strictObject({
  id: kebab,
  lang: z.enum(BRIEFING_LANGS),
  translation_key: kebab,
  title: text,
  summary: text,
  published_at: isoDate,
  commodities: codeList.min(1),
  countries: codeList,
});

const KNOWN_FIELDS = [
  ...Object.keys(EventInput.shape),
  ...Object.keys(ScenarioInput.shape),
  ...Object.keys(FrontMatter.shape),
  'status',
  'date',
  'note',
  'en',
  'fr',
  'de',
  'es',
];

function show(v: unknown): string {
  if (typeof v === 'string') return `'${v}'`;
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  return String(v);
}

function kind(v: unknown): string {
  if (v === null) return 'nothing (null)';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'string') return `text ${show(v)}`;
  return `${typeof v} ${String(v)}`;
}

const EXPECTED: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  array: 'a list',
  object: 'a mapping of fields',
};

/** A zod issue as friendly (path, message) pairs; unknown keys give one pair each. */
function issueMessages(issue: z.core.$ZodIssue): Array<{ path: Path; message: string }> {
  const p = issue.path as Path;
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case 'invalid_type':
      if (input === undefined) return [{ path: p, message: 'is required' }];
      return [{ path: p, message: `expected ${EXPECTED[issue.expected] ?? issue.expected}, got ${kind(input)}` }];
    case 'invalid_value':
      if (input === undefined) return [{ path: p, message: 'is required' }];
      return [{ path: p, message: `${show(input)} is not one of ${issue.values.map(String).join(', ')}` }];
    case 'invalid_format':
      if (issue.format === 'date') return [{ path: p, message: `${show(input)} is not a valid date (expected YYYY-MM-DD)` }];
      if (issue.format === 'url') return [{ path: p, message: `${show(input)} is not an https:// address` }];
      return [{ path: p, message: `${show(input)} ${issue.message}` }];
    case 'too_small':
      if (issue.origin === 'array') return [{ path: p, message: `must list at least ${String(issue.minimum)}` }];
      if (issue.origin === 'string') return [{ path: p, message: 'must not be empty' }];
      return [{ path: p, message: `${show(input)} is below the minimum ${String(issue.minimum)}` }];
    case 'too_big':
      return [{ path: p, message: `${show(input)} is above the maximum ${String(issue.maximum)}` }];
    case 'unrecognized_keys':
      return issue.keys.map((k) => ({
        path: [...p, k],
        message: `unknown field${didYouMean(
          k,
          KNOWN_FIELDS.filter((f) => f !== k),
        )}`,
      }));
    default:
      return [{ path: p, message: issue.message }];
  }
}

// ---------------------------------------------------------------------------------------------

/** A parsed YAML source with what is needed to point at lines in it. */
interface Source {
  file: string;
  doc: Document;
  lc: LineCounter;
  /** Lines before the YAML starts in the file (front matter of a Markdown file). */
  lineOffset: number;
}

class Collector {
  readonly problems: ContentProblem[] = [];

  add(file: string, line: number | undefined, pathStr: string | undefined, message: string): void {
    this.problems.push({ file, ...(line === undefined ? {} : { line }), ...(pathStr ? { path: pathStr } : {}), message });
  }

  /** A problem at `path` (from the document root) shown with `shown` (from the record). */
  at(src: Source, path: Path, shown: Path, message: string): void {
    this.add(src.file, lineOf(src.doc, src.lc, path, src.lineOffset), pathToString(shown), message);
  }
}

function parseYaml(c: Collector, file: string, text: string, lineOffset = 0): Source | undefined {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    for (const e of doc.errors) {
      const line = (e.linePos?.[0]?.line ?? lc.linePos(e.pos[0]).line) + lineOffset;
      c.add(file, line, undefined, `YAML: ${e.message.split('\n')[0]}`);
    }
    return undefined;
  }
  return { file, doc, lc, lineOffset };
}

async function listFiles(dir: string, exts: readonly string[]): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  return names
    .filter((n) => exts.some((x) => n.endsWith(x)) && !n.startsWith('.'))
    .sort()
    .map((n) => path.join(dir, n));
}

interface Ctx {
  c: Collector;
  commodities: ReadonlySet<string>;
  countries: ReadonlySet<string>;
}

/** Canonical, checked commodity slugs and country codes of one record; problems are reported. */
function checkCodes(ctx: Ctx, src: Source, base: Path, commodities: string[], countries: string[]): { commodities: string[]; countries: string[] } {
  const outC: string[] = [];
  commodities.forEach((raw, i) => {
    const v = raw.trim().toLowerCase();
    const where: Path = ['commodities', i];
    if (!ctx.commodities.has(v)) {
      ctx.c.at(src, [...base, ...where], where, `unknown commodity '${raw}'${didYouMean(v, ctx.commodities)}`);
    } else if (outC.includes(v)) {
      ctx.c.at(src, [...base, ...where], where, `'${v}' is listed twice`);
    } else outC.push(v);
  });
  const outK: string[] = [];
  countries.forEach((raw, i) => {
    const v = raw.trim().toUpperCase();
    const where: Path = ['countries', i];
    if (!ctx.countries.has(v)) {
      const hint = /^[A-Z]{2}$/.test(v)
        ? ' (expected an ISO 3166-1 alpha-3 code; for an EU-wide matter list the member states most concerned)'
        : ` (expected an ISO 3166-1 alpha-3 code)${didYouMean(v, ctx.countries)}`;
      ctx.c.at(src, [...base, ...where], where, `unknown country '${raw}'${hint}`);
    } else if (outK.includes(v)) {
      ctx.c.at(src, [...base, ...where], where, `'${v}' is listed twice`);
    } else outK.push(v);
  });
  return { commodities: outC, countries: outK };
}

/**
 * When a record fails its schema for other reasons, still check its commodity and country lists
 * (if they are well-formed lists of text), so that one run reports every problem.
 */
function checkRawCodes(ctx: Ctx, src: Source, base: Path, raw: unknown, error: z.ZodError): void {
  if (typeof raw !== 'object' || raw === null) return;
  const rec = raw as Record<string, unknown>;
  const broken = new Set(error.issues.map((i) => String(i.path[0])));
  const list = (k: string): string[] => {
    const v = rec[k];
    return !broken.has(k) && Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : [];
  };
  checkCodes(ctx, src, base, list('commodities'), list('countries'));
}

/** Report zod issues of a record whose root is at `base` in the document. */
function reportIssues(c: Collector, src: Source, base: Path, error: z.ZodError): void {
  for (const issue of error.issues) {
    for (const { path: p, message } of issueMessages(issue)) c.at(src, [...base, ...p], p, message);
  }
}

interface Seen {
  file: string;
  line: number;
}

function checkUnique(c: Collector, seen: Map<string, Seen>, src: Source, base: Path, id: string, what: string): void {
  const line = lineOf(src.doc, src.lc, [...base, 'id'], src.lineOffset);
  const first = seen.get(id);
  if (first) c.add(src.file, line, 'id', `duplicate ${what} id '${id}' (first at ${first.file}:${first.line})`);
  else seen.set(id, { file: src.file, line });
}

type I18nText = z.infer<typeof I18n>;

/** The fr/de/es title and summary of a record written as { en, fr, de, es } maps. */
function translationsOf(title: I18nText, summary: I18nText): Event['translations'] {
  return Object.fromEntries(TRANSLATION_LANGS.map((l) => [l, { title: title[l], summary: summary[l] }])) as Event['translations'];
}

async function loadEvents(ctx: Ctx, dataDir: string, rel: (f: string) => string): Promise<Event[]> {
  const events: Event[] = [];
  const seen = new Map<string, Seen>();
  for (const abs of await listFiles(path.join(dataDir, 'events'), ['.yaml', '.yml'])) {
    const src = parseYaml(ctx.c, rel(abs), await readFile(abs, 'utf8'));
    if (!src) continue;
    const data: unknown = src.doc.toJS();
    if (!Array.isArray(data)) {
      ctx.c.add(src.file, 1, undefined, `expected a list of events, got ${kind(data)}`);
      continue;
    }
    const year = /^(\d{4})\.ya?ml$/.exec(path.basename(abs))?.[1];
    data.forEach((item: unknown, i) => {
      const parsed = EventInput.safeParse(item, { reportInput: true });
      if (!parsed.success) {
        reportIssues(ctx.c, src, [i], parsed.error);
        checkRawCodes(ctx, src, [i], item, parsed.error);
        return;
      }
      const e = parsed.data;
      checkUnique(ctx.c, seen, src, [i], e.id, 'event');
      if (!e.id.startsWith(`${e.date}-`)) {
        ctx.c.at(
          src,
          [i, 'id'],
          ['id'],
          `'${e.id}' must start with the event's date, e.g. '${e.date}-${e.id.replace(/^\d{4}-\d{2}-\d{2}-?/, '') || 'what-happened'}'`,
        );
      }
      if (year && !e.date.startsWith(year)) {
        ctx.c.at(src, [i, 'date'], ['date'], `${e.date} is not in ${year}; move the event to ${e.date.slice(0, 4)}.yaml`);
      }
      if (e.ended_on !== undefined && e.kind !== 'lasting') {
        ctx.c.at(src, [i, 'ended_on'], ['ended_on'], `is only for lasting events, and this one is '${e.kind}'; set kind: lasting or remove ended_on`);
      } else if (e.ended_on !== undefined && e.ended_on < e.date) {
        ctx.c.at(src, [i, 'ended_on'], ['ended_on'], `${e.ended_on} is before the event's date ${e.date}`);
      }
      const codes = checkCodes(ctx, src, [i], e.commodities, e.countries);
      events.push({ ...e, title: e.title.en, summary: e.summary.en, translations: translationsOf(e.title, e.summary), ...codes });
    });
  }
  return events;
}

async function loadScenarios(ctx: Ctx, dataDir: string, rel: (f: string) => string): Promise<Scenario[]> {
  const scenarios: Scenario[] = [];
  const seen = new Map<string, Seen>();
  for (const abs of await listFiles(path.join(dataDir, 'scenarios'), ['.yaml', '.yml'])) {
    const src = parseYaml(ctx.c, rel(abs), await readFile(abs, 'utf8'));
    if (!src) continue;
    const raw: unknown = src.doc.toJS();
    const parsed = ScenarioInput.safeParse(raw, { reportInput: true });
    if (!parsed.success) {
      reportIssues(ctx.c, src, [], parsed.error);
      checkRawCodes(ctx, src, [], raw, parsed.error);
      continue;
    }
    const s = parsed.data;
    checkUnique(ctx.c, seen, src, [], s.id, 'scenario');
    const stem = path.basename(abs).replace(/\.ya?ml$/, '');
    if (stem !== s.id) ctx.c.at(src, ['id'], ['id'], `'${s.id}' must match the file name (${stem})`);
    const codes = checkCodes(ctx, src, [], s.commodities, s.countries);
    for (const p of checkStatusHistory(s.status, s.status_history)) ctx.c.at(src, p.path, p.path, p.message);
    const last = s.status_history[s.status_history.length - 1];
    const updatedAt = s.updated_at ?? last?.date ?? '';
    if (last && updatedAt < last.date) {
      ctx.c.at(src, ['updated_at'], ['updated_at'], `${updatedAt} is before the last status change (${last.date})`);
    }
    scenarios.push({
      id: s.id,
      title: s.title.en,
      summary: s.summary.en,
      translations: translationsOf(s.title, s.summary),
      commodities: codes.commodities,
      countries: codes.countries,
      probability: s.probability,
      severity: s.severity,
      status: s.status,
      status_history: s.status_history,
      updated_at: updatedAt,
    });
  }
  return scenarios;
}

/** Split '---\n<yaml>\n---\n<body>'; lines are 1-based. */
function splitFrontMatter(text: string): { yaml: string; yamlStartLine: number; body: string; bodyStartLine: number } | undefined {
  const lines = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n');
  if (lines[0]?.trim() !== '---') return undefined;
  const end = lines.findIndex((l, i) => i > 0 && l.trim() === '---');
  if (end < 0) return undefined;
  return {
    yaml: lines.slice(1, end).join('\n'),
    yamlStartLine: 2,
    body: lines.slice(end + 1).join('\n'),
    bodyStartLine: end + 2,
  };
}

async function loadBriefings(
  ctx: Ctx,
  figures: FigureLookup,
  dataDir: string,
  rel: (f: string) => string,
  skip: LoadContentOptions['skipBriefing'],
  skipped: Content['skipped'],
): Promise<Briefing[]> {
  const briefings: Briefing[] = [];
  const seen = new Map<string, Seen>();
  const seenKeys = new Map<string, Seen>();
  const root = path.join(dataDir, 'briefings');
  let dirs: string[] = [];
  try {
    dirs = (await readdir(root, { withFileTypes: true }))
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  for (const dir of dirs) {
    if (!(BRIEFING_LANGS as readonly string[]).includes(dir)) {
      ctx.c.add(rel(path.join(root, dir)), undefined, undefined, `unknown language folder '${dir}' (expected one of ${BRIEFING_LANGS.join(', ')})`);
      continue;
    }
    const folderLang = dir as BriefingLang;
    for (const abs of await listFiles(path.join(root, dir), ['.md'])) {
      const file = rel(abs);
      const text = await readFile(abs, 'utf8');
      const reason = skip?.({ file, text });
      if (reason) {
        skipped.push({ file, reason });
        continue;
      }
      const parts = splitFrontMatter(text);
      if (!parts) {
        ctx.c.add(file, 1, undefined, "expected YAML front matter between a first line '---' and a closing '---'");
        continue;
      }
      const src = parseYaml(ctx.c, file, parts.yaml, parts.yamlStartLine - 1);
      if (!src) continue;
      const raw: unknown = src.doc.toJS();
      const parsed = FrontMatter.safeParse(raw, { reportInput: true });
      if (!parsed.success) {
        reportIssues(ctx.c, src, [], parsed.error);
        checkRawCodes(ctx, src, [], raw, parsed.error);
        continue;
      }
      const fm = parsed.data;
      if (fm.lang !== folderLang) ctx.c.at(src, ['lang'], ['lang'], `'${fm.lang}' but the file is in the '${folderLang}' folder`);
      checkUnique(ctx.c, seen, src, [], fm.id, 'briefing');
      const key = `${fm.translation_key}/${fm.lang}`;
      const keyLine = lineOf(src.doc, src.lc, ['translation_key'], src.lineOffset);
      const firstKey = seenKeys.get(key);
      if (firstKey) {
        ctx.c.add(file, keyLine, 'translation_key', `'${fm.translation_key}' already has a '${fm.lang}' version (${firstKey.file}:${firstKey.line})`);
      } else seenKeys.set(key, { file, line: keyLine });
      const codes = checkCodes(ctx, src, [], fm.commodities, fm.countries);
      if (fm.title.includes('{{')) {
        ctx.c.at(src, ['title'], ['title'], 'figure directives are not allowed in the title; quote figures in the summary or body');
      }
      const figCtx = { lang: fm.lang, commodities: ctx.commodities, countries: ctx.countries, figures, notAfter: fm.published_at };
      const summary = resolveFigures(fm.summary, figCtx);
      const summaryLine = lineOf(src.doc, src.lc, ['summary'], src.lineOffset);
      for (const p of summary.problems) ctx.c.add(file, summaryLine, 'summary', p.message);
      const body = resolveFigures(parts.body.trim() === '' ? '' : parts.body, figCtx);
      for (const p of body.problems) ctx.c.add(file, parts.bodyStartLine + p.line - 1, 'body', p.message);
      if (parts.body.trim() === '') ctx.c.add(file, parts.bodyStartLine, 'body', 'is empty');
      briefings.push({
        id: fm.id,
        lang: fm.lang,
        translation_key: fm.translation_key,
        title: fm.title,
        summary: summary.text,
        body: body.text.trim(),
        published_at: fm.published_at,
        commodities: codes.commodities,
        countries: codes.countries,
        series: seriesOf([...summary.directives, ...body.directives]),
      });
    }
  }
  return briefings;
}

/** Check published records against the contract; a failure here is a bug in the loader. */
function checkContract<T>(c: Collector, schema: z.ZodType<T>, records: readonly T[], what: string): void {
  for (const r of records) {
    const res = schema.safeParse(r);
    if (!res.success) {
      const id = (r as { id?: string }).id ?? '?';
      c.add(`(${what} ${id})`, undefined, undefined, `does not match the published contract: ${res.error.message}`);
    }
  }
}

const LANG_ORDER: Record<string, number> = Object.fromEntries(BRIEFING_LANGS.map((l, i) => [l, i]));

/** Read, validate and resolve all editorial content; throws ContentError listing every problem. */
export async function loadContent(opts: LoadContentOptions): Promise<Content> {
  const c = new Collector();
  const dataDir = path.resolve(opts.dataDir);
  const info = await stat(dataDir).catch(() => undefined);
  if (!info?.isDirectory()) throw new ContentError([{ file: opts.dataDir, message: 'is not a folder' }]);
  const base = path.basename(dataDir);
  const rel = (f: string): string => path.posix.join(base, path.relative(dataDir, f).split(path.sep).join('/'));
  const ctx: Ctx = { c, commodities: opts.commodities, countries: opts.countries };

  const events = await loadEvents(ctx, dataDir, rel);
  const scenarios = await loadScenarios(ctx, dataDir, rel);
  const skipped: Content['skipped'] = [];
  const briefings = await loadBriefings(ctx, opts.figures, dataDir, rel, opts.skipBriefing, skipped);

  if (c.problems.length === 0) {
    checkContract(c, EventSchema, events, 'event');
    checkContract(c, ScenarioSchema, scenarios, 'scenario');
    checkContract(c, BriefingSchema, briefings, 'briefing');
  }
  if (c.problems.length > 0) {
    const sorted = [...c.problems].sort((a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0));
    throw new ContentError(sorted);
  }

  events.sort((a, b) => b.date.localeCompare(a.date) || a.id.localeCompare(b.id));
  scenarios.sort((a, b) => a.id.localeCompare(b.id));
  briefings.sort((a, b) => b.published_at.localeCompare(a.published_at) || (LANG_ORDER[a.lang] ?? 0) - (LANG_ORDER[b.lang] ?? 0) || a.id.localeCompare(b.id));
  return { events, scenarios, briefings, skipped };
}
