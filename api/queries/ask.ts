import type { LoadedBuild } from '../build.ts';
import { ask, type AnswerData, type AskOptions } from '../ask/index.ts';
import { askDefaults } from '../ask/config.ts';

export type { AnswerData } from '../ask/index.ts';

/**
 * Answer a question from a build's data (SPEC §5): the grounded answerer of api/ask/, or the
 * configured model writing from the same retrieved records, checked, with the grounded answer as
 * the fallback. The HTTP route and MCP call this; without `options` it uses what the server
 * configured (api/ask/config.ts: configureAsk).
 */
export async function answerQuestion(b: LoadedBuild, q: string, options?: AskOptions): Promise<AnswerData> {
  return ask(b, q, options ?? askDefaults());
}
