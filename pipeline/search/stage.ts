import { insertMultiple, save } from '@orama/orama';
import type { Briefing, Scenario } from '../../contract/content.ts';
import {
  SEARCH_INDEX,
  SEARCH_LEXICON,
  SEARCH_VECTORS,
  createSearchDb,
  hitUrl,
  type Embedder,
  type IndexFile,
  type IndexedDoc,
} from '../../lib/search/format.ts';
import type { Lang, LexiconFile } from '../../lib/search/lexicon.ts';
import { embedRemote, type EmbeddingsConfig } from '../../lib/search/remote.ts';
import { Splitter, isStopWord, plainText, stem, words } from '../../lib/search/text.ts';
import { decodeVectors, encodeVectors, textVector, unit, type VectorTable, type WeightedWord } from '../../lib/search/vectors.ts';
import type { Commodity } from '../catalogue.ts';
import type { Logger } from '../effects.ts';
import type { BuildWriter } from '../publish.ts';
import { WINK_PACKAGE, distil, sifWeight, type Distilled } from './distil.ts';
import { buildLexicon, readLexiconYaml, type CountryNameSource } from './lexicon.ts';

export interface SearchIndexInput {
  briefings: readonly Briefing[];
  scenarios: readonly Scenario[];
  catalogue: readonly Commodity[];
  /** Country names in the four languages (pipeline/names.ts); optional. */
  names?: CountryNameSource;
  /** Where data/search-lexicon.yaml lives (default: the repository's data/). */
  dataDir?: string;
  log?: Logger;
  /** For the embeddings endpoint (default: global fetch). */
  fetch?: typeof fetch;
  /** An OpenAI-compatible embeddings endpoint for the documents (EMBEDDINGS_*, from the caller's configuration); absent or null: the local word vectors. */
  embeddings?: EmbeddingsConfig | null;
}

export interface SearchIndexSummary {
  documents: number;
  embedder: Embedder;
  words: number;
  bytes: Record<string, number>;
}

/** Likely query words: the most frequent words of the embedding's corpus, kept whatever the content. */
export const TOP_WORDS = 30_000;
/**
 * Relative weight of each part of a document in its vector. The body is left out: averaged word
 * vectors of a long text drift towards the corpus's common vocabulary, and the title, summary and
 * names say what the document is about (measured on the dev set: docs/search.md).
 */
const PART_WEIGHTS = { title: 3, summary: 2, tags: 1, body: 0 } as const;
const DOC_EMBED_CHARS = 6000;

const LANG_NAMES = (lang: Lang, date: string) =>
  new Intl.DateTimeFormat(lang, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));

/** The documents of the index: every briefing, every scenario in English and in each translation. */
export function searchDocs(input: Pick<SearchIndexInput, 'briefings' | 'scenarios' | 'catalogue' | 'names'>): Omit<IndexedDoc, 'embedding'>[] {
  const commodity = new Map(input.catalogue.map((c) => [c.slug, c]));
  const tags = (lang: Lang, slugs: readonly string[], iso3s: readonly string[], dates: readonly string[]) =>
    [
      ...slugs.flatMap((s) => {
        const c = commodity.get(s);
        return c ? [c.names[lang], c.slug, ...c.aliases[lang]] : [s];
      }),
      ...iso3s.flatMap((i) => [input.names?.namesOf3(i)[lang] ?? '', i]),
      ...dates.flatMap((d) => [d, LANG_NAMES(lang, d)]),
    ]
      .filter(Boolean)
      .join(' · ');
  const out: Omit<IndexedDoc, 'embedding'>[] = [];
  for (const b of input.briefings) {
    out.push({
      id: `briefing:${b.id}`,
      doc_id: b.id,
      group: b.translation_key,
      type: 'briefing',
      lang: b.lang,
      title: b.title,
      summary: plainText(b.summary),
      body: plainText(b.body),
      tags: tags(b.lang, b.commodities, b.countries, [b.published_at]),
      date: b.published_at,
      url: hitUrl('briefing', b.id, b.lang),
    });
  }
  for (const s of input.scenarios) {
    const versions: [Lang, { title: string; summary: string }][] = [
      ['en', s],
      ...(Object.entries(s.translations) as [Lang, { title: string; summary: string }][]),
    ];
    for (const [lang, t] of versions) {
      out.push({
        id: `scenario:${s.id}:${lang}`,
        doc_id: s.id,
        group: `scenario:${s.id}`,
        type: 'scenario',
        lang,
        title: t.title,
        summary: t.summary,
        body: '',
        tags: `${tags(lang, s.commodities, s.countries, [s.updated_at])} · ${s.status}`,
        date: s.updated_at,
        url: hitUrl('scenario', s.id, lang),
      });
    }
  }
  return out;
}

/** The words of a document for its local vector, each part weighted (English text; stop words dropped). */
function docWords(d: Omit<IndexedDoc, 'embedding'>): WeightedWord[] {
  const out: WeightedWord[] = [];
  for (const part of ['title', 'summary', 'tags', 'body'] as const) {
    if (!PART_WEIGHTS[part]) continue;
    for (const w of words(d[part])) if (!isStopWord(w) && !/^\d+$/.test(w)) out.push({ word: w, weight: PART_WEIGHTS[part] });
  }
  return out;
}

/**
 * Build the search index of a build and write it with the distilled vectors and the expansion
 * table (docs/search.md). Local vectors by default; with `input.embeddings` (EMBEDDINGS_BASE_URL),
 * the documents are embedded by that endpoint (on failure: a warning and the local vectors).
 */
export async function publishSearchIndex(writer: BuildWriter, input: SearchIndexInput): Promise<SearchIndexSummary> {
  const yaml = await readLexiconYaml(input.dataDir ?? new URL('../../data', import.meta.url).pathname);
  const docs = searchDocs(input);
  const lexicon: LexiconFile = {
    ...buildLexicon(yaml, input.catalogue, input.names),
    split: splitDictionary(docs, Object.keys(yaml.de ?? {}), input.catalogue),
  };
  const remote = input.embeddings ?? null;
  let vectors: Float32Array[] | undefined;
  let embedder: Embedder | undefined;
  let table: Uint8Array | undefined;
  let wordCount = 0;
  if (remote) {
    try {
      vectors = await embedDocsRemote(remote, docs, input.fetch ?? fetch);
      embedder = { kind: 'remote', model: remote.model, dims: vectors[0]?.length ?? 0 };
    } catch (err) {
      input.log?.warn(`search: embeddings endpoint failed (${err instanceof Error ? err.message : String(err)}); using the local word vectors`);
    }
  }
  if (!vectors || !embedder) {
    const local = localVectors(docs, lexicon);
    vectors = local.vectors;
    table = local.table;
    wordCount = local.words;
    embedder = { kind: 'local', source: local.source, dims: local.dims };
  }

  const db = createSearchDb(embedder.dims, new Splitter(lexicon.split ?? []));
  const full: IndexedDoc[] = docs.map((d, i) => ({ ...d, embedding: Array.from(vectors[i]!, (x) => Math.round(x * 1e5) / 1e5) }));
  const inserted = insertMultiple(db, full as never);
  if (inserted instanceof Promise) await inserted;
  const file: IndexFile = { version: 1, embedder, documents: full.length, orama: save(db) };
  const bytes: Record<string, number> = {};
  const write = async (path: string, body: string | Buffer, type: string) => {
    await writer.raw(path, body, type);
    bytes[path] = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  };
  await write(SEARCH_INDEX, JSON.stringify(file), 'application/json; charset=utf-8');
  await write(SEARCH_LEXICON, JSON.stringify(lexicon), 'application/json; charset=utf-8');
  if (table) await write(SEARCH_VECTORS, Buffer.from(table.buffer, table.byteOffset, table.byteLength), 'application/octet-stream');
  return { documents: full.length, embedder, words: wordCount, bytes };
}

async function embedDocsRemote(cfg: EmbeddingsConfig, docs: readonly Omit<IndexedDoc, 'embedding'>[], fetchFn: typeof fetch): Promise<Float32Array[]> {
  const texts = docs.map((d) => `${d.title}\n\n${d.summary}\n\n${d.body}`.slice(0, DOC_EMBED_CHARS));
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += 64) out.push(...(await embedRemote(cfg, texts.slice(i, i + 64), fetchFn, Math.max(cfg.timeoutMs, 30_000))));
  return out;
}

/**
 * The dictionary compound words are split with (lib/search/text.ts `Splitter`): the stems of the
 * words of the German documents, of the German side of the lexicon and of the German commodity
 * names and aliases, at least 3 letters, stop words and numbers left out.
 */
export function splitDictionary(docs: readonly Omit<IndexedDoc, 'embedding'>[], lexiconDe: readonly string[], catalogue: readonly Commodity[]): string[] {
  const out = new Set<string>();
  const add = (text: string) => {
    for (const w of words(text)) if (w.length >= 3 && !isStopWord(w) && !/\d/.test(w)) out.add(stem(w));
  };
  for (const d of docs) if (d.lang === 'de') add(`${d.title} ${d.summary} ${d.body} ${d.tags}`);
  for (const k of lexiconDe) add(k);
  for (const c of catalogue) add([c.names.de, ...c.aliases.de].join(' '));
  return [...out].sort();
}

let cache: { key: string; distilled: Distilled } | undefined;

/**
 * Local vectors: distil the words the corpus, the expansion table and likely queries need out of
 * the wink embeddings, then embed each English document (a translation takes the vector of
 * its English original, the same meaning; a document without one is read through the table).
 */
function localVectors(docs: readonly Omit<IndexedDoc, 'embedding'>[], lexicon: LexiconFile) {
  const wanted = new Set<string>();
  // Every word of the corpus (the body too: a query may use it), the English words of the table.
  for (const d of docs) for (const w of words(`${d.title} ${d.summary} ${d.tags} ${d.body}`)) if (!isStopWord(w) && !/^\d+$/.test(w)) wanted.add(w);
  for (const [k, e] of Object.entries(lexicon.entries)) {
    for (const w of e.to) wanted.add(w);
    if (e.langs.includes('en')) for (const w of k.split(' ')) wanted.add(w);
  }
  const key = [...wanted].sort().join(' ');
  if (cache?.key !== key) cache = { key, distilled: distil({ wanted, top: TOP_WORDS }) };
  const { dims, size, words: found } = cache.distilled;
  const source = `${WINK_PACKAGE} (GloVe 6B, ${dims}d), ${found.length} words`;
  const input = { dims, source, words: found.map((w) => w.word), vectors: found.map((w) => w.vector), weights: found.map((w) => sifWeight(w.rank, size)) };
  // The common component of English text: the words' vectors weighted by their frequency p(w) and
  // their frequency weight, as an average text would weigh them (SIF's common component, taken
  // from general English rather than from this corpus, so that a query far from the corpus does
  // not come out near the corpus's least typical documents).
  const common = new Float32Array(dims);
  for (const w of found) {
    const p = 1 / ((w.rank + 1) * Math.log(size));
    const k = p * sifWeight(w.rank, size);
    for (let i = 0; i < dims; i++) common[i]! += k * w.vector[i]!;
  }
  unit(common);
  const table = encodeVectors({ ...input, mean: common, common: 'project' });
  // Embed the documents with the (quantised) table the API will use.
  const t = decodeVectors(table);
  const byGroup = new Map<string, Float32Array | null>();
  for (const d of docs) if (d.lang === 'en') byGroup.set(d.group, textVector(t, docWords(d)));
  const vectors = docs.map((d) => byGroup.get(d.group) ?? textVector(t, translated(t, lexicon, d)) ?? new Float32Array(dims));
  return { dims, source, words: found.length, table, vectors };
}

/** A document with no English original, read through the expansion table. */
function translated(t: VectorTable, lexicon: LexiconFile, d: Omit<IndexedDoc, 'embedding'>): WeightedWord[] {
  return docWords(d).flatMap(({ word, weight }) => {
    const e = lexicon.entries[word];
    if (e) return e.to.map((w) => ({ word: w, weight }));
    return t.index.has(word) ? [{ word, weight }] : [];
  });
}
