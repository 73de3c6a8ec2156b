/**
 * The search files of a build, written by pipeline/search/stage.ts and read by api/search:
 * - `search/index.json`: the Orama database (`save()` output: BM25 index, documents, one vector
 *   per document) and how its vectors were made;
 * - `search/vectors.bin`: the distilled word vectors queries are embedded with (local embedder);
 * - `search/lexicon.json`: the query expansion table (fr/de/es and paraphrases → English) and the
 *   dictionary compound words are split with.
 */
import { create } from '@orama/orama';
import { BUILD_PATHS } from '../../contract/layout.ts';
import type { Lang } from './lexicon.ts';
import { NO_SPLITTER, oramaTokenizer, type Splitter } from './text.ts';

export const SEARCH_INDEX = BUILD_PATHS.searchIndex;
export const SEARCH_VECTORS = BUILD_PATHS.searchVectors;
export const SEARCH_LEXICON = BUILD_PATHS.searchLexicon;

export type Embedder = { kind: 'local'; source: string; dims: number } | { kind: 'remote'; model: string; dims: number };

export interface IndexFile {
  version: 1;
  embedder: Embedder;
  /** Documents in the index (every language version counts). */
  documents: number;
  /** Orama `save()` output. */
  orama: unknown;
}

/** One indexed document: a briefing, or a scenario in one language. */
export interface IndexedDoc {
  /** Orama id: `briefing:<id>` or `scenario:<id>:<lang>`. */
  id: string;
  doc_id: string;
  /** The translation group (briefing translation_key, scenario id): one hit per group when no language is asked for. */
  group: string;
  type: 'briefing' | 'scenario';
  lang: Lang;
  title: string;
  summary: string;
  /** Plain text (Markdown removed). */
  body: string;
  /** Commodity and country names in the document's language, commodity slugs, ISO codes, dates. */
  tags: string;
  date: string;
  url: string;
  embedding: number[];
}

export const SEARCH_PROPERTIES = ['title', 'summary', 'body', 'tags'] as const;

/** The Orama database both sides use: same schema, same tokenizer (with the build's compound splitter). */
export function createSearchDb(dims: number, splitter: Splitter = NO_SPLITTER) {
  return create({
    schema: {
      title: 'string',
      summary: 'string',
      body: 'string',
      tags: 'string',
      type: 'enum',
      lang: 'enum',
      embedding: `vector[${dims}]`,
    } as const,
    components: { tokenizer: oramaTokenizer(splitter) },
  });
}
export type SearchDb = ReturnType<typeof createSearchDb>;

/** Address of a hit in the API: the list that holds the record, with the record's id as fragment. */
export function hitUrl(type: 'briefing' | 'scenario', id: string, lang: Lang): string {
  return type === 'briefing' ? `/v1/briefings?lang=${lang}&limit=50#${id}` : `/v1/scenarios#${id}`;
}
