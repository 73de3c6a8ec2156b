import type { LoadedBuild } from '../../api/build.ts';
import type { AnswerData } from '../../api/ask/index.ts';
import { file } from './facts.ts';
import { commodityName, countryName, gasCountries, gasSeries, iso3Of, needs, onOrBefore } from './planner.ts';
import type { EvalQuestion, Lang } from './questions.ts';

/**
 * Questions that name a date or a span: the date governs every operation (lookup, comparison,
 * ranking, threshold, change). What a correct answer holds is read here from the build's series
 * on the date the question names, independently of the answerer; a reading taken before the
 * date (a weekend, a monthly series) must be said so.
 */

type Check = (b: LoadedBuild, a: AnswerData, lang: Lang) => string;
interface P {
  date: string;
  value: number;
}
const priceSeries = (b: LoadedBuild, slug: string): P[] => file(b, `v1/commodities/${slug}.json`).price_history.points;
const r2 = (x: number) => Math.round(x * 100) / 100;
/** The readings of a daily series must be on the date, or within a month before it. */
const near = (p: P | undefined, d: string): P | undefined => (p && Date.parse(d) - Date.parse(p.date) <= 31 * 86_400_000 ? p : undefined);
const EARLIER: Record<Lang, RegExp> = {
  en: /no reading on/i,
  fr: /aucune valeur au/i,
  de: /liegt kein Wert vor/i,
  es: /no hay lectura el/i,
};
const saysEarlier = (a: AnswerData, lang: Lang, taken: string[], day: string) =>
  taken.some((d) => d < day) && !EARLIER[lang].test(a.answer) ? `a reading before ${day} is given without saying so` : '';

const gasOn = (b: LoadedBuild, day: string) =>
  gasCountries(b)
    .map((c) => ({ c, p: near(onOrBefore(gasSeries(b, c), day), day) }))
    .filter((x): x is { c: string; p: P } => !!x.p);

const rankGasOn =
  (day: string, order: 'max' | 'min'): Check =>
  (b, a, lang) => {
    const top = gasOn(b, day).sort((p, q) => (order === 'max' ? q.p.value - p.p.value : p.p.value - q.p.value))[0]!;
    return needs(a, lang, [top.p.value], [countryName(b, iso3Of(b, top.c), lang)], [{ type: 'reserve', id: `gas/${top.c}` }]);
  };
const thresholdGasOn =
  (day: string, op: '<' | '>', bound: number): Check =>
  (b, a, lang) => {
    const hits = gasOn(b, day).filter((x) => (op === '<' ? x.p.value < bound : x.p.value > bound));
    if (!hits.length) return 'the check expects at least one country past the bound';
    return needs(
      a,
      lang,
      hits.map((h) => h.p.value),
      hits.map((h) => countryName(b, iso3Of(b, h.c), lang)),
      hits.map((h) => ({ type: 'reserve', id: `gas/${h.c}` })),
    );
  };
const comparePriceOn =
  (x: string, y: string, day: string): Check =>
  (b, a, lang) => {
    const px = near(onOrBefore(priceSeries(b, x), day), day);
    const py = near(onOrBefore(priceSeries(b, y), day), day);
    if (!px || !py) return `no price of ${x} or ${y} near ${day}`;
    const top = px.value >= py.value ? x : y;
    return (
      needs(
        a,
        lang,
        [px.value, py.value, r2(Math.abs(px.value - py.value))],
        [commodityName(b, top, lang)],
        [
          { type: 'commodity', id: x },
          { type: 'commodity', id: y },
        ],
      ) || saysEarlier(a, lang, [px.date, py.date], day)
    );
  };
const compareGasOn =
  (x: string, y: string, day: string): Check =>
  (b, a, lang) => {
    const px = onOrBefore(gasSeries(b, x), day)!;
    const py = onOrBefore(gasSeries(b, y), day)!;
    const top = px.value >= py.value ? x : y;
    return needs(
      a,
      lang,
      [px.value, py.value],
      [countryName(b, iso3Of(b, top), lang)],
      [
        { type: 'reserve', id: `gas/${x}` },
        { type: 'reserve', id: `gas/${y}` },
      ],
    );
  };
/** `exact`: the question named a day (a reading before it must be said so), not a month. */
const priceOn =
  (slug: string, day: string, exact: boolean): Check =>
  (b, a, lang) => {
    const p = onOrBefore(priceSeries(b, slug), day)!;
    return needs(a, lang, [p.value], [], [{ type: 'commodity', id: slug }]) || (exact ? saysEarlier(a, lang, [p.date], day) : '');
  };
const gasAt =
  (iso2: string, day: string): Check =>
  (b, a, lang) => {
    const p = onOrBefore(gasSeries(b, iso2), day)!;
    return needs(a, lang, [p.value], [], [{ type: 'reserve', id: `gas/${iso2}` }]) || saysEarlier(a, lang, [p.date], day);
  };

/** A change over a named span: the readings at both ends (the first on or before the start, the last on or before the end) and their difference. */
const change =
  (series: (b: LoadedBuild) => P[], cite: { type: string; id: string }, from: string, to: string): Check =>
  (b, a, lang) => {
    const pts = series(b);
    const start = onOrBefore(pts, from) ?? pts[0]!;
    const end = onOrBefore(pts, to)!;
    return needs(a, lang, [start.value, end.value, r2(Math.abs(end.value - start.value))], [], [cite]);
  };
const gasChange = (iso2: string, from: string, to: string) => change((b) => gasSeries(b, iso2), { type: 'reserve', id: `gas/${iso2}` }, from, to);
const priceChange = (slug: string, from: string, to: string) => change((b) => priceSeries(b, slug), { type: 'commodity', id: slug }, from, to);

const q = (id: string, lang: Lang, category: 'dates' | 'periods', text: string, check: Check): EvalQuestion => ({
  id,
  lang,
  topic: category,
  category,
  q: text,
  expect: { check },
});

export const DATED_QUESTIONS: EvalQuestion[] = [
  // ——— a date governs lookups, comparisons, rankings and thresholds
  q('date-en-gas-min', 'en', 'dates', 'Which EU country had the lowest gas storage on 1 March 2025?', rankGasOn('2025-03-01', 'min')),
  q('date-fr-gas-min', 'fr', 'dates', 'Quel pays de l’UE avait le stockage de gaz le plus bas le 1er mars 2025 ?', rankGasOn('2025-03-01', 'min')),
  q('date-de-gas-max', 'de', 'dates', 'Welches EU-Land hatte am 15. Oktober 2024 den vollsten Gasspeicher?', rankGasOn('2024-10-15', 'max')),
  q('date-es-gas-min', 'es', 'dates', '¿Qué país de la UE tenía el almacenamiento de gas más bajo el 1 de febrero de 2024?', rankGasOn('2024-02-01', 'min')),
  q('date-en-brent-wti', 'en', 'dates', 'How much more expensive was Brent than WTI on 1 June 2022?', comparePriceOn('energy.oil', 'energy.wti', '2022-06-01')),
  q('date-fr-brent-wti', 'fr', 'dates', 'Le Brent était-il plus cher que le WTI le 4 juin 2022 ?', comparePriceOn('energy.oil', 'energy.wti', '2022-06-04')),
  q('date-de-brent-wti', 'de', 'dates', 'War Brent am 8. März 2022 teurer als WTI?', comparePriceOn('energy.oil', 'energy.wti', '2022-03-08')),
  q(
    'date-es-brent-wti',
    'es',
    'dates',
    'Compara el precio del Brent y del WTI el 7 de marzo de 2022.',
    comparePriceOn('energy.oil', 'energy.wti', '2022-03-07'),
  ),
  q('date-en-gas-thr', 'en', 'dates', 'Which EU countries had gas storage below 30% on 1 April 2022?', thresholdGasOn('2022-04-01', '<', 30)),
  q(
    'date-fr-gas-thr',
    'fr',
    'dates',
    'Quels pays de l’UE avaient un stockage de gaz supérieur à 95 % le 1er novembre 2023 ?',
    thresholdGasOn('2023-11-01', '>', 95),
  ),
  q('date-de-gas-thr', 'de', 'dates', 'Welche EU-Länder hatten am 1. März 2025 Gasspeicher unter 35 Prozent?', thresholdGasOn('2025-03-01', '<', 35)),
  q(
    'date-es-gas-thr',
    'es',
    'dates',
    '¿Qué países de la UE tenían el almacenamiento de gas por debajo del 40 % el 1 de abril de 2024?',
    thresholdGasOn('2024-04-01', '<', 40),
  ),
  q('date-en-gas-de-it', 'en', 'dates', "Was Germany's gas storage fuller than Italy's on 1 December 2024?", compareGasOn('de', 'it', '2024-12-01')),
  q(
    'date-es-gas-fr-es',
    'es',
    'dates',
    '¿Estaba más lleno el almacenamiento de gas de Francia que el de España el 1 de enero de 2024?',
    compareGasOn('fr', 'es', '2024-01-01'),
  ),
  q('date-fr-price-wheat', 'fr', 'dates', 'Quel était le prix du blé en mai 2022 ?', priceOn('agri.wheat', '2022-05-31', false)),
  q('date-de-gas-de-sunday', 'de', 'dates', 'Wie voll war der deutsche Gasspeicher am 1. November 2025?', gasAt('de', '2025-11-01')),
  q('date-en-brent-sunday', 'en', 'dates', 'What was the Brent price on Sunday 5 June 2022?', priceOn('energy.oil', '2022-06-05', true)),
  // ——— a span governs a change
  q(
    'span-en-gas-eu',
    'en',
    'periods',
    'By how many points did EU gas storage change between 1 April and 1 November 2022?',
    gasChange('eu', '2022-04-01', '2022-11-01'),
  ),
  q(
    'span-fr-gas-de',
    'fr',
    'periods',
    'Comment le stockage de gaz allemand a-t-il évolué entre le 1er avril et le 1er novembre 2022 ?',
    gasChange('de', '2022-04-01', '2022-11-01'),
  ),
  q(
    'span-de-gas-it',
    'de',
    'periods',
    'Wie hat sich der Gasspeicher Italiens zwischen dem 1. Oktober 2023 und dem 1. März 2024 verändert?',
    gasChange('it', '2023-10-01', '2024-03-01'),
  ),
  q(
    'span-es-gas-eu',
    'es',
    'periods',
    '¿Cómo cambió el almacenamiento de gas de la UE entre el 1 de noviembre de 2024 y el 1 de marzo de 2025?',
    gasChange('eu', '2024-11-01', '2025-03-01'),
  ),
  q('span-en-copper', 'en', 'periods', 'Copper price, May 2025 to May 2026', priceChange('metals.copper', '2025-05-01', '2026-05-31')),
  q('span-fr-copper', 'fr', 'periods', 'Le prix du cuivre de mai 2025 à mai 2026', priceChange('metals.copper', '2025-05-01', '2026-05-31')),
  q(
    'span-de-wheat',
    'de',
    'periods',
    'Wie hat sich der Weizenpreis von Januar 2022 bis Juni 2022 verändert?',
    priceChange('agri.wheat', '2022-01-01', '2022-06-30'),
  ),
  q(
    'span-es-brent',
    'es',
    'periods',
    '¿Cuánto cambió el precio del Brent entre el 1 de enero de 2022 y el 1 de julio de 2022?',
    priceChange('energy.oil', '2022-01-01', '2022-07-01'),
  ),
  q('span-en-urea', 'en', 'periods', 'How did the urea price move from January 2021 to April 2022?', priceChange('agri.urea', '2021-01-01', '2022-04-30')),
  q(
    'span-fr-gas-eu',
    'fr',
    'periods',
    'Évolution du stockage de gaz de l’UE du 1er avril 2023 au 1er octobre 2023',
    gasChange('eu', '2023-04-01', '2023-10-01'),
  ),
  q('span-de-copper', 'de', 'periods', 'Kupferpreis zwischen März 2024 und März 2025', priceChange('metals.copper', '2024-03-01', '2025-03-31')),
  q(
    'span-es-gas-de',
    'es',
    'periods',
    'Almacenamiento de gas de Alemania del 1 de mayo de 2025 al 1 de octubre de 2025',
    gasChange('de', '2025-05-01', '2025-10-01'),
  ),
];
