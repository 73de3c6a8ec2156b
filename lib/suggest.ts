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

/**
 * Text as names are compared: lower case, accents dropped (ü → u, é → e), apostrophes and dots
 * dropped (`Côte d’Ivoire` → `cote divoire`, `U.K.` → `uk`, `energy.gas` → `energygas`), any
 * other run of punctuation or space a single space, trimmed.
 */
export function matchKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/['’`.]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** At most this many words of a query are compared word by word (a longer query costs no more). */
const MAX_QUERY_TOKENS = 8;
/** Words too common in names to say anything on their own. */
const STOPWORDS = new Set(['of', 'the', 'and', 'de', 'du', 'des', 'la', 'le', 'les', 'et', 'y', 'del', 'der', 'die', 'und', 'el']);

/** Names of identifiers, ready to be looked up and ranked (build one per set of identifiers, reuse it). */
export interface NameIndex<Id> {
  /** matchKey(name) → the identifiers it names (more than one: an ambiguous name). */
  readonly exact: ReadonlyMap<string, readonly Id[]>;
  /** Every (key, words, identifier), for the prefix, word and spelling passes. */
  readonly entries: ReadonlyArray<{ key: string; words: readonly string[]; id: Id }>;
}

/** An index of `names` (any text: codes, names, aliases) per identifier. */
export function nameIndex<Id>(items: Iterable<{ id: Id; names: Iterable<string> }>): NameIndex<Id> {
  const exact = new Map<string, Id[]>();
  const entries: { key: string; words: string[]; id: Id }[] = [];
  for (const { id, names } of items) {
    for (const name of names) {
      const key = matchKey(name);
      if (!key) continue;
      const ids = exact.get(key) ?? [];
      if (ids.includes(id)) continue;
      ids.push(id);
      exact.set(key, ids);
      entries.push({ key, words: key.split(' '), id });
    }
  }
  return { exact, entries };
}

/** The identifiers `text` names exactly (after matchKey); several when the name is ambiguous. */
export function lookupName<Id>(index: NameIndex<Id>, text: string): readonly Id[] {
  return index.exact.get(matchKey(text)) ?? [];
}

/**
 * The identifiers nearest to `text`, at most `max`, by meaning first, then spelling:
 *
 * 1. a name that is exactly the text (an ambiguous name: every identifier it names);
 * 2. a name that starts with the text (`chin` → China, `deutsch` → Deutschland);
 * 3. a name with every word of the text, whole or as the start of a word (`korea` → South
 *    Korea, North Korea; `arab emirates` → United Arab Emirates);
 * 4. a name within a small edit distance (boundedDistance, a third of the text's length, at most
 *    3; none for a text of one or two letters, a code);
 * 5. only when nothing above matched: a name sharing a word of at least three letters.
 *
 * Within a pass, the shorter name first. The cost is bounded: the text is at most its length
 * limit (contract/limits.ts), at most MAX_QUERY_TOKENS words are compared, and the distance is
 * bounded, so a ranking costs (names × name length × 7) character comparisons at most.
 */
export function rankNames<Id>(index: NameIndex<Id>, text: string, max = 5): Id[] {
  const q = matchKey(text);
  if (!q) return [];
  const words = q
    .split(' ')
    .filter((w) => !STOPWORDS.has(w))
    .slice(0, MAX_QUERY_TOKENS);
  // A one- or two-letter text is a code: one letter off is no closer to one code than to the
  // dozens of others one letter off ('xx' is not near 'mx' for Mexico), so no spelling pass.
  const limit = Math.min(3, Math.floor(q.length / 3));
  const best = new Map<Id, number>();
  const note = (id: Id, score: number) => {
    const prev = best.get(id);
    if (prev === undefined || score < prev) best.set(id, score);
  };
  const wordMatches = (w: string, keyWords: readonly string[]) => keyWords.some((k) => k === w || (w.length >= 3 && k.startsWith(w)));
  for (const id of index.exact.get(q) ?? []) note(id, 0);
  for (const e of index.entries) {
    const len = e.key.length / 100; // a tie-break inside a pass: the shorter name first
    if (q.length >= 2 && e.key.startsWith(q) && e.key !== q) note(e.id, 1 + len);
    else if (words.length && words.every((w) => wordMatches(w, e.words))) note(e.id, 2 + len);
    else if (limit > 0) {
      const d = boundedDistance(q, e.key, limit);
      if (d <= limit) note(e.id, 3 + d + len);
    }
  }
  if (best.size === 0) {
    const strong = words.filter((w) => w.length >= 3);
    for (const e of index.entries) if (strong.some((w) => e.words.includes(w))) note(e.id, 7 + e.key.length / 100);
  }
  return [...best]
    .sort((a, b) => a[1] - b[1] || String(a[0]).localeCompare(String(b[0])))
    .slice(0, max)
    .map(([id]) => id);
}
