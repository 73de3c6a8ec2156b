/**
 * The language packs keyed by the contract's `Lang` (a language added there does not compile
 * until its pack exists), and the matchers compiled from them: one regular expression per cue,
 * the union of that cue's words in every language (a question is matched in all four, as a
 * mixed or misdetected question still names what it asks for).
 */
import { LANGS, type Lang } from '../../../contract/languages.ts';
import { BAND_WORDS, CATEGORY_WORDS, STATUS_WORDS } from '../../../lib/i18n/terms.ts';
import type { Phrases } from '../phrases.ts';
import type { PlanPhrases } from '../plan-phrases.ts';
import { de } from './de.ts';
import { en } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import type { Cue, LanguagePack } from './pack.ts';

export { METRICS, type Cue, type LanguagePack, type Metric } from './pack.ts';

export const PACKS: Readonly<Record<Lang, LanguagePack>> = { en, fr, de, es };

const byLang = <T>(pick: (p: LanguagePack, lang: Lang) => T): Record<Lang, T> =>
  Object.fromEntries(LANGS.map((l) => [l, pick(PACKS[l], l)])) as Record<Lang, T>;
/** Each pack's phrases, with the words for status, band and category the site and MCP use too. */
export const PHRASES: Readonly<Record<Lang, Phrases>> = byLang((p, l) => ({
  ...p.phrases,
  status: STATUS_WORDS[l],
  band: BAND_WORDS[l],
  category: CATEGORY_WORDS[l],
}));
export const PLAN_PHRASES: Readonly<Record<Lang, PlanPhrases>> = byLang((p) => p.plan);

/** A cue's entries in every language, in the order of `LANGS` (which decides what a capture takes). */
export const entries = (pick: (p: LanguagePack) => Cue): string[] => LANGS.flatMap((l) => pick(PACKS[l]));

/** The source of a cue: whole words between word boundaries, `*` entries anywhere. */
export function cueSource(list: readonly string[]): string {
  const words = list.filter((w) => !w.startsWith('*'));
  const stems = list.filter((w) => w.startsWith('*')).map((w) => w.slice(1));
  const parts = [...(words.length ? [`\\b(?:${words.join('|')})\\b`] : []), ...stems];
  return parts.length ? parts.join('|') : '(?!)';
}

/** The matcher of a cue in all languages. */
export const cue = (pick: (p: LanguagePack) => Cue): RegExp => new RegExp(cueSource(entries(pick)));

/** `(?:a|b|…)` of a cue's entries in all languages, to build a larger expression. */
export const group = (pick: (p: LanguagePack) => Cue): string => `(?:${entries(pick).join('|')})`;
