/** Number and date formatting for the pages (English, fixed: the pages are built once). */
const nf = (digits: number) => new Intl.NumberFormat('en-GB', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const NF: Record<number, Intl.NumberFormat> = {};

export function num(x: number | null | undefined, digits = 1): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  const f = (NF[digits] ??= nf(digits));
  return f.format(x).replace(/^-/, '−');
}
/** Large numbers with a thousands separator and adaptive precision. */
export function qty(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  const a = Math.abs(x);
  return num(x, a >= 1000 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3);
}
export const pct = (x: number | null | undefined, digits = 1) => (x === null || x === undefined ? '—' : `${num(x, digits)} %`);
/** A 0–1 share as a percentage. */
export const share = (x: number | null | undefined, digits = 1) => (x === null || x === undefined ? '—' : `${num(x * 100, digits)} %`);
export const signed = (x: number | null | undefined, digits = 1) => (x === null || x === undefined ? '—' : `${x > 0 ? '+' : ''}${num(x, digits)}`);

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** 2026-08-20 → 20 Aug 2026 */
export function date(d: string | null | undefined): string {
  if (!d) return '—';
  const [y, m, day] = d.slice(0, 10).split('-');
  return `${Number(day)} ${MONTHS[Number(m) - 1]} ${y}`;
}
/** 2026-08-31 or 2026-08 → Aug 2026 */
export function month(d: string | null | undefined): string {
  if (!d) return '—';
  const [y, m] = d.slice(0, 7).split('-');
  return `${MONTHS[Number(m) - 1]} ${y}`;
}
/** ISO timestamp → 22 Nov 2026, 04:12 UTC */
export function dateTime(iso: string): string {
  return `${date(iso)}, ${iso.slice(11, 16)} UTC`;
}

export const BAND_LABEL = { low: 'Low', moderate: 'Moderate', high: 'High', severe: 'Severe' } as const;
export type Band = keyof typeof BAND_LABEL;

export const GROUP_LABEL: Record<string, string> = { energy: 'Energy', metals: 'Metals', agri: 'Agriculture' };
export { LANG_LABEL } from '../contract/languages.ts';
