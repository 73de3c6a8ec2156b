import type { ScenarioStatus } from '../../contract/content.ts';
import { nearestName } from './typos.ts';
import { findDate, findPeriod, type AskedDate, type AskedPeriod } from './dates.ts';
import { languageScores, pickLanguage } from './lang.ts';
import type { LexEntry, Lexicon } from './lexicon.ts';
import { fold, type Lang, type Token, tokenize } from './text.ts';

export type Metric =
  'storage' | 'cover' | 'volume' | 'price' | 'stress' | 'producer' | 'reserves_in_ground' | 'concentration' | 'autonomy' | 'imports' | 'scenario' | 'event';

/** Words (folded, in the four languages) that ask for a metric; unanchored stems catch German compounds. */
const METRIC_PATTERNS: [Metric, RegExp][] = [
  [
    'storage',
    /\b(?:storage|stored|stocks?|full|fill(?:ed|ing)?|fill level|inventor\w*|reserves?|reserven?|reservas?|stockage|stockes?|remplis?|remplie?s?|remplissage|almacenamiento|almacenad\w*|llen[oa]s?|llenado|existencias|depositos)\b|speicher|fullstand|gefullt|fullung|fullgrad|vorrat|vorrate/,
  ],
  [
    'cover',
    /\b(?:days? of (?:cover|supply)|coverage|how long|how many days|jours de (?:couverture|consommation)|couverture|combien de jours|reichweite|tage|wie lange|dias de (?:cobertura|consumo)|cobertura|cuantos dias)\b/,
  ],
  ['volume', /\b(?:volume|volumen|twh|barrels?|barils?|barriles|how much (?:gas|oil)|quantite|menge|cantidad|cuanto gas|combien de gaz|wie viel gas)\b/],
  [
    'price',
    /(?<!\ben )\bcours\b|\b(?:price[sd]?|cost(?:s|ing)?|expensive|cheap\w*|cher|chere|bon marche|teuer\w*|billig\w*|car[oa]s?|barat[oa]s?|trading at|trade at|worth|prix|coute|vaut|kostet|kurs|notiert|precios?|cuesta|cotiza\w*|vale)\b|preis/,
  ],
  ['stress', /stress|\btension|spannung|anspannung|\bestres/],
  [
    'producer',
    /\b(?:produc\w*|produi\w*|produz\w*|produktion\w*|mined|mining|mines?|supplier\w*|fournisseur\w*|proveedor\w*|lieferant\w*|exporter|biggest source|largest source|share|part|parts|anteil\w*|cuota|participacion|porcentaje|hersteller\w*|erzeuger\w*|extrai\w*|extrae\w*)\b|forder|bergbau/,
  ],
  [
    'reserves_in_ground',
    /\b(?:reserves in the ground|in.ground reserves|geological reserves|mineral reserves|reserves geologiques|reserves miniers|reservas minerales|reservas probadas|proven reserves|lagerstatten|bodenschatze)\b/,
  ],
  ['concentration', /\b(?:concentrat\w*|konzentration|concentracion|hhi|herfindahl)\b/],
  ['autonomy', /\b(?:self.?suffic\w*|autonom\w*|autosuffis\w*|autarc\w*|autark\w*|selbstversorg\w*|autosuficien\w*|autoabastec\w*|eigenversorg\w*)\b/],
  ['imports', /\b(?:imports?|importations?|importe|importaciones|importado\w*|dependen\w*|dependan\w*|abhangig\w*|importabhangig\w*|importquote)\b/],
  ['scenario', /scenari|szenari|escenari|\b(?:risks?|risques?|risiko|risiken|riesgos?|threats?|menaces?|bedrohung\w*|amenazas?)\b/],
  [
    'event',
    /\b(?:events?|evenements?|ereignis\w*|eventos?|acontecimientos?|news|actualites?|nachrichten|noticias|happen\w*|passiert|ocurri\w*|sucedi\w*|sucesos|what'?s new|developments|incidents?|vorfalle|se passe|s'est passe)\b/,
  ],
];

const STATUS_PATTERNS: [ScenarioStatus, RegExp][] = [
  ['active', /\b(?:active|actifs?|actives?|aktiv\w*|activos?|activas?|en cours|laufend\w*|in progress|ongoing)\b/],
  ['elevated', /\b(?:elevated|eleves?|elevees?|erhoht\w*|elevad[oa]s?)\b/],
  ['monitoring', /\b(?:monitoring|monitored|watch(?:ed)?|surveill\w*|beobacht\w*|vigilancia|vigilad[oa]s?|observacion)\b/],
  ['resolved', /\b(?:resolved|resolus?|resolues?|gelost\w*|resuelt[oa]s?)\b/],
  ['dismissed', /\b(?:dismissed|ecartes?|ecartees?|verworfen\w*|descartad[oa]s?)\b/],
];

/** Topics outside the data: answered plainly with "the data cannot answer". */
const OUT_OF_SCOPE =
  /\b(?:population|inhabitants|einwohner\w*|bevolkerung|poblacion|habitantes|gdp|pib|bip|inflation|inflacion|unemploy\w*|chomage|arbeitslos\w*|desempleo|weather|meteo|wetter|president\w*|prasident\w*|prime minister|premier ministre|kanzler\w*|election\w*|wahl(?:en)?|eleccion\w*|football|fussball\w*|futbol|world cup|coupe du monde|weltmeister\w*|mundial de futbol|copa del mundo|capital city|capitale|hauptstadt|bitcoin|crypto\w*|exchange rate|taux de change|wechselkurs|tipo de cambio|interest rate|taux d'interet|leitzins|tipo de interes|share price|cours de l'action|aktienkurs|cotizacion de la accion|recipe|recette|rezept|receta)\b/;
/**
 * A request to reveal the answerer's instructions or to change its role, in the four languages:
 * declined as such, whatever data question it carries.
 */
const INSTRUCTIONS =
  /\b(?:system prompt|developer mode|jailbreak|(?:ignore|disregard|forget) (?:all |any |the |your )?(?:previous |prior |above |earlier )?(?:instructions|rules|prompts?)|(?:reveal|print|show|repeat|output|tell me) (?:me )?(?:your|the) (?:full |entire |hidden |secret )?(?:system )?(?:prompt|instructions|rules)|you are now|act as|pretend (?:to be|you are)|prompt systeme|invite systeme|mode developpeur|ignore[rz]? (?:toutes )?(?:les |tes |vos )?(?:instructions|consignes)|(?:affiche|montre|revele|repete)[rz]? (?:moi )?(?:tes|vos|les) (?:instructions|consignes)|agis comme|fais semblant|systemprompt|system-prompt|entwicklermodus|ignorier\w* (?:alle |die |deine |vorherige\w* )*(?:anweisungen|regeln)|(?:zeig|gib|nenn)\w* (?:mir )?(?:deine|die) (?:anweisungen|regeln|systemanweisungen)|verhalte dich wie|tu so als|prompt del sistema|modo desarrollador|ignora (?:todas )?(?:las |tus )?(?:instrucciones|reglas)|(?:muestra|revela|imprime|repite)(?:me)? (?:tus|las) (?:instrucciones|reglas)|actua como|finge ser)\b/;

/** Asking about the future: the data holds observations only. */
const FORECAST =
  /\b(?:will (?:\w+ )?(?:be|cost|reach|rise|fall|drop|increase|decrease|go|hit|fill|stand|have|happen|trade)|forecast\w*|predict\w*|projection|prevision\w*|prevoi\w*|sera|seront|prognos\w*|vorhersage|pronostic\w*|predic\w*|estara|habra|tendra|next year|l'an prochain|l'annee prochaine|nachstes jahr|el ano que viene|el proximo ano)\b|\bwird\b.*\b(?:sein|kosten|liegen|steigen|fallen)\b/;
const SPR =
  /\b(?:spr|strategic petroleum reserve|strategic (?:oil|crude) reserves?|reserves? strategiques? de petrole|reserve strategique (?:americaine|des etats unis)|strategischen? (?:erdol|ol|rohol)reserven?|strategische (?:erdol|ol|rohol)reserve|reserva estrategica de petroleo|reservas estrategicas de petroleo)\b/;

export interface CountryRef {
  iso3: string | null;
  /** Lower-case alpha-2, or 'eu' for the EU aggregate. */
  iso2: string;
}

export interface Recognised {
  lang: Lang;
  commodities: string[];
  countries: CountryRef[];
  metrics: Set<Metric>;
  statuses: Set<ScenarioStatus>;
  date: AskedDate | null;
  /** Two dates named in order: the span a change is measured over. */
  period: AskedPeriod | null;
  outOfScope: boolean;
  /** Asks for the answerer's instructions or a change of role (declined as such). */
  instructions: boolean;
  forecast: boolean;
  spr: boolean;
  /** Folded words that named nothing the lexicon knows and are not function words (for search relevance). */
  rest: string[];
}

const isUpper = (s: string) => /^[A-Z]+$/.test(s);
const COMPOUND_TAILS =
  /^(?:preis|speicher|vorrat|vorrate|reserve|lager|bestand|forder|produ|markt|import|export|versorg|fullstand|abhangig|stress|index|knapp|angebot|handel|minen|bergbau|sektor|kurs|menge|sanktion|embargo|lieferung)/;

function accept(e: LexEntry, tokens: readonly Token[], i: number, len: number, lang: Lang, strongFound: boolean): boolean {
  if (e.upperOnly && !(len === 1 && isUpper(tokens[i]!.raw))) return false;
  if (e.onlyLang && e.onlyLang !== lang) return false;
  if (!e.weak) return true;
  const t = tokens[i]!;
  const prev = tokens[i - 1];
  const elided = !!prev && (prev.norm === 'l' || prev.norm === 'd') && prev.end === t.start - 1;
  switch (t.norm) {
    case 'or':
    case 'argent':
      return elided || (lang !== 'fr' && lang !== 'en' && t.norm === 'argent');
    case 'mais':
      return /ï/i.test(t.raw) || lang === 'de';
    case 'lead':
      return lang === 'en' && tokens[i + 1]?.norm !== 'to' && !strongFound;
    case 'brut':
      return prev?.norm !== 'pib' && prev?.norm !== 'produit';
    default:
      return !strongFound || len > 1;
  }
}

/** Commodities, countries, metrics, date and language of a question. */
export function recognise(lex: Lexicon, question: string): Recognised {
  const tokens = tokenize(question);
  const scores = languageScores(question, tokens);
  const guess = pickLanguage(scores);
  const commodities: string[] = [];
  const countries: CountryRef[] = [];
  const rest: string[] = [];
  const matched: { entry: LexEntry; i: number; len: number }[] = [];
  const weakLater: { entries: LexEntry[]; i: number; len: number }[] = [];
  for (let i = 0; i < tokens.length;) {
    let took = 0;
    for (let len = Math.min(lex.maxWords, tokens.length - i); len >= 1 && !took; len--) {
      const key = tokens
        .slice(i, i + len)
        .map((t) => t.norm)
        .join(' ');
      const entries = lex.phrases.get(key);
      if (!entries) continue;
      const strong = entries.filter((e) => !e.weak && accept(e, tokens, i, len, guess, false));
      if (strong.length) {
        matched.push({ entry: strong[0]!, i, len });
        took = len;
      } else if (entries.some((e) => e.weak)) {
        weakLater.push({ entries: entries.filter((e) => e.weak), i, len });
        took = len;
      }
    }
    if (!took) {
      const t = tokens[i]!;
      // Genitive and plural forms: Deutschlands, Germanys.
      const bare =
        t.norm.length > 4 && t.norm.endsWith('s')
          ? lex.phrases.get(t.norm.slice(0, -1))?.filter((e) => !e.weak && accept(e, tokens, i, 1, guess, false))
          : undefined;
      if (bare?.length) matched.push({ entry: bare[0]!, i, len: 1 });
      else {
        // German compounds: Ölpreis, Erdgasspeicher, Kupferproduktion.
        const head =
          t.norm.length >= 5 ? lex.compoundHeads.find((h) => t.norm.startsWith(h.alias) && COMPOUND_TAILS.test(t.norm.slice(h.alias.length))) : undefined;
        const near = head ? null : nearestName(lex, t.norm, COMPOUND_TAILS);
        if (head) matched.push({ entry: { entity: { kind: 'commodity', slug: head.slug }, langs: new Set(['de']) }, i, len: 1 });
        else if (near) matched.push({ entry: near, i, len: 1 });
        else rest.push(t.norm);
      }
      took = 1;
    }
    i += took;
  }
  const strongCommodity = matched.some((m) => m.entry.entity.kind === 'commodity');
  for (const w of weakLater) {
    const e = w.entries.find((x) => accept(x, tokens, w.i, w.len, guess, strongCommodity));
    if (e) matched.push({ entry: e, i: w.i, len: w.len });
    else rest.push(...tokens.slice(w.i, w.i + w.len).map((t) => t.norm));
  }
  matched.sort((a, z) => a.i - z.i);
  for (const m of matched) {
    const n = m.entry.langs.size;
    if (n > 0 && n < 4) for (const l of m.entry.langs) scores[l] += n === 1 ? 1.5 : 0.5;
    const e = m.entry.entity;
    if (e.kind === 'commodity') {
      if (!commodities.includes(e.slug)) commodities.push(e.slug);
    } else if (e.kind === 'eu') {
      if (!countries.some((c) => c.iso2 === 'eu')) countries.push({ iso3: null, iso2: 'eu' });
    } else if (!countries.some((c) => c.iso3 === e.iso3)) {
      const iso2 = [...lex.iso2to3].find(([, v]) => v === e.iso3)?.[0] ?? '';
      countries.push({ iso3: e.iso3, iso2 });
    }
  }
  const lang = pickLanguage(scores);
  const folded = fold(question);
  const metrics = new Set<Metric>();
  for (const [m, re] of METRIC_PATTERNS) if (re.test(folded)) metrics.add(m);
  const statuses = new Set<ScenarioStatus>();
  for (const [s, re] of STATUS_PATTERNS) if (re.test(folded)) statuses.add(s);
  const spr = SPR.test(folded);
  return {
    lang,
    commodities,
    countries,
    metrics,
    statuses,
    date: findDate(question, lang),
    period: findPeriod(question, lang),
    outOfScope: OUT_OF_SCOPE.test(folded),
    instructions: INSTRUCTIONS.test(folded),
    forecast: FORECAST.test(folded),
    spr,
    rest,
  };
}

/** A word that asks for a metric or a status rather than naming a topic (no help in judging a search hit). */
export function isGeneric(word: string): boolean {
  return (
    METRIC_PATTERNS.some(([, re]) => re.test(word)) ||
    STATUS_PATTERNS.some(([, re]) => re.test(word)) ||
    /^(?:what|which|where|about|there|currently|today|latest|current|actuel\w*|aktuell\w*|actual\w*|quelle?s?|welche\w*|cuales?|donde|combien|cuanto\w*|wieviel|countries|country|pays|lander|paises|world|monde|welt|mundo)$/.test(
      word,
    )
  );
}
