/**
 * Cheap recovery of a misspelt name ("Harnstofpreis", "cobolt", "Deutschlnd"): a word the lexicon
 * does not know (six letters or more: shorter words are too often other words, "einen" is no
 * "Eisen") is compared with the one-word names and aliases of commodities and countries of
 * about its length and with its first letter (misspellings rarely touch it), within one edit
 * (two from nine letters). German compounds are cut at a known tail first (…preis, …speicher).
 * A bounded Damerau–Levenshtein (optimal string alignment) written here: the lexicon is small and
 * the word short, so a library would add more than it saves.
 */
import type { LexEntry, Lexicon } from './lexicon.ts';

/** Edit distance with transpositions, or `max + 1` as soon as it must exceed `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur.push(v);
      best = Math.min(best, v);
    }
    if (best > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length]!;
}

const entityKey = (e: LexEntry) => (e.entity.kind === 'commodity' ? e.entity.slug : e.entity.kind === 'country' ? e.entity.iso3 : 'eu');

const names = new WeakMap<Lexicon, Map<string, { key: string; entry: LexEntry }[]>>();
/** One-word strong names of at least five letters, by first letter. */
function byLetter(lex: Lexicon): Map<string, { key: string; entry: LexEntry }[]> {
  let m = names.get(lex);
  if (m) return m;
  m = new Map();
  for (const [key, entries] of lex.phrases) {
    if (key.includes(' ') || key.length < 5) continue;
    const entry = entries.find((e) => !e.weak && !e.upperOnly && e.entity.kind !== 'eu');
    if (!entry) continue;
    const list = m.get(key[0]!) ?? [];
    list.push({ key, entry });
    m.set(key[0]!, list);
  }
  names.set(lex, m);
  return m;
}

/** The entry a misspelt word stands for, when exactly one name is that close. */
export function nearestName(lex: Lexicon, word: string, tails: RegExp): LexEntry | null {
  if (word.length < 6 || /\d/.test(word)) return null;
  const candidates = byLetter(lex).get(word[0]!) ?? [];
  const tryWord = (w: string): LexEntry | null => {
    const max = w.length >= 9 ? 2 : 1;
    let found: LexEntry | null = null;
    for (const c of candidates) {
      if (Math.abs(c.key.length - w.length) > max || editDistance(w, c.key, max) > max) continue;
      if (found && entityKey(found) !== entityKey(c.entry)) return null;
      found = c.entry;
    }
    return found;
  };
  const whole = tryWord(word);
  if (whole) return whole;
  // A compound: the head before a known tail.
  for (let i = word.length - 3; i >= 5; i--) if (tails.test(word.slice(i))) return tryWord(word.slice(0, i));
  return null;
}
