import type { Context } from 'hono';
import { AskBody } from '../../contract/api.ts';
import type { LoadedBuild } from '../build.ts';
import { sendJson } from '../http.ts';
import { parseParams } from '../params.ts';
import { ApiError } from '../problem.ts';

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

/**
 * A small grounded answerer: finds a commodity named in the question and answers with its
 * latest price and stress reading, each cited. Issue 5 brings the full answerer (countries,
 * reserves, dates, four languages, the model path); its contract is this one.
 */
export async function ask(c: Context, b: LoadedBuild): Promise<Response> {
  const { q } = await readAskBody(c);
  const text = q.toLowerCase();
  const hit = b.commodities.find((x) => new RegExp(`\\b(${x.code}|${x.name.toLowerCase().replace(/[()]/g, '').split(' ')[0]})\\b`, 'u').test(text));
  const meta = { ...b.commodityMeta, count: undefined };
  delete meta.count;
  if (!hit) {
    return sendJson(c, b, { data: { answer: 'The published data cannot answer this question: it names no commodity we track.', lang: 'en', citations: [], confidence: 0, mode: 'grounded' }, meta }, 'no-store');
  }
  const parts: string[] = [];
  const citations = [];
  if (hit.price) {
    const quote = `${hit.price.value} ${hit.price.currency}${hit.price.unit ? `/${hit.price.unit}` : ''} on ${hit.price.as_of}`;
    parts.push(`${hit.name}: latest price ${quote} (${hit.price.benchmark}).`);
    citations.push({ id: hit.slug, type: 'commodity', title: hit.name, url: hit.url, quote });
  }
  if (hit.stress_index !== null) {
    const quote = `stress index ${hit.stress_index} (${hit.stress_band})`;
    parts.push(`Its ${quote}.`);
    citations.push({ id: hit.slug, type: 'commodity', title: hit.name, url: hit.url, quote });
  }
  return sendJson(c, b, { data: { answer: parts.join(' '), lang: 'en', citations, confidence: 0.6, mode: 'grounded' }, meta }, 'no-store');
}

