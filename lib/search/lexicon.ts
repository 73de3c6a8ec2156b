/**
 * Query expansion into the English space of the word vectors (`search/lexicon.json` of a build,
 * written by pipeline/search): French, German and Spanish words and phrases (the domain lexicon
 * data/search-lexicon.yaml, the catalogue's commodity aliases, country names) map to English
 * words; English paraphrase words gain the concept words the corpus uses.
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

export interface Expansion {
  /** Words for the vector side, with weights (English concept words, and the query's own words). */
  items: WeightedWord[];
  /** Every word the expansion used, for marking snippets (English concept words included). */
  marks: string[];
  /** Best guess of the query's language. */
  lang: Lang;
}

/**
 * Expand a query: the longest known phrase first at each position (`mer noire` → black sea,
 * `terres rares` → rare earths); a foreign word is replaced by its English words, an English
 * word is kept and joined by its concept words; unknown words are kept as they are (the
 * vector table skips the ones it does not know). Stop words are dropped. The language guess
 * counts stop words, lexicon entries and (through `isEnglishWord`) words of the English vectors.
 */
export function expandQuery(lex: Lexicon, q: string, isEnglishWord: (w: string) => boolean = () => false): Expansion {
  const ws = words(q);
  const items: WeightedWord[] = [];
  const marks: string[] = [];
  const votes: Record<Lang, number> = { en: 0, fr: 0, de: 0, es: 0 };
  for (const w of ws) for (const l of LANGS) if (STOP_WORDS[l].has(w)) votes[l] += 1;
  for (let i = 0; i < ws.length;) {
    let matched = 0;
    for (let n = Math.min(lex.longest, ws.length - i); n >= 1 && !matched; n--) {
      const phrase = ws.slice(i, i + n).join(' ');
      const e = lex.phrases.get(phrase) ?? (n === 1 ? lex.stems.get(stem(phrase)) : undefined);
      if (!e || (n === 1 && isStopWord(phrase))) continue;
      matched = n;
      for (const l of e.langs) votes[l] += 2 * n;
      const english = e.langs.includes('en');
      // An English phrase stays itself; its concept words come in at a lower weight.
      if (english) for (const x of ws.slice(i, i + n)) items.push({ word: x, weight: 1 });
      for (const t of e.to) items.push({ word: t, weight: english ? 0.5 : 1 / Math.max(1, Math.sqrt(e.to.length) * 0.8) });
      marks.push(...ws.slice(i, i + n), ...e.to);
    }
    if (!matched) {
      const w = ws[i]!;
      if (!isStopWord(w)) {
        if (isEnglishWord(w)) votes.en += 1;
        items.push({ word: w, weight: 1 });
        marks.push(w);
      }
      i += 1;
    } else i += matched;
  }
  let lang: Lang = 'en';
  for (const l of LANGS) if (votes[l] > votes[lang]) lang = l;
  return { items, marks, lang };
}
