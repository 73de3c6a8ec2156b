import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, inject, it } from 'vitest';
import { loadBuild } from '../../api/build.ts';
import { categoryOf } from './questions.ts';
import { ALL_QUESTIONS as QUESTIONS, formatReport, runEval } from './run.ts';

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
