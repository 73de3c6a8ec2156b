/**
 * What a question asks to be done with the figures it names, read from its folded words in the
 * four languages: a comparison, a ranking, a threshold filter, a change over a period, an
 * explanation of an index, or a plain lookup. The slots (commodities, countries, metric, date)
 * are read by recognise.ts; this module reads the operation and the slots it adds (order, count,
 * bound, period, the set a ranking runs over, event categories).
 */
import type { EventCategory } from '../../contract/content.ts';
import type { StressBand } from '../../contract/stress.ts';
import { fold, type Lang } from './text.ts';

export type Operation =
  | { kind: 'compare' }
  | { kind: 'rank'; order: 'max' | 'min'; n: number | null }
  | { kind: 'threshold'; op: '<' | '>'; value: number }
  | { kind: 'change'; months: number; days: number; since: string | null }
  | { kind: 'explain' }
  | { kind: 'lookup' };

/** What a ranking or a filter runs over when the question names a kind of thing rather than things. */
export type SetKind = 'countries' | 'commodities' | null;
export type CommodityGroup = 'metals' | 'energy' | 'agri' | null;

export interface Intent {
  op: Operation;
  /** Which end a superlative or comparative word asks for (max when none). */
  order: 'max' | 'min';
  set: SetKind;
  group: CommodityGroup;
  /** A date given relative to the day of the question ("one year ago", "il y a un mois"). */
  ago: { months: number; days: number } | null;
  categories: EventCategory[];
  /** "recent", "latest": newest first (the default order of event lists anyway). */
  recent: boolean;
  /** A stress band named ("high", "élevé", "hoch", "alto"): a list of the members in it. */
  band: StressBand | null;
}

const NUMBER_WORDS: Record<string, number> = {
  a: 1, an: 1, one: 1, un: 1, une: 1, ein: 1, eine: 1, einem: 1, einen: 1, einer: 1, uno: 1, una: 1,
  two: 2, deux: 2, zwei: 2, dos: 2, three: 3, trois: 3, drei: 3, tres: 3, four: 4, quatre: 4, vier: 4, cuatro: 4,
  five: 5, cinq: 5, funf: 5, cinco: 5, six: 6, sechs: 6, seis: 6, ten: 10, dix: 10, zehn: 10, diez: 10,
  twelve: 12, douze: 12, zwolf: 12, doce: 12,
}; // prettier-ignore
const countWord = (s: string | undefined): number | null => (s === undefined ? null : /^\d+$/.test(s) ? Number(s) : (NUMBER_WORDS[s] ?? null));
const COUNT = `(\\d{1,2}|${Object.keys(NUMBER_WORDS).join('|')})`;

/** Period units in the four languages, as [months, days]. */
const UNITS: [RegExp, number, number][] = [
  [/^(?:years?|ans?|annees?|jahre?n?|jahres|anos?)$/, 12, 0],
  [/^(?:quarters?|trimestres?|quartale?n?|quartals)$/, 3, 0],
  [/^(?:months?|mois|monate?n?|monats|mes|meses)$/, 1, 0],
  [/^(?:weeks?|semaines?|wochen?|semanas?)$/, 0, 7],
  [/^(?:days?|jours?|tage?n?|dias?)$/, 0, 1],
];
const UNIT =
  '(years?|ans?|annees?|jahre?n?|jahres|anos?|quarters?|trimestres?|quartale?n?|quartals|months?|mois|monate?n?|monats|mes|meses|weeks?|semaines?|wochen?|semanas?|days?|jours?|tage?n?|dias?)';
function period(unit: string, count: number): { months: number; days: number } {
  const u = UNITS.find(([re]) => re.test(unit));
  return u ? { months: u[1] * count, days: u[2] * count } : { months: 0, days: 0 };
}

/** "one year ago", "il y a un mois", "vor einem Jahr", "hace 3 meses". */
const AGO = [
  new RegExp(`\\b${COUNT}\\s+${UNIT}\\s+ago\\b`),
  new RegExp(`\\bil y a\\s+${COUNT}\\s+${UNIT}\\b`),
  new RegExp(`\\bvor\\s+${COUNT}\\s+${UNIT}\\b`),
  new RegExp(`\\bhace\\s+${COUNT}\\s+${UNIT}\\b`),
];
/** "over the last month", "in the past 3 months", "au cours des 12 derniers mois", "in den letzten 6 Monaten", "en el último año". */
const LAST = [
  new RegExp(`\\b(?:last|past|previous)\\s+(?:${COUNT}\\s+)?${UNIT}\\b`),
  new RegExp(`\\b(?:dernier|derniere|derniers|dernieres)\\s+(?:${COUNT}\\s+)?${UNIT}\\b`),
  new RegExp(`\\b(?:${COUNT}\\s+)?(?:dernier|derniere|derniers|dernieres)\\s+${UNIT}\\b`),
  new RegExp(`\\b(?:letzten|vergangenen|letzte|vergangene)\\s+(?:${COUNT}\\s+)?${UNIT}\\b`),
  new RegExp(`\\b(?:ultimo|ultima|ultimos|ultimas|pasado|pasada)\\s+(?:${COUNT}\\s+)?${UNIT}\\b`),
  new RegExp(`\\b(?:${COUNT}\\s+)?${UNIT}\\s+(?:pasados|pasadas|anteriores)\\b`),
];
const YEAR_ON_YEAR =
  /\b(?:year on year|year-on-year|yoy|over the year|sur un an|en un an|sur l'annee|im jahresvergleich|gegenuber dem vorjahr|binnen eines jahres|interanual|en un ano|en el ultimo ano)\b/;
/** "over the last month", "au cours des derniers mois", "in den letzten", "durante el último año": a period to measure a change over. */
const OVER =
  /\b(?:over|during|within|across|throughout|au cours (?:du|de la|des)|sur (?:le|la|les)|pendant (?:le|la|les)|in den|im|innerhalb (?:der|des)|binnen|durante (?:el|la|los|las)|en (?:el|la|los|las))\s+(?:the\s+)?(?:\d+\s+)?(?:last|past|previous|dernier\w*|letzten|vergangenen|ultim\w*|pasad\w*)\b/;
const SINCE = /\b(?:since|depuis|seit|desde)\b/;

const CHANGE =
  /\b(?:chang\w*|mov(?:e|ed|ement)|evolv\w*|evolution|trend\w*|ris(?:e|en|ing)|rose|f[ae]ll(?:en|ing)?|drop\w*|increas\w*|decreas\w*|grow\w*|grew|gone (?:up|down)|go(?:ne)? up|went (?:up|down)|evolu\w*|variation\w*|hausse|baisse|augment\w*|diminu\w*|progress\w*|recul\w*|veranderung\w*|verandert\w*|entwick\w*|gestiegen|gefallen|gesunken|anstieg|ruckgang|zugenommen|abgenommen|cambi\w*|variacion\w*|subid[oa]|bajad[oa]|aumentad[oa]|disminuid[oa]|crecid[oa]|caid[oa])\b/;

const EXPLAIN =
  /\b(?:why|drives?|driving|driven|drivers?|explain\w*|behind|components?|breakdown|break down|made up|composed|what makes|contribut\w*|pourquoi|explique\w*|composantes?|qu'est-ce qui|facteurs?|moteurs?|decompos\w*|warum|weshalb|wieso|treibt|treiber|getrieben|komponenten|zusammensetzung|zusammengesetzt|erklar\w*|beitrag\w*|por que|explica\w*|componentes|factores|impulsa\w*|detras|se compone|desglose)\b/;

const COMPARE =
  /\b(?:compar\w*|versus|vs|than|fuller|emptier|higher|lower|bigger|smaller|larger|cheaper|dearer|more expensive|plus (?:\w+ )?que|moins (?:\w+ )?que|davantage que|vergleich\w*|gegenuber|als|voller|hoher|niedriger|teurer|billiger|grosser|kleiner|mas (?:\w+ )?que|menos (?:\w+ )?que|mas (?:car[oa]s?|barat[oa]s?|llen[oa]s?|alt[oa]s?|baj[oa]s?)|plus (?:cher|chere|chers|rempli\w*|eleve\w*|bas|basse|faible)|frente a|respecto a|mayor que|menor que)\b/;

/** What makes a comparison of a superlative-looking word: "than", "plus … que", "más … que", "als", "X or Y". */
const COMPARATIVE =
  /\b(?:than|als|compar\w*|versus|vs|frente a|respecto a|gegenuber|vergleich\w*|or|ou|oder|o)\b|\b(?:plus|moins|mas|menos) (?:\S+ ){0,2}que\b/;

/** Superlatives: the word and which end of the ranking it asks for. */
const SUPER_MIN =
  /\b(?:lowest|least|smallest|emptiest|cheapest|weakest|minimum|bottom|le moins|la moins|les moins|plus bas(?:se)?s?|plus faibles?|moins (?:rempli|eleve)e?s?|am niedrigsten|am wenigsten|am geringsten|niedrigsten?|geringsten?|wenigsten|kleinsten?|leersten?|billigsten?|el menor|la menor|los menores|las menores|menos|mas baj[oa]s?|mas vaci[oa]s?|mas barat[oa]s?)\b/;
const SUPER_MAX =
  /\b(?:highest|most|largest|biggest|fullest|greatest|strongest|top|maximum|le plus|la plus|les plus|plus eleve(?:e|s|es)?|plus rempli(?:e|s|es)?|am hochsten|am meisten|am starksten|am vollsten|am grossten|hochsten?|meisten|grossten?|starksten?|vollsten?|el mayor|la mayor|los mayores|las mayores|mas alt[oa]s?|mas llen[oa]s?|mas fuertes?|mas)\b/;
/** "most" beside a word of the low end ("the most … least" is rare; "le plus bas" is the low end itself). */
const MAX_OVERRIDE = /\b(?:most|(?:le|la|les) plus(?! (?:bas|basse|basses|faibles?|petite?s?|vides?|pauvres?)\b)|am meisten|am hochsten)\b/;
const RANKING = /\b(?:rank\w*|classement|classe|rangliste|rangfolge|reihenfolge|clasificacion|ranking)\b/;
/** "top 5", "les 5", "die 3", "los 5", "five most", "5 countries". */
const TOP_N = new RegExp(
  `\\b(?:top|les|die|los|las|the)\\s+${COUNT}\\b|\\b${COUNT}\\s+(?:most|least|largest|highest|lowest|countries|commodities|pays|lander|paises|rohstoffe|matieres|materias)\\b`,
);

/** "below 20 %", "plus de 80 %", "unter 30 Prozent", "por encima del 50 %". */
const BELOW =
  '(?:below|under|less than|lower than|beneath|at most|moins de|en dessous de|en deca de|sous|inferieure?s? a|au plus|unter|weniger als|niedriger als|hochstens|menos de|menos del|por debajo de|por debajo del|inferior(?:es)? al?|como mucho)';
const ABOVE =
  '(?:above|over|more than|greater than|higher than|exceeding|at least|plus de|au-dessus de|au dessus de|superieure?s? a|au moins|uber|mehr als|hoher als|mindestens|mas de|mas del|por encima de|por encima del|superior(?:es)? al?|al menos)';
const THRESHOLD = new RegExp(`\\b(${BELOW}|${ABOVE})\\s+(\\d+(?:[.,]\\d+)?)\\s*(%|percent|per cent|pour ?cent|prozent|por ?ciento|points?|punkte?n?|puntos?)?`);

const COUNTRY_SET =
  /\b(?:countries|country|nations?|member states?|pays|etats membres|etat membre|land|lander|staaten|staat|mitgliedstaaten|mitgliedsstaaten|paises|pais|estados miembros|estado miembro|where|ou|wo|donde)\b/;
const COMMODITY_SET =
  /\b(?:commodit\w*|raw materials?|materials?|metals?|minerals?|resources?|fuels?|crops?|matieres? premieres?|matieres?|metaux|metal|mineraux|ressources?|rohstoff\w*|metall\w*|mineral\w*|brennstoff\w*|materias? primas?|metales|minerales|recursos?|combustibles?)\b/;
const GROUPS: [Exclude<CommodityGroup, null>, RegExp][] = [
  ['metals', /\b(?:metals?|metaux|metall\w*|metales|minerals?|mineraux|minerales)\b/],
  ['energy', /\b(?:energy|energie|energia|fuels?|combustibles?|brennstoff\w*)\b/],
  [
    'agri',
    /\b(?:agri\w*|crops?|food|cultures?|alimentaires?|landwirtschaft\w*|agrar\w*|lebensmittel|cultivos?|alimentos?|fertili[sz]\w*|engrais|dunger|fertilizantes?)\b/,
  ],
];

const CATEGORIES: [EventCategory, RegExp][] = [
  [
    'sanction',
    /\b(?:sanction\w*|embargo\w*|price caps?|plafonds? de prix|sanktion\w*|preisdeckel|sancion\w*|bans?|banned|interdi\w*|verbot\w*|prohibi\w*|boycott\w*)\b/,
  ],
  [
    'conflict',
    /\b(?:conflicts?|conflits?|guerres?|krieg\w*|guerras?|attacks?|strikes?|attaques?|frappes?|angriff\w*|ataques?|military|militaire\w*|militar\w*|blockades?|blocus|bloqueos?|konflikt\w*|conflictos?)\b/,
  ],
  [
    'catastrophe',
    /\b(?:catastroph\w*|disasters?|katastroph\w*|desastres?|hurricanes?|ouragans?|hurrikan\w*|huracan\w*|earthquakes?|seismes?|erdbeben|terremotos?|floods?|inondations?|hochwasser|uberschwemmung\w*|inundacion\w*|fires?|incendies?|incendios?|storms?|tempetes?|sturm\w*|tormentas?|droughts?|secheresses?|durre\w*|sequias?|accidents?|unfall\w*|unfalle|accidentes?)\b/,
  ],
  [
    'policy',
    /\b(?:polic(?:y|ies)|politiques?|politik\w*|politicas?|regulations?|reglementations?|regulierung\w*|regulacion\w*|export (?:bans?|controls?|restrictions?)|quotas?|tariffs?|droits de douane|zolle?n?|aranceles?|stock release|releases?|opec|opep)\b/,
  ],
  [
    'infrastructure',
    /\b(?:infrastructures?|infrastruktur\w*|infraestructuras?|pipelines?|gazoducs?|oleoducs?|gasoductos?|oleoductos?|outages?|pannes?|ausfall\w*|refiner(?:y|ies)|raffineries?|raffinerie\w*|refinerias?|terminals?|terminaux|shutdowns?|stilllegung\w*|cierres?|leitung\w*)\b/,
  ],
];
/** The stress bands by name in the four languages, with their inflections. */
const BANDS: [StressBand, RegExp][] = [
  ['severe', /\b(?:severe|severes?|schwer(?:e|en|em|er)?|kritisch\w*|sever[oa]s?|grave|graves)\b/],
  ['high', /\b(?:high|elevee?s?|hoch|hohe[nmrs]?|alt[oa]s?)\b/],
  ['moderate', /\b(?:moderate|moderee?s?|massig\w*|maessig\w*|moderad[oa]s?)\b/],
  ['low', /\b(?:low|faibles?|niedrig\w*|baj[oa]s?)\b/],
];

const RECENT =
  /\b(?:recent\w*|latest|newest|last|derniers?|dernieres?|recents?|recentes?|neueste\w*|letzte\w*|aktuell\w*|jungste\w*|reciente\w*|ultim[oa]s?)\b/;

/** The operation and the extra slots of a question (folded words; see recognise.ts for the rest). */
export function readIntent(question: string, lang: Lang = 'en'): Intent {
  const t = fold(question);
  const categories = CATEGORIES.filter(([, re]) => re.test(t)).map(([c]) => c);
  // German "war" is "was": the English word counts only in English.
  if (lang === 'en' && /\bwars?\b/.test(t) && !categories.includes('conflict')) categories.push('conflict');
  let ago: Intent['ago'] = null;
  for (const re of AGO) {
    const m = re.exec(t);
    if (m) {
      ago = period(m[2]!, countWord(m[1]) ?? 1);
      break;
    }
  }
  const set: SetKind = COMMODITY_SET.test(t) ? 'commodities' : COUNTRY_SET.test(t) ? 'countries' : null;
  const group = set === 'commodities' ? (GROUPS.find(([, re]) => re.test(t))?.[0] ?? null) : null;
  const base = {
    set,
    group,
    ago,
    categories,
    recent: RECENT.test(t),
    band: BANDS.find(([, re]) => re.test(t))?.[0] ?? null,
    order: SUPER_MIN.test(t) && !MAX_OVERRIDE.test(t) ? ('min' as const) : ('max' as const),
  };

  const th = THRESHOLD.exec(t);
  if (th && !(Number(th[2]!.replace(',', '.')) >= 1900 && !th[3])) {
    const op = new RegExp(`^${BELOW}$`).test(th[1]!) ? '<' : '>';
    return { ...base, op: { kind: 'threshold', op, value: Number(th[2]!.replace(',', '.')) } };
  }
  if (EXPLAIN.test(t)) return { ...base, op: { kind: 'explain' } };

  let last: { months: number; days: number } | null = null;
  for (const re of LAST) {
    const m = re.exec(t);
    if (m) {
      const unit = m.slice(1).find((g) => g !== undefined && UNITS.some(([u]) => u.test(g)));
      const count = m.slice(1).find((g) => g !== undefined && countWord(g) !== null && !UNITS.some(([u]) => u.test(g)));
      if (unit) last = period(unit, countWord(count) ?? 1);
      break;
    }
  }
  if (!last && YEAR_ON_YEAR.test(t)) last = { months: 12, days: 0 };
  const since = SINCE.test(t);
  if (!ago && (CHANGE.test(t) || since || (last && OVER.test(t)) || YEAR_ON_YEAR.test(t))) {
    const p = last ?? { months: since ? 0 : 1, days: 0 };
    return { ...base, op: { kind: 'change', months: p.months, days: p.days, since: since ? 'named' : null } };
  }
  // "the price last month" (no word of change): the reading that long ago.
  if (!ago && last) base.ago = last;

  const min = SUPER_MIN.test(t);
  const max = SUPER_MAX.test(t);
  const top = TOP_N.exec(t);
  if (min || max || RANKING.test(t) || top) {
    const n = top ? countWord(top[1] ?? top[2]) : null;
    // "plus … que", "mas … que", "more than": a comparison, not a superlative.
    if (!COMPARATIVE.test(t) || /\b(?:le|la|les|el|los|las|the|am)\s+(?:plus|mas|most|least|moins|menos)\b/.test(t) || RANKING.test(t) || top)
      return { ...base, op: { kind: 'rank', order: base.order, n } };
  }
  if (COMPARE.test(t)) return { ...base, op: { kind: 'compare' } };
  return { ...base, op: { kind: 'lookup' } };
}

/** The day `p` before `iso` (calendar months, then days). */
export function minusPeriod(iso: string, p: { months: number; days: number }): string {
  const d = new Date(`${iso}T00:00:00Z`);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - p.months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  d.setUTCDate(d.getUTCDate() - p.days);
  return d.toISOString().slice(0, 10);
}
