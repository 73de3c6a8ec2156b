import type { LoadedBuild } from '../build.ts';
import type { AskOptions } from './config.ts';
import { type AnswerData, groundedAnswer } from './grounded.ts';
import { llmAnswer } from './llm.ts';

export type { AnswerData, Fact } from './grounded.ts';
export { llmConfigOf, type AskOptions, type LlmConfig } from './config.ts';

/**
 * Answer a question from a build: with a model configured, the model's answer by tool calling
 * over the MCP tools when it passes the checks (api/ask/llm.ts), else the grounded answer, which
 * also gives the question's language. `onFallback` hears why a model answer was refused. Without
 * `options.llm`: the grounded answer only.
 */
export async function ask(b: LoadedBuild, q: string, options: AskOptions = {}): Promise<AnswerData> {
  const llm = options.llm;
  const now = options.now ?? new Date();
  const g = await groundedAnswer(b, q, now, 'fallback');
  if (!llm) return g.answer;
  const res = await llmAnswer(llm, b, q, g.answer.lang, now, g.answer.confidence > 0 ? g.answer.confidence : 0.5);
  if (typeof res === 'string') {
    options.onFallback?.(res);
    return g.answer;
  }
  return res;
}
