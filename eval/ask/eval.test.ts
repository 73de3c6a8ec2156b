import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, inject, it } from 'vitest';
import { loadBuild } from '../../api/build.ts';
import { categoryOf } from './questions.ts';
import { ALL_QUESTIONS as QUESTIONS, formatReport, runEval } from './run.ts';
import { answerQuestion } from '../../api/queries/ask.ts';
import { createApp } from '../../api/app.ts';
import { StaticBuildSource } from '../../api/build-store.ts';
import { citationProblem, derivedProblem, evaluate, quoteProblem } from './citations.ts';

it('the question set covers the four languages and every topic the issue names', () => {
  expect(QUESTIONS.length).toBeGreaterThanOrEqual(40);
  for (const lang of ['en', 'fr', 'de', 'es']) expect(QUESTIONS.filter((q) => q.lang === lang).length).toBeGreaterThanOrEqual(8);
  const topics = new Set(QUESTIONS.map((q) => q.topic));
  for (const t of [
    'gas storage',
    'gas storage on a date',
    'oil price',
    'US SPR',
    'top producer share',
    'self-sufficiency',
    'import dependence',
    'stress index',
    'scenarios',
    'events',
    'unanswerable',
  ])
    expect(topics).toContain(t);
  expect(new Set(QUESTIONS.map((q) => q.id)).size).toBe(QUESTIONS.length);
  // Every operation the planner carries out, in the four languages.
  for (const c of ['lookup', 'comparison', 'ranking', 'threshold', 'change', 'explanation', 'events', 'decline', 'adversarial']) {
    const qs = QUESTIONS.filter((q) => categoryOf(q) === c);
    expect(qs.length, c).toBeGreaterThanOrEqual(6);
    expect(new Set(qs.map((q) => q.lang)).size, c).toBe(4);
  }
});

it('answers at least 90 % of the questions of every category with the right figure and a valid citation', async () => {
  const b = await loadBuild((p) => readFile(join(inject('distDir'), 'current', p)));
  const report = await runEval(b);
  console.log(formatReport(report));
  for (const [c, x] of Object.entries(report.byCategory)) expect(x.share, `${c}\n${formatReport(report)}`).toBeGreaterThanOrEqual(0.9);
});

it('the citation rule catches a quote its record does not hold, and a derived figure that does not add up', () => {
  const body = { data: { metric: 'fill_pct', points: [{ date: '2025-11-01', value: 75.13 }] } };
  expect(quoteProblem('date: 2025-11-01; fill_pct: 75.13', body)).toBe('');
  expect(quoteProblem('date: 2025-11-01; fill_pct: 75.13; volume: 188.6759 TWh', body)).toMatch(/188.6759/);
  expect(quoteProblem('date: 2025-11-01; days_of_cover: 75.13', body)).toMatch(/days_of_cover/);
  expect(quoteProblem('date: 2025-11-02; fill_pct: 75.13', body)).toMatch(/2025-11-02/);
  expect(evaluate('(13543.19 − 9532.98) / 9532.98 × 100')).toBeCloseTo(42.066, 2);
  const cites = [
    { id: 'a', quote: 'price: 95.29' },
    { id: 'b', quote: 'price: 86.48' },
  ];
  expect(derivedProblem({ label: 'difference', value: 8.81, arithmetic: '95.29 − 86.48', citations: ['a', 'b'] }, cites)).toBe('');
  expect(derivedProblem({ label: 'difference', value: 9.81, arithmetic: '95.29 − 86.48', citations: ['a', 'b'] }, cites)).toMatch(/not 9.81/);
  expect(derivedProblem({ label: 'difference', value: 8.81, arithmetic: '95.29 − 86.48', citations: ['a'] }, cites)).toMatch(/86.48 is in no cited quote/);
});

it("no answer of the dev set quotes a value its citation's address does not return (each fetched from the app)", async () => {
  const b = await loadBuild((p) => readFile(join(inject('distDir'), 'current', p)));
  const app = createApp({ source: new StaticBuildSource(b), baseUrl: 'https://eval.test' });
  const problems: string[] = [];
  let checked = 0;
  for (const item of QUESTIONS) {
    const a = await answerQuestion(b, item.q, { llm: null, now: b.generatedAt });
    for (const c of a.citations) {
      checked++;
      const why = await citationProblem(app, c);
      if (why) problems.push(`${item.id}: ${why}`);
    }
    for (const d of a.derived) {
      const why = derivedProblem(d, a.citations);
      if (why) problems.push(`${item.id}: ${why}`);
    }
  }
  expect(checked).toBeGreaterThan(200);
  expect(problems).toEqual([]);
});
