import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type LoadedBuild, loadBuild } from '../build.ts';
import { answerQuestion } from '../queries/ask.ts';
import { startTestServer } from '../../test/http.ts';
import type { LlmConfig } from './config.ts';

/** How the fake model answers the next request. */
type Behaviour = 'good' | 'bad-id' | 'bad-number' | 'slow' | 'error' | 'not-json';
let behaviour: Behaviour = 'good';
const seen: { system: string; user: string; model: string }[] = [];
let model: Server;
let baseURL: string;
let b: LoadedBuild;

const body = (req: IncomingMessage) =>
  new Promise<string>((r) => {
    let s = '';
    req.on('data', (c) => (s += c));
    req.on('end', () => r(s));
  });

function completion(content: string) {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: 'test-model',
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop', logprobs: null }],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  };
}

/** A local OpenAI-compatible server: POST /v1/chat/completions, answers from the records in the prompt. */
beforeAll(async () => {
  b = await loadBuild((p) => readFile(join(inject('distDir'), 'current', p)));
  model = createServer(async (req, res) => {
    const send = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return send(404, { error: { message: 'not found' } });
    const request = JSON.parse(await body(req));
    const system: string = request.messages[0].content;
    seen.push({ system, user: request.messages[1].content, model: request.model });
    // The record that holds the fill percentage, and its figure.
    const line = system.split('\n').findIndex((l) => l.includes('fill_pct'));
    const lines = system.split('\n');
    const n = Number(/^\[(\d+)\]/.exec(lines[line - 1] ?? '')?.[1]);
    const fill = /fill_pct: ([\d.]+)/.exec(lines[line] ?? '')?.[1];
    switch (behaviour) {
      case 'good':
        return send(200, completion(JSON.stringify({ answer: `According to the record, Germany's gas storage is ${fill}% full.`, citations: [n] })));
      case 'bad-id':
        return send(200, completion(JSON.stringify({ answer: `Germany's gas storage is ${fill}% full.`, citations: [n, 99] })));
      case 'bad-number':
        return send(200, completion(JSON.stringify({ answer: `Germany's gas storage is ${fill}% full, about 12,345.6 TWh.`, citations: [n] })));
      case 'slow':
        await new Promise((r) => setTimeout(r, 1500));
        return send(200, completion(JSON.stringify({ answer: `Germany's gas storage is ${fill}% full.`, citations: [n] })));
      case 'error':
        return send(500, { error: { message: 'boom', type: 'server_error' } });
      case 'not-json':
        return send(200, completion('Germany is fine.'));
    }
  });
  await new Promise<void>((r) => model.listen(0, '127.0.0.1', () => r()));
  baseURL = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => model?.close(() => r())));

const Q = "How full is Germany's gas storage?";
const cfg = (timeoutMs = 3000): LlmConfig => ({ apiKey: 'test-key', baseURL, model: 'test-model', timeoutMs });
async function askWith(bh: Behaviour, timeoutMs?: number) {
  behaviour = bh;
  const reasons: string[] = [];
  const a = await answerQuestion(b, Q, { llm: cfg(timeoutMs), onFallback: (r) => reasons.push(r) });
  return { a, reasons };
}

describe('the model path against a local OpenAI-compatible server', () => {
  it('(a) a good answer citing context records → mode llm, citations from the context', async () => {
    const { a, reasons } = await askWith('good');
    expect(reasons).toEqual([]);
    expect(a.mode).toBe('llm');
    expect(a.answer).toMatch(/^According to the record/);
    expect(a.citations).toEqual([expect.objectContaining({ id: 'gas/de', type: 'reserve', url: '/v1/reserves?commodity=gas&country=de' })]);
    const last = seen.at(-1)!;
    expect(last.model).toBe('test-model');
    expect(last.user).toBe(Q);
    expect(last.system).toMatch(/\[1\] reserve gas\/de/);
    expect(last.system).toMatch(/Answer in English/);
  });

  it('(b) a citation outside the context, or a figure in no cited quote → grounded fallback', async () => {
    for (const bh of ['bad-id', 'bad-number', 'not-json'] as const) {
      const { a, reasons } = await askWith(bh);
      expect(a.mode, bh).toBe('grounded');
      expect(a.citations[0]?.id).toBe('gas/de');
      expect(reasons[0], bh).toMatch(bh === 'bad-id' ? /citation 99 is not in the context/ : bh === 'bad-number' ? /12,345.6/ : /not JSON/);
    }
  });

  it('(c) a server slower than the timeout → grounded fallback in about the timeout', async () => {
    const started = performance.now();
    const { a, reasons } = await askWith('slow', 300);
    expect(a.mode).toBe('grounded');
    expect(reasons[0]).toMatch(/failed/);
    expect(performance.now() - started).toBeLessThan(1200);
  });

  it('(d) a 500 → grounded fallback', async () => {
    const { a, reasons } = await askWith('error');
    expect(a.mode).toBe('grounded');
    expect(reasons[0]).toMatch(/failed/);
  });

  it('does not call the model when nothing was retrieved', async () => {
    behaviour = 'good';
    const before = seen.length;
    const a = await answerQuestion(b, 'What is the population of Germany?', { llm: cfg() });
    expect(a).toMatchObject({ mode: 'grounded', citations: [], confidence: 0 });
    expect(seen.length).toBe(before);
  });

  it('is wired through the server environment: POST /v1/ask answers with mode llm', async () => {
    behaviour = 'good';
    const server = await startTestServer({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: baseURL, OPENAI_MODEL: 'test-model', OPENAI_TIMEOUT_MS: '3000' });
    try {
      const res = await fetch(`${server.url}/v1/ask`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ q: Q }) });
      const { data } = (await res.json()) as { data: { mode: string } };
      expect(data.mode).toBe('llm');
      behaviour = 'error';
      const res2 = await fetch(`${server.url}/v1/ask`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ q: Q }) });
      expect(((await res2.json()) as { data: { mode: string } }).data.mode).toBe('grounded');
    } finally {
      await server.close();
    }
  });
});
