/** A number found in a text, with how many decimals it was written with. */
export interface FoundNumber {
  value: number;
  decimals: number;
  text: string;
}

const NUM = /\d+(?:[ \u00a0\u202f.,']\d+)*/g;

function readAs(text: string, decimalSep: '.' | ','): FoundNumber | null {
  const groupSeps = decimalSep === '.' ? /[, \u00a0\u202f']/g : /[. \u00a0\u202f']/g;
  const parts = text.split(decimalSep);
  if (parts.length > 2) return null;
  const intPart = parts[0]!;
  const groups = intPart.split(groupSeps);
  if (groups.length > 1 && groups.slice(1).some((g) => g.length !== 3)) return null;
  const frac = parts[1] ?? '';
  if (/[^\d]/.test(frac)) return null;
  const value = Number(`${groups.join('')}${frac ? `.${frac}` : ''}`);
  return Number.isFinite(value) ? { value, decimals: frac.length, text } : null;
}

/**
 * Every reading of the numbers in a text: "1.234" may be 1.234 or 1234, "50,25" 50.25 or 5025.
 * A figure is taken to match a record when any of its readings does.
 */
export function numberReadings(text: string): FoundNumber[][] {
  const out: FoundNumber[][] = [];
  for (const m of text.matchAll(NUM)) {
    let s = m[0].replace(/[ \u00a0\u202f.,']+$/, '');
    // A run like "2026 50" is two numbers written apart, not a grouped one: split at spaces unless grouped by threes.
    const spaced = s.split(/[ \u00a0\u202f]/);
    if (spaced.length > 1 && spaced.slice(1).some((g) => !/^\d{3}(?:[.,]\d+)?$/.test(g))) {
      for (const part of spaced) if (part) out.push(readings(part));
      continue;
    }
    s = s.trim();
    out.push(readings(s));
  }
  return out.filter((r) => r.length > 0);
}

function readings(s: string): FoundNumber[] {
  const r: FoundNumber[] = [];
  for (const sep of ['.', ','] as const) {
    const x = readAs(s, sep);
    if (x && !r.some((y) => y.value === x.value && y.decimals === x.decimals)) r.push(x);
  }
  return r;
}

/** Every number a record's quote holds, including the parts of its dates (2026, 08, 20). */
export function quoteNumbers(quote: string): number[] {
  const out: number[] = [];
  for (const m of quote.matchAll(/-?\d+(?:\.\d+)?(?:e[+-]?\d+)?/gi)) out.push(Number(m[0]));
  return out;
}

/** Whether `shown` (written with `decimals` decimals) is `actual` rounded, directly or as a percentage. */
export function sameFigure(shown: number, decimals: number, actual: number): boolean {
  const tol = 0.5 * 10 ** -decimals + 1e-9;
  const a = Math.abs(actual);
  return Math.abs(shown - a) <= tol || Math.abs(shown - a * 100) <= tol || Math.abs(shown - Math.round(a)) <= tol;
}
