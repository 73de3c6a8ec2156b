/** Text helpers shared by the recognisers: one normalisation for the lexicon and the question. */
import { LANGS, type Lang } from '../../contract/languages.ts';
import { normalise } from '../../lib/search/text.ts';

export type { Lang } from '../../contract/languages.ts';
export const LANG_LIST: readonly Lang[] = LANGS;

/**
 * The search's normalisation (lower case, accents and umlauts dropped, ß → ss, œ → oe), so a
 * question is folded as its words are indexed, then typographic apostrophes and dashes made plain.
 */
export function fold(s: string): string {
  return normalise(s)
    .replace(/[\u2019\u2018\u02bc`´]/g, "'")
    .replace(/[\u2010-\u2015]/g, '-');
}

export interface Token {
  /** Folded form (see `fold`). */
  norm: string;
  /** The word as written. */
  raw: string;
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** Words of a text, folded, with their position and the form written. */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(WORD)) out.push({ norm: fold(m[0]), raw: m[0], start: m.index, end: m.index + m[0].length });
  return out;
}

/** The folded words of a phrase joined by one space: the key of the phrase tables. */
export const phraseKey = (s: string) =>
  tokenize(s)
    .map((t) => t.norm)
    .join(' ');
