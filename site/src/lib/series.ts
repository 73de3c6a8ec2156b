/** A dated value of a build series. */
export interface Pt {
  date: string;
  value: number;
}

/** CSV text of rows (lib/csv.ts: RFC 4180, CRLF). */
export { toCsv as csv } from '../../../lib/csv.ts';

/** Points within [from, to] (inclusive, ISO dates). */
export const between = (pts: readonly Pt[], from: string, to = '9999-12-31'): Pt[] => pts.filter((p) => p.date >= from && p.date <= to);

/** A year's points moved to `toYear` (same month and day; 29 Feb dropped), to compare seasons. */
export function shiftYear(pts: readonly Pt[], year: number, toYear: number): Pt[] {
  return pts.filter((p) => p.date.startsWith(`${year}-`) && !p.date.endsWith('-02-29')).map((p) => ({ date: `${toYear}${p.date.slice(4)}`, value: p.value }));
}

/** Mean value on each calendar day over `years`, laid on `toYear`. */
export function seasonalMean(pts: readonly Pt[], years: readonly number[], toYear: number): Pt[] {
  const sums = new Map<string, { s: number; n: number }>();
  const ys = new Set(years.map(String));
  for (const p of pts) {
    if (!ys.has(p.date.slice(0, 4)) || p.date.endsWith('-02-29')) continue;
    const k = p.date.slice(5);
    const a = sums.get(k) ?? { s: 0, n: 0 };
    a.s += p.value;
    a.n++;
    sums.set(k, a);
  }
  return [...sums.entries()]
    .filter(([, a]) => a.n === years.length)
    .map(([k, a]) => ({ date: `${toYear}-${k}`, value: Math.round((a.s / a.n) * 100) / 100 }))
    .sort((a, b) => a.date.localeCompare(b.date));
}

/** Weekly points (the last of each ISO week) for long daily series. */
export function weekly(pts: readonly Pt[]): Pt[] {
  const out: Pt[] = [];
  for (let i = 0; i < pts.length; i++) {
    const p = pts[i]!;
    const next = pts[i + 1];
    const wk = (d: string) => Math.floor((Date.parse(d) / 86_400_000 + 3) / 7);
    if (!next || wk(next.date) !== wk(p.date)) out.push(p);
  }
  return out;
}
