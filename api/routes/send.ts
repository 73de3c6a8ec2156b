import type { Context } from 'hono';
import type { LoadedBuild } from '../build.ts';
import { sendFile, sendJson } from '../http.ts';
import type { Answer } from '../queries/answer.ts';

/** A query's answer as JSON: the published file's bytes when it is one, else serialised for this request. */
export function send(c: Context, b: LoadedBuild, answer: Answer<unknown>): Response {
  return answer.file ? sendFile(c, b, answer.file) : sendJson(c, b, answer.envelope());
}
