import type OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { z } from 'zod';
import type { LoadedBuild } from '../build.ts';
import { citationOf, type ExecutedCall, type Leaf, modelTools, runCall, type Unit, type Used } from './calls.ts';
import type { LlmConfig } from './config.ts';
import type { AnswerData, Fact } from './fact.ts';
import { dateLong, numUpTo, pctUpTo } from '../../lib/format.ts';
import { type FoundNumber, numberReadings, quoteNumbers, sameFigure } from './numbers.ts';
import { LANG_NAME_EN } from '../../contract/languages.ts';
import type { Lang } from './text.ts';

/**
 * The model path of /v1/ask: the model answers by calling the ten MCP tools (api/mcp/tools) over
 * the same query functions, bounded in rounds, calls and time; its reply cites the calls it used,
 * and every figure it writes must be in a cited result, written the way the language writes it.
 * Whatever goes wrong, the reason is returned and the caller sends the grounded answer.
 */

/** Model requests per question (the last one may not call tools). */
export const MAX_ROUNDS = 4;
/** Tool calls per question, all rounds together (failed calls included). */
export const MAX_TOOL_CALLS = 8;

const clients = new Map<string, OpenAI>();
/** The client, imported on first use: a server without a model configured never loads it. */
async function client(cfg: LlmConfig): Promise<OpenAI> {
  const key = `${cfg.baseURL ?? ''}|${cfg.apiKey}`;
  let c = clients.get(key);
  if (!c) {
    const { default: OpenAIClient } = await import('openai');
    c = new OpenAIClient({ apiKey: cfg.apiKey, ...(cfg.baseURL ? { baseURL: cfg.baseURL } : {}), maxRetries: 0, timeout: cfg.timeoutMs });
    clients.set(key, c);
  }
  return c;
}

export function systemPrompt(lang: Lang, today: string): string {
  const L = LANG_NAME_EN[lang];
  return [
    'You answer questions about the open data published by Chokepoint (supply stress for raw materials and energy: strategic reserves, prices, country exposure, crisis scenarios, events, briefings).',
    `Today is ${today}.`,
    `Call the tools to get the data (at most ${MAX_TOOL_CALLS} calls in all, over at most ${MAX_ROUNDS - 1} rounds). Use ONLY what the tools return; never outside knowledge.`,
    'Each tool result comes as {"call": <number>, "tool": …, "result": …}, or with "error" instead of "result": then correct the arguments and call again if you can.',
    'When you have what you need, reply with a JSON object only: {"answer": "<text>", "citations": [{"call": <number>}, …]}, citing every call whose result you used.',
    'For one item of a list result (a country of get_reserve without country, a scenario, an event, a briefing, a commodity, a country of compare_countries) cite {"call": <number>, "id": "<its id, iso3, country, code or slug>"}.',
    `Answer in ${L}, in one to four sentences.`,
    'Every figure you write (values, percentages, dates) must be in a result you cite, as written there or rounded; a share of 0.74 may be written as 74 %. Do not compute new figures (no sums, differences or averages).',
    `Write numbers and dates the way ${L} does, e.g. ${numUpTo(1234.5, 2, lang)}, ${pctUpTo(50.25, 2, lang)}, ${dateLong('2026-08-20', lang)}; never as 2026-08-20.`,
    'If the tools cannot answer the question, say so plainly and cite nothing.',
  ].join('\n');
}

const Reply = z.object({
  answer: z.string().trim().min(1).max(4000),
  citations: z.array(z.union([z.number().int(), z.string(), z.object({ call: z.union([z.number().int(), z.string()]), id: z.string().optional() })])).max(50),
});

/** A figure of the answer: every way it can be read (1.234 = 1.234 or 1234). */
interface Figure {
  text: string;
  readings: FoundNumber[];
}

/** Dates written with numbers only (20.08.2026, 20/08/2026): their day, month and year are figures of their own. */
const NUMERIC_DATE = /\b(\d{1,2})([./])(\d{1,2})\2(\d{4})\b/g;

function figuresOf(text: string): Figure[] {
  const out: Figure[] = [];
  const rest = text.replace(NUMERIC_DATE, (_m, d: string, _s: string, m: string, y: string) => {
    for (const p of [d, m, y]) out.push({ text: p, readings: [{ value: Number(p), decimals: 0, text: p }] });
    return ' ';
  });
  for (const r of numberReadings(rest)) out.push({ text: r[0]!.text, readings: r });
  return out;
}

const SPACES = ' \u00a0\u202f';
/** Whether a reading follows the language's separators: 1,234.5 in English; 1 234,5 in French; 1.234,5 (or 1 234,5) in German and Spanish. */
export function writtenAs(x: FoundNumber, lang: Lang): boolean {
  const t = x.text;
  const decimal = x.decimals > 0 ? t[t.length - x.decimals - 1] : undefined;
  const whole = x.decimals > 0 ? t.slice(0, t.length - x.decimals - 1) : t;
  const groups = lang === 'en' ? `,${SPACES}` : lang === 'fr' ? SPACES : `.${SPACES}`;
  return (decimal === undefined || decimal === (lang === 'en' ? '.' : ',')) && [...whole.replace(/\d/g, '')].every((g) => groups.includes(g));
}

interface LeafRef {
  unit: Unit;
  leaf: Leaf;
}

/**
 * Match every figure of an answer to the leaves of the cited records: a figure must be one of a
 * cited record's numbers (as written, rounded, or a share as a percentage) or be in the question;
 * with `lang`, only its readings in that language's number format count. The leaves used are
 * picked greedily, those that hold the most figures first (a date's day and year in one field).
 */
export function matchFigures(answer: string, refs: readonly LeafRef[], question: string, lang?: Lang): Map<LeafRef, number[]> | string {
  if (lang) {
    const iso = /\b\d{4}-\d{2}-\d{2}\b/.exec(answer);
    if (iso) return `the date ${iso[0]} is not written the way ${LANG_NAME_EN[lang]} writes dates`;
  }
  const asked = quoteNumbers(question);
  const open: { readings: FoundNumber[]; by: Map<LeafRef, number> }[] = [];
  for (const f of figuresOf(answer)) {
    const readings = lang ? f.readings.filter((x) => writtenAs(x, lang)) : f.readings;
    if (readings.length === 0) return `the figure ${f.text} is not written the way ${LANG_NAME_EN[lang!]} writes numbers`;
    const by = new Map<LeafRef, number>();
    for (const ref of refs) {
      const hit = ref.leaf.nums.find((a) => readings.some((x) => sameFigure(x.value, x.decimals, a)));
      if (hit !== undefined) by.set(ref, hit);
    }
    if (by.size === 0) {
      if (readings.some((x) => asked.includes(x.value))) continue;
      return `the figure ${f.text} is in no cited record`;
    }
    open.push({ readings, by });
  }
  const used = new Map<LeafRef, number[]>();
  while (open.length) {
    let best: LeafRef | undefined;
    let bestCount = 0;
    for (const ref of refs) {
      const count = open.filter((f) => f.by.has(ref)).length;
      if (count > bestCount) [best, bestCount] = [ref, count];
    }
    const ref = best!;
    const covered = open.filter((f) => f.by.has(ref));
    used.set(ref, [...(used.get(ref) ?? []), ...covered.map((f) => f.by.get(ref)!)]);
    for (const f of covered) open.splice(open.indexOf(f), 1);
  }
  return used;
}

const stripFences = (text: string) => text.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, '');

/**
 * The model's final reply, checked against the calls it cites; the citations of the answer (one
 * per record used, its quote the fields the answer took its figures from), or why it was refused.
 */
export function checkFinal(
  text: string,
  calls: readonly ExecutedCall[],
  question: string,
  lang: Lang,
): { answer: string; citations: AnswerData['citations'] } | string {
  let raw: unknown;
  try {
    raw = JSON.parse(stripFences(text));
  } catch {
    return 'the reply is not JSON';
  }
  const parsed = Reply.safeParse(raw);
  if (!parsed.success) return 'the reply does not have the shape {answer, citations}';
  // What each citation selects: the whole call (list and items), or one item of a list.
  const selections: { call: ExecutedCall; units: Unit[]; whole: boolean }[] = [];
  for (const c of parsed.data.citations) {
    const ref = typeof c === 'object' ? c : { call: c, id: undefined };
    const s = String(ref.call)
      .trim()
      .replace(/^(?:\[|#|call\s*)|\]$/gi, '');
    const call = /^\d+$/.test(s) ? calls.find((x) => x.n === Number(s)) : undefined;
    if (!call) return `citation ${s} is not a tool call that answered`;
    if (ref.id === undefined || !call.list) {
      selections.push({ call, units: call.units, whole: true });
      continue;
    }
    const id = ref.id.trim().toLowerCase();
    const item = call.items.find((u) => u.key.toLowerCase() === id || u.id.toLowerCase() === id);
    if (!item) return `citation ${s}/${ref.id}: call ${s} has no item ${ref.id}`;
    selections.push({ call, units: [item], whole: false });
  }
  if (selections.length === 0) return 'the answer cites no tool call';
  const refs: LeafRef[] = [];
  for (const unit of new Set(selections.flatMap((s) => s.units))) for (const leaf of unit.leaves) refs.push({ unit, leaf });
  const used = matchFigures(parsed.data.answer, refs, question, lang);
  if (typeof used === 'string') return used;
  const byUnit = new Map<Unit, Used[]>();
  for (const ref of refs) {
    const matched = used.get(ref);
    if (matched) byUnit.set(ref.unit, [...(byUnit.get(ref.unit) ?? []), { leaf: ref.leaf, matched }]);
  }
  // The records the figures came from; a call cited for what it says, its list (or its record, or its items).
  const cited: Unit[] = [];
  for (const s of selections) {
    const withFigures = s.units.filter((u) => byUnit.has(u));
    const units = withFigures.length ? withFigures : !s.whole ? s.units : s.call.list ? [s.call.list] : s.call.items;
    for (const u of units) if (!cited.includes(u)) cited.push(u);
  }
  const citations: AnswerData['citations'] = [];
  for (const u of cited) {
    const c = citationOf(u, byUnit.get(u) ?? []);
    if (c && !citations.some((x) => x.url === c.url && x.quote === c.quote)) citations.push(c);
  }
  return { answer: parsed.data.answer, citations };
}

/**
 * The same figure check over fixed records (their quotes and titles as the fields): whether an
 * answer (JSON `{answer, citations: [record numbers]}`) writes only figures of the records it
 * cites. The grounded answers are checked with it.
 */
export function checkReply(text: string, context: readonly Fact[], question: string, lang?: Lang): { cited: Fact[]; answer: string } | string {
  let raw: unknown;
  try {
    raw = JSON.parse(stripFences(text));
  } catch {
    return 'the reply is not JSON';
  }
  const parsed = z.object({ answer: z.string().trim().min(1), citations: z.array(z.union([z.number().int(), z.string()])) }).safeParse(raw);
  if (!parsed.success) return 'the reply does not have the shape {answer, citations}';
  const cited: Fact[] = [];
  for (const c of parsed.data.citations) {
    const f = context[Number(c) - 1];
    if (!f) return `citation ${c} is not in the context`;
    if (!cited.includes(f)) cited.push(f);
  }
  if (cited.length === 0) return 'the answer cites no record';
  const refs = cited.flatMap((f) => {
    const unit: Unit = { key: '', id: f.id, type: f.type, title: f.title, url: () => f.url, leaves: [] };
    return [f.quote, f.title].map((t) => ({ unit, leaf: { label: '', text: t, nums: quoteNumbers(t) } }));
  });
  const used = matchFigures(parsed.data.answer, refs, question, lang);
  return typeof used === 'string' ? used : { cited, answer: parsed.data.answer };
}

/** Rejects when the signal aborts (to race a tool call against the deadline); never an unhandled rejection. */
function aborted(signal: AbortSignal): Promise<never> {
  const p = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  p.catch(() => {});
  return p;
}

export interface LlmRun {
  /** Model requests made. */
  rounds: number;
  /** Tool calls made (failed ones included). */
  calls: number;
}

/**
 * The model's answer by tool calling, or the reason it was refused: the call failed or timed out,
 * the model kept calling tools past the bounds, the final reply is not `{answer, citations}`, cites
 * a call that did not answer, or writes a figure that is in no cited result (or not in the
 * language's number format). `run` is filled in as it goes (for logs and tests).
 */
export async function llmAnswer(
  cfg: LlmConfig,
  b: LoadedBuild,
  question: string,
  lang: Lang,
  now: Date,
  confidence: number,
  run: LlmRun = { rounds: 0, calls: 0 },
): Promise<AnswerData | string> {
  const signal = AbortSignal.timeout(cfg.timeoutMs);
  const deadline = aborted(signal);
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: systemPrompt(lang, now.toISOString().slice(0, 10)) },
    { role: 'user', content: question },
  ];
  const calls: ExecutedCall[] = [];
  try {
    const openai = await client(cfg);
    for (let round = 1; round <= MAX_ROUNDS; round++) {
      // The last round, or no call left: the model must answer from what it has.
      const last = round === MAX_ROUNDS || run.calls >= MAX_TOOL_CALLS;
      if (signal.aborted) return `the model did not answer within ${cfg.timeoutMs} ms`;
      run.rounds++;
      const res = await openai.chat.completions.create(
        {
          model: cfg.model,
          temperature: 0,
          response_format: { type: 'json_object' },
          messages,
          tools: modelTools(),
          tool_choice: last ? 'none' : 'auto',
        },
        // The deadline is the signal's (the client's own timeout, the whole budget, never fires first).
        { signal, maxRetries: 0 },
      );
      const message = res.choices?.[0]?.message;
      if (!message) return 'the reply is empty';
      const toolCalls = message.tool_calls ?? [];
      if (toolCalls.length === 0) {
        if (!message.content) return 'the reply is empty';
        const checked = checkFinal(message.content, calls, question, lang);
        if (typeof checked === 'string') return checked;
        if (checked.citations.length === 0) return 'the answer cites no record';
        // Every figure of a model answer is a value of a cited result (checkFinal), so nothing is derived.
        return { answer: checked.answer, lang, citations: checked.citations, derived: [], confidence, mode: 'llm' };
      }
      if (last) return `the model still called tools after ${run.rounds} requests and ${run.calls} tool calls`;
      messages.push({ role: 'assistant', content: message.content ?? null, tool_calls: toolCalls });
      for (const tc of toolCalls) {
        let content: string;
        if (run.calls >= MAX_TOOL_CALLS) {
          content = JSON.stringify({ error: `not run: at most ${MAX_TOOL_CALLS} tool calls per question; answer from the results you have` });
        } else if (tc.type !== 'function') {
          run.calls++;
          content = JSON.stringify({ call: run.calls, error: 'only function tools are offered' });
        } else {
          run.calls++;
          const outcome = await Promise.race([runCall(b, run.calls, tc.function.name, tc.function.arguments, lang), deadline]);
          if (outcome.call) calls.push(outcome.call);
          content = outcome.content;
        }
        messages.push({ role: 'tool', tool_call_id: tc.id, content });
      }
    }
    return `no final answer after ${MAX_ROUNDS} requests`;
  } catch (err) {
    if (signal.aborted) return `the model did not answer within ${cfg.timeoutMs} ms`;
    return `the model call failed: ${err instanceof Error ? err.message : String(err)}`;
  }
}
