/**
 * Query analysis (docs/search.md): the words of a query checked against the vocabulary of the
 * index, misspelt words corrected (lib/search/spell.ts), compound words split
 * (lib/search/text.ts `Splitter`), the language guessed from the corrected words, and the
 * expansion into English for the vector side (lib/search/lexicon.ts).
 */
import { LANGS, type Lang } from '../../contract/languages.ts';
import { expandQuery, noVotes, pickLang, type Expansion, type Lexicon, type LexiconFile } from './lexicon.ts';
import { Corrector, maxEdits, spellBudget } from './spell.ts';
import { STOP_WORDS, isStopWord, stem, words, type Splitter } from './text.ts';

/** The words of the index: in how many documents each occurs, and in which languages (bit i: LANGS[i]). */
export interface Vocabulary {
  df: Map<string, number>;
  /** The languages of the documents whose text (title, summary, body) holds the word. */
  langs: Map<string, number>;
  /** Stems of every word, so an inflected form the documents do not use still counts as known. */
  stems: Set<string>;
}

export interface VocabularyDoc {
  lang: Lang;
  title: string;
  summary: string;
  body: string;
  tags: string;
}

export function buildVocabulary(docs: Iterable<VocabularyDoc>, lexicon: LexiconFile): Vocabulary {
  const df = new Map<string, number>();
  const langs = new Map<string, number>();
  for (const d of docs) {
    const bit = 1 << LANGS.indexOf(d.lang);
    // The language of a word from the text only: the tags carry slugs and codes in every language.
    const text = new Set(words(`${d.title} ${d.summary} ${d.body}`));
    for (const w of new Set([...text, ...words(d.tags)])) {
      if (isStopWord(w)) continue;
      df.set(w, (df.get(w) ?? 0) + 1);
      if (text.has(w)) langs.set(w, (langs.get(w) ?? 0) | bit);
    }
  }
  for (const phrase of Object.keys(lexicon.entries)) for (const w of phrase.split(' ')) if (!isStopWord(w) && !df.has(w)) df.set(w, 1);
  return { df, langs, stems: new Set([...df.keys()].map(stem)) };
}

export interface Analyser {
  vocabulary: Vocabulary;
  corrector: Corrector;
  splitter: Splitter;
  lexicon: Lexicon;
  /** Words of the English word vectors (known words, never corrected). */
  isEnglishWord: (w: string) => boolean;
  /** The expansion table read backwards: English word → language → the words of the phrases that mean it. */
  reverse: Map<string, Map<Lang, Set<string>>>;
}

export function makeAnalyser(vocabulary: Vocabulary, splitter: Splitter, lexicon: Lexicon, isEnglishWord: (w: string) => boolean = () => false): Analyser {
  const reverse = new Map<string, Map<Lang, Set<string>>>();
  for (const [phrase, e] of lexicon.phrases) {
    for (const en of e.to) {
      let byLang = reverse.get(en);
      if (!byLang) reverse.set(en, (byLang = new Map()));
      for (const l of e.langs) {
        let set = byLang.get(l);
        if (!set) byLang.set(l, (set = new Set()));
        for (const w of phrase.split(' ')) if (!isStopWord(w)) set.add(w);
      }
    }
  }
  return { vocabulary, corrector: new Corrector(vocabulary.df), splitter, lexicon, isEnglishWord, reverse };
}

/** The languages of the documents a word occurs in. */
const langsOf = (v: Vocabulary, w: string): Lang[] => {
  const bits = v.langs.get(w) ?? 0;
  return LANGS.filter((_, i) => bits & (1 << i));
};
/** One vote shared among the languages. */
const vote = (votes: Record<Lang, number>, ls: readonly Lang[], weight = 1) => {
  for (const l of ls) votes[l] += weight / ls.length;
};

/** One content word of a query. */
export interface QueryTerm {
  /** The word searched for (normalised; corrected when it was misspelt). */
  word: string;
  /** The word as typed (normalised). */
  typed: string;
  /** Its index term (stem). */
  stem: string;
  /** The stems of its parts when it is a compound (`kupferpreis` → kupfer, preis), else empty. */
  parts: string[];
  /** Where its word (or its parts) stand in `Analysis.words`. */
  at: number;
  n: number;
}

export interface Analysis {
  terms: QueryTerm[];
  /** The query's words after correction, unknown compounds replaced by their parts, stop words kept (for the expansion's phrases). */
  words: string[];
  /** The query's language: a language asked for, or the best guess from the (corrected) words. */
  lang: Lang;
  expansion: Expansion;
}

export function analyse(a: Analyser, q: string, lang?: Lang): Analysis {
  const { vocabulary: v, splitter, corrector, lexicon } = a;
  const known = (w: string) =>
    v.df.has(w) || v.stems.has(stem(w)) || lexicon.phrases.has(w) || lexicon.stems.has(stem(w)) || a.isEnglishWord(w) || isStopWord(w);
  const terms: QueryTerm[] = [];
  const out: string[] = [];
  const ws = words(q);
  // The language the words typed right point to, if any: a correction must be a word of it (`Wetter` is no `weiter` in an English query).
  const before = noVotes();
  for (const w of ws) vote(before, isStopWord(w) ? LANGS.filter((l) => STOP_WORDS[l].has(w)) : langsOf(v, w));
  const hint = LANGS.some((l) => before[l] > 0) ? pickLang(before) : null;
  const fits = hint ? (c: string) => langsOf(v, c).length === 0 || langsOf(v, c).includes(hint) : undefined;
  // One fixed budget of spelling work per query, whatever it holds (lib/search/spell.ts).
  const budget = spellBudget();
  for (const typed of ws) {
    if (isStopWord(typed) || (typed.length < 2 && !/\d/.test(typed))) {
      out.push(typed);
      continue;
    }
    let word = typed;
    let parts = splitter.split(word);
    if (!known(word) && !parts) {
      const c = corrector.correct(word, maxEdits(word.length), fits, budget);
      if (c) {
        word = c.word;
        parts = splitter.split(word);
      } else {
        // A compound whose last part is misspelt (`Kupferpries`).
        const split = splitter.splitTail(word, (tail) => !!corrector.correct(tail, Math.min(1, maxEdits(tail.length)), undefined, budget));
        if (split) parts = split.map((p) => (known(p) ? p : (corrector.correct(p, Math.min(1, maxEdits(p.length)), undefined, budget)?.word ?? p)));
      }
    }
    // The vector side and the expansion table know a compound's parts better than the compound, unless the table has it.
    const own = parts && !lexicon.phrases.has(word) && !lexicon.stems.has(stem(word)) && !v.df.has(word) ? parts : [word];
    terms.push({ word, typed, stem: stem(word), parts: parts?.map(stem) ?? [], at: out.length, n: own.length });
    out.push(...own);
  }
  const expansion = expandQuery(lexicon, out, a.isEnglishWord);
  // The language: each stop word votes for the languages it is a stop word of, each other word
  // for the languages of the documents it occurs in (a misspelt word as its correction), one vote
  // shared among them, so a word of several languages (cobalt, Congo) weighs little; each phrase
  // of the expansion table adds half a vote for the languages of its entry.
  const votes = noVotes();
  for (const w of out)
    if (isStopWord(w))
      vote(
        votes,
        LANGS.filter((l) => STOP_WORDS[l].has(w)),
      );
  for (const t of terms) vote(votes, langsOf(v, t.word));
  for (const sp of expansion.spans) {
    const e = lexicon.phrases.get(out.slice(sp.at, sp.at + sp.n).join(' ')) ?? (sp.n === 1 ? lexicon.stems.get(stem(out[sp.at]!)) : undefined);
    if (e) vote(votes, e.langs, 0.5);
  }
  const guess = lang ?? pickLang(votes);
  return { terms, words: out, lang: guess, expansion: { ...expansion, lang: guess, votes } };
}

/**
 * The words of each term in another language (stems), through the expansion table: the term's
 * English words (its table entry's, or itself), then every phrase of `target` that means one of
 * them (`copper` → `kupfer` in German, `pénurie` → `shortage` → `escasez`, `falta` in Spanish).
 * For a search whose `lang` differs from the query's.
 */
export function translations(a: Analyser, x: Analysis, target: Lang): string[][] {
  return x.terms.map((t) => {
    const english = new Set<string>();
    for (const sp of x.expansion.spans) if (sp.at < t.at + t.n && t.at < sp.at + sp.n) for (const e of sp.to) english.add(e);
    if (!english.size) english.add(t.word);
    const out = new Set<string>();
    for (const e of english) {
      if (target === 'en') out.add(stem(e));
      for (const w of a.reverse.get(e)?.get(target) ?? []) out.add(stem(w));
    }
    out.delete(t.stem);
    return [...out];
  });
}
