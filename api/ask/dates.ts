import { fold, type Lang } from './text.ts';

/** A date named in a question: the last day it covers, and how precise it was. */
export interface AskedDate {
  /** YYYY-MM-DD: the day named, or the last day of the month or year named. */
  date: string;
  /** The first day covered (the same day for a full date). */
  from: string;
  granularity: 'day' | 'month' | 'year';
  /** The text that named it. */
  text: string;
}

const MONTHS: Record<string, number> = {};
const addMonths = (names: string[]) => names.forEach((n, i) => n.split('|').forEach((x) => (MONTHS[x] = i + 1)));
addMonths([
  'january|jan',
  'february|feb',
  'march',
  'april|apr',
  'may',
  'june|jun',
  'july|jul',
  'august|aug',
  'september|sep|sept',
  'october|oct',
  'november|nov',
  'december|dec',
]);
addMonths(['janvier|janv', 'fevrier|fevr', 'mars', 'avril|avr', 'mai', 'juin', 'juillet|juil', 'aout', 'septembre', 'octobre', 'novembre', 'decembre']);
addMonths(['januar|janner', 'februar', 'marz|maerz', 'april', 'mai', 'juni', 'juli', 'august', 'september', 'oktober|okt', 'november', 'dezember|dez']);
addMonths(['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre|setiembre', 'octubre', 'noviembre', 'diciembre']);
const MONTH_RE = Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .join('|');

const pad = (n: number) => String(n).padStart(2, '0');
const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

function ymd(y: number, m: number, d: number): string | null {
  if (m < 1 || m > 12 || d < 1 || d > lastDay(y, m) || y < 1900 || y > 2999) return null;
  return `${y}-${pad(m)}-${pad(d)}`;
}

const day = (y: number, m: number, d: number, text: string): AskedDate | null => {
  const s = ymd(y, m, d);
  return s ? { date: s, from: s, granularity: 'day', text } : null;
};

/**
 * The date a question names, in any of the four languages: 2026-03-01, 1 March 2026, March 1,
 * 2026, le 1er mars 2026, am 1. März 2026, el 1 de marzo de 2026, 01.03.2026, 1/3/2026 (month
 * first in English), a month (March 2026, mars 2026, März 2026, marzo de 2026) or a year after a
 * preposition (in 2025, en 2025, im Jahr 2025, end of 2025).
 */
export function findDate(question: string, lang: Lang): AskedDate | null {
  const t = fold(question);
  let m = /\b(\d{4})-(\d{2})-(\d{2})\b/.exec(t);
  if (m) return day(+m[1]!, +m[2]!, +m[3]!, m[0]);
  m = /\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b/.exec(t);
  if (m) return day(+m[3]!, +m[2]!, +m[1]!, m[0]);
  m = /\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/.exec(t);
  if (m) return lang === 'en' ? day(+m[3]!, +m[1]!, +m[2]!, m[0]) : day(+m[3]!, +m[2]!, +m[1]!, m[0]);
  m = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th|er|re|eme|o|º|°)?\\.?\\s+(?:of\\s+|de\\s+)?(${MONTH_RE})\\.?,?\\s+(?:de\\s+|del\\s+)?(\\d{4})\\b`).exec(t);
  if (m) return day(+m[3]!, MONTHS[m[2]!]!, +m[1]!, m[0]);
  m = new RegExp(`\\b(${MONTH_RE})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`).exec(t);
  if (m) return day(+m[3]!, MONTHS[m[1]!]!, +m[2]!, m[0]);
  m = new RegExp(`\\b(${MONTH_RE})\\.?,?\\s+(?:de\\s+|del\\s+)?(\\d{4})\\b`).exec(t);
  if (m) {
    const y = +m[2]!;
    const mo = MONTHS[m[1]!]!;
    const to = ymd(y, mo, lastDay(y, mo));
    if (to) return { date: to, from: `${y}-${pad(mo)}-01`, granularity: 'month', text: m[0] };
  }
  m = /\b(?:in|en|im|au|of|del|de|fin|ende|end|end of|year|jahr|annee|ano)\s+(\d{4})\b(?!-)/.exec(t);
  if (m) {
    const y = +m[1]!;
    if (y >= 1900 && y <= 2999) return { date: `${y}-12-31`, from: `${y}-01-01`, granularity: 'year', text: m[0] };
  }
  return null;
}
