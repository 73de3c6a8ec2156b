/**
 * Text handling shared by the index builder (pipeline/search) and the query side (api/search):
 * one normalisation, one tokeniser and one light stemmer for the four languages, so a word is
 * cut the same way when it is indexed and when it is searched for. No Node built-ins: this runs
 * on an edge runtime too.
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

/** Function words of the four languages (normalised). Never indexed, never searched for. */
type StopLists = Readonly<Record<Lang, ReadonlySet<string>>>;
export const STOP_WORDS: StopLists = {
  en: new Set(
    list(`a an the and or but if of to in on at by for from with without into onto over under about as is are was were be been being
    it its this that these those there here than then so such not no nor do does did done have has had having will would can could should
    may might must shall we our you your they their them he his she her i me my what which who whom whose when where why how all any
    each both more most other some same only own very also just up down out off again further once s t`),
  ),
  fr: new Set(
    list(`le la les l un une des du de d et ou mais donc or ni car a au aux en dans par pour sur sous avec sans chez entre vers
    ce cet cette ces c ceci cela ca qui que qu quoi dont ou est sont etait etaient etre ete avoir a ont avait avaient sera seront
    il ils elle elles on nous vous je j me m te t se s lui leur leurs son sa ses mon ma mes ton ta tes notre nos votre vos
    ne n pas plus moins tres aussi comme si y tout tous toute toutes quel quelle quels quelles`),
  ),
  de: new Set(
    list(`der die das den dem des ein eine einer eines einem einen und oder aber doch denn in im ins an am auf aus bei mit nach
    von vom zu zum zur fur uber unter vor hinter neben zwischen durch gegen ohne um ist sind war waren sein wird werden wurde wurden hat
    haben hatte hatten es er sie wir ihr ich du man sich nicht kein keine keinen noch schon auch nur sehr wie als wenn dass ob so
    was wer wo warum welche welcher welches dieser diese dieses diesem diesen jener`),
  ),
  es: new Set(
    list(`el la los las lo un una unos unas y e o u pero sino ni de del a al en con sin por para sobre bajo entre hacia hasta
    desde segun que quien quienes cual cuales cuando donde como es son era eran ser sido estar esta estan fue fueron ha han habia
    se su sus le les me te nos os mi mis tu tus nuestro nuestra no mas muy tambien ya este esta estos estas ese esa esos esas`),
  ),
};
const ALL_STOP = new Set([...STOP_WORDS.en, ...STOP_WORDS.fr, ...STOP_WORDS.de, ...STOP_WORDS.es]);
/** True for a function word of any of the four languages. */
export const isStopWord = (w: string) => ALL_STOP.has(w);

/**
 * A light stemmer for en, fr, de and es alike (inflection only: plurals and the commonest
 * endings), applied identically to documents and queries. `supplies`/`supply` → `suppli`,
 * `réserves`/`reserves`/`Reserven` → `reserv`, `Preise`/`prices` → `preis`/`pric`.
 */
export function stem(w: string): string {
  if (w.length <= 4 || /\d/.test(w)) return w;
  let s = w;
  if (s.endsWith('ies')) s = s.slice(0, -2);
  else if (s.endsWith('y')) s = `${s.slice(0, -1)}i`;
  else if (s.endsWith('s') && !/(ss|us|is)$/.test(s)) s = s.slice(0, -1);
  if (s.length > 5 && s.endsWith('en')) s = s.slice(0, -2);
  else if (s.length > 4 && s.endsWith('e')) s = s.slice(0, -1);
  return s;
}

/** Index/search terms of a text: normalised words, stop words dropped, stemmed. */
export function terms(s: string): string[] {
  const out: string[] = [];
  for (const w of words(s)) if (!ALL_STOP.has(w) && (w.length > 1 || /\d/.test(w))) out.push(stem(w));
  return out;
}

/**
 * Orama tokenizer component using `terms`. Orama matches a search token as a prefix of the
 * indexed words unless `exact` (which adds a case-sensitive filter on the raw text); each token
 * is closed with `_` so that a prefix match is a whole-word match (`gas` does not find `gasoline`).
 */
export function oramaTokenizer() {
  return {
    language: 'english',
    normalizationCache: new Map<string, string>(),
    tokenize(raw: string): string[] {
      if (typeof raw !== 'string') return [raw];
      return [...new Set(terms(raw).map((t) => `${t}_`))];
    },
  };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);

/** Markdown to plain text: headings, emphasis, links, code marks and list bullets dropped. */
export function plainText(md: string): string {
  return md
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|[-*+]|\d+\.|>)\s+/gm, '')
    .replace(/[*_`]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A text cut into sentences and tokens, each token with its stems: prepared once per document. */
export interface PreparedText {
  sentences: { tokens: string[]; stems: string[][] }[];
}

export function prepareText(text: string): PreparedText {
  const parts =
    text
      .match(/[^.!?]+(?:[.!?]+(?=\s|$)|$)/g)
      ?.map((x) => x.trim())
      .filter(Boolean) ?? [];
  return {
    sentences: (parts.length ? parts : [text]).map((sentence) => {
      const tokens = sentence.split(/\s+/).filter(Boolean);
      return { tokens, stems: tokens.map((t) => words(t).map(stem)) };
    }),
  };
}

/**
 * The passage of a text (plain text, or prepared) that best matches `marks` (stemmed terms):
 * the sentence with the most distinct matched terms (the first one if none matches), then the
 * following ones while there is room, cut to about `max` characters around the first match,
 * HTML-escaped, each matched word wrapped in <mark>…</mark>.
 */
export function snippet(input: string | PreparedText, marks: ReadonlySet<string>, max = 240): string {
  const text = typeof input === 'string' ? prepareText(input) : input;
  let best = 0;
  let bestScore = 0;
  for (let i = 0; i < text.sentences.length; i++) {
    let found: Set<string> | undefined;
    for (const ts of text.sentences[i]!.stems) for (const t of ts) if (marks.has(t)) (found ??= new Set()).add(t);
    if (found && found.size > bestScore) {
      best = i;
      bestScore = found.size;
    }
  }
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
  if (tokens.slice(0, first + 1).join(' ').length > max * 0.5) start = Math.max(0, first - 6);
  const picked: string[] = [];
  let used = 0;
  let i = start;
  for (; i < tokens.length && used < max; i++) {
    picked.push(matches(i) ? markWord(tokens[i]!) : escapeHtml(tokens[i]!));
    used += tokens[i]!.length + 1;
  }
  return `${start > 0 ? '… ' : ''}${picked.join(' ')}${i < tokens.length ? ' …' : ''}`;
}

/** Wrap the word part of a token in <mark>, leaving punctuation around it outside. */
function markWord(token: string): string {
  const m = /^([^\p{L}\p{N}]*)(.*?)([^\p{L}\p{N}]*)$/u.exec(token);
  if (!m) return `<mark>${escapeHtml(token)}</mark>`;
  return `${escapeHtml(m[1]!)}<mark>${escapeHtml(m[2]!)}</mark>${escapeHtml(m[3]!)}`;
}
