import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { AnswerData } from '../../api/ask/index.ts';
import { type LoadedBuild, loadBuild } from '../../api/build.ts';
import { answerQuestion } from '../../api/queries/ask.ts';
import { createApp } from '../../api/app.ts';
import { StaticBuildSource } from '../../api/build-store.ts';
import { citationProblem, derivedProblem } from './citations.ts';
import { DATED_QUESTIONS } from './dated.ts';
import { PLANNER_QUESTIONS } from './planner.ts';
import { WHY_QUESTIONS } from './why.ts';
import { BAND_QUESTIONS } from './bands.ts';
import { QUESTIONS, type EvalQuestion, type Lang, categoryOf } from './questions.ts';
import { CANNOT, showsFigure } from './shows.ts';

/** The whole evaluation: the lookups and declines, then the planner's operations and adversarial questions. */
export const ALL_QUESTIONS: readonly EvalQuestion[] = [...QUESTIONS, ...PLANNER_QUESTIONS, ...DATED_QUESTIONS, ...WHY_QUESTIONS, ...BAND_QUESTIONS];

export { CANNOT, numbersIn, showsFigure } from './shows.ts';

export interface EvalResult {
  id: string;
  lang: Lang;
  category: string;
  q: string;
  ok: boolean;
  why: string;
  answer: string;
}

/** Judge one answer against what the question expects; the reason when it falls short. */
export function judge(b: LoadedBuild, item: EvalQuestion, a: AnswerData): string {
  if (a.lang !== item.lang) return `answered in ${a.lang}, asked in ${item.lang}`;
  const e = item.expect;
  if ('check' in e) return e.check(b, a, item.lang);
  if ('unanswerable' in e) {
    if (!CANNOT[item.lang].test(a.answer)) return 'does not say plainly that the data cannot answer';
    if (a.citations.length) return `cites ${a.citations.length} record(s) for an unanswerable question`;
    return '';
  }
  const id = typeof e.cite.id === 'function' ? e.cite.id(b) : e.cite.id;
  const cites = a.citations.filter((c) => c.type === e.cite.type && c.id === id);
  if (!cites.length) return `no citation of ${e.cite.type} ${id}`;
  if (cites.some((c) => !c.url.startsWith('/v1/'))) return `citation url ${cites[0]!.url} is not an API address`;
  if (e.figure) {
    const f = e.figure(b);
    if (!showsFigure(a.answer, item.lang, f.shown)) return `the figure ${f.shown} is not in the answer`;
    const holder = e.figureCite ? a.citations.filter((c) => c.type === e.figureCite!.type && c.id === e.figureCite!.id) : cites;
    const holderId = e.figureCite?.id ?? id;
    if (!holder.some((c) => new RegExp(`(?<![\\d.])${String(f.raw).replace('.', '\\.')}(?![\\d])`).test(c.quote)))
      return `no citation of ${holderId} quotes ${f.raw}`;
  }
  return '';
}

export interface EvalReport {
  total: number;
  correct: number;
  share: number;
  byLang: Record<Lang, { total: number; correct: number }>;
  byCategory: Record<string, { total: number; correct: number; share: number }>;
  results: EvalResult[];
}

/** Ask every question of the set against a build (grounded mode unless `llm` is configured). */
export async function runEval(b: LoadedBuild, now: Date = b.generatedAt, questions: readonly EvalQuestion[] = ALL_QUESTIONS): Promise<EvalReport> {
  const results: EvalResult[] = [];
  // The strict citation rule is part of "correct": every citation's address, fetched from the
  // real app, returns what its quote says, and every derived figure's arithmetic checks out.
  const app = createApp({ source: new StaticBuildSource(b), baseUrl: 'https://eval.test' });
  for (const item of questions) {
    const a = await answerQuestion(b, item.q, { llm: null, now });
    let why: string;
    try {
      why = judge(b, item, a);
    } catch (err) {
      why = `expected fact unavailable: ${(err as Error).message}`;
    }
    for (const c of a.citations) why ||= await citationProblem(app, c);
    for (const d of a.derived) why ||= derivedProblem(d, a.citations);
    results.push({ id: item.id, lang: item.lang, category: categoryOf(item), q: item.q, ok: !why, why, answer: a.answer });
  }
  const byLang = { en: { total: 0, correct: 0 }, fr: { total: 0, correct: 0 }, de: { total: 0, correct: 0 }, es: { total: 0, correct: 0 } };
  for (const r of results) {
    byLang[r.lang].total++;
    if (r.ok) byLang[r.lang].correct++;
  }
  const byCategory: EvalReport['byCategory'] = {};
  for (const r of results) {
    const c = (byCategory[r.category] ??= { total: 0, correct: 0, share: 0 });
    c.total++;
    if (r.ok) c.correct++;
    c.share = c.correct / c.total;
  }
  const correct = results.filter((r) => r.ok).length;
  return { total: results.length, correct, share: correct / results.length, byLang, byCategory, results };
}

export function formatReport(r: EvalReport): string {
  const lines = [`ask evaluation: ${r.correct}/${r.total} answered with the right figure and citations that check out (${(r.share * 100).toFixed(1)} %)`];
  lines.push(
    `  by language: ${Object.entries(r.byLang)
      .map(([l, x]) => `${l} ${x.correct}/${x.total}`)
      .join(', ')}`,
  );
  lines.push(
    `  by category: ${Object.entries(r.byCategory)
      .map(([c, x]) => `${c} ${x.correct}/${x.total}`)
      .join(', ')}`,
  );
  for (const x of r.results.filter((y) => !y.ok)) lines.push(`  FAIL ${x.id} (${x.lang}) "${x.q}": ${x.why}\n       → ${x.answer}`);
  return lines.join('\n');
}

// `node eval/ask/run.ts [distDir]`: the evaluation against a published build (default dist/).
if (import.meta.url === `file://${process.argv[1]}`) {
  const dist = resolve(process.argv[2] ?? process.env.DIST_DIR ?? resolve(import.meta.dirname, '../../dist'));
  const b = await loadBuild((p) => readFile(join(dist, 'current', p)));
  const report = await runEval(b);
  console.log(formatReport(report));
  if (Object.values(report.byCategory).some((c) => c.share < 0.9)) process.exitCode = 1;
}
