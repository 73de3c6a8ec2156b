import { LANGS } from '../../contract/languages.ts';
import { group, PACKS } from './lang/index.ts';
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
/** The month names and abbreviations of every pack, folded, to their number. */
for (const lang of LANGS) PACKS[lang].months.forEach((n, i) => n.split('|').forEach((x) => (MONTHS[x] = i + 1)));
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

/** A span a question names ("between 1 April and 1 November 2022", "from May 2025 to May 2026"). */
export interface AskedPeriod {
  /** The first day of the span (the first day of a month or year named first). */
  from: string;
  /** The last day of the span (the last day of a month or year named last). */
  to: string;
  start: AskedDate;
  end: AskedDate;
}

interface Found extends AskedDate {
  at: number;
}

/** A date without its year ("1 April", "April") takes the year of the next dated mention. */
interface Partial {
  at: number;
  end: number;
  month: number;
  day: number | null;
  text: string;
}

const DAY_SUFFIX = '(?:st|nd|rd|th|er|re|eme|o|º|°)?';
/** Words that open or join the two ends of a span, in the four languages. */
const SPAN_WORD = group((p) => p.spanWords);

/** Every full date a question names, in order of appearance, with the year-less ones completed. */
function allDates(t: string, lang: Lang): Found[] {
  const found: Found[] = [];
  const taken: [number, number][] = [];
  const free = (a: number, z: number) => !taken.some(([x, y]) => a < y && z > x);
  const add = (m: RegExpExecArray, d: AskedDate | null) => {
    if (!d || !free(m.index, m.index + m[0].length)) return;
    taken.push([m.index, m.index + m[0].length]);
    found.push({ ...d, at: m.index });
  };
  const each = (re: RegExp, f: (m: RegExpExecArray) => AskedDate | null) => {
    for (const m of t.matchAll(re)) add(m, f(m));
  };
  each(/\b(\d{4})-(\d{2})-(\d{2})\b/g, (m) => day(+m[1]!, +m[2]!, +m[3]!, m[0]));
  each(/\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b/g, (m) => day(+m[3]!, +m[2]!, +m[1]!, m[0]));
  each(/\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/g, (m) => (lang === 'en' ? day(+m[3]!, +m[1]!, +m[2]!, m[0]) : day(+m[3]!, +m[2]!, +m[1]!, m[0])));
  each(new RegExp(`\\b(\\d{1,2})${DAY_SUFFIX}\\.?\\s+(?:of\\s+|de\\s+)?(${MONTH_RE})\\.?,?\\s+(?:de\\s+|del\\s+)?(\\d{4})\\b`, 'g'), (m) =>
    day(+m[3]!, MONTHS[m[2]!]!, +m[1]!, m[0]),
  );
  each(new RegExp(`\\b(${MONTH_RE})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'g'), (m) => day(+m[3]!, MONTHS[m[1]!]!, +m[2]!, m[0]));
  each(new RegExp(`\\b(${MONTH_RE})\\.?,?\\s+(?:de\\s+|del\\s+)?(\\d{4})\\b`, 'g'), (m) => monthOf(+m[2]!, MONTHS[m[1]!]!, m[0]));
  each(new RegExp(`\\b${group((p) => p.yearWords)}\\s+(\\d{4})\\b(?!-)`, 'g'), (m) => yearOf(+m[1]!, m[0]));
  // Year-less mentions ("between 1 April and …", "from April to …") take the year of the next full date.
  const partials: Partial[] = [];
  const part = (re: RegExp, f: (m: RegExpExecArray) => Omit<Partial, 'at' | 'end' | 'text'>) => {
    for (const m of t.matchAll(re)) if (free(m.index, m.index + m[0].length)) partials.push({ ...f(m), at: m.index, end: m.index + m[0].length, text: m[0] });
  };
  part(new RegExp(`\\b${SPAN_WORD}\\s+(?:the\\s+|le\\s+|el\\s+|dem\\s+)?(\\d{1,2})${DAY_SUFFIX}\\.?\\s+(?:of\\s+|de\\s+)?(${MONTH_RE})\\b`, 'g'), (m) => ({
    month: MONTHS[m[2]!]!,
    day: +m[1]!,
  }));
  part(new RegExp(`\\b${SPAN_WORD}\\s+(${MONTH_RE})\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?!,?\\s*\\d{4})`, 'g'), (m) => ({ month: MONTHS[m[1]!]!, day: +m[2]! }));
  part(new RegExp(`\\b${SPAN_WORD}\\s+(${MONTH_RE})\\b(?!\\s*\\d)`, 'g'), (m) => ({ month: MONTHS[m[1]!]!, day: null }));
  for (const p of partials) {
    const next = found.filter((f) => f.at > p.at).sort((a, z) => a.at - z.at)[0];
    if (!next || !free(p.at, p.end)) continue;
    const y = +next.date.slice(0, 4);
    const d = p.day === null ? monthOf(y, p.month, p.text) : day(y, p.month, p.day, p.text);
    if (d) {
      taken.push([p.at, p.end]);
      found.push({ ...d, at: p.at });
    }
  }
  return found.sort((a, z) => a.at - z.at);
}

function monthOf(y: number, mo: number, text: string): AskedDate | null {
  const to = ymd(y, mo, lastDay(y, mo));
  return to ? { date: to, from: `${y}-${pad(mo)}-01`, granularity: 'month', text } : null;
}
function yearOf(y: number, text: string): AskedDate | null {
  return y >= 1900 && y <= 2999 ? { date: `${y}-12-31`, from: `${y}-01-01`, granularity: 'year', text } : null;
}

/**
 * The date a question names, in any of the four languages: 2026-03-01, 1 March 2026, March 1,
 * 2026, le 1er mars 2026, am 1. März 2026, el 1 de marzo de 2026, 01.03.2026, 1/3/2026 (month
 * first in English), a month (March 2026, mars 2026, März 2026, marzo de 2026) or a year after a
 * preposition (in 2025, en 2025, im Jahr 2025, end of 2025). With two dates (a span), the last.
 */
export function findDate(question: string, lang: Lang): AskedDate | null {
  const all = allDates(fold(question), lang);
  const last = all.at(-1);
  if (!last) return null;
  const { at: _at, ...d } = last;
  return d;
}

/** The span between the first and the last date a question names, when it names two in order. */
export function findPeriod(question: string, lang: Lang): AskedPeriod | null {
  const all = allDates(fold(question), lang);
  if (all.length < 2) return null;
  const { at: _a, ...start } = all[0]!;
  const { at: _z, ...end } = all.at(-1)!;
  if (start.from >= end.date) return null;
  return { from: start.from, to: end.date, start, end };
}
