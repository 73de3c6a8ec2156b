import type { AnswerData } from '../../api/ask/index.ts';
import type { LoadedBuild } from '../../api/build.ts';
import * as F from './facts.ts';

export type Lang = 'en' | 'fr' | 'de' | 'es';

/**
 * What a correct answer holds. `figure`: the number (read from the build at run time, so the
 * evaluation follows the data) must appear in the answer, and a citation of `cite` must quote the
 * record's value (or `figureCite`, where another record holds the figure). `cite` alone: that record must be cited. `unanswerable`: the answer must say
 * plainly that the data cannot answer, and cite nothing.
 */
export type Expect =
  | { figure: (b: LoadedBuild) => F.Figure; cite: { type: string; id: string | ((b: LoadedBuild) => string) }; figureCite?: { type: string; id: string } }
  | { cite: { type: string; id: string | ((b: LoadedBuild) => string) }; figure?: undefined }
  | { unanswerable: true }
  /** A judgement computed from the build (eval/ask/planner.ts): '' when the answer is right, else why not. */
  | { check: (b: LoadedBuild, a: AnswerData, lang: Lang) => string };

export interface EvalQuestion {
  id: string;
  lang: Lang;
  q: string;
  topic: string;
  /** lookup, comparison, ranking, threshold, change, explanation, events, decline, adversarial (derived from the topic when absent). */
  category?: string;
  expect: Expect;
}

export const categoryOf = (q: EvalQuestion): string => q.category ?? (q.topic === 'unanswerable' ? 'decline' : q.topic === 'events' ? 'events' : 'lookup');

const NONE = { unanswerable: true } as const;

export const QUESTIONS: EvalQuestion[] = [
  // ——— English
  {
    id: 'en-storage-de',
    lang: 'en',
    topic: 'gas storage',
    q: "How full is Germany's gas storage?",
    expect: { figure: F.reserve('gas', 'de', 'fill_pct'), cite: { type: 'reserve', id: 'gas/de' } },
  },
  {
    id: 'en-storage-eu',
    lang: 'en',
    topic: 'gas storage',
    q: 'What is the EU gas storage level?',
    expect: { figure: F.reserve('gas', 'eu', 'fill_pct'), cite: { type: 'reserve', id: 'gas/eu' } },
  },
  {
    id: 'en-storage-it-date',
    lang: 'en',
    topic: 'gas storage on a date',
    q: 'How full was gas storage in Italy on 1 March 2026?',
    expect: { figure: F.reserveAt('gas', 'it', 'fill_pct', '2026-03-01'), cite: { type: 'reserve', id: 'gas/it' } },
  },
  {
    id: 'en-price-brent',
    lang: 'en',
    topic: 'oil price',
    q: 'What is the price of Brent crude oil?',
    expect: { figure: F.price('energy.oil'), cite: { type: 'commodity', id: 'energy.oil' } },
  },
  {
    id: 'en-price-wti-month',
    lang: 'en',
    topic: 'oil price on a date',
    q: 'What was the price of WTI in March 2026?',
    expect: { figure: F.priceAt('energy.wti', '2026-03-31'), cite: { type: 'commodity', id: 'energy.wti' } },
  },
  {
    id: 'en-spr',
    lang: 'en',
    topic: 'US SPR',
    q: 'How much crude is in the US Strategic Petroleum Reserve?',
    expect: { figure: F.reserve('oil', 'us', 'volume'), cite: { type: 'reserve', id: 'oil/us' } },
  },
  {
    id: 'en-cobalt-top',
    lang: 'en',
    topic: 'top producer share',
    q: 'Who is the largest producer of cobalt and what is its share?',
    expect: { figure: F.topProducerShare('metals.cobalt'), cite: { type: 'commodity', id: 'metals.cobalt' } },
  },
  // Country exposure to a mineral (USGS net import reliance in the US profile), in four languages.
  ...(
    [
      ['en', 'How dependent is the US on rare-earth imports?'],
      ['fr', 'Quelle est la dépendance des États-Unis aux importations de terres rares ?'],
      ['de', 'Wie abhängig sind die USA von Importen Seltener Erden?'],
      ['es', '¿Cuánto dependen los Estados Unidos de las importaciones de tierras raras?'],
    ] as const
  ).map(([lang, q]): EvalQuestion => ({
    id: `${lang}-us-rareearth-imports`,
    lang,
    topic: 'mineral import reliance',
    category: 'exposure',
    q,
    expect: { figure: F.netImportReliance('USA', 'metals.rareearths'), cite: { type: 'country', id: 'USA' } },
  })),
  {
    id: 'en-japan-oil-imports',
    lang: 'en',
    topic: 'import dependence',
    q: 'How dependent is Japan on oil imports?',
    expect: { figure: F.importDependence('JPN', 'energy.oil'), cite: { type: 'country', id: 'JPN' } },
  },
  {
    id: 'en-stress-copper',
    lang: 'en',
    topic: 'stress index',
    q: 'What is the stress index of copper?',
    expect: { figure: F.stress('metals.copper'), cite: { type: 'commodity', id: 'metals.copper' } },
  },
  {
    id: 'en-scenarios-active',
    lang: 'en',
    topic: 'scenarios',
    q: 'Which scenarios are active right now?',
    expect: {
      figure: F.scenarioCount({ status: 'active' }),
      cite: { type: 'scenario', id: F.topScenario({ status: 'active' }) },
      figureCite: { type: 'scenario', id: 'scenarios?status=active' },
    },
  },
  {
    id: 'en-events-cobalt',
    lang: 'en',
    topic: 'events',
    q: 'What are the latest events on cobalt?',
    expect: { cite: { type: 'event', id: F.newestEvent('metals.cobalt') } },
  },
  { id: 'en-none-population', lang: 'en', topic: 'unanswerable', q: 'What is the population of Germany?', expect: NONE },
  { id: 'en-none-forecast', lang: 'en', topic: 'unanswerable', q: 'What will the price of copper be in 2030?', expect: NONE },

  // ——— French
  {
    id: 'fr-storage-de',
    lang: 'fr',
    topic: 'gas storage',
    q: 'Quel est le taux de remplissage des stockages de gaz en Allemagne ?',
    expect: { figure: F.reserve('gas', 'de', 'fill_pct'), cite: { type: 'reserve', id: 'gas/de' } },
  },
  {
    id: 'fr-storage-eu-date',
    lang: 'fr',
    topic: 'gas storage on a date',
    q: "Quel était le niveau de remplissage du stockage de gaz de l'UE le 1er mars 2026 ?",
    expect: { figure: F.reserveAt('gas', 'eu', 'fill_pct', '2026-03-01'), cite: { type: 'reserve', id: 'gas/eu' } },
  },
  {
    id: 'fr-price-oil',
    lang: 'fr',
    topic: 'oil price',
    q: 'Quel est le prix du pétrole brut ?',
    expect: { figure: F.price('energy.oil'), cite: { type: 'commodity', id: 'energy.oil' } },
  },
  {
    id: 'fr-price-copper',
    lang: 'fr',
    topic: 'metal price',
    q: 'Combien coûte le cuivre ?',
    expect: { figure: F.price('metals.copper'), cite: { type: 'commodity', id: 'metals.copper' } },
  },
  {
    id: 'fr-rareearth-china',
    lang: 'fr',
    topic: 'producer share',
    q: 'Quelle part de la production mondiale de terres rares vient de Chine ?',
    expect: { figure: F.producerShare('metals.rareearths', 'CHN'), cite: { type: 'commodity', id: 'metals.rareearths' } },
  },
  {
    id: 'fr-autonomy-de-gas',
    lang: 'fr',
    topic: 'self-sufficiency',
    q: "Quelle est l'autosuffisance de l'Allemagne en gaz ?",
    expect: { figure: F.autonomy('DEU', 'energy.gas'), cite: { type: 'country', id: 'DEU' } },
  },
  {
    id: 'fr-stress-cobalt',
    lang: 'fr',
    topic: 'stress index',
    q: "Quel est l'indice de tension du cobalt ?",
    expect: { figure: F.stress('metals.cobalt'), cite: { type: 'commodity', id: 'metals.cobalt' } },
  },
  {
    id: 'fr-scenarios-gas',
    lang: 'fr',
    topic: 'scenarios',
    q: 'Quels sont les scénarios qui concernent le gaz ?',
    expect: {
      figure: F.scenarioCount({ commodity: 'energy.gas' }),
      cite: { type: 'scenario', id: F.topScenario({ commodity: 'energy.gas' }) },
      figureCite: { type: 'scenario', id: 'scenarios?commodity=gas' },
    },
  },
  {
    id: 'fr-events-oil',
    lang: 'fr',
    topic: 'events',
    q: 'Quels sont les derniers événements sur le pétrole ?',
    expect: { cite: { type: 'event', id: F.newestEvent('energy.oil') } },
  },
  {
    id: 'fr-spr',
    lang: 'fr',
    topic: 'US SPR',
    q: 'Combien de pétrole contient la réserve stratégique de pétrole des États-Unis ?',
    expect: { figure: F.reserve('oil', 'us', 'volume'), cite: { type: 'reserve', id: 'oil/us' } },
  },
  { id: 'fr-none-gdp', lang: 'fr', topic: 'unanswerable', q: 'Quel est le PIB de la France ?', expect: NONE },
  { id: 'fr-none-japan-storage', lang: 'fr', topic: 'unanswerable', q: 'Quel est le niveau de stockage de gaz au Japon ?', expect: NONE },

  // ——— German
  {
    id: 'de-storage-de',
    lang: 'de',
    topic: 'gas storage',
    q: 'Wie voll sind die Gasspeicher in Deutschland?',
    expect: { figure: F.reserve('gas', 'de', 'fill_pct'), cite: { type: 'reserve', id: 'gas/de' } },
  },
  {
    id: 'de-storage-fr-date',
    lang: 'de',
    topic: 'gas storage on a date',
    q: 'Wie hoch war der Füllstand der Gasspeicher in Frankreich am 1. März 2026?',
    expect: { figure: F.reserveAt('gas', 'fr', 'fill_pct', '2026-03-01'), cite: { type: 'reserve', id: 'gas/fr' } },
  },
  {
    id: 'de-price-oil',
    lang: 'de',
    topic: 'oil price',
    q: 'Wie hoch ist der Ölpreis?',
    expect: { figure: F.price('energy.oil'), cite: { type: 'commodity', id: 'energy.oil' } },
  },
  {
    id: 'de-price-gas',
    lang: 'de',
    topic: 'gas price',
    q: 'Was kostet Erdgas in Europa?',
    expect: { figure: F.price('energy.gas'), cite: { type: 'commodity', id: 'energy.gas' } },
  },
  {
    id: 'de-price-gold-month',
    lang: 'de',
    topic: 'metal price on a date',
    q: 'Wie hoch war der Goldpreis im März 2026?',
    expect: { figure: F.priceAt('metals.gold', '2026-03-31'), cite: { type: 'commodity', id: 'metals.gold' } },
  },
  {
    id: 'de-spr',
    lang: 'de',
    topic: 'US SPR',
    q: 'Wie viel Rohöl liegt in der strategischen Erdölreserve der USA?',
    expect: { figure: F.reserve('oil', 'us', 'volume'), cite: { type: 'reserve', id: 'oil/us' } },
  },
  {
    id: 'de-cobalt-top',
    lang: 'de',
    topic: 'top producer share',
    q: 'Welches Land ist der größte Kobaltproduzent und welchen Anteil hat es?',
    expect: { figure: F.topProducerShare('metals.cobalt'), cite: { type: 'commodity', id: 'metals.cobalt' } },
  },
  {
    id: 'de-imports-gas',
    lang: 'de',
    topic: 'import dependence',
    q: 'Wie hoch ist die Importabhängigkeit Deutschlands bei Erdgas?',
    expect: { figure: F.importDependence('DEU', 'energy.gas'), cite: { type: 'country', id: 'DEU' } },
  },
  {
    id: 'de-stress-platinum',
    lang: 'de',
    topic: 'stress index',
    q: 'Wie hoch ist der Stressindex von Platin?',
    expect: { figure: F.stress('metals.platinum'), cite: { type: 'commodity', id: 'metals.platinum' } },
  },
  {
    id: 'de-scenarios-active',
    lang: 'de',
    topic: 'scenarios',
    q: 'Welche Szenarien sind derzeit aktiv?',
    expect: {
      figure: F.scenarioCount({ status: 'active' }),
      cite: { type: 'scenario', id: F.topScenario({ status: 'active' }) },
      figureCite: { type: 'scenario', id: 'scenarios?status=active' },
    },
  },
  {
    id: 'de-events-rareearths',
    lang: 'de',
    topic: 'events',
    q: 'Welche Ereignisse gab es zuletzt bei Seltenen Erden?',
    expect: { cite: { type: 'event', id: F.newestEvent('metals.rareearths') } },
  },
  { id: 'de-none-worldcup', lang: 'de', topic: 'unanswerable', q: 'Wer hat die Fußball-Weltmeisterschaft 2014 gewonnen?', expect: NONE },
  { id: 'de-none-population', lang: 'de', topic: 'unanswerable', q: 'Wie viele Einwohner hat Frankreich?', expect: NONE },

  // ——— Spanish
  {
    id: 'es-storage-es',
    lang: 'es',
    topic: 'gas storage',
    q: '¿Qué nivel de llenado tiene el almacenamiento de gas en España?',
    expect: { figure: F.reserve('gas', 'es', 'fill_pct'), cite: { type: 'reserve', id: 'gas/es' } },
  },
  {
    id: 'es-storage-eu-date',
    lang: 'es',
    topic: 'gas storage on a date',
    q: '¿Cuál era el nivel de almacenamiento de gas de la UE el 1 de marzo de 2026?',
    expect: { figure: F.reserveAt('gas', 'eu', 'fill_pct', '2026-03-01'), cite: { type: 'reserve', id: 'gas/eu' } },
  },
  {
    id: 'es-price-oil',
    lang: 'es',
    topic: 'oil price',
    q: '¿Cuál es el precio del petróleo?',
    expect: { figure: F.price('energy.oil'), cite: { type: 'commodity', id: 'energy.oil' } },
  },
  {
    id: 'es-price-wheat',
    lang: 'es',
    topic: 'agri price',
    q: '¿Cuánto cuesta el trigo?',
    expect: { figure: F.price('agri.wheat'), cite: { type: 'commodity', id: 'agri.wheat' } },
  },
  {
    id: 'es-spr',
    lang: 'es',
    topic: 'US SPR',
    q: '¿Cuánto petróleo hay en la Reserva Estratégica de Petróleo de EE. UU.?',
    expect: { figure: F.reserve('oil', 'us', 'volume'), cite: { type: 'reserve', id: 'oil/us' } },
  },
  {
    id: 'es-cobalt-drc',
    lang: 'es',
    topic: 'producer share',
    q: '¿Qué porcentaje de la producción mundial de cobalto aporta la República Democrática del Congo?',
    expect: { figure: F.producerShare('metals.cobalt', 'COD'), cite: { type: 'commodity', id: 'metals.cobalt' } },
  },
  {
    id: 'es-autonomy-coal',
    lang: 'es',
    topic: 'self-sufficiency',
    q: '¿Cuál es la autosuficiencia de Alemania en carbón?',
    expect: { figure: F.autonomy('DEU', 'energy.coal'), cite: { type: 'country', id: 'DEU' } },
  },
  {
    id: 'es-stress-lithium',
    lang: 'es',
    topic: 'stress index',
    q: '¿Cuál es el índice de estrés del litio?',
    expect: { figure: F.stress('metals.lithium'), cite: { type: 'commodity', id: 'metals.lithium' } },
  },
  {
    id: 'es-hhi-gallium',
    lang: 'es',
    topic: 'supplier concentration',
    q: '¿Cuál es la concentración de proveedores del galio?',
    expect: { figure: F.hhi('metals.gallium'), cite: { type: 'commodity', id: 'metals.gallium' } },
  },
  {
    id: 'es-scenarios-active',
    lang: 'es',
    topic: 'scenarios',
    q: '¿Qué escenarios están activos?',
    expect: {
      figure: F.scenarioCount({ status: 'active' }),
      cite: { type: 'scenario', id: F.topScenario({ status: 'active' }) },
      figureCite: { type: 'scenario', id: 'scenarios?status=active' },
    },
  },
  {
    id: 'es-events-oil',
    lang: 'es',
    topic: 'events',
    q: '¿Cuáles son los eventos recientes sobre el petróleo?',
    expect: { cite: { type: 'event', id: F.newestEvent('energy.oil') } },
  },
  { id: 'es-none-bitcoin', lang: 'es', topic: 'unanswerable', q: '¿Cuál es el precio del bitcoin?', expect: NONE },
  { id: 'es-none-japan-spr', lang: 'es', topic: 'unanswerable', q: '¿Cuántas reservas estratégicas de petróleo tiene Japón?', expect: NONE },
];
