import type { Context } from 'hono';
import { AskBody, AskQuery } from '../../contract/api.ts';
import type { LoadedBuild } from '../build.ts';
import { queryObject, sendJson } from '../http.ts';
import { parseParams } from '../params.ts';
import { ApiError } from '../problem.ts';
import { answerQuestion } from '../queries/ask.ts';
import type { AskOptions } from '../ask/index.ts';

/** Body checks of POST /v1/ask: the media type, JSON syntax, then the contract. */
export async function readAskBody(c: Context): Promise<{ q: string }> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new ApiError(415, `send the question as JSON with content-type: application/json (got ${type || 'none'})`, {}, { 'accept-post': 'application/json' });
  }
  const text = await c.req.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError(400, 'the body is not valid JSON; send {"q": "your question"}', { errors: [{ param: '(body)', message: 'invalid JSON' }] });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError(400, 'the body must be a JSON object {"q": "your question"}', { errors: [{ param: '(body)', message: 'expected an object' }] });
  }
  return parseParams(AskBody, body, 'field');
}

/** POST /v1/ask with the app's answering options (the model, if any): validated body in, the answerer's answer out, never cached. */
/**
 * `gate`: where the answer is computed once the body has been read (api/work-gate.ts: a few at a
 * time; a slow body holds no slot).
 */
export function askRoute(
  options: AskOptions = {},
  gate: <T>(work: () => Promise<T>) => Promise<T> = (work) => work(),
): (c: Context, b: LoadedBuild) => Promise<Response> {
  return async (c, b) => {
    // The question is in the body; the query string may only say format=json, as on every route.
    parseParams(AskQuery, queryObject(c));
    const { q } = await readAskBody(c);
    const { count: _count, ...meta } = b.commodityMeta;
    return sendJson(c, b, { data: await gate(() => answerQuestion(b, q, options)), meta }, 'no-store');
  };
}
