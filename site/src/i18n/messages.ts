/**
 * The message catalogue of the site: its own words (navigation, headings, table headers, labels,
 * notes) in each language of the service. The English object (en.ts) defines the keys; each other
 * language is typed `Messages`, so it must have every one of them.
 */
import type { Lang } from '../../../contract/languages.ts';
import { de } from './de.ts';
import { en, type Messages } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';

export type { Messages };

/**
 * French sets a narrow no-break space (U+202F) before : ; ! ? % and inside « », where the
 * catalogue is written with ordinary spaces; applied to every string and every function's result.
 */
export const frenchSpacing = (text: string): string =>
  text
    .replace(/ ([:;!?%»])/g, '\u202f$1')
    .replace(/« /g, '«\u202f')
    .replace(/\u00a0([:;!?%»])/g, '\u202f$1');

function mapStrings<T>(value: T, f: (s: string) => string): T {
  if (typeof value === 'string') return f(value) as T;
  if (typeof value === 'function') return ((...args: unknown[]) => f((value as (...a: unknown[]) => string)(...args))) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)])) as T;
  return value;
}

export const MESSAGES: Readonly<Record<Lang, Messages>> = { en, fr: mapStrings(fr, frenchSpacing), de, es };

/** The catalogue of one language. */
export const t = (lang: Lang): Messages => MESSAGES[lang];
