import type { z } from 'zod';
import type { Answer } from '../../contract/api.ts';
import type { LoadedBuild } from '../build.ts';

export type AnswerData = z.infer<typeof Answer>;

/**
 * Answer a question from a build's data. Interim: finds a commodity named in the question and
 * answers with its latest price and stress reading, each cited. The grounded answerer (issue 5)
 * replaces the inside; the HTTP route and MCP call this signature.
 */
export async function answerQuestion(b: LoadedBuild, q: string): Promise<AnswerData> {
  const text = q.toLowerCase();
  const hit = b.commodities.find((x) => new RegExp(`\\b(${x.code}|${x.name.toLowerCase().replace(/[()]/g, '').split(' ')[0]})\\b`, 'u').test(text));
  if (!hit) return { answer: 'The published data cannot answer this question: it names no commodity we track.', lang: 'en', citations: [], confidence: 0, mode: 'grounded' };
  const parts: string[] = [];
  const citations: AnswerData['citations'] = [];
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
  return { answer: parts.join(' '), lang: 'en', citations, confidence: 0.6, mode: 'grounded' };
}
