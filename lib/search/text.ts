/**
 * Text handling shared by the index builder (pipeline/search) and the query side (api/search):
 * one normalisation, one tokeniser, one light stemmer for the four languages and one splitter of
 * compound words, so a word is cut the same way when it is indexed and when it is searched for.
 * No Node built-ins: this runs on an edge runtime too.
 */
import type { Lang } from '../../contract/languages.ts';

/** Lower case, accents removed (NFKD, marks dropped), ß → ss. */
export function normalise(s: string): string {
  return s.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '').replace(/ß/g, 'ss').replace(/œ/g, 'oe').replace(/æ/g, 'ae');
}

/** Words (letters and digits) of a text, normalised, in order; no stop-word removal. */
export function words(s: string): string[] {
  return normalise(s).match(/[\p{L}\p{N}]+/gu) ?? [];
}

const list = (s: string) => s.trim().split(/\s+/);

/**
 * Function words of the four languages (normalised), question words included. Never indexed,
 * never searched for. (Orama's stop-word lists, @orama/stopwords, were measured against these on
 * the dev set and did no better: docs/search.md.)
 */
type StopLists = Readonly<Record<Lang, ReadonlySet<string>>>;
export const STOP_WORDS: StopLists = {
  en: new Set(
    list(`a an the and or but if of to in on at by for from with without into onto over under about as is are was were be been being
    it its this that these those there here than then so such not no nor do does did done have has had having will would can could should
    may might must shall we our you your they their them he his she her i me my what which who whom whose when where why how all any
    each both more most other some same only own very also just up down out off again further once s t
    much many happens happen happened tell know let get got`),
  ),
  fr: new Set(
    list(`le la les l un une des du de d et ou mais donc or ni car a au aux en dans par pour sur sous avec sans chez entre vers
    ce cet cette ces c ceci cela ca qui que qu quoi dont ou est sont etait etaient etre ete avoir a ont avait avaient sera seront
    il ils elle elles on nous vous je j me m te t se s lui leur leurs son sa ses mon ma mes ton ta tes notre nos votre vos
    ne n pas plus moins tres aussi comme si y tout tous toute toutes quel quelle quels quelles
    pourquoi comment combien quand passe-t-il t est-ce peut`),
  ),
  de: new Set(
    list(`der die das den dem des ein eine einer eines einem einen und oder aber doch denn in im ins an am auf aus bei mit nach
    von vom zu zum zur fur uber unter vor hinter neben zwischen durch gegen ohne um ist sind war waren sein wird werden wurde wurden hat
    haben hatte hatten es er sie wir ihr ich du man sich nicht kein keine keinen noch schon auch nur sehr wie als wenn dass ob so
    was wer wo warum welche welcher welches dieser diese dieses diesem diesen jener
    wieso weshalb wieviel wieviele passiert geworden mehr`),
  ),
  es: new Set(
    list(`el la los las lo un una unos unas y e o u pero sino ni de del a al en con sin por para sobre bajo entre hacia hasta
    desde segun que quien quienes cual cuales cuando donde como es son era eran ser sido estar esta estan fue fueron ha han habia
    se su sus le les me te nos os mi mis tu tus nuestro nuestra no mas muy tambien ya este esta estos estas ese esa esos esas
    por que porque cuanto cuanta cuantos cuantas pasa`),
  ),
};
const ALL_STOP = new Set([...STOP_WORDS.en, ...STOP_WORDS.fr, ...STOP_WORDS.de, ...STOP_WORDS.es]);
/** True for a function word of any of the four languages. */
export const isStopWord = (w: string) => ALL_STOP.has(w);

/**
 * A light stemmer for en, fr, de and es alike (inflection only: plurals, the commonest endings,
 * and the feminine and masculine endings of French and Spanish adjectives), applied identically
 * to documents and queries. `supplies`/`supply` → `suppli`, `réserves`/`reserves`/`Reserven` →
 * `reserv`, `Preise`/`prices` → `preis`/`pric`, `chinoises`/`chinois` → `chinois`,
 * `europeas`/`europeos`/`Europe` → `europ`. (Orama's Snowball stemmers, @orama/stemmers, need the language of
 * each word; measured on the dev set they did no better: docs/search.md.)
 */
export function stem(w: string): string {
  if (w.length <= 4 || /\d/.test(w)) return w;
  let s = w;
  if (s.endsWith('ies')) s = s.slice(0, -2);
  else if (s.endsWith('y')) s = `${s.slice(0, -1)}i`;
  else if (s.endsWith('s') && !/(ss|us|is)$/.test(s)) s = s.slice(0, -1);
  if (s.length > 5 && s.endsWith('en')) s = s.slice(0, -2);
  else while (s.length > 4 && /[eao]$/.test(s)) s = s.slice(0, -1);
  return s;
}

/**
 * Splits compound words (German above all: `Kupferpreis` → `kupfer` + `preis`,
 * `Gasspeicherständen` → `gasspeicher` + `standen`, then `gas` + `speicher`) into words of a
 * dictionary, with the linking elements `s`, `es`, `n`, `en`. The dictionary (stems, at least 3
 * letters) is written into the build by the pipeline (search/lexicon.json), so the documents and
 * the queries are split the same way.
 */
export class Splitter {
  readonly dict: ReadonlySet<string>;
  private readonly memo = new Map<string, string[] | null>();
  constructor(dict: Iterable<string>) {
    this.dict = new Set(dict);
  }
  has(w: string): boolean {
    return w.length >= MIN_PART && (this.dict.has(w) || this.dict.has(stem(w)));
  }
  /** The parts of a compound (each a normalised word, not stemmed), longest head first; null when it is no compound of dictionary words. */
  split(w: string): string[] | null {
    if (w.length < 2 * MIN_PART || /\d/.test(w)) return null;
    let r = this.memo.get(w);
    if (r === undefined) {
      r = this.splitTail(w, (tail) => this.has(tail));
      if (this.memo.size > 50_000) this.memo.clear();
      this.memo.set(w, r);
    }
    return r;
  }
  /** Like `split`, with `isTail` deciding whether the last part is acceptable (the query side passes a spelling-tolerant test). */
  splitTail(w: string, isTail: (tail: string) => boolean): string[] | null {
    for (let i = w.length - MIN_PART; i >= MIN_PART; i--) {
      const head = w.slice(0, i);
      if (!this.has(head)) continue;
      for (const link of LINKS) {
        if (!w.startsWith(link, i)) continue;
        const tail = w.slice(i + link.length);
        if (tail.length < MIN_PART) continue;
        if (isTail(tail)) return [...(this.split(head) ?? [head]), ...(this.split(tail) ?? [tail])];
        const rest = this.splitTail(tail, isTail);
        if (rest) return [...(this.split(head) ?? [head]), ...rest];
      }
    }
    return null;
  }
}
const MIN_PART = 3;
const LINKS = ['', 's', 'es', 'n', 'en'];
export const NO_SPLITTER = new Splitter([]);

/** Index/search terms of a text: normalised words, stop words dropped, stemmed; a compound adds its parts. */
export function terms(s: string, splitter: Splitter = NO_SPLITTER): string[] {
  const out: string[] = [];
  for (const w of words(s)) {
    if (ALL_STOP.has(w) || (w.length < 2 && !/\d/.test(w))) continue;
    out.push(stem(w));
    const parts = splitter.split(w);
    if (parts) for (const p of parts) if (!ALL_STOP.has(p)) out.push(stem(p));
  }
  return out;
}

/** The token Orama indexes for a term: closed with `_`, so that Orama's prefix match is a whole-word match (`gas` does not find `gasoline`). */
export const token = (term: string) => `${term}_`;

/** Orama tokenizer component using `terms` (each token closed by `token`). */
export function oramaTokenizer(splitter: Splitter = NO_SPLITTER) {
  return {
    language: 'english',
    normalizationCache: new Map<string, string>(),
    tokenize(raw: string): string[] {
      if (typeof raw !== 'string') return [raw];
      return [...new Set(terms(raw, splitter).map(token))];
    },
  };
}

/**
 * Markdown to plain text: headings, emphasis, links, code marks and list bullets dropped. A
 * heading ends its own sentence (a full stop where it has no closing mark), so a snippet never
 * runs it into the paragraph below ("managed scarcity A year ago").
 */
export function plainText(md: string): string {
  return md
    .replace(/^\s{0,3}#{1,6}\s+(.*?)[ \t#]*$/gm, (_m, h: string) => (/[.!?:;…]$/.test(h) ? h : `${h}.`))
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|[-*+]|\d+\.|>)\s+/gm, '')
    .replace(/[*_`]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A text cut into sentences and tokens, each token with its stems (and its compound parts' stems), and where each stem occurs: prepared once per document. */
export interface PreparedText {
  sentences: { tokens: string[]; stems: string[][] }[];
  /** stem → the sentences holding it, in order. */
  where: Map<string, number[]>;
}

export function prepareText(text: string, splitter: Splitter = NO_SPLITTER): PreparedText {
  const parts =
    text
      .match(/[^.!?]+(?:[.!?]+(?=\s|$)|$)/g)
      ?.map((x) => x.trim())
      .filter(Boolean) ?? [];
  const where = new Map<string, number[]>();
  const sentences = (parts.length ? parts : [text]).map((sentence, i) => {
    const tokens = sentence.split(/\s+/).filter(Boolean);
    const stems = tokens.map((t) => words(t).flatMap((w) => [stem(w), ...(splitter.split(w)?.map(stem) ?? [])]));
    for (const ts of stems)
      for (const x of ts) {
        const at = where.get(x);
        if (!at) where.set(x, [i]);
        else if (at.at(-1) !== i) at.push(i);
      }
    return { tokens, stems };
  });
  return { sentences, where };
}

/** A passage of plain text and the spans in it that matched the query: `[start, end)` offsets in UTF-16 code units (JavaScript string indices). */
export interface Snippet {
  text: string;
  highlights: [number, number][];
}

/**
 * The passage of a text (plain text, or prepared) that best matches `marks` (stemmed terms):
 * the sentence with the most distinct matched terms (the first one if none matches), then the
 * following ones while there is room, cut to about `max` characters around the first match.
 * Plain text (nothing escaped: it is for the client to escape), with the matched words as
 * offsets.
 */
export function snippet(input: string | PreparedText, marks: ReadonlySet<string>, max = 240): Snippet {
  const text = typeof input === 'string' ? prepareText(input) : input;
  const count = new Map<number, number>();
  for (const m of marks) for (const i of text.where.get(m) ?? []) count.set(i, (count.get(i) ?? 0) + 1);
  let best = 0;
  let bestScore = 0;
  for (const [i, n] of count) if (n > bestScore || (n === bestScore && i < best)) [best, bestScore] = [i, n];
  const tokens: string[] = [];
  const stems: string[][] = [];
  let length = 0;
  for (let i = best; i < text.sentences.length && (i === best || length < max * 0.6); i++) {
    const s = text.sentences[i]!;
    tokens.push(...s.tokens);
    stems.push(...s.stems);
    length += s.tokens.reduce((n, t) => n + t.length + 1, 0);
  }
  const matches = (i: number) => stems[i]!.some((x) => marks.has(x));
  let first = 0;
  while (first < tokens.length && !matches(first)) first++;
  if (first === tokens.length) first = 0;
  let start = 0;
  let before = 0;
  for (let i = 0; i <= first && i < tokens.length; i++) before += tokens[i]!.length + 1;
  if (before > max * 0.5) start = Math.max(0, first - 6);
  let out = start > 0 ? '… ' : '';
  const highlights: [number, number][] = [];
  let used = 0;
  let i = start;
  for (; i < tokens.length && used < max; i++) {
    const t = tokens[i]!;
    if (i > start) out += ' ';
    if (matches(i)) {
      // The word part of the token, punctuation around it left out.
      const m = /^([^\p{L}\p{N}]*)(.*?)[^\p{L}\p{N}]*$/u.exec(t)!;
      const at = out.length + m[1]!.length;
      if (m[2]!.length) highlights.push([at, at + m[2]!.length]);
    }
    out += t;
    used += t.length + 1;
  }
  if (i < tokens.length) out += ' …';
  return { text: out, highlights };
}

/** A snippet with its highlights wrapped in `<mark>…</mark>` and everything else HTML-escaped (for a page that wants markup). */
export function snippetHtml(s: Snippet): string {
  let out = '';
  let at = 0;
  for (const [a, b] of s.highlights) {
    out += `${escapeHtml(s.text.slice(at, a))}<mark>${escapeHtml(s.text.slice(a, b))}</mark>`;
    at = b;
  }
  return out + escapeHtml(s.text.slice(at));
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
