import { startServer, waitFor, wrk, type WrkResult } from './api.ts';

/** Questions in the four languages, one per request in turn (every kind of record the answerer reads). */
export const ASK_BENCH_QUESTIONS = [
  "How full is Germany's gas storage?",
  "Quel était le niveau de remplissage du stockage de gaz de l'UE le 1er mars 2026 ?",
  'Wie hoch ist der Ölpreis?',
  '¿Cuánto petróleo hay en la Reserva Estratégica de Petróleo de EE. UU.?',
  'Who is the largest producer of cobalt?',
  "Quelle est l'autosuffisance de l'Allemagne en gaz ?",
  'Welche Szenarien sind derzeit aktiv?',
  '¿Cuáles son los eventos recientes sobre el petróleo?',
  'What is the stress index of copper?',
  'What is the population of Germany?',
];

const lua = (questions: string[]) => `
local bodies = { ${questions.map((q) => JSON.stringify(JSON.stringify({ q }))).join(', ')} }
local counter = 0
request = function()
  counter = counter + 1
  return wrk.format("POST", "/v1/ask", { ["Content-Type"] = "application/json" }, bodies[(counter % #bodies) + 1])
end
done = function(summary, latency, requests)
  io.write(string.format("P95_US %d\\n", latency:percentile(95)))
end
`;

export type AskBench = WrkResult & { p95: number };

/**
 * Grounded POST /v1/ask under wrk (10 connections by default, limits off, no model configured):
 * `await benchAsk(distDir)` with the folder holding `current/` (e.g. dist/). Target: p95 < 50 ms.
 */
export async function benchAsk(distDir: string, connections = 10, seconds = 10, port = 18790): Promise<AskBench> {
  const api = await startServer({
    PORT: String(port),
    HOST: '127.0.0.1',
    DIST_DIR: distDir,
    RATE_LIMIT_DATA: '0',
    RATE_LIMIT_ASK: '0',
    OPENAI_API_KEY: '',
  });
  try {
    await waitFor(`http://127.0.0.1:${port}/healthz`);
    const url = `http://127.0.0.1:${port}/v1/ask`;
    wrk(url, connections, 2, lua(ASK_BENCH_QUESTIONS)); // warm-up: lexicon, parsed records, search index
    const r = wrk(url, connections, seconds, lua(ASK_BENCH_QUESTIONS));
    return { ...r, p95: r.p95 ?? NaN };
  } finally {
    api.kill();
  }
}
