/**
 * Numbers and dates of the charts in the reader's language, through Intl. Runtime-neutral and
 * free of imports: the client script bundles it, so it takes a locale string (LOCALES in
 * contract/languages.ts), never the contract itself. Minus signs are U+2212, as in lib/format.ts.
 */

/** How a value reads: fixed digits, or adaptive precision for quantities of any size ('q'). */
export interface NumFmt {
  /** Fraction digits; 'q' adapts them to the size (lib/format.ts qty). */
  d: number | 'q';
  /** Multiplier before formatting (100 turns a 0–1 share into a percentage). */
  k?: number;
  /** Appended as is, e.g. ' %'. */
  s?: string;
}

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function nf(locale: string, opts: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `n|${locale}|${JSON.stringify(opts)}`;
  let f = cache.get(key) as Intl.NumberFormat | undefined;
  if (!f) cache.set(key, (f = new Intl.NumberFormat(locale, opts)));
  return f;
}
function df(locale: string, opts: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `d|${locale}|${JSON.stringify(opts)}`;
  let f = cache.get(key) as Intl.DateTimeFormat | undefined;
  if (!f) cache.set(key, (f = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', ...opts })));
  return f;
}
const minus = (s: string) => s.replace(/^-/, '−');

/** A number with `digits` fraction digits; '—' for a missing value. */
export function fixed(x: number | null | undefined, digits: number, locale: string): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  return minus(nf(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x));
}

/** Digits that suit a quantity's size: 12,345 · 123.4 · 1.23 · 0.123. */
export const qtyDigits = (x: number) => {
  const a = Math.abs(x);
  return a >= 1000 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
};

export function fmtValue(x: number | null | undefined, f: NumFmt, locale: string): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  const v = x * (f.k ?? 1);
  return `${fixed(v, f.d === 'q' ? qtyDigits(v) : f.d, locale)}${f.s ?? ''}`;
}

/** Axis labels: compact from 10,000 up (12k, 1.2M in the locale's words), else at most 2 digits. */
export function tickLabel(v: number, locale: string): string {
  const a = Math.abs(v);
  const s =
    a >= 1e4 ? nf(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(v) : nf(locale, { maximumFractionDigits: a >= 100 ? 0 : 2 }).format(v);
  return minus(s);
}

const utc = (d: string) => new Date(`${d.slice(0, 10)}T00:00:00Z`);
/** English writes Sep, as lib/format.ts does (Intl's en-GB says Sept). */
const en = (s: string, locale: string) => (locale === 'en-GB' ? s.replace('Sept', 'Sep') : s);

/**
 * A date as the series' frequency reads, the way lib/format.ts writes dates and months: 20 Aug 2026
 * (daily, weekly), Aug 2026 or août 2026 (monthly), 2026 (annual).
 */
export function dateLabel(d: string, freq: string, locale: string): string {
  if (freq === 'annual') return d.slice(0, 4);
  if (freq === 'monthly') return en(df(locale, { month: locale === 'en-GB' ? 'short' : 'long', year: 'numeric' }).format(utc(d)), locale);
  return en(df(locale, { day: 'numeric', month: 'short', year: 'numeric' }).format(utc(d)), locale);
}

/** Short month name, 0-based month (Jan, janv., Jan., ene). */
export const monthName = (m: number, locale: string) => en(df(locale, { month: 'short' }).format(new Date(Date.UTC(2020, m, 1))), locale);
