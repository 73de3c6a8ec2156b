import type OpenAI from 'openai';
import { z } from 'zod';
import type { LlmConfig } from './config.ts';
import type { AnswerData, Fact } from './grounded.ts';
import { numberReadings, quoteNumbers, sameFigure } from './numbers.ts';
import type { Lang } from './text.ts';

const LANG_NAMES: Record<Lang, string> = { en: 'English', fr: 'French', de: 'German', es: 'Spanish' };

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

/** The records as the model sees them: numbered, with the figures as the records write them. */
export function contextBlock(context: readonly Fact[]): string {
  return context.map((f, i) => `[${i + 1}] ${f.type} ${f.id} — ${f.title}\n    ${f.quote.replace(/\s+/g, ' ')}`).join('\n');
}

export function systemPrompt(lang: Lang, context: readonly Fact[]): string {
  return [
    'You answer questions about the open data published by Chokepoint (supply stress for raw materials and energy).',
    'Use ONLY the numbered records below. Never use outside knowledge.',
    `Answer in ${LANG_NAMES[lang]}, in one to four sentences, writing numbers the way ${LANG_NAMES[lang]} does.`,
    'Every figure you write (values, percentages, dates) must appear in a record you cite; a share of 0.74 may be written as 74 %.',
    'If the records do not answer the question, say plainly that the data cannot answer it.',
    'Reply with a JSON object only: {"answer": "<text>", "citations": [<numbers of the records you used>]}.',
    '',
    'Records:',
    contextBlock(context),
  ].join('\n');
}

const Reply = z.object({
  answer: z.string().trim().min(1).max(4000),
  citations: z.array(z.union([z.number().int(), z.string()])).max(50),
});

/** Why a model answer was refused (for logs and tests); null when it stands. */
export function checkReply(text: string, context: readonly Fact[], question: string): { cited: Fact[]; answer: string } | string {
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, ''));
  } catch {
    return 'the reply is not JSON';
  }
  const parsed = Reply.safeParse(raw);
  if (!parsed.success) return 'the reply does not have the shape {answer, citations}';
  const cited: Fact[] = [];
  for (const c of parsed.data.citations) {
    const s = String(c)
      .trim()
      .replace(/^\[|\]$/g, '');
    const byNumber = /^\d+$/.test(s) ? context[Number(s) - 1] : undefined;
    const byId = byNumber ? undefined : context.filter((f) => f.id === s);
    const fact = byNumber ?? (byId?.length === 1 ? byId[0] : undefined);
    if (!fact) return `citation ${s} is not in the context`;
    if (!cited.includes(fact)) cited.push(fact);
  }
  if (cited.length === 0) return 'the answer cites no record';
  const allowed = cited.flatMap((f) => [...quoteNumbers(f.quote), ...quoteNumbers(f.title)]);
  const asked = quoteNumbers(question);
  for (const readings of numberReadings(parsed.data.answer)) {
    const ok = readings.some((x) => allowed.some((a) => sameFigure(x.value, x.decimals, a)) || asked.includes(x.value));
    if (!ok) return `the figure ${readings[0]!.text} is in no cited record`;
  }
  return { cited, answer: parsed.data.answer };
}

/**
 * The model's answer from the same records as the grounded one, or the reason it was refused:
 * any error, a timeout, a citation outside the context or a figure outside the cited quotes.
 */
export async function llmAnswer(cfg: LlmConfig, question: string, lang: Lang, context: readonly Fact[], confidence: number): Promise<AnswerData | string> {
  try {
    const res = await (
      await client(cfg)
    ).chat.completions.create(
      {
        model: cfg.model,
        temperature: 0,
        response_format: { type: 'json_object' },
        messages: [
          { role: 'system', content: systemPrompt(lang, context) },
          { role: 'user', content: question },
        ],
      },
      { signal: AbortSignal.timeout(cfg.timeoutMs), timeout: cfg.timeoutMs, maxRetries: 0 },
    );
    const content = res.choices?.[0]?.message?.content;
    if (!content) return 'the reply is empty';
    const checked = checkReply(content, context, question);
    if (typeof checked === 'string') return checked;
    return {
      answer: checked.answer,
      lang,
      citations: checked.cited.map((f) => ({ id: f.id, type: f.type, title: f.title, url: f.url, quote: f.quote })),
      confidence,
      mode: 'llm',
    };
  } catch (err) {
    return `the model call failed: ${err instanceof Error ? err.message : String(err)}`;
  }
}
