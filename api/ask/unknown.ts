/**
 * The name of a commodity the data do not cover, when a question asks for a commodity's figure
 * ("the price of coffee", "le prix du café", "der Kaffeepreis", "el precio del café") and names
 * none the lexicon knows: the answer declines it by name instead of pointing elsewhere, and
 * suggests covered commodities only when one is spelled within an edit or two of it.
 */
import { LANGS } from '../../contract/languages.ts';
import { cue, entries, group, type LanguagePack } from './lang/index.ts';
import type { Lexicon } from './lexicon.ts';
import type { Recognised } from './recognise.ts';
import { fold, type Lang, tokenize } from './text.ts';
import { editDistance } from './typos.ts';

/** The figures that belong to a commodity. */
const COMMODITY_FIGURES = ['price', 'stress', 'producer', 'concentration', 'reserves_in_ground'] as const;

const SEP = "(?:\\s+|(?<='))";
/** "of coffee", "du café", "von Kaffee", "del café": the word a commodity figure is asked of. */
const OF_NAME = new RegExp(`\\b${group((p) => p.nameAfter)}${SEP}(?:${group((p) => p.articles)}${SEP})?([a-z]{3,})\\b`, 'g');
/** Every word a pack gives a meaning to: such a word is no name, whatever follows "of". */
const pick = (p: LanguagePack) => [
  ...p.words, ...p.generic, ...p.months.flatMap((m) => m.split('|')), ...Object.keys(p.numbers),
  ...Object.values(p.metrics).flat(), ...Object.values(p.statuses).flat(), ...Object.values(p.units).flat(),
  ...Object.values(p.groups).flat(), ...Object.values(p.categories).flat(), ...Object.values(p.bands).flat(),
  ...p.countrySet, ...p.commoditySet, ...p.superMin, ...p.superMax, ...p.ranking, ...p.recent, ...p.change,
  ...p.explain, ...p.compare, ...p.outOfScope, ...p.spr, ...p.nameAfter, ...p.articles,
]; // prettier-ignore
const KNOWN = cue(pick);
const TAILS = entries((p) => p.compoundTails).join('|');
const TAIL = new RegExp(`^(.{3,}?)(?:${TAILS})\\w*$`);
/** A head that is itself a figure word ("Versorgungs|stressindex") names nothing. */
const FIGURE_HEAD = new RegExp(`^(?:${TAILS})`);

export interface Unknown {
  /** The name as written in the question. */
  name: string;
  /** Names (in the question's language) of covered commodities spelled close to it. */
  near: string[];
}

const isName = (w: string, r: Recognised) => r.rest.includes(w) && !/\d/.test(w) && !KNOWN.test(w);

/** The uncovered commodity a question asks a figure of, or null. */
export function unknownCommodity(lex: Lexicon, r: Recognised, question: string): Unknown | null {
  if (r.commodities.length || !COMMODITY_FIGURES.some((m) => r.metrics.has(m))) return null;
  const folded = fold(question);
  let word: string | null = null;
  for (const m of folded.matchAll(OF_NAME)) if (isName(m[1]!, r)) word = word ?? m[1]!;
  const tokens = tokenize(question);
  let name: string | null = word ? (tokens.find((t) => t.norm === word)?.raw ?? word) : null;
  // A German compound: "Kaffeepreis" is "Kaffee" + "preis".
  if (!name)
    for (const t of tokens) {
      const head = r.rest.includes(t.norm) ? TAIL.exec(t.norm)?.[1] : undefined;
      if (head && !KNOWN.test(head) && !FIGURE_HEAD.test(head)) {
        word = head;
        name = t.raw.length === t.norm.length ? t.raw.slice(0, head.length) : head;
        break;
      }
    }
  if (!word || !name) return null;
  return { name, near: nearCommodities(lex, word, r.lang) };
}

/** Covered commodities whose name in any language is within one edit of the word (two from six letters). */
function nearCommodities(lex: Lexicon, word: string, lang: Lang): string[] {
  const max = word.length >= 6 ? 2 : 1;
  const out: string[] = [];
  for (const sheet of lex.sheets.values()) {
    const close = LANGS.some((l) =>
      fold(sheet.names[l])
        .split(/\s+/)
        .some((n) => editDistance(word, n, max) <= max),
    );
    if (close) out.push(sheet.names[lang]);
  }
  return out.slice(0, 3);
}
