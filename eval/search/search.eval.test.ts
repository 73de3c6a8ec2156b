import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { loadBuild, type LoadedBuild } from '../../api/build.ts';
import { terms } from '../../lib/search/text.ts';
import { evaluate, indexedDocs, readDevSet, report, type ModeResult } from './run.ts';

/** The search eval on the shared real-data test build: hybrid must beat BM25 alone on nDCG@10 and recall@10. */
describe('search eval (eval/search/devset.yaml)', () => {
  const set = readDevSet();
  let b: LoadedBuild;
  let bm25: ModeResult;
  let hybrid: ModeResult;

  beforeAll(async () => {
    const dir = join(inject('distDir'), 'current');
    b = await loadBuild((p) => readFile(join(dir, p)));
    bm25 = await evaluate(b, set, 'bm25');
    hybrid = await evaluate(b, set, 'hybrid');
    console.log(`search eval, ${set.queries.length} queries:\n${report([bm25, hybrid])}`);
  });

  it('has at least 40 queries, 10 paraphrases, and queries in all four languages', () => {
    expect(set.queries.length).toBeGreaterThanOrEqual(40);
    expect(set.queries.filter((q) => q.paraphrase).length).toBeGreaterThanOrEqual(10);
    for (const lang of ['en', 'fr', 'de', 'es']) expect(set.queries.filter((q) => q.lang === lang).length, lang).toBeGreaterThanOrEqual(5);
  });

  it('judges only documents of the build', () => {
    const ids = new Set(indexedDocs(b).map((d) => d.doc_id));
    for (const q of set.queries) for (const id of Object.keys(q.relevant)) expect(ids.has(id), `${q.q}: ${id}`).toBe(true);
  });

  it('paraphrases share no word with the title or summary of their grade-3 targets', () => {
    const docs = indexedDocs(b);
    const overlaps: string[] = [];
    for (const q of set.queries.filter((x) => x.paraphrase)) {
      const words = new Set(terms(q.q));
      for (const [id, grade] of Object.entries(q.relevant)) {
        if (grade < 3) continue;
        // The target in the query's language (a briefing id names its language; a scenario has one per language).
        const group = docs.find((d) => d.doc_id === id)!.group;
        const target = docs.find((d) => d.group === group && d.lang === q.lang) ?? docs.find((d) => d.doc_id === id)!;
        const shared = terms(`${target.title} ${target.summary}`).filter((t) => words.has(t));
        if (shared.length) overlaps.push(`"${q.q}" shares ${[...new Set(shared)].join(', ')} with ${target.id}`);
      }
    }
    expect(overlaps).toEqual([]);
  });

  it('hybrid beats BM25 alone on nDCG@10 and recall@10', () => {
    expect(hybrid.ndcg).toBeGreaterThan(bm25.ndcg);
    expect(hybrid.recall).toBeGreaterThan(bm25.recall);
  });
});
