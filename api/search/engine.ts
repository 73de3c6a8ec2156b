/**
 * Hybrid search over a build's briefings and scenarios (docs/search.md).
 *
 * Per build (a WeakMap, so a hot-reloaded build brings its own index and the old one is
 * collected with it): the Orama database restored from `search/index.json`, the distilled word
 * vectors, the expansion table, the compound splitter and the vocabulary queries are checked
 * and corrected against. Per query: the analysis (lib/search/query.ts: spelling, compounds,
 * language, expansion), then two kinds of evidence for each document, both absolute:
 *   text   = Σ idf(t) · match(t, d) / Σ idf(t) over the query's content words t, where
 *            match is the weight of the best field holding the word in Orama's index (title 1,
 *            summary 0.9, tags 0.8, body 0.6; a compound's parts count for their share;
 *            × CORRECTED for a corrected word, × TRANSLATED for a translation when another
 *            language is asked for); a word the index does not hold still counts in the
 *            denominator, with the largest idf;
 *   vector = share · clamp((cos − COS_FLOOR) / (COS_FULL − COS_FLOOR)), cos from Orama's vector
 *            search, share the part of the query (by idf) the query vector stands for (a word
 *            neither the index nor the word vectors know, `bitcoin`, is not in it);
 * combined as score = 1 − (1 − W_TEXT · text) · (1 − W_VECTOR · vector): either kind of evidence
 * alone can carry a hit, both together make it surer. Hits under THRESHOLD are dropped, so a
 * query the corpus has nothing on answers no hit, and a score means the same in every query.
 * Then one hit per translation group when no language is asked for (the version in the query's
 * language wins a near tie), then the limit.
 */
import { load, search } from '@orama/orama';
import { perBuild, type LoadedBuild } from '../build.ts';
import {
  SEARCH_INDEX,
  SEARCH_LEXICON,
  SEARCH_VECTORS,
  createSearchDb,
  type Embedder,
  type IndexFile,
  type IndexedDoc,
  type SearchDb,
} from '../../lib/search/format.ts';
import { makeLexicon, type Expansion, type Lang, type Lexicon, type LexiconFile } from '../../lib/search/lexicon.ts';
import { analyse, buildVocabulary, makeAnalyser, translations, type Analyser, type Analysis, type QueryTerm } from '../../lib/search/query.ts';
import { embedRemote, type EmbeddingsConfig } from '../../lib/search/remote.ts';
import { Splitter, prepareText, snippet, stem, token, type PreparedText } from '../../lib/search/text.ts';
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
  /** Plain text (not escaped). */
  snippet: string;
  /** The matched words in `snippet`: `[start, end)` offsets in UTF-16 code units. */
  highlights: [number, number][];
  score: number;
  url: string;
}

export type SearchMode = 'hybrid' | 'bm25' | 'vector';

/** Field weights of the text evidence. */
export const FIELD_WEIGHT = { title: 1, summary: 0.9, tags: 0.8, body: 0.6 } as const;
const FIELDS = Object.keys(FIELD_WEIGHT) as (keyof typeof FIELD_WEIGHT)[];
const FIELD_BIT = { title: 1, summary: 2, tags: 4, body: 8 } as const;
/** The match of a word in a document from the fields it is in (bit mask): the weight of the best one. (Adding a share for every further field was measured and did no better: docs/search.md.) */
const MATCH = Array.from({ length: 16 }, (_, mask) => Math.max(0, ...FIELDS.filter((f) => mask & FIELD_BIT[f]).map((f) => FIELD_WEIGHT[f])));
/** A corrected word counts this much of a word typed right; a translation (results asked for in another language) this much. */
export const CORRECTED = 0.9;
export const TRANSLATED = 0.8;
/** Cosines (local word vectors, common component projected out) below COS_FLOOR are no evidence, from COS_FULL on full evidence. */
export const COS_FLOOR = 0.3;
export const COS_FULL = 0.7;
/** Weights of the two kinds of evidence in the score. */
export const W_TEXT = 0.8;
export const W_VECTOR = 0.9;
/** Hits scoring under this are dropped (docs/search.md). */
export const THRESHOLD = 0.35;
/** The edge of the version in the query's language when one hit per document is kept (no language asked for). */
const LANG_EDGE = 0.05;

export interface SearchState {
  db: SearchDb;
  embedder: Embedder | null;
  vectors: VectorTable | null;
  lexicon: Lexicon;
  analyser: Analyser;
  documents: number;
  /** Every document with its Orama internal id. */
  docs: { internal: number; doc: IndexedDoc }[];
  /** Index term (token) → number of documents holding it in any field. */
  df: Map<string, number>;
  /** Index term (token) → the documents holding it (Orama internal id) and the fields it is in there (bit mask), read from Orama's index. */
  postings: Map<string, Map<number, number>>;
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
  const lexiconFile = b.files.get(SEARCH_LEXICON);
  const lexFile: LexiconFile = lexiconFile ? (JSON.parse(decoder.decode(lexiconFile.body)) as LexiconFile) : { version: 1, entries: {} };
  const splitter = new Splitter(lexFile.split ?? []);
  const lexicon = makeLexicon(lexFile);
  const file = indexFile ? (JSON.parse(decoder.decode(indexFile.body)) as IndexFile) : null;
  const db = createSearchDb(file?.embedder.dims ?? 1, splitter);
  if (file) load(db, file.orama as Parameters<typeof load>[1]);
  const vectorsFile = b.files.get(SEARCH_VECTORS);
  const vectors = file?.embedder.kind === 'local' && vectorsFile ? decodeVectors(vectorsFile.body) : null;
  const data = db.data as unknown as {
    docs: { docs: Record<string, IndexedDoc | undefined> };
    index: { frequencies: Record<string, Record<number, Record<string, number> | undefined>> };
  };
  const docs = Object.entries(data.docs.docs)
    .filter((e): e is [string, IndexedDoc] => !!e[1])
    .map(([internal, doc]) => ({ internal: Number(internal), doc }));
  const postings = new Map<string, Map<number, number>>();
  for (const { internal } of docs) {
    for (const f of FIELDS) {
      for (const t of Object.keys(data.index.frequencies[f]?.[internal] ?? {})) {
        let p = postings.get(t);
        if (!p) postings.set(t, (p = new Map()));
        p.set(internal, (p.get(internal) ?? 0) | FIELD_BIT[f]);
      }
    }
  }
  const df = new Map([...postings].map(([t, p]) => [t, p.size]));
  const vocabulary = buildVocabulary(
    docs.map((d) => d.doc),
    lexFile,
  );
  // Snippet text of every document, cut once now rather than on a first search.
  const prepared = new Map(docs.map(({ doc }) => [doc.id, prepareText(doc.body ? `${doc.summary} ${doc.body}` : doc.summary, splitter)]));
  return {
    db,
    embedder: file?.embedder ?? null,
    vectors,
    lexicon,
    analyser: makeAnalyser(vocabulary, splitter, lexicon, vectors ? (w) => vectors.index.has(w) : undefined),
    documents: file?.documents ?? 0,
    docs,
    df,
    postings,
    remoteCache: new Map(),
    prepared,
  };
}

/** The query vector: local (distilled vectors + expansion), or from the embeddings endpoint for a remotely embedded build (null on failure: text evidence only). */
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

const idf = (n: number, df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/** The evidence behind one document's score, for the eval and the calibration (docs/search.md). */
export interface Evidence {
  doc: IndexedDoc;
  text: number;
  cos: number | null;
  /** The share of the query the vector stands for (module comment). */
  share: number;
  score: number;
}

/**
 * The text evidence of every document holding one of the query's terms: Σ idf · match / Σ idf
 * over the terms (module comment), from the postings.
 */
function textEvidence(
  s: SearchState,
  terms: readonly QueryTerm[],
  alts: readonly (readonly string[])[] | null,
  weights: readonly number[],
  total: number,
): Map<number, number> {
  const out = new Map<number, number>();
  if (total <= 0) return out;
  terms.forEach((t, i) => {
    // match(t, d) for every document holding the word, its parts or (another language asked for) a translation.
    const m = new Map<number, number>();
    const raise = (doc: number, x: number) => {
      if (x > (m.get(doc) ?? 0)) m.set(doc, x);
    };
    for (const [doc, mask] of s.postings.get(token(t.stem)) ?? []) raise(doc, MATCH[mask]!);
    if (t.parts.length) {
      // Each part counts for its share, in the best field it is in.
      const share = new Map<number, number>();
      for (const p of t.parts) for (const [doc, mask] of s.postings.get(token(p)) ?? []) share.set(doc, (share.get(doc) ?? 0) + MATCH[mask]! / t.parts.length);
      for (const [doc, x] of share) raise(doc, x);
    }
    if (alts) for (const x of alts[i]!) for (const [doc, mask] of s.postings.get(token(x)) ?? []) raise(doc, MATCH[mask]! * TRANSLATED);
    const w = (weights[i]! / total) * (t.word !== t.typed ? CORRECTED : 1);
    for (const [doc, x] of m) out.set(doc, (out.get(doc) ?? 0) + w * x);
  });
  return out;
}

/** The evidence for every document of the request's filters (type, language), for a query already analysed and embedded. */
export function evidence(s: SearchState, req: SearchRequest, a: Analysis, qv: Float32Array | null, mode: SearchMode = 'hybrid'): Evidence[] {
  const n = Math.max(1, s.docs.length);
  // Each distinct term once; a compound the index does not hold weighs as its rarest part.
  const terms: QueryTerm[] = [];
  const seen = new Set<string>();
  const all = req.lang && req.lang !== a.lang ? translations(s.analyser, a, req.lang) : null;
  const alts: string[][] | null = all ? [] : null;
  a.terms.forEach((t, i) => {
    if (seen.has(t.stem)) return;
    seen.add(t.stem);
    terms.push(t);
    alts?.push(all![i]!);
  });
  const weights = terms.map((t) => {
    const df = s.df.get(token(t.stem)) ?? 0;
    if (df === 0 && t.parts.length) return Math.max(...t.parts.map((p) => idf(n, s.df.get(token(p)) ?? 0)));
    return idf(n, df);
  });
  const total = weights.reduce((x, w) => x + w, 0);
  // The share of the query the vector stands for: a word neither the index nor the word vectors know (`bitcoin`) is not in it.
  const known = (w: string) => s.df.has(token(stem(w))) || !!s.vectors?.index.has(w);
  let explained = 0;
  terms.forEach((t, i) => {
    const spanned = a.expansion.spans.some((sp) => sp.at < t.at + t.n && t.at < sp.at + sp.n);
    if (spanned || known(t.word) || (t.parts.length > 0 && t.parts.every((p) => s.df.has(token(p))))) explained += weights[i]!;
  });
  const share = s.embedder?.kind === 'remote' || total <= 0 ? 1 : explained / total;
  const cos = new Map<string, number>();
  if (qv && mode !== 'bm25') {
    const where: Record<string, { eq: string }> = {};
    if (req.type) where.type = { eq: req.type };
    if (req.lang) where.lang = { eq: req.lang };
    const r = sync(
      search(s.db, { mode: 'vector', vector: { value: qv, property: 'embedding' }, similarity: COS_FLOOR, where, limit: n } as never),
    ) as unknown as { hits: OramaHit[] };
    for (const h of r.hits) cos.set(h.id, h.score);
  }
  const texts = mode === 'vector' ? new Map<number, number>() : textEvidence(s, terms, alts, weights, total);
  const out: Evidence[] = [];
  for (const { internal, doc } of s.docs) {
    if ((req.type && doc.type !== req.type) || (req.lang && doc.lang !== req.lang)) continue;
    const text = texts.get(internal) ?? 0;
    const c = qv && mode !== 'bm25' ? (cos.get(doc.id) ?? null) : null;
    const v = c === null ? 0 : share * Math.min(1, Math.max(0, (c - COS_FLOOR) / (COS_FULL - COS_FLOOR)));
    const score = mode === 'bm25' || (mode === 'hybrid' && !qv) ? text : mode === 'vector' ? v : 1 - (1 - W_TEXT * text) * (1 - W_VECTOR * v);
    out.push({ doc, text, cos: c, share, score });
  }
  return out;
}

/** Rank the documents for a query whose vector is known (or null: text evidence alone): synchronous. */
export function rank(s: SearchState, req: SearchRequest, x: Expansion, qv: Float32Array | null, mode: SearchMode = 'hybrid', a?: Analysis): SearchHitOut[] {
  const analysis = a ?? analyse(s.analyser, req.q);
  const ranked = evidence(s, req, analysis, qv, mode)
    .filter((e) => e.score >= THRESHOLD)
    .sort((p, q) => q.score - p.score || (p.doc.id < q.doc.id ? -1 : 1));
  // One hit per translation group when no language is asked for.
  let out: { doc: IndexedDoc; score: number }[] = ranked;
  if (!req.lang) {
    const best = new Map<string, { doc: IndexedDoc; score: number; key: number }>();
    for (const e of ranked) {
      const key = e.score + (e.doc.lang === analysis.lang ? LANG_EDGE : 0);
      const prior = best.get(e.doc.group);
      if (!prior || key > prior.key) best.set(e.doc.group, { doc: e.doc, score: e.score, key });
    }
    out = [...best.values()].sort((p, q) => q.score - p.score || q.key - p.key || (p.doc.id < q.doc.id ? -1 : 1));
  }
  const marks = new Set<string>();
  for (const t of analysis.terms) {
    marks.add(t.stem);
    marks.add(stem(t.typed));
    for (const p of t.parts) marks.add(p);
  }
  for (const w of x.marks) marks.add(stem(w));
  return out.slice(0, req.limit).map(({ doc, score }) => {
    const snip = snippet(preparedText(s, doc), marks);
    return {
      type: doc.type,
      id: doc.doc_id,
      lang: doc.lang,
      title: doc.title,
      snippet: snip.text,
      highlights: snip.highlights,
      score: Math.round(score * 1e4) / 1e4,
      url: doc.url,
    };
  });
}

function preparedText(s: SearchState, doc: IndexedDoc): PreparedText {
  let p = s.prepared.get(doc.id);
  if (!p) {
    p = prepareText(doc.body ? `${doc.summary} ${doc.body}` : doc.summary, s.analyser.splitter);
    s.prepared.set(doc.id, p);
  }
  return p;
}

/**
 * Restore a build's search index now rather than on its first search (call it when a build is
 * loaded), and run one search through it: the first search of a process compiles the ranking
 * code and cuts the snippet text of the documents it returns, 40–60 ms on this machine where the
 * next ones take 2–20 ms (bench/attack.ts). With an embeddings endpoint the query is ranked by
 * keywords only, so loading a build never waits on, or pays for, a remote call.
 */
export function warmSearch(b: LoadedBuild): void {
  searchState(b);
  void searchBuild(b, { q: 'cobalt supply from the Congo', limit: 10 }, b.embeddings ? 'bm25' : 'hybrid').catch(() => undefined);
}

/** Analyse and embed a query against a build's search state. */
export async function prepareQuery(b: LoadedBuild, q: string, mode: SearchMode = 'hybrid') {
  const s = searchState(b);
  const analysis = analyse(s.analyser, q);
  const qv = mode === 'bm25' ? null : await queryVector(s, q, analysis.expansion, b.embeddings ?? null);
  return { s, analysis, qv };
}

/** Search a build: analyse the query (spelling, compounds, language, expansion), embed it (through the build's embeddings endpoint, if any), rank. */
export async function searchBuild(b: LoadedBuild, req: SearchRequest, mode: SearchMode = 'hybrid'): Promise<SearchHitOut[]> {
  const { s, analysis, qv } = await prepareQuery(b, req.q, mode);
  return rank(s, req, analysis.expansion, qv, mode, analysis);
}
