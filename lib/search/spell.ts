/**
 * Spelling correction of query words against the vocabulary of the index (every word of the
 * documents, in every language, and the words of the expansion table). Candidates come from
 * Orama's radix tree with its Levenshtein tolerance (`find({ term, tolerance })`), checked with
 * the optimal-string-alignment distance, which also counts a swap of two neighbouring letters
 * (`drougth`, `Rekrod`) as one edit. Only a word the search does not know is corrected, into a
 * word with the same first letter.
 */
import { radix } from '@orama/orama/trees';
import { token } from './text.ts';

/** Edits allowed for a word of this length: none up to 3 letters, 1 up to 8, 2 beyond. */
export const maxEdits = (length: number) => (length <= 3 ? 0 : length <= 8 ? 1 : 2);

export interface Correction {
  word: string;
  edits: number;
}

export class Corrector {
  private readonly tree = new radix.RadixTree();
  private readonly df: ReadonlyMap<string, number>;
  private readonly memo = new Map<string, Correction[]>();
  /** Letters of the longest word in the tree. */
  private longest = 0;

  /** `df`: each word of the vocabulary (normalised) and the number of documents it occurs in (1 for a word of the expansion table only). */
  constructor(df: ReadonlyMap<string, number>) {
    this.df = df;
    let i = 0;
    for (const w of df.keys()) {
      if (w.length < 3 || /\d/.test(w)) continue;
      this.tree.insert(token(w), i++);
      this.longest = Math.max(this.longest, w.length);
    }
  }

  /**
   * The vocabulary word nearest to `w` within `edits` edits (`maxEdits(w.length)` by default),
   * with the same first letter, among those `accept` lets through: fewest edits, then the most
   * frequent; or null.
   */
  correct(w: string, edits = maxEdits(w.length), accept?: (candidate: string) => boolean): Correction | null {
    for (const c of this.candidates(w, edits)) if (!accept || accept(c.word)) return c;
    return null;
  }

  /** Every correction of `w` within `edits` edits, best first (memoised per word). */
  candidates(w: string, edits = maxEdits(w.length)): readonly Correction[] {
    // No word is within `edits` edits of one longer than every word by more than that; the tree
    // search would still walk it (a 64-letter word took 40–60 ms).
    if (edits <= 0 || w.length > this.longest + edits) return [];
    const key = `${w} ${edits}`;
    let r = this.memo.get(key);
    if (r) return r;
    // A swap is two Levenshtein edits: search one wider, then keep what is within `edits` swaps included.
    const found = this.tree.find({ term: token(w), exact: false, tolerance: edits + 1 });
    r = [];
    for (const t of Object.keys(found)) {
      const cand = t.slice(0, -1);
      // Misspellings rarely touch the first letter (unless swapping the first two): `retient` is no `détient`.
      if (cand === w || (cand[0] !== w[0] && !(cand[0] === w[1] && cand[1] === w[0]))) continue;
      const d = osa(w, cand, edits);
      if (d >= 0) r.push({ word: cand, edits: d });
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
