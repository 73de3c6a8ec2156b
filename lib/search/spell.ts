/**
 * Spelling correction of query words against the vocabulary of the index (every word of the
 * documents, in every language, and the words of the expansion table), with the
 * optimal-string-alignment distance, which also counts a swap of two neighbouring letters
 * (`drougth`, `Rekrod`) as one edit. Only a word the search does not know is corrected, into a
 * word with the same first letter (or the first two letters swapped).
 *
 * The candidates are the vocabulary words of that first letter and of a length within the edits
 * allowed, each compared with a distance that gives up as soon as a row exceeds them. This
 * replaced Orama's radix tree searched with a Levenshtein tolerance, whose cost grew with the
 * tolerance beyond any bound a request could be given: a query of random 9–10-letter words cost
 * 120–224 ms on /v1/search and 286–714 ms on /v1/ask (issue 34). Each query has a fixed budget
 * (`SpellBudget`): a number of words it may correct and of candidates it may compare; past it a
 * word stays as typed.
 */

/** Edits allowed for a word of this length: none up to 3 letters, 1 up to 8, 2 beyond. */
export const maxEdits = (length: number) => (length <= 3 ? 0 : length <= 8 ? 1 : 2);

/** Words of one query that may be corrected (the rest stay as typed). */
export const SPELL_WORDS_PER_QUERY = 8;
/** Candidates one query may compare, all its words together (each comparison is at most ~40 × 40 cells and usually stops after a few rows). */
export const SPELL_CANDIDATES_PER_QUERY = 20_000;

/** What is left of one query's spelling budget; made by `spellBudget()`, spent by `Corrector.correct`. */
export interface SpellBudget {
  words: number;
  candidates: number;
}
export const spellBudget = (): SpellBudget => ({ words: SPELL_WORDS_PER_QUERY, candidates: SPELL_CANDIDATES_PER_QUERY });

export interface Correction {
  word: string;
  edits: number;
}

export class Corrector {
  /** Vocabulary words by first letter, then by length. */
  private readonly byFirst = new Map<string, string[][]>();
  private readonly df: ReadonlyMap<string, number>;
  private readonly memo = new Map<string, Correction[]>();
  /** Letters of the longest word. */
  private longest = 0;

  /** `df`: each word of the vocabulary (normalised) and the number of documents it occurs in (1 for a word of the expansion table only). */
  constructor(df: ReadonlyMap<string, number>) {
    this.df = df;
    for (const w of df.keys()) {
      if (w.length < 3 || /\d/.test(w)) continue;
      let byLength = this.byFirst.get(w[0]!);
      if (!byLength) this.byFirst.set(w[0]!, (byLength = []));
      (byLength[w.length] ??= []).push(w);
      this.longest = Math.max(this.longest, w.length);
    }
  }

  /**
   * The vocabulary word nearest to `w` within `edits` edits (`maxEdits(w.length)` by default),
   * with the same first letter, among those `accept` lets through: fewest edits, then the most
   * frequent; or null. With a `budget`, a word it cannot pay for is not corrected.
   */
  correct(w: string, edits = maxEdits(w.length), accept?: (candidate: string) => boolean, budget?: SpellBudget): Correction | null {
    for (const c of this.candidates(w, edits, budget)) if (!accept || accept(c.word)) return c;
    return null;
  }

  /** Every correction of `w` within `edits` edits, best first (memoised per word); none when `budget` cannot pay for them. */
  candidates(w: string, edits = maxEdits(w.length), budget?: SpellBudget): readonly Correction[] {
    if (edits <= 0 || w.length > this.longest + edits) return [];
    const key = `${w} ${edits}`;
    let r = this.memo.get(key);
    if (r) return r;
    if (budget && budget.words <= 0) return [];
    const pool: string[][] = [];
    let size = 0;
    for (const first of w[1] && w[1] !== w[0] ? [w[0]!, w[1]] : [w[0]!]) {
      const byLength = this.byFirst.get(first);
      if (!byLength) continue;
      for (let n = Math.max(3, w.length - edits); n <= w.length + edits; n++) {
        const words = byLength[n];
        if (words) {
          pool.push(words);
          size += words.length;
        }
      }
    }
    if (budget) {
      if (size > budget.candidates) {
        budget.candidates = 0;
        return [];
      }
      budget.words--;
      budget.candidates -= size;
    }
    r = [];
    for (const words of pool) {
      for (const cand of words) {
        // Misspellings rarely touch the first letter (unless swapping the first two): `retient` is no `détient`.
        if (cand === w || (cand[0] !== w[0] && !(cand[0] === w[1] && cand[1] === w[0]))) continue;
        const d = osa(w, cand, edits);
        if (d >= 0) r.push({ word: cand, edits: d });
      }
    }
    const df = (x: string) => this.df.get(x) ?? 0;
    r.sort((a, b) => a.edits - b.edits || df(b.word) - df(a.word) || (a.word < b.word ? -1 : 1));
    if (this.memo.size > 10_000) this.memo.clear();
    this.memo.set(key, r);
    return r;
  }
}

/** Optimal-string-alignment distance (Levenshtein plus swaps of neighbouring letters), or -1 when above `max`. */
export function osa(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return -1;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return -1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n]! <= max ? prev[n]! : -1;
}
