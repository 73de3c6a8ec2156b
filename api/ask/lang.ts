import { LANGS } from '../../contract/languages.ts';
import { PACKS } from './lang/index.ts';
import { type Lang, type Token } from './text.ts';

/** Each function word (folded) and the languages it belongs to, from the packs' `words`. */
const TABLE = new Map<string, Lang[]>();
for (const lang of LANGS) for (const w of PACKS[lang].words) TABLE.set(w, [...(TABLE.get(w) ?? []), lang]);

/** Scores of each language from the words and the letters of a question. */
export function languageScores(text: string, tokens: readonly Token[]): Record<Lang, number> {
  const score = Object.fromEntries(LANGS.map((l) => [l, 0])) as Record<Lang, number>;
  for (const t of tokens) {
    const langs = TABLE.get(t.norm);
    if (langs) for (const l of langs) score[l] += 1 / langs.length;
  }
  for (const lang of LANGS) for (const [re, weight] of PACKS[lang].letters) if (re.test(text)) score[lang] += weight;
  return score;
}

/** The best-scoring language; the first of `LANGS` (English) on a tie with nothing to go on. */
export function pickLanguage(score: Record<Lang, number>): Lang {
  let best: Lang = LANGS[0];
  for (const l of LANGS) if (score[l] > score[best] + 1e-9) best = l;
  return best;
}
