/**
 * Number and date formatting for the pages, in each language of the service (contract/languages.ts).
 * English is the default and stays exactly as it always was (the pipeline and the API format with
 * it too); the other languages follow their locale in LOCALES through Intl.
 */
import { LOCALES, type Lang } from '../contract/languages.ts';

// One formatter per language, number of digits and style, made once: pages format tens of thousands of numbers.
const NF = new Map<string, Intl.NumberFormat>();
const numberFormat = (lang: Lang, digits: number, fixed = true) => {
  const key = `${lang}|${digits}|${fixed}`;
  let f = NF.get(key);
  if (!f) NF.set(key, (f = new Intl.NumberFormat(LOCALES[lang], { maximumFractionDigits: digits, minimumFractionDigits: fixed ? digits : 0 })));
  return f;
};
const MISSING = '—';
const missing = (x: number | null | undefined): x is null | undefined => x === null || x === undefined || !Number.isFinite(x);

/** The space between a number and its % sign: French sets a narrow no-break space, German and Spanish a no-break space. */
const PERCENT_GAP: Record<Lang, string> = { en: ' ', fr: '\u202f', de: '\u00a0', es: '\u00a0' };

export function num(x: number | null | undefined, digits = 1, lang: Lang = 'en'): string {
  if (missing(x)) return MISSING;
  return numberFormat(lang, digits).format(x).replace(/^-/, '−');
}
/**
 * A number in a sentence: at most `digits` decimals, trailing zeros dropped (50.25, 50.2, 50), where
 * the pages' tables keep `num`'s fixed count. Ask's answers and MCP's texts write numbers with it.
 */
export function numUpTo(x: number | null | undefined, digits = 2, lang: Lang = 'en'): string {
  if (missing(x)) return MISSING;
  return numberFormat(lang, digits, false).format(x).replace(/^-/, '−');
}
/** A percentage in a sentence: at most `digits` decimals (50.25 %, 50 %), with the language's space before the sign. */
export const pctUpTo = (x: number | null | undefined, digits = 2, lang: Lang = 'en') =>
  missing(x) ? MISSING : `${numUpTo(x, digits, lang)}${PERCENT_GAP[lang]}%`;
/** Large numbers with a thousands separator and adaptive precision. */
export function qty(x: number | null | undefined, lang: Lang = 'en'): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  const a = Math.abs(x);
  return num(x, a >= 1000 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3, lang);
}
export const pct = (x: number | null | undefined, digits = 1, lang: Lang = 'en') =>
  x === null || x === undefined ? '—' : `${num(x, digits, lang)}${PERCENT_GAP[lang]}%`;
/** A 0–1 share as a percentage. */
export const share = (x: number | null | undefined, digits = 1, lang: Lang = 'en') => (x === null || x === undefined ? '—' : pct(x * 100, digits, lang));
export const signed = (x: number | null | undefined, digits = 1, lang: Lang = 'en') =>
  x === null || x === undefined ? '—' : `${x > 0 ? '+' : ''}${num(x, digits, lang)}`;
/** A change in percent with its sign: +12.3 %, −4.0 %. */
export const signedPct = (x: number | null | undefined, digits = 1, lang: Lang = 'en') =>
  x === null || x === undefined ? '—' : `${x > 0 ? '+' : ''}${pct(x, digits, lang)}`;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DF = new Map<string, Intl.DateTimeFormat>();
const dateFormat = (lang: Lang, withDay: boolean) => {
  const key = `${lang}:${withDay}`;
  let f = DF.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(LOCALES[lang], { ...(withDay ? { day: 'numeric' } : {}), month: withDay ? 'short' : 'long', year: 'numeric', timeZone: 'UTC' });
    DF.set(key, f);
  }
  return f;
};
const utc = (y: string, m: string, d = '1') => new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));

/** 2026-08-20 → 20 Aug 2026 (fr: 20 août 2026, de: 20. Aug. 2026, es: 20 ago 2026) */
export function date(d: string | null | undefined, lang: Lang = 'en'): string {
  if (!d) return '—';
  const [y, m, day] = d.slice(0, 10).split('-') as [string, string, string];
  if (lang === 'en') return `${Number(day)} ${MONTHS[Number(m) - 1]} ${y}`;
  return dateFormat(lang, true).format(utc(y, m, day));
}
/** 2026-08-31 or 2026-08 → Aug 2026; the other languages spell the month out (fr: août 2026, de: August 2026, es: agosto de 2026). */
export function month(d: string | null | undefined, lang: Lang = 'en'): string {
  if (!d) return '—';
  const [y, m] = d.slice(0, 7).split('-') as [string, string];
  if (lang === 'en') return `${MONTHS[Number(m) - 1]} ${y}`;
  return dateFormat(lang, false).format(utc(y, m));
}
/** 2026-08-31 or 2026-08 → August 2026 in every language (fr: août 2026, de: August 2026, es: agosto de 2026). */
export function monthLong(d: string | null | undefined, lang: Lang = 'en'): string {
  if (!d) return '—';
  const [y, m] = d.slice(0, 7).split('-') as [string, string];
  return dateFormat(lang, false).format(utc(y, m));
}
const LONG_DF = new Map<Lang, Intl.DateTimeFormat>();
/**
 * A date in a sentence, the month spelled out: 2026-08-20 → 20 August 2026 (fr: 20 août 2026, and
 * the first of the month as an ordinal, 1er août 2026; de: 20. August 2026; es: 20 de agosto de 2026).
 * Not a date: given back as it came.
 */
export function dateLong(d: string | null | undefined, lang: Lang = 'en'): string {
  if (!d) return MISSING;
  const t = new Date(`${d.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(t.getTime())) return d;
  let f = LONG_DF.get(lang);
  if (!f) LONG_DF.set(lang, (f = new Intl.DateTimeFormat(LOCALES[lang], { dateStyle: 'long', timeZone: 'UTC' })));
  const s = f.format(t);
  return lang === 'fr' ? s.replace(/^1 /, '1er ') : s;
}
/** ISO timestamp → 22 Nov 2026, 04:12 UTC */
export function dateTime(iso: string, lang: Lang = 'en'): string {
  return `${date(iso, lang)}, ${iso.slice(11, 16)} UTC`;
}

/**
 * The unit a price is quoted in: "USD/t". Where the publisher states the currency but not the
 * quantity (four IMF series: `unit` null, `unit_note` says so), the currency and `unstated`,
 * never a bare "USD" that reads as a whole unit.
 */
export const priceUnit = (p: { currency: string; unit: string | null }, unstated = 'quantity not stated'): string =>
  p.unit ? `${p.currency}/${p.unit}` : `${p.currency} (${unstated})`;

export { LANG_LABEL } from '../contract/languages.ts';
