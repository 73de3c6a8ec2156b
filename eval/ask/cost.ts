/**
 * What an answer costs, measured in process (no HTTP): every question of the dev set, then
 * 1,000 questions of random words (a fixed seed, so a run can be repeated), each answered by the
 * grounded answerer on one build. Prints p50, p95 and the slowest of each. Timings on a shared
 * machine are noisy: this is a measurement to re-run, not a test.
 *
 *   node eval/ask/cost.ts [distDir] [count]
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { loadBuild } from '../../api/build.ts';
import { answerQuestion } from '../../api/queries/ask.ts';
import { searchState } from '../../api/search/engine.ts';
import { ALL_QUESTIONS } from './run.ts';

/** Mulberry32: a small seeded generator, so the random questions are the same on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyzäöüßéèàçñ';
/** Questions of 3–20 random words of 2–14 letters, some with digits and a question mark. */
export function randomQuestions(n: number, seed = 31): string[] {
  const rnd = seeded(seed);
  const word = () => {
    const len = 2 + Math.floor(rnd() * 13);
    let w = '';
    for (let i = 0; i < len; i++) w += LETTERS[Math.floor(rnd() * LETTERS.length)];
    return rnd() < 0.1 ? String(Math.floor(rnd() * 3000)) : w;
  };
  return Array.from({ length: n }, () => {
    const words = Array.from({ length: 3 + Math.floor(rnd() * 18) }, word);
    return `${words.join(' ')}${rnd() < 0.5 ? '?' : ''}`;
  });
}

const pct = (xs: number[], p: number) => [...xs].sort((a, z) => a - z)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

if (import.meta.url === `file://${process.argv[1]}`) {
  const dist = resolve(process.argv[2] ?? process.env.DIST_DIR ?? resolve(import.meta.dirname, '../../dist'));
  const count = Number(process.argv[3] ?? 1000);
  const b = await loadBuild((p) => readFile(join(dist, 'current', p)));
  const now = b.generatedAt;
  // Warm-up, as the server does at start: the lexicon and the search index are built once per build.
  searchState(b);
  await answerQuestion(b, 'How full is German gas storage?', { llm: null, now });
  await answerQuestion(b, 'What happened in the Red Sea?', { llm: null, now });
  for (const [label, qs] of [
    ['dev set', ALL_QUESTIONS.map((x) => x.q)],
    [`${count} random-text questions`, randomQuestions(count)],
  ] as const) {
    const ms: number[] = [];
    let slowest = '';
    for (const q of qs) {
      const t0 = performance.now();
      await answerQuestion(b, q, { llm: null, now });
      const t = performance.now() - t0;
      if (!ms.length || t > Math.max(...ms)) slowest = q;
      ms.push(t);
    }
    console.log(
      `${label}: ${ms.length} answers, p50 ${pct(ms, 0.5).toFixed(2)} ms, p95 ${pct(ms, 0.95).toFixed(2)} ms, slowest ${Math.max(...ms).toFixed(2)} ms ("${slowest.slice(0, 60)}")`,
    );
  }
}
