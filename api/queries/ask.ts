import type { LoadedBuild } from '../build.ts';
import { ask, type AnswerData, type AskOptions } from '../ask/index.ts';

export type { AnswerData } from '../ask/index.ts';

/**
 * Answer a question from a build's data (SPEC §5): the grounded answerer of api/ask/, or the
 * configured model writing from the same retrieved records, checked, with the grounded answer as
 * the fallback. The HTTP route calls this with the options the server gave the app (createApp's
 * `ask`); without options, the grounded answer only.
 */
export async function answerQuestion(b: LoadedBuild, q: string, options: AskOptions = {}): Promise<AnswerData> {
  return ask(b, q, options);
}
