import type { LoadedBuild } from '../build.ts';
import type { AskOptions } from './config.ts';
import { type AnswerData, groundedAnswer } from './grounded.ts';
import { llmAnswer } from './llm.ts';

export type { AnswerData, Fact } from './grounded.ts';
export { llmConfigOf, type AskOptions, type LlmConfig } from './config.ts';

/**
 * Answer a question from a build: the grounded answer, or — with a model configured and records
 * retrieved — the model's answer from the same records when it passes the checks. `onFallback`
 * hears why a model answer was refused. Without `options.llm`: the grounded answer only.
 */
export async function ask(b: LoadedBuild, q: string, options: AskOptions = {}): Promise<AnswerData> {
  const llm = options.llm;
  const g = await groundedAnswer(b, q, options.now ?? new Date(), llm ? 'always' : 'fallback');
  if (!llm || g.context.length === 0) return g.answer;
  const res = await llmAnswer(llm, q, g.answer.lang, g.context, g.answer.confidence > 0 ? g.answer.confidence : 0.5);
  if (typeof res === 'string') {
    options.onFallback?.(res);
    return g.answer;
  }
  return res;
}
