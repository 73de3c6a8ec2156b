/** Nearest-name suggestions for friendly error messages ("did you mean metals.cobalt?"). */

/** Edit distance between two strings (optimal string alignment: a swap of neighbours costs 1). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => d[i]?.[j] ?? 0;
  for (let i = 1; i <= a.length; i++) {
    const row = d[i] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, at(i - 2, j - 2) + 1);
      row[j] = v;
    }
  }
  return at(a.length, b.length);
}

/**
 * The closest candidates to `value` (case-insensitive), at most `max` of them, within a distance
 * that scales with the length of the value. For dotted slugs, a candidate whose code (the part after
 * the dot) equals the value's code, or the value itself, also counts as close.
 */
export function suggest(value: string, candidates: Iterable<string>, max = 2): string[] {
  const v = value.toLowerCase();
  const vCode = v.includes('.') ? v.slice(v.indexOf('.') + 1) : v;
  const limit = Math.max(1, Math.min(3, Math.floor(v.length / 3)));
  const scored: Array<{ c: string; d: number }> = [];
  for (const c of candidates) {
    const lc = c.toLowerCase();
    const code = lc.includes('.') ? lc.slice(lc.indexOf('.') + 1) : lc;
    let d = editDistance(v, lc);
    if (code === vCode || code === v) d = Math.min(d, 1);
    if (d <= limit) scored.push({ c, d });
  }
  scored.sort((x, y) => x.d - y.d || x.c.localeCompare(y.c));
  return scored.slice(0, max).map((s) => s.c);
}

/** ' (did you mean x?)' or ' (did you mean x or y?)', or '' when nothing is close. */
export function didYouMean(value: string, candidates: Iterable<string>): string {
  const s = suggest(value, candidates);
  return s.length === 0 ? '' : ` (did you mean ${s.join(' or ')}?)`;
}
