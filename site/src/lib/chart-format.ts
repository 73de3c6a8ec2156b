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

/**
 * One formatter per locale and use, made once and kept, as lib/format.ts does: making an Intl
 * formatter costs far more than formatting, and a build draws charts on thousands of pages.
 * `use` names the options, so a look-up builds no key from them.
 */
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function nf(locale: string, use: string, opts: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${use}`;
  let f = formatters.get(key) as Intl.NumberFormat | undefined;
  if (!f) formatters.set(key, (f = new Intl.NumberFormat(locale, opts)));
  return f;
}
function df(locale: string, use: string, opts: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${use}`;
  let f = formatters.get(key) as Intl.DateTimeFormat | undefined;
  if (!f) formatters.set(key, (f = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', ...opts })));
  return f;
}
const minus = (s: string) => s.replace(/^-/, '−');

/** A number with `digits` fraction digits; '—' for a missing value. */
export function fixed(x: number | null | undefined, digits: number, locale: string): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  return minus(nf(locale, `fixed${digits}`, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x));
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
    a >= 1e4
      ? nf(locale, 'compact', { notation: 'compact', maximumFractionDigits: 1 }).format(v)
      : a >= 100
        ? nf(locale, 'tick0', { maximumFractionDigits: 0 }).format(v)
        : nf(locale, 'tick2', { maximumFractionDigits: 2 }).format(v);
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
  if (freq === 'monthly') return en(df(locale, 'month', { month: locale === 'en-GB' ? 'short' : 'long', year: 'numeric' }).format(utc(d)), locale);
  return en(df(locale, 'day', { day: 'numeric', month: 'short', year: 'numeric' }).format(utc(d)), locale);
}

/** The twelve short month names of each locale, made once: the axes ask for them at every tick they try. */
const months = new Map<string, string[]>();
/** Short month name, 0-based month (Jan, janv., Jan., ene). */
export function monthName(m: number, locale: string): string {
  let names = months.get(locale);
  if (!names) {
    const f = df(locale, 'monthName', { month: 'short' });
    months.set(locale, (names = Array.from({ length: 12 }, (_, i) => en(f.format(new Date(Date.UTC(2020, i, 1))), locale))));
  }
  return names[m]!;
}
