/**
 * Search evaluation: nDCG@10 and recall@10 of BM25 alone and of hybrid search over the dev set
 * (eval/search/devset.yaml), on a real build.
 *
 *   node eval/search/run.ts [dist-dir]     (default: DIST_DIR or ./dist; uses <dir>/current)
 *
 * The eval test (eval/search/search.eval.test.ts) runs the same on the shared test build.
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

export const K = 10;

const Query = z.strictObject({
  q: z.string().min(1),
  lang: z.enum(['en', 'fr', 'de', 'es']),
  paraphrase: z.boolean().optional(),
  relevant: z.record(z.string(), z.number().int().min(1).max(3)),
});
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
  paraphrase: boolean;
  ndcg: number;
  recall: number;
  top: string[];
}

export interface ModeResult {
  mode: SearchMode;
  ndcg: number;
  recall: number;
  queries: QueryResult[];
}

/** Discounted cumulative gain of graded relevance (gain 2^g − 1, log2 discount). */
function dcg(grades: readonly number[]): number {
  return grades.reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0);
}

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
    const hits = await searchBuild(b, { q: item.q, limit: K }, mode);
    const grades = hits.map((h) => judged.get(groupOf.get(h.id)!) ?? 0);
    const ideal = dcg([...judged.values()].sort((a, b2) => b2 - a).slice(0, K));
    const found = new Set(hits.map((h) => groupOf.get(h.id)).filter((g) => g !== undefined && judged.has(g)));
    queries.push({
      q: item.q,
      lang: item.lang,
      paraphrase: item.paraphrase ?? false,
      ndcg: ideal > 0 ? dcg(grades) / ideal : 0,
      recall: found.size / judged.size,
      top: hits.slice(0, 3).map((h) => h.id),
    });
  }
  const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / Math.max(1, xs.length);
  return { mode, ndcg: mean(queries.map((q) => q.ndcg)), recall: mean(queries.map((q) => q.recall)), queries };
}

export function report(results: readonly ModeResult[]): string {
  const f = (x: number) => x.toFixed(3);
  const lines = ['| mode | nDCG@10 | recall@10 | nDCG@10 paraphrases | nDCG@10 en / fr / de / es |', '|---|---|---|---|---|'];
  for (const r of results) {
    const sub = (pred: (q: QueryResult) => boolean) => {
      const xs = r.queries.filter(pred);
      return xs.reduce((a, q) => a + q.ndcg, 0) / Math.max(1, xs.length);
    };
    const langs = ['en', 'fr', 'de', 'es'].map((l) => f(sub((q) => q.lang === l))).join(' / ');
    lines.push(`| ${r.mode} | ${f(r.ndcg)} | ${f(r.recall)} | ${f(sub((q) => q.paraphrase))} | ${langs} |`);
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dist = resolve(process.argv[2] ?? process.env.DIST_DIR ?? 'dist');
  const b = await loadBuild((p) => readFile(join(dist, 'current', p)));
  // A build embedded through an endpoint embeds its queries through it too (EMBEDDINGS_*, as the server does).
  b.embeddings = embeddingsOf(readConfig());
  const set = readDevSet();
  const results = [await evaluate(b, set, 'bm25'), await evaluate(b, set, 'hybrid')];
  console.log(`${set.queries.length} queries, build ${b.id}\n`);
  console.log(report(results));
  if (process.argv.includes('--verbose')) {
    const [bm, hy] = results;
    for (let i = 0; i < bm!.queries.length; i++) {
      const a = bm!.queries[i]!;
      const h = hy!.queries[i]!;
      console.log(`${a.ndcg.toFixed(2)} → ${h.ndcg.toFixed(2)}  [${a.lang}${a.paraphrase ? ' P' : ''}] ${a.q}   ${h.top.join(', ')}`);
    }
  }
}
