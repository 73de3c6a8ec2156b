/**
 * Search evaluation over the dev set (eval/search/devset.yaml) on a real build: nDCG@10 and
 * recall@10 of the keyword evidence alone (mode `bm25`) and of hybrid search, per category and
 * per query language, and for the off-topic queries the share that got no hit at all. nDCG@10
 * and recall@10 are means over the on-topic queries (every category but `offtopic`).
 *
 *   node eval/search/run.ts [dist-dir] [--verbose]    (default: DIST_DIR or ./dist; uses <dir>/current)
 *
 * The eval test (eval/search/search.eval.test.ts) runs the same on the shared test build and
 * holds the targets (docs/search.md).
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { loadBuild, type LoadedBuild } from '../../api/build.ts';
import { searchBuild, searchState, type SearchMode } from '../../api/search/engine.ts';
import type { IndexedDoc } from '../../lib/search/format.ts';
import { embeddingsOf, readConfig } from '../../lib/config.ts';
import { LANGS } from '../../contract/languages.ts';

export const K = 10;

export const CATEGORIES = ['keyword', 'paraphrase', 'language', 'typo', 'question', 'offtopic'] as const;
export type Category = (typeof CATEGORIES)[number];

const Lang = z.enum(LANGS);
const Query = z
  .strictObject({
    q: z.string().min(1),
    /** The language the query is written in. */
    lang: Lang,
    /** The `lang` parameter of the search, when results are asked for in one language. */
    search_lang: Lang.optional(),
    category: z.enum(CATEGORIES),
    relevant: z.record(z.string(), z.number().int().min(1).max(3)),
  })
  .refine((x) => (x.category === 'offtopic') === (Object.keys(x.relevant).length === 0), 'off-topic queries, and only they, judge no document')
  .refine(
    (x) => (x.category === 'language') === (x.search_lang !== undefined && x.search_lang !== x.lang),
    'language queries, and only they, ask for another language',
  );
export const DevSet = z.strictObject({ queries: z.array(Query).min(1) });
export type DevSet = z.infer<typeof DevSet>;
export type DevQuery = z.infer<typeof Query>;

export function readDevSet(file = join(import.meta.dirname, 'devset.yaml')): DevSet {
  return DevSet.parse(parse(readFileSync(file, 'utf8')));
}

/** Every indexed document of a build (each language version), from its search index. */
export function indexedDocs(b: LoadedBuild): IndexedDoc[] {
  const raw = searchState(b).db.data.docs.docs as Record<string, IndexedDoc | undefined>;
  return Object.values(raw).filter((d): d is IndexedDoc => !!d);
}

export interface QueryResult {
  q: string;
  lang: string;
  category: Category;
  /** nDCG@10 (on-topic queries; 0 for an off-topic one). */
  ndcg: number;
  recall: number;
  hits: number;
  top: { id: string; score: number }[];
}

export interface Summary {
  /** Queries counted (on-topic for nDCG and recall, off-topic for the no-hit rate). */
  n: number;
  ndcg: number;
  recall: number;
}

export interface ModeResult {
  mode: SearchMode;
  /** Every on-topic query. */
  overall: Summary;
  byCategory: Record<Exclude<Category, 'offtopic'>, Summary>;
  byLang: Record<string, Summary>;
  /** Off-topic queries answered with no hit, and their number. */
  offtopic: { n: number; noHit: number };
  queries: QueryResult[];
}

/** Discounted cumulative gain of graded relevance (gain 2^g − 1, log2 discount). */
function dcg(grades: readonly number[]): number {
  return grades.reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0);
}

const mean = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0) / Math.max(1, xs.length);
const summary = (qs: readonly QueryResult[]): Summary => ({ n: qs.length, ndcg: mean(qs.map((q) => q.ndcg)), recall: mean(qs.map((q) => q.recall)) });

export async function evaluate(b: LoadedBuild, set: DevSet, mode: SearchMode): Promise<ModeResult> {
  const groupOf = new Map<string, string>();
  for (const d of indexedDocs(b)) groupOf.set(d.doc_id, d.group);
  const queries: QueryResult[] = [];
  for (const item of set.queries) {
    // Judgments by translation group: any language version of a judged document counts.
    const judged = new Map<string, number>();
    for (const [id, grade] of Object.entries(item.relevant)) {
      const g = groupOf.get(id);
      if (!g) throw new Error(`dev set: "${item.q}" judges ${id}, which is not in the build`);
      judged.set(g, Math.max(grade, judged.get(g) ?? 0));
    }
    const hits = await searchBuild(b, { q: item.q, limit: K, ...(item.search_lang ? { lang: item.search_lang } : {}) }, mode);
    const grades = hits.map((h) => judged.get(groupOf.get(h.id)!) ?? 0);
    const ideal = dcg([...judged.values()].sort((a, b2) => b2 - a).slice(0, K));
    const found = new Set(hits.map((h) => groupOf.get(h.id)).filter((g) => g !== undefined && judged.has(g)));
    queries.push({
      q: item.q,
      lang: item.lang,
      category: item.category,
      ndcg: ideal > 0 ? dcg(grades) / ideal : 0,
      recall: judged.size ? found.size / judged.size : 0,
      hits: hits.length,
      top: hits.slice(0, 3).map((h) => ({ id: h.id, score: h.score })),
    });
  }
  const onTopic = queries.filter((q) => q.category !== 'offtopic');
  const off = queries.filter((q) => q.category === 'offtopic');
  return {
    mode,
    overall: summary(onTopic),
    byCategory: Object.fromEntries(
      CATEGORIES.filter((c) => c !== 'offtopic').map((c) => [c, summary(onTopic.filter((q) => q.category === c))]),
    ) as ModeResult['byCategory'],
    byLang: Object.fromEntries(LANGS.map((l) => [l, summary(onTopic.filter((q) => q.lang === l))])),
    offtopic: { n: off.length, noHit: off.filter((q) => q.hits === 0).length },
    queries,
  };
}

const LABEL: Record<SearchMode, string> = { bm25: 'keywords alone', vector: 'vectors alone', hybrid: 'hybrid' };

/** The Markdown table of docs/search.md: one row per mode, nDCG@10 per category and language, and the off-topic no-hit rate. */
export function report(results: readonly ModeResult[]): string {
  const f = (x: number) => x.toFixed(3);
  const first = results[0]!;
  const cats = Object.keys(first.byCategory) as (keyof ModeResult['byCategory'])[];
  const head = [
    'mode',
    `nDCG@10 (${first.overall.n})`,
    'recall@10',
    ...cats.map((c) => `${c} (${first.byCategory[c].n})`),
    `en / fr / de / es`,
    `off-topic with no hit (${first.offtopic.n})`,
  ];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const r of results) {
    const langs = LANGS.map((l) => f(r.byLang[l]!.ndcg)).join(' / ');
    const row = [
      LABEL[r.mode],
      f(r.overall.ndcg),
      f(r.overall.recall),
      ...cats.map((c) => f(r.byCategory[c].ndcg)),
      langs,
      `${r.offtopic.noHit} / ${r.offtopic.n}`,
    ];
    lines.push(`| ${row.join(' | ')} |`);
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dist = resolve(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? process.env.DIST_DIR ?? 'dist');
  const b = await loadBuild((p) => readFile(join(dist, 'current', p)));
  // A build embedded through an endpoint embeds its queries through it too (EMBEDDINGS_*, as the server does).
  b.embeddings = embeddingsOf(readConfig());
  const set = readDevSet();
  const results = [await evaluate(b, set, 'bm25'), await evaluate(b, set, 'hybrid')];
  console.log(`${set.queries.length} queries, build ${b.id}, nDCG@10 by category (queries in brackets)\n`);
  console.log(report(results));
  if (process.argv.includes('--verbose')) {
    const [bm, hy] = results;
    for (let i = 0; i < bm!.queries.length; i++) {
      const a = bm!.queries[i]!;
      const h = hy!.queries[i]!;
      const top = h.top.map((t) => `${t.id} ${t.score.toFixed(2)}`).join(', ');
      console.log(`${a.ndcg.toFixed(2)} → ${h.ndcg.toFixed(2)}  [${a.lang} ${a.category}] ${a.q}  (${h.hits})  ${top}`);
    }
  }
}
