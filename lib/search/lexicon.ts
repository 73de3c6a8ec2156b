/**
 * Query expansion into the English space of the word vectors (`search/lexicon.json` of a build,
 * written by pipeline/search): French, German and Spanish words and phrases (the domain lexicon
 * data/search-lexicon.yaml, the catalogue's commodity aliases, country names) map to English
 * words; English paraphrase words gain the concept words the corpus uses. The same file carries
 * the dictionary compound words are split with (lib/search/text.ts `Splitter`).
 */
import { STOP_WORDS, isStopWord, stem, words } from './text.ts';
import type { WeightedWord } from './vectors.ts';

import { LANGS, type Lang } from '../../contract/languages.ts';

export { LANGS, type Lang };

/** One entry: a normalised phrase (words joined by one space) → English words, with the languages it belongs to. */
export interface LexiconEntry {
  to: string[];
  langs: Lang[];
}

export interface LexiconFile {
  version: 1;
  /** normalised phrase → entry. */
  entries: Record<string, LexiconEntry>;
  /** Stems compound words are split into (German words of the documents and of the lexicon); absent in builds made before it. */
  split?: string[];
}

export interface Lexicon {
  phrases: ReadonlyMap<string, LexiconEntry>;
  /** Single words by stem, so inflected forms (pénuries, Engpässe) find their entry. */
  stems: ReadonlyMap<string, LexiconEntry>;
  longest: number;
}

export function makeLexicon(file: LexiconFile): Lexicon {
  const phrases = new Map(Object.entries(file.entries));
  const stems = new Map<string, LexiconEntry>();
  let longest = 1;
  for (const [k, e] of phrases) {
    const n = k.split(' ').length;
    longest = Math.max(longest, n);
    if (n === 1 && !stems.has(stem(k))) stems.set(stem(k), e);
  }
  return { phrases, stems, longest };
}

export type Votes = Record<Lang, number>;
/** A count of zero for every language. */
export const noVotes = (): Votes => Object.fromEntries(LANGS.map((l) => [l, 0])) as Votes;

export interface Expansion {
  /** Words for the vector side, with weights (English concept words, and the query's own words). */
  items: WeightedWord[];
  /** Every word the expansion used, for marking snippets (English concept words included). */
  marks: string[];
  /** Best guess of the query's language. */
  lang: Lang;
  /** The evidence for each language (stop words, lexicon entries), which the query analysis adds to. */
  votes: Votes;
  /** The phrases found in the table: `n` words from position `at` of the query's words, and their English words. */
  spans: { at: number; n: number; to: string[] }[];
}

/** The language with the most votes; English on a tie (the language of the originals). */
export function pickLang(votes: Votes): Lang {
  let lang: Lang = 'en';
  for (const l of LANGS) if (votes[l] > votes[lang] + 1e-9) lang = l;
  return lang;
}

/**
 * Expand a query (a text, or its words already normalised): the longest known phrase first at
 * each position (`mer noire` → black sea, `terres rares` → rare earths); a foreign word is
 * replaced by its English words, an English word is kept and joined by its concept words;
 * unknown words are kept as they are (the vector table skips the ones it does not know). Stop
 * words are dropped. Each stop word and each lexicon entry votes for its languages, one vote
 * shared among them, so a word common to several languages (gas, Iran) weighs little.
 */
export function expandQuery(lex: Lexicon, q: string | readonly string[], isEnglishWord: (w: string) => boolean = () => false): Expansion {
  const ws = typeof q === 'string' ? words(q) : q;
  const items: WeightedWord[] = [];
  const marks: string[] = [];
  const spans: Expansion['spans'] = [];
  const votes = noVotes();
  for (const w of ws) {
    const ls = LANGS.filter((l) => STOP_WORDS[l].has(w));
    for (const l of ls) votes[l] += 1 / ls.length;
  }
  for (let i = 0; i < ws.length;) {
    let matched = 0;
    for (let n = Math.min(lex.longest, ws.length - i); n >= 1 && !matched; n--) {
      const phrase = ws.slice(i, i + n).join(' ');
      const e = lex.phrases.get(phrase) ?? (n === 1 ? lex.stems.get(stem(phrase)) : undefined);
      if (!e || (n === 1 && isStopWord(phrase))) continue;
      matched = n;
      spans.push({ at: i, n, to: e.to });
      for (const l of e.langs) votes[l] += n / e.langs.length;
      const english = e.langs.includes('en');
      // An English phrase stays itself; its concept words come in at a lower weight.
      if (english) for (const x of ws.slice(i, i + n)) items.push({ word: x, weight: 1 });
      for (const t of e.to) items.push({ word: t, weight: english ? 0.5 : 1 / Math.max(1, Math.sqrt(e.to.length) * 0.8) });
      marks.push(...ws.slice(i, i + n), ...e.to);
    }
    if (!matched) {
      const w = ws[i]!;
      if (!isStopWord(w)) {
        if (isEnglishWord(w)) votes.en += 0.5;
        items.push({ word: w, weight: 1 });
        marks.push(w);
      }
      i += 1;
    } else i += matched;
  }
  return { items, marks, lang: pickLang(votes), votes, spans };
}
