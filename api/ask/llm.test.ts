import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { TOOLS } from '../../contract/tools.ts';
import { type LoadedBuild, loadBuild } from '../build.ts';
import { answerQuestion } from '../queries/ask.ts';
import { startTestServer } from '../../test/http.ts';
import { citationOf, MAX_RESULT_CHARS, runCall } from './calls.ts';
import type { LlmConfig } from './config.ts';
import { MAX_ROUNDS, MAX_TOOL_CALLS, writtenAs } from './llm.ts';
import { dateLong, numUpTo, pctUpTo } from '../../lib/format.ts';
import { numberReadings, quoteNumbers } from './numbers.ts';

// ——— a local OpenAI-compatible server, scripted turn by turn ——————————————————————————————

interface ChatRequest {
  model: string;
  messages: { role: string; content: string | null; tool_call_id?: string; tool_calls?: unknown[] }[];
  tools?: { type: string; function: { name: string; description: string; parameters: { type: string } } }[];
  tool_choice?: string;
}
/** What the fake model does with the next request: a JSON completion, an HTTP status with a body, or a raw body. */
type Turn = { json: unknown; status?: number } | { raw: string; status?: number };
type Step = (req: ChatRequest) => Turn | Promise<Turn>;

let script: Step[] = [];
let requests: ChatRequest[] = [];
let fake: Server;
let baseURL: string;
let b: LoadedBuild;
let app: Awaited<ReturnType<typeof startTestServer>>;
const NOW = new Date('2026-11-22T00:00:00Z');

const body = (req: IncomingMessage) =>
  new Promise<string>((r) => {
    let s = '';
    req.on('data', (c) => (s += c));
    req.on('end', () => r(s));
  });

function completion(message: Record<string, unknown>, finish: string) {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: 'test-model',
    choices: [{ index: 0, message: { role: 'assistant', refusal: null, ...message }, finish_reason: finish, logprobs: null }],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  };
}
/** The model asks for tool calls (ids call_<request index>_<i>). */
const callTools = (...calls: [string, unknown][]): Turn => ({
  json: completion(
    {
      content: null,
      tool_calls: calls.map(([name, args], i) => ({
        id: `call_${requests.length - 1}_${i}`,
        type: 'function',
        function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
      })),
    },
    'tool_calls',
  ),
});
/** The model's final reply. */
const reply = (value: unknown): Turn => ({ json: completion({ content: typeof value === 'string' ? value : JSON.stringify(value) }, 'stop') });

/** The tool messages of a request, parsed: { call, tool, result } or { call, tool, error }. */
/* eslint-disable-next-line @typescript-eslint/no-explicit-any -- records of any tool, read field by field */
type AnyRecord = Record<string, any>;
type ToolMessage = { call?: number; tool?: string; result?: AnyRecord; error?: string };
const toolMessages = (req: ChatRequest): ToolMessage[] => req.messages.filter((m) => m.role === 'tool').map((m) => JSON.parse(m.content!) as ToolMessage);
const resultOf = (req: ChatRequest, call: number) => toolMessages(req).find((m) => m.call === call)!.result!;

beforeAll(async () => {
  b = await loadBuild((p) => readFile(join(inject('distDir'), 'current', p)));
  fake = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const send = (status: number, text: string) => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(text);
    };
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return send(404, JSON.stringify({ error: { message: 'not found' } }));
    const request = JSON.parse(await body(req)) as ChatRequest;
    requests.push(request);
    const step = script.shift();
    if (!step) return send(500, JSON.stringify({ error: { message: 'the script has no more turns', type: 'server_error' } }));
    const turn = await step(request);
    send(turn.status ?? 200, 'raw' in turn ? turn.raw : JSON.stringify(turn.json));
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', () => r()));
  baseURL = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/v1`;
  app = await startTestServer({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: baseURL, OPENAI_MODEL: 'test-model', OPENAI_TIMEOUT_MS: '3000' });
});
afterAll(async () => {
  await app?.close();
  fake?.closeAllConnections();
  await new Promise<void>((r) => (fake ? fake.close(() => r()) : r()));
});
beforeEach(() => {
  script = [];
  requests = [];
});

const cfg = (timeoutMs = 3000): LlmConfig => ({ apiKey: 'test-key', baseURL, model: 'test-model', timeoutMs });
async function ask(q: string, steps: Step[], timeoutMs?: number) {
  script = [...steps];
  requests = [];
  const reasons: string[] = [];
  const a = await answerQuestion(b, q, { llm: cfg(timeoutMs), now: NOW, onFallback: (r) => reasons.push(r) });
  return { a, reasons };
}
/** GET a citation's address from the real app: the `data` it returns. */
async function fetchData(url: string): Promise<AnyRecord> {
  const res = await fetch(`${app.url}${url}`);
  expect(res.status, url).toBe(200);
  return ((await res.json()) as { data: AnyRecord }).data;
}

const Q = "How full is Germany's gas storage?";
const getReserveDE: Step = () => callTools(['get_reserve', { commodity: 'gas', country: 'DE' }]);
/** The final reply citing call 1 with the fill percentage and date of its result, as `lang` writes them. */
const fillAnswer =
  (lang: 'en' | 'fr' = 'en', write = (fill: number) => pctUpTo(fill, 2, lang)): Step =>
  (req) => {
    const r = resultOf(req, 1);
    const text =
      lang === 'en'
        ? `Gas storage in Germany was ${write(r.fill_pct)} full on ${dateLong(r.as_of, 'en')}.`
        : `Le stockage de gaz en Allemagne était rempli à ${write(r.fill_pct)} le ${dateLong(r.as_of, 'fr')}.`;
    return reply({ answer: text, citations: [{ call: 1 }] });
  };

describe('the model path: tool calling against a local OpenAI-compatible server', () => {
  it('(1) calls get_reserve, answers citing the call → mode llm; the citation URL returns the figure', async () => {
    const { a, reasons } = await ask(Q, [getReserveDE, fillAnswer()]);
    expect(reasons).toEqual([]);
    const reserve = await fetchData('/v1/reserves?commodity=gas&country=de');
    expect(a).toMatchObject({ mode: 'llm', lang: 'en', confidence: expect.any(Number) });
    expect(a.answer).toBe(`Gas storage in Germany was ${pctUpTo(reserve.fill_pct, 2, 'en')} full on ${dateLong(reserve.as_of, 'en')}.`);
    expect(a.citations).toEqual([
      {
        id: 'gas/de',
        type: 'reserve',
        title: reserve.name,
        url: '/v1/reserves?commodity=gas&country=de',
        quote: `as_of: ${reserve.as_of}; fill_pct: ${reserve.fill_pct}`,
      },
    ]);
    // What the user can check: the cited address returns the figure and the date of the answer.
    const cited = await fetchData(a.citations[0]!.url);
    expect(a.answer).toContain(pctUpTo(cited.fill_pct, 2, 'en'));
    expect(a.answer).toContain(dateLong(cited.as_of, 'en'));

    // What the model was given: the ten tools with their input schemas, the language, then the tool result.
    expect(requests).toHaveLength(2);
    const [first, second] = requests as [ChatRequest, ChatRequest];
    expect(first.model).toBe('test-model');
    expect(first.tools?.map((t) => t.function.name).sort()).toEqual(TOOLS.map((t) => t.name).sort());
    expect(first.tools?.find((t) => t.function.name === 'get_reserve')?.function.parameters).toMatchObject({
      type: 'object',
      properties: { commodity: expect.any(Object), country: expect.any(Object) },
      required: ['commodity'],
    });
    expect(first.tool_choice).toBe('auto');
    expect(first.messages[0]!.content).toMatch(/Answer in English/);
    expect(first.messages[1]).toEqual({ role: 'user', content: Q });
    const tool = second.messages.at(-1)!;
    expect(tool).toMatchObject({ role: 'tool', tool_call_id: 'call_0_0' });
    const shown = JSON.parse(tool.content!);
    expect(shown).toMatchObject({ call: 1, tool: 'get_reserve', result: { fill_pct: reserve.fill_pct, as_of: reserve.as_of } });
    expect(shown.result).not.toHaveProperty('license');
    expect(shown.result).not.toHaveProperty('sources');
  });

  it('(1) a historical value: the citation is the time series with metric, from and to of the point used', async () => {
    const q = 'How full was the gas storage in Germany on 1 March 2026?';
    const { a, reasons } = await ask(q, [
      () => callTools(['get_reserve_timeseries', { commodity: 'gas', country: 'de', from: '2026-02-01', to: '2026-03-01' }]),
      (req) => {
        const p = resultOf(req, 1).points.at(-1) as { date: string; value: number };
        return reply({ answer: `On ${dateLong(p.date, 'en')}, German gas storage was ${pctUpTo(p.value, 2, 'en')} full.`, citations: [1] });
      },
    ]);
    expect(reasons).toEqual([]);
    expect(a.mode).toBe('llm');
    const [c] = a.citations;
    expect(c).toMatchObject({ id: 'gas/de', type: 'reserve', url: expect.stringMatching(/^\/v1\/reserves\/timeseries\?/) });
    const url = new URL(c!.url, 'http://x');
    const date = url.searchParams.get('from')!;
    expect(Object.fromEntries(url.searchParams)).toEqual({ commodity: 'gas', country: 'de', from: date, to: date, metric: 'fill_pct' });
    const series = await fetchData(c!.url);
    expect(series.points).toHaveLength(1);
    expect(c!.quote).toBe(`fill_pct ${date}: ${series.points[0].value}`);
    expect(a.answer).toContain(pctUpTo(series.points[0].value, 2, 'en'));
    expect(a.answer).toContain(dateLong(date, 'en'));
  });

  it('(1) answers in the language of the question, numbers and dates written the way it writes them', async () => {
    const q = 'Quel est le niveau du stockage de gaz en Allemagne ?';
    const ok = await ask(q, [getReserveDE, fillAnswer('fr')]);
    expect(ok.reasons).toEqual([]);
    expect(ok.a).toMatchObject({ mode: 'llm', lang: 'fr' });
    expect(ok.a.answer).toMatch(/rempli à \d+,\d+\u202f% le \d+ \p{L}+ 2026\./u);
    expect(requests[0]!.messages[0]!.content).toMatch(/Answer in French/);
    expect(requests[0]!.messages[0]!.content).toContain(dateLong('2026-08-20', 'fr'));

    // The figure right but written the English way, or a date left as ISO: refused, the grounded answer in French.
    const dot = await ask(q, [getReserveDE, fillAnswer('fr', (x) => `${x} %`)]);
    expect(dot.a).toMatchObject({ mode: 'grounded', lang: 'fr' });
    expect(dot.reasons[0]).toMatch(/is not written the way French writes numbers/);
    const iso = await ask(q, [
      getReserveDE,
      (req) => reply({ answer: `Le stockage était rempli à ${pctUpTo(resultOf(req, 1).fill_pct, 2, 'fr')} le ${resultOf(req, 1).as_of}.`, citations: [1] }),
    ]);
    expect(iso.a.mode).toBe('grounded');
    expect(iso.reasons[0]).toMatch(/date \d{4}-\d\d-\d\d is not written the way French writes dates/);
  });

  it('(1) a list result: each figure is cited from the item that holds it, or from the item the model names', async () => {
    const q = 'Compare gas storage in France and Italy';
    const items = (req: ChatRequest) => {
      const reserves = resultOf(req, 1).reserves as AnyRecord[];
      return ['fr', 'it'].map((cc) => reserves.find((r) => r.country === cc)!);
    };
    const listGas: Step = () => callTools(['get_reserve', { commodity: 'gas' }]);
    const whole = await ask(q, [
      listGas,
      (req) => {
        const [fr, it] = items(req);
        return reply({
          answer: `France's storage is ${pctUpTo(fr!.fill_pct, 2, 'en')} full and Italy's ${pctUpTo(it!.fill_pct, 2, 'en')}.`,
          citations: [{ call: 1 }],
        });
      },
    ]);
    expect(whole.reasons).toEqual([]);
    expect(whole.a.citations.map((c) => [c.id, c.url])).toEqual([
      ['gas/fr', '/v1/reserves?commodity=gas&country=fr'],
      ['gas/it', '/v1/reserves?commodity=gas&country=it'],
    ]);
    for (const c of whole.a.citations) {
      const r = await fetchData(c.url);
      expect(c.quote).toBe(`fill_pct: ${r.fill_pct}`);
      expect(whole.a.answer).toContain(pctUpTo(r.fill_pct, 2, 'en'));
    }
    // Naming the item: that item only; a figure of another item is then in no cited record.
    const named = await ask(q, [
      listGas,
      (req) => reply({ answer: `France's storage is ${pctUpTo(items(req)[0]!.fill_pct, 2, 'en')} full.`, citations: [{ call: 1, id: 'FR' }] }),
    ]);
    expect(named.a.citations.map((c) => c.id)).toEqual(['gas/fr']);
    const wrong = await ask(q, [
      listGas,
      (req) => reply({ answer: `Italy's storage is ${pctUpTo(items(req)[1]!.fill_pct, 2, 'en')} full.`, citations: [{ call: 1, id: 'fr' }] }),
    ]);
    expect(wrong.a.mode).toBe('grounded');
    expect(wrong.reasons[0]).toMatch(/is in no cited record/);
  });

  it('(2) a figure in no cited result, a citation of no call, or no citation → the grounded answer', async () => {
    const invented: Step = (req) =>
      reply({ answer: `Germany's gas storage is ${resultOf(req, 1).fill_pct}% full, about 12,345.6 TWh.`, citations: [{ call: 1 }] });
    const cases: [Step, RegExp][] = [
      [invented, /the figure 12,345.6 is in no cited record/],
      [
        (req) => reply({ answer: `Germany's gas storage is ${resultOf(req, 1).fill_pct}% full.`, citations: [1, 7] }),
        /citation 7 is not a tool call that answered/,
      ],
      [(req) => reply({ answer: `Germany's gas storage is ${resultOf(req, 1).fill_pct}% full.`, citations: [] }), /cites no tool call/],
    ];
    for (const [final, why] of cases) {
      const { a, reasons } = await ask(Q, [getReserveDE, final]);
      expect(a.mode).toBe('grounded');
      expect(a.citations[0]).toMatchObject({ id: 'gas/de', url: '/v1/reserves?commodity=gas&country=de' });
      expect(a.answer).not.toMatch(/12,345/);
      expect(reasons[0]).toMatch(why);
    }
  });

  it('(3) an unknown tool, arguments that break the schema and an unknown country are told to the model, which recovers', async () => {
    const { a, reasons } = await ask(Q, [
      () =>
        callTools(
          ['get_reserves', { commodity: 'gas', country: 'de' }],
          ['get_reserve_timeseries', { commodity: 'gas', country: 'de', from: 'last year' }],
          ['get_reserve', '{"commodity": "gas", "country": '],
          ['get_reserve', { commodity: 'gas', country: 'Atlantis' }],
        ),
      () => callTools(['get_reserve', { commodity: 'gas', country: 'de' }]),
      (req) => {
        const r = resultOf(req, 5);
        return reply({
          answer: `Germany's gas storage was ${pctUpTo(r.fill_pct, 2, 'en')} full on ${dateLong(r.as_of, 'en')}.`,
          citations: [{ call: 5 }],
        });
      },
    ]);
    const errors = toolMessages(requests[1]!);
    expect(errors).toEqual([
      { call: 1, tool: 'get_reserves', error: expect.stringMatching(/^unknown tool "get_reserves"; the tools are get_reserve, /) },
      { call: 2, tool: 'get_reserve_timeseries', error: expect.stringMatching(/^invalid arguments: from: /) },
      { call: 3, tool: 'get_reserve', error: 'the arguments are not a JSON object' },
      { call: 4, tool: 'get_reserve', error: expect.stringMatching(/unknown or uncovered country 'atlantis'/) },
    ]);
    expect(requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id)).toEqual(['call_0_0', 'call_0_1', 'call_0_2', 'call_0_3']);
    expect(reasons).toEqual([]);
    expect(a.mode).toBe('llm');
    expect(a.citations).toEqual([expect.objectContaining({ id: 'gas/de', url: '/v1/reserves?commodity=gas&country=de' })]);

    // A failed call cannot be cited.
    const bad = await ask(Q, [() => callTools(['get_reserves', {}]), () => reply({ answer: 'Storage is fine.', citations: [1] })]);
    expect(bad.a.mode).toBe('grounded');
    expect(bad.reasons[0]).toMatch(/citation 1 is not a tool call that answered/);
  });

  it(`(4) endless tool calls stop at ${MAX_ROUNDS} requests and ${MAX_TOOL_CALLS} calls → the grounded answer`, async () => {
    const greedy: Step = () => callTools(['get_price', { commodity: 'oil' }], ['get_price', { commodity: 'gold' }], ['get_price', { commodity: 'copper' }]);
    const { a, reasons } = await ask(
      Q,
      Array.from({ length: 10 }, () => greedy),
    );
    expect(a.mode).toBe('grounded');
    expect(reasons[0]).toMatch(/still called tools after 4 requests and 8 tool calls/);
    expect(requests).toHaveLength(MAX_ROUNDS);
    expect(requests.map((r) => r.tool_choice)).toEqual(['auto', 'auto', 'auto', 'none']);
    const last = toolMessages(requests.at(-1)!);
    expect(last.filter((m) => m.result)).toHaveLength(MAX_TOOL_CALLS);
    expect(last.at(-1)).toEqual({ error: expect.stringMatching(/^not run: at most 8 tool calls/) });
  });

  it('(5) slower than the deadline → the grounded answer in about the deadline, over one request or several', async () => {
    let started = performance.now();
    const slow = await ask(
      Q,
      [
        async () => {
          await new Promise((r) => setTimeout(r, 1500));
          return callTools(['get_reserve', { commodity: 'gas', country: 'de' }]);
        },
      ],
      300,
    );
    expect(slow.a.mode).toBe('grounded');
    expect(slow.reasons[0]).toMatch(/did not answer within 300 ms/);
    expect(performance.now() - started).toBeLessThan(1000);

    // The deadline is for the whole answer, not for each request.
    started = performance.now();
    const step: Step = async () => {
      await new Promise((r) => setTimeout(r, 150));
      return callTools(['get_reserve', { commodity: 'gas', country: 'de' }]);
    };
    const rounds = await ask(Q, [step, step, step, step], 400);
    expect(rounds.a.mode).toBe('grounded');
    expect(rounds.reasons[0]).toMatch(/did not answer within 400 ms/);
    expect(requests.length).toBeLessThan(MAX_ROUNDS);
    expect(performance.now() - started).toBeLessThan(1100);
  });

  it('(6) an HTTP 500, a body that is not JSON, or a final reply that is not JSON → the grounded answer', async () => {
    const cases: [Step, RegExp][] = [
      [() => ({ status: 500, json: { error: { message: 'boom', type: 'server_error' } } }), /the model call failed: 500/],
      [() => ({ raw: '<html>bad gateway</html>' }), /the model call failed/],
      [() => reply('Germany is fine.'), /not JSON/],
      [() => reply({ text: 'Germany is fine.' }), /shape \{answer, citations\}/],
    ];
    for (const [step, why] of cases) {
      const { a, reasons } = await ask(Q, [step]);
      expect(a.mode).toBe('grounded');
      expect(a.citations[0]?.id).toBe('gas/de');
      expect(reasons[0]).toMatch(why);
    }
  });

  it('(7) POST /v1/ask with OPENAI_BASE_URL at the fake: the model answer, its citation URL on the same server, and the fallback', async () => {
    const post = async (q: string) => {
      const res = await fetch(`${app.url}/v1/ask`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ q }) });
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: { answer: string; mode: string; lang: string; citations: { url: string; quote: string }[] } }).data;
    };
    script = [getReserveDE, fillAnswer()];
    const data = await post(Q);
    expect(data).toMatchObject({ mode: 'llm', lang: 'en', citations: [{ id: 'gas/de', url: '/v1/reserves?commodity=gas&country=de' }] });
    const reserve = await fetchData(data.citations[0]!.url);
    expect(data.answer).toContain(pctUpTo(reserve.fill_pct, 2, 'en'));
    expect(requests[0]!.model).toBe('test-model');

    script = [() => ({ status: 500, json: { error: { message: 'boom', type: 'server_error' } } })];
    const fallback = await post(Q);
    expect(fallback.mode).toBe('grounded');
    expect(fallback.citations[0]!.url).toBe('/v1/reserves?commodity=gas&country=de');
  });
});

describe('citations of tool results', () => {
  /** Every number a body holds, as JSON writes it. */
  const numbersOf = (value: unknown) => new Set(quoteNumbers(JSON.stringify(value)).map(Math.abs));
  const CALLS: [string, Record<string, unknown>][] = [
    ['get_reserve', { commodity: 'gas', country: 'de' }],
    ['get_reserve', { commodity: 'oil', country: 'us' }],
    ['get_reserve', { commodity: 'gas' }],
    ['get_reserve_timeseries', { commodity: 'gas', country: 'eu', from: '2025-06-01', to: '2026-06-30' }],
    ['get_reserve_timeseries', { commodity: 'gas', country: 'de', from: '2020-01-01' }],
    ['get_reserve_timeseries', { commodity: 'oil', country: 'us', from: '2025-01-01', metric: 'volume' }],
    ['get_price', { commodity: 'copper' }],
    ['get_commodity', { slug: 'cobalt' }],
    ['get_country_profile', { iso: 'FRA' }],
    ['compare_countries', { countries: ['DEU', 'ITA', 'ESP'] }],
    ['list_commodities', { group: 'metals' }],
    ['list_scenarios', {}],
    ['list_events', { limit: 5 }],
    ['list_events', { since: '2015-01-01', limit: 200 }],
    ['list_scenarios', { status: 'active' }],
    ['search_briefings', { q: 'cobalt' }],
  ];

  it('a long series is thinned evenly to fit, the newest point kept, and says so', async () => {
    const args = { commodity: 'gas', country: 'de', from: '2015-01-01', frequency: 'daily' };
    const { call, content } = await runCall(b, 1, 'get_reserve_timeseries', JSON.stringify(args), 'en');
    expect(content.length).toBeLessThanOrEqual(MAX_RESULT_CHARS + 100);
    const full = await fetchData(`/v1/reserves/timeseries?commodity=gas&country=de&from=2015-01-01&frequency=daily`);
    const shown = JSON.parse(content).result as AnyRecord;
    expect(full.points.length).toBeGreaterThan(shown.points.length);
    expect(shown.points.at(-1)).toEqual(full.points.at(-1));
    expect(shown.notes).toContainEqual(
      expect.stringMatching(new RegExp(`^points: ${shown.points.length} of ${full.points.length} points shown, evenly spaced, the last kept`)),
    );
    // A point cited from the thinned series is fetched alone.
    const leaf = call!.units[0]!.leaves.find((l) => l.date === shown.points[0].date)!;
    const c = citationOf(call!.units[0]!, [{ leaf, matched: [] }])!;
    expect((await fetchData(c.url)).points).toEqual([shown.points[0]]);
  });

  it.each(CALLS)('every figure a record of %s %j shows is returned by its citation URL', async (name, args) => {
    const { call, content } = await runCall(b, 1, name, JSON.stringify(args), 'en');
    expect(call, content).not.toBeNull();
    expect(content.length).toBeLessThanOrEqual(MAX_RESULT_CHARS + 100);
    for (const unit of call!.units) {
      const c = citationOf(
        unit,
        unit.leaves.map((leaf) => ({ leaf, matched: [] })),
      );
      if (!c) continue;
      expect(c.url).toMatch(/^\/v1\//);
      const url = new URL(c.url, app.url);
      const res = await fetch(url);
      expect(res.status, c.url).toBe(200);
      const got = numbersOf(await res.json());
      for (const n of quoteNumbers(c.quote.replace(/…/g, ' '))) expect(got.has(Math.abs(n)), `${n} of ${c.id} at ${c.url}`).toBe(true);
    }
  });
});

describe('numbers as each language writes them', () => {
  const ok = (text: string, lang: 'en' | 'fr' | 'de' | 'es') => numberReadings(text).map((r) => r.filter((x) => writtenAs(x, lang)).map((x) => x.value));
  it.each([
    ['50.25% and 1,234.5 TWh', 'en', [[50.25], [1234.5]]],
    ['50,25 % et 1\u202f234,5 TWh', 'fr', [[50.25], [1234.5]]],
    ['50,25 % und 1.234,5 TWh', 'de', [[50.25], [1234.5]]],
    ['50,25 % y 1.234,5 TWh', 'es', [[50.25], [1234.5]]],
    ['50,25% in English', 'en', [[]]],
    ['50.25 % en français', 'fr', [[]]],
    ['1.234 Tonnen', 'de', [[1234]]],
    ['1.234 tonnes', 'en', [[1.234]]],
  ] as const)('%s (%s)', (text, lang, expected) => expect(ok(text, lang)).toEqual(expected));
  it('formats the examples the prompt gives', () => {
    expect([numUpTo(1234.5, 2, 'fr'), numUpTo(1234.5, 2, 'de')]).toEqual(['1\u202f234,5', '1.234,5']);
  });
});
