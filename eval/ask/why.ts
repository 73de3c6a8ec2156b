import type { AnswerData } from '../../api/ask/index.ts';
import type { LoadedBuild } from '../../api/build.ts';
import { dateLong } from '../../lib/format.ts';
import { file } from './facts.ts';
import { needs, onOrBefore } from './planner.ts';
import type { EvalQuestion, Lang } from './questions.ts';

/**
 * "Why" questions about 2021–2026 episodes. A correct answer gives the move over the period the
 * question implies (both ends and the change, from the build's price series) and names the newest
 * event the data tag to the commodity in that period (or in the three months before it), with its
 * date as the language writes it, citing it; where the data hold no event, it says plainly that
 * no cause is recorded and cites none.
 */

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
interface P {
  date: string;
  value: number;
}
const minusMonths = (iso: string, n: number) => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() - n);
  return d.toISOString().slice(0, 10);
};
const NO_CAUSE: Record<Lang, RegExp> = {
  en: /no event or disruption is recorded/i,
  fr: /aucun événement ni perturbation/i,
  de: /kein Ereignis und keine Störung/i,
  es: /ningún evento ni perturbación/i,
};
const FAMILY: Record<string, string[]> = {
  'energy.oil': ['energy.oil', 'energy.wti'],
  'energy.gas': ['energy.gas', 'energy.lng'],
  'energy.lng': ['energy.gas', 'energy.lng'],
};

/** `from`/`to`: the span the question names; `months`: a month named (the three months to it). */
const why =
  (slug: string, span: { from: string; to: string } | { month: string }) =>
  (b: LoadedBuild, a: AnswerData, lang: Lang): string => {
    const pts: P[] = file(b, `v1/commodities/${slug}.json`).price_history.points;
    const end = onOrBefore(pts, 'to' in span ? span.to : span.month)!;
    const start = onOrBefore(pts, 'from' in span ? span.from : minusMonths(end.date, 3)) ?? pts[0]!;
    const moved = needs(a, lang, [start.value, end.value], [], [{ type: 'commodity', id: slug }]);
    if (moved) return moved;
    const tags = new Set(FAMILY[slug] ?? [slug]);
    const from = minusMonths(start.date, 3);
    const events = (b.events as Json[])
      .filter((e) => e.date >= from && e.date <= end.date && e.commodities.some((c: string) => tags.has(c)))
      .sort((x, y) => (x.date < y.date ? 1 : -1));
    if (!events.length) return NO_CAUSE[lang].test(a.answer) && !a.citations.some((c) => c.type === 'event') ? '' : 'does not say that no cause is recorded';
    const top = events[0]!;
    // The title as the question's language writes it (events carry their fr/de/es translations).
    const title: string = lang === 'en' ? top.title : top.translations[lang].title;
    return needs(a, lang, [], [title, dateLong(top.date, lang)], [{ type: 'event', id: top.id }]);
  };

const q = (id: string, lang: Lang, text: string, check: ReturnType<typeof why>): EvalQuestion => ({
  id,
  lang,
  topic: 'why',
  category: 'why',
  q: text,
  expect: { check },
});

export const WHY_QUESTIONS: EvalQuestion[] = [
  q(
    'why-en-brent-2022',
    'en',
    'Why did the Brent price rise between 1 January 2022 and 1 June 2022?',
    why('energy.oil', { from: '2022-01-01', to: '2022-06-01' }),
  ),
  q('why-en-gas-2022', 'en', 'Why did European gas prices rise so much in 2022?', why('energy.gas', { from: '2022-01-01', to: '2022-12-31' })),
  q('why-en-nickel-2022', 'en', 'Why did the nickel price jump in March 2022?', why('metals.nickel', { month: '2022-03-31' })),
  q('why-fr-cobalt-2025', 'fr', 'Pourquoi le prix du cobalt a-t-il augmenté en 2025 ?', why('metals.cobalt', { from: '2025-01-01', to: '2025-12-31' })),
  q(
    'why-fr-copper-2025',
    'fr',
    'Pourquoi le prix du cuivre a-t-il monté entre mai 2025 et octobre 2025 ?',
    why('metals.copper', { from: '2025-05-01', to: '2025-10-31' }),
  ),
  q(
    'why-fr-wheat-2022',
    'fr',
    'Pourquoi le prix du blé a-t-il augmenté entre janvier 2022 et mai 2022 ?',
    why('agri.wheat', { from: '2022-01-01', to: '2022-05-31' }),
  ),
  q('why-de-urea-2026', 'de', 'Warum ist der Harnstoffpreis im März 2026 gestiegen?', why('agri.urea', { month: '2026-03-31' })),
  q(
    'why-de-oil-2026',
    'de',
    'Warum ist der Ölpreis zwischen Februar 2026 und April 2026 gestiegen?',
    why('energy.oil', { from: '2026-02-01', to: '2026-04-30' }),
  ),
  q('why-de-lng-2022', 'de', 'Warum stieg der LNG-Preis im Jahr 2022?', why('energy.lng', { from: '2022-01-01', to: '2022-12-31' })),
  q('why-es-aluminium-2022', 'es', '¿Por qué subió el precio del aluminio en 2022?', why('metals.aluminium', { from: '2022-01-01', to: '2022-12-31' })),
  q('why-es-gas-aug-2022', 'es', '¿Por qué subió el precio del gas en Europa en agosto de 2022?', why('energy.gas', { month: '2022-08-31' })),
  q('why-es-zinc-2023', 'es', '¿Por qué bajó el precio del zinc en 2023?', why('metals.zinc', { from: '2023-01-01', to: '2023-12-31' })),
];
