import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const repo = resolve(import.meta.dirname, '..');

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

export interface AskBench {
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  non2xx: number;
}

/**
 * Grounded POST /v1/ask under wrk (10 connections by default, limits off, no model configured):
 * `await benchAsk(distDir)` with the folder holding `current/` (e.g. dist/). Target: p95 < 50 ms.
 */
export async function benchAsk(distDir: string, connections = 10, seconds = 10, port = 18790): Promise<AskBench> {
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DIST_DIR: distDir, RATE_LIMIT_DATA: '0', RATE_LIMIT_ASK: '0', OPENAI_API_KEY: '' };
  const api = spawn(process.execPath, ['--import', 'tsx', 'api/server.ts'], { cwd: repo, env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    const started = performance.now();
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
      } catch {
        /* not up yet */
      }
      if (performance.now() - started > 15_000) throw new Error('the API did not start within 15 s');
      await new Promise((r) => setTimeout(r, 50));
    }
    const file = join(mkdtempSync(join(tmpdir(), 'wrk-ask-')), 'ask.lua');
    writeFileSync(file, lua(ASK_BENCH_QUESTIONS));
    const run = (d: number) => execFileSync('wrk', ['-t2', `-c${connections}`, `-d${d}s`, '--latency', '-s', file, `http://127.0.0.1:${port}/v1/ask`], { encoding: 'utf8' });
    run(2); // warm-up: lexicon, parsed records, search index
    const out = run(seconds);
    const ms = (re: RegExp) => {
      const m = out.match(re);
      if (!m) return NaN;
      const v = Number(m[1]);
      return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v;
    };
    return {
      rps: Number(out.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? NaN),
      p50: ms(/50%\s+([\d.]+)(us|ms|s)/),
      p95: Number(out.match(/P95_US (\d+)/)?.[1] ?? NaN) / 1000,
      p99: ms(/99%\s+([\d.]+)(us|ms|s)/),
      non2xx: Number(out.match(/Non-2xx or 3xx responses:\s+(\d+)/)?.[1] ?? 0),
    };
  } finally {
    api.kill();
  }
}

// `npx tsx bench/ask.ts [distDir]`
if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchAsk(resolve(process.argv[2] ?? process.env.DIST_DIR ?? join(repo, 'dist')));
  console.log(`grounded POST /v1/ask, wrk -c10: ${Math.round(r.rps)} req/s, p50 ${r.p50.toFixed(2)} ms, p95 ${r.p95.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, non-2xx ${r.non2xx} — target p95 < 50 ms: ${r.p95 < 50 ? 'met' : 'MISSED'}`);
  if (!(r.p95 < 50)) process.exitCode = 1;
}
