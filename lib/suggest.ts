/** Nearest-name suggestions for friendly error messages ("did you mean metals.cobalt?"). */

/**
 * Edit distance between two strings (optimal string alignment: a swap of neighbours costs 1),
 * stopping as soon as it must exceed `max` (then `max + 1` is returned). Three rows of the
 * shorter string's length, never the full matrix; only the band |i - j| ≤ max is computed, so the
 * cost is O(min(|a|, |b|) × max) time and O(min(|a|, |b|)) memory, and a length difference
 * beyond `max` costs nothing.
 */
export function boundedDistance(a: string, b: string, max: number): number {
  if (a === b) return 0;
  if (a.length < b.length) [a, b] = [b, a];
  const n = a.length;
  const m = b.length;
  if (n - m > max) return max + 1;
  const over = max + 1;
  let prev2 = new Array<number>(m + 1).fill(over);
  let prev = new Array<number>(m + 1);
  let cur = new Array<number>(m + 1).fill(over);
  for (let j = 0; j <= m; j++) prev[j] = j <= max ? j : over;
  for (let i = 1; i <= n; i++) {
    const lo = Math.max(1, i - max);
    const hi = Math.min(m, i + max);
    cur.fill(over);
    cur[0] = i <= max ? i : over;
    let rowMin = cur[0]!;
    for (let j = lo; j <= hi; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = Math.min(v, over);
      if (cur[j]! < rowMin) rowMin = cur[j]!;
    }
    if (rowMin > max) return over;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return Math.min(prev[m]!, over);
}

/** Edit distance between two strings (optimal string alignment), unbounded; O(min(|a|, |b|)) memory. */
export function editDistance(a: string, b: string): number {
  return boundedDistance(a, b, Math.max(a.length, b.length));
}

/**
 * The closest candidates to `value` (case-insensitive), at most `max` of them, within a distance
 * that scales with the length of the value (at most 3). For dotted slugs, a candidate whose code
 * (the part after the dot) equals the value's code, or the value itself, also counts as close.
 * The distance is bounded by that limit, so a value far longer than every candidate is never
 * compared character by character: the cost is at most (candidates × candidate length × 7).
 */
export function suggest(value: string, candidates: Iterable<string>, max = 2): string[] {
  const v = value.toLowerCase();
  const vCode = v.includes('.') ? v.slice(v.indexOf('.') + 1) : v;
  const limit = Math.max(1, Math.min(3, Math.floor(v.length / 3)));
  const scored: Array<{ c: string; d: number }> = [];
  for (const c of candidates) {
    const lc = c.toLowerCase();
    const code = lc.includes('.') ? lc.slice(lc.indexOf('.') + 1) : lc;
    let d = code === vCode || code === v ? 1 : limit + 1;
    if (d > 1) d = Math.min(d, boundedDistance(v, lc, limit));
    if (d <= limit) scored.push({ c, d: lc === v ? 0 : d });
  }
  scored.sort((x, y) => x.d - y.d || x.c.localeCompare(y.c));
  return scored.slice(0, max).map((s) => s.c);
}

/** ' (did you mean x?)' or ' (did you mean x or y?)', or '' when nothing is close. */
export function didYouMean(value: string, candidates: Iterable<string>): string {
  const s = suggest(value, candidates);
  return s.length === 0 ? '' : ` (did you mean ${s.join(' or ')}?)`;
}
