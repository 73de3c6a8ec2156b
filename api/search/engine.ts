/**
 * Hybrid search over a build's briefings and scenarios (docs/search.md).
 *
 * Per build (a WeakMap, so a hot-reloaded build brings its own index and the old one is
 * collected with it): the Orama database restored from `search/index.json`, the distilled word
 * vectors and the expansion table. Per query: Orama's BM25 full-text search and Orama's vector
 * search over the same filtered documents, fused here as
 *   score = W_TEXT · bm25 / max bm25 + W_VECTOR · max(0, cos − FLOOR) / (max cos − FLOOR),
 * (Orama's own hybrid mode divides cosines by the best one, which with sentence vectors,
 * whose cosines bunch together, lets every document score nearly as well as the best), then one
 * hit per translation group when no language is asked for (the version in the query's language
 * wins a tie), then the limit.
 */
import { load, search } from '@orama/orama';
import { perBuild, type LoadedBuild } from '../build.ts';
import {
  SEARCH_INDEX,
  SEARCH_LEXICON,
  SEARCH_PROPERTIES,
  SEARCH_VECTORS,
  createSearchDb,
  type Embedder,
  type IndexFile,
  type IndexedDoc,
  type SearchDb,
} from '../../lib/search/format.ts';
import { expandQuery, makeLexicon, type Expansion, type Lang, type Lexicon } from '../../lib/search/lexicon.ts';
import { embedRemote, type EmbeddingsConfig } from '../../lib/search/remote.ts';
import { prepareText, snippet, stem, terms, type PreparedText } from '../../lib/search/text.ts';
import { decodeVectors, textVector, type VectorTable } from '../../lib/search/vectors.ts';

export interface SearchRequest {
  q: string;
  limit: number;
  type?: 'briefing' | 'scenario' | undefined;
  lang?: Lang | undefined;
}

export interface SearchHitOut {
  type: 'briefing' | 'scenario';
  id: string;
  lang: Lang;
  title: string;
  snippet: string;
  score: number;
  url: string;
}

export type SearchMode = 'hybrid' | 'bm25' | 'vector';

/** Fusion weights and the cosine below which a document does not count as similar. */
export const W_TEXT = 0.5;
export const W_VECTOR = 0.5;
export const FLOOR = 0.2;
/** The edge of the version in the query's language when one hit per document is kept (no language asked for). */
const LANG_EDGE = 0.1;
const BOOST = { title: 2, summary: 1.5, tags: 1.5, body: 1 };

export interface SearchState {
  db: SearchDb;
  embedder: Embedder | null;
  vectors: VectorTable | null;
  lexicon: Lexicon;
  documents: number;
  /** Remote query vectors, most recent last (bounded). */
  remoteCache: Map<string, Float32Array>;
  /** Snippet text of each document, cut into sentences once. */
  prepared: Map<string, PreparedText>;
}

const decoder = new TextDecoder();

/** The search state of a build, restored on first use. A build without search files gets an empty index. */
export const searchState = perBuild(restore);

function restore(b: LoadedBuild): SearchState {
  const indexFile = b.files.get(SEARCH_INDEX);
  if (!indexFile)
    return {
      db: createSearchDb(1),
      embedder: null,
      vectors: null,
      lexicon: makeLexicon({ version: 1, entries: {} }),
      documents: 0,
      remoteCache: new Map(),
      prepared: new Map(),
    };
  const file = JSON.parse(decoder.decode(indexFile.body)) as IndexFile;
  const db = createSearchDb(file.embedder.dims);
  load(db, file.orama as Parameters<typeof load>[1]);
  const lexiconFile = b.files.get(SEARCH_LEXICON);
  const vectorsFile = b.files.get(SEARCH_VECTORS);
  return {
    db,
    embedder: file.embedder,
    vectors: file.embedder.kind === 'local' && vectorsFile ? decodeVectors(vectorsFile.body) : null,
    lexicon: makeLexicon(lexiconFile ? JSON.parse(decoder.decode(lexiconFile.body)) : { version: 1, entries: {} }),
    documents: file.documents,
    remoteCache: new Map(),
    prepared: new Map(),
  };
}

/** The query vector: local (distilled vectors + expansion), or from the embeddings endpoint for a remotely embedded build (null on failure: BM25 only). */
export async function queryVector(
  s: SearchState,
  q: string,
  x: Expansion,
  cfg: EmbeddingsConfig | null,
  fetchFn: typeof fetch = fetch,
): Promise<Float32Array | null> {
  if (!s.embedder) return null;
  if (s.embedder.kind === 'local') return s.vectors ? textVector(s.vectors, x.items) : null;
  if (!cfg) return null;
  const key = q.trim().toLowerCase();
  const cached = s.remoteCache.get(key);
  if (cached) return cached;
  try {
    const [v] = await embedRemote(cfg, [q], fetchFn);
    if (!v || v.length !== s.embedder.dims) return null;
    s.remoteCache.set(key, v);
    if (s.remoteCache.size > 1000) s.remoteCache.delete(s.remoteCache.keys().next().value!);
    return v;
  } catch {
    return null;
  }
}

type OramaHit = { id: string; score: number; document: IndexedDoc };
const sync = <T>(r: T | Promise<T>): T => {
  if (r instanceof Promise) throw new Error('search: Orama answered asynchronously (no async hooks are registered)');
  return r;
};

/** Rank the documents for a query whose vector is known (or null): synchronous. */
export function rank(s: SearchState, req: SearchRequest, x: Expansion, qv: Float32Array | null, mode: SearchMode = 'hybrid'): SearchHitOut[] {
  const where: Record<string, { eq: string }> = {};
  if (req.type) where.type = { eq: req.type };
  if (req.lang) where.lang = { eq: req.lang };
  const k = Math.max(s.documents, 1);
  const scores = new Map<string, { doc: IndexedDoc; text: number; vector: number }>();
  if (mode !== 'vector') {
    const r = sync(search(s.db, { term: req.q, properties: [...SEARCH_PROPERTIES], boost: BOOST, where, limit: k, threshold: 1 } as never)) as unknown as {
      hits: OramaHit[];
    };
    const max = Math.max(0, ...r.hits.map((h) => h.score));
    for (const h of r.hits) if (max > 0) scores.set(h.id, { doc: h.document, text: h.score / max, vector: 0 });
  }
  if (qv && mode !== 'bm25') {
    const r = sync(search(s.db, { mode: 'vector', vector: { value: qv, property: 'embedding' }, similarity: FLOOR, where, limit: k } as never)) as unknown as {
      hits: OramaHit[];
    };
    const max = Math.max(FLOOR, ...r.hits.map((h) => h.score));
    for (const h of r.hits) {
      const v = max > FLOOR ? (h.score - FLOOR) / (max - FLOOR) : 0;
      const e = scores.get(h.id);
      if (e) e.vector = v;
      else scores.set(h.id, { doc: h.document, text: 0, vector: v });
    }
  }
  const wt = mode === 'hybrid' ? W_TEXT : mode === 'bm25' ? 1 : 0;
  const wv = mode === 'hybrid' ? W_VECTOR : mode === 'vector' ? 1 : 0;
  const ranked = [...scores.values()]
    .map((e) => ({ doc: e.doc, score: wt * e.text + wv * e.vector }))
    .filter((e) => e.score > 0)
    .sort((a, b) => b.score - a.score || (a.doc.id < b.doc.id ? -1 : 1));
  // One hit per translation group when no language is asked for.
  let out = ranked;
  if (!req.lang) {
    const best = new Map<string, { doc: IndexedDoc; score: number; key: number }>();
    for (const e of ranked) {
      const key = e.score + (e.doc.lang === x.lang ? LANG_EDGE : 0);
      const prior = best.get(e.doc.group);
      if (!prior || key > prior.key) best.set(e.doc.group, { ...e, key });
    }
    out = [...best.values()].sort((a, b) => b.score - a.score || b.key - a.key || (a.doc.id < b.doc.id ? -1 : 1));
  }
  const marks = new Set([...terms(req.q), ...x.marks.map(stem)]);
  return out.slice(0, req.limit).map(({ doc, score }) => ({
    type: doc.type,
    id: doc.doc_id,
    lang: doc.lang,
    title: doc.title,
    snippet: snippet(preparedText(s, doc), marks),
    score: Math.round(score * 1e4) / 1e4,
    url: doc.url,
  }));
}

function preparedText(s: SearchState, doc: IndexedDoc): PreparedText {
  let p = s.prepared.get(doc.id);
  if (!p) {
    p = prepareText(doc.body ? `${doc.summary} ${doc.body}` : doc.summary);
    s.prepared.set(doc.id, p);
  }
  return p;
}

/** Restore a build's search index now rather than on its first search (call it when a build is loaded). */
export function warmSearch(b: LoadedBuild): void {
  searchState(b);
}

/** Search a build: expand the query, embed it (through the build's embeddings endpoint, if any), rank. */
export async function searchBuild(b: LoadedBuild, req: SearchRequest, mode: SearchMode = 'hybrid'): Promise<SearchHitOut[]> {
  const s = searchState(b);
  const x = expandQuery(s.lexicon, req.q, s.vectors ? (w) => s.vectors!.index.has(w) : undefined);
  const qv = mode === 'bm25' ? null : await queryVector(s, req.q, x, b.embeddings ?? null);
  return rank(s, req, x, qv, mode);
}
