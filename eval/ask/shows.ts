import type { Lang } from './questions.ts';

/** The plain "cannot answer" of each language (what an unanswerable question must get). */
export const CANNOT: Record<Lang, RegExp> = {
  en: /cannot answer/i,
  fr: /ne permettent pas de répondre/i,
  de: /können diese Frage nicht beantworten/i,
  es: /no permiten responder/i,
};

/** Numbers as the language writes them: 1,234.5 (en), 1 234,5 (fr), 1.234,5 (de, es). */
export function numbersIn(text: string, lang: Lang): { value: number; decimals: number }[] {
  const out: { value: number; decimals: number }[] = [];
  const re =
    lang === 'en'
      ? /\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?/g
      : lang === 'fr'
        ? /\d{1,3}(?:[\s\u00a0\u202f]\d{3})+(?:,\d+)?|\d+(?:,\d+)?/g
        : /\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+(?:,\d+)?/g;
  for (const m of text.matchAll(re)) {
    const s = lang === 'en' ? m[0].replace(/,/g, '') : m[0].replace(/[\s\u00a0\u202f.]/g, '').replace(',', '.');
    out.push({ value: Number(s), decimals: s.split('.')[1]?.length ?? 0 });
  }
  return out;
}

/** Whether the answer shows `expected`, rounded to however many decimals it writes. */
export const showsFigure = (answer: string, lang: Lang, expected: number) =>
  numbersIn(answer, lang).some((n) => Math.abs(n.value - expected) <= 0.5 * 10 ** -n.decimals + 1e-9);
