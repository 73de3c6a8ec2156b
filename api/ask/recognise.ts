import type { ScenarioStatus } from '../../contract/content.ts';
import { nearestName } from './typos.ts';
import { findDate, findPeriod, type AskedDate, type AskedPeriod } from './dates.ts';
import { languageScores, pickLanguage } from './lang.ts';
import { cue, entries, type Metric, METRICS } from './lang/index.ts';
import type { LexEntry, Lexicon } from './lexicon.ts';
import { fold, type Lang, type Token, tokenize } from './text.ts';

export type { Metric } from './lang/index.ts';

/** Words that ask for a metric, from the packs: unanchored stems catch German compounds. */
const METRIC_PATTERNS = METRICS.map((m) => [m, cue((p) => p.metrics[m])] as const);
const STATUS_PATTERNS = (['active', 'elevated', 'monitoring', 'resolved', 'dismissed'] as const satisfies readonly ScenarioStatus[]).map(
  (s) => [s, cue((p) => p.statuses[s])] as const,
);
/** Topics outside the data: answered plainly with "the data cannot answer". */
const OUT_OF_SCOPE = cue((p) => p.outOfScope);
/** A request to reveal the answerer's instructions or to change its role: declined as such, whatever data question it carries. */
const INSTRUCTIONS = cue((p) => p.instructions);
/** Asking about the future: the data holds observations only. */
const FORECAST = cue((p) => p.forecast);
const SPR = cue((p) => p.spr);
const GENERIC = new RegExp(`^(?:${entries((p) => p.generic).join('|')})$`);

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
const COMPOUND_TAILS = new RegExp(`^(?:${entries((p) => p.compoundTails).join('|')})`);

/** Where a weak alias stands in the question: what its rule reads. */
interface Around {
  raw: string;
  lang: Lang;
  /** After an elided article (l'or, d'argent). */
  elided: boolean;
  prev: string | undefined;
  next: string | undefined;
  /** A name that is no common word was found in the question. */
  strongFound: boolean;
}

/**
 * Aliases that are also common words (French "or", "mais", "argent"; English "lead"; "brut"),
 * one row each: when the word names the commodity. Any other weak alias counts when nothing
 * stronger was found, or as part of a longer name.
 */
const WEAK_ALIASES: ReadonlyMap<string, (w: Around) => boolean> = new Map(
  Object.entries({
    // Gold: "l'or", "d'or", never the conjunction "or".
    or: (w: Around) => w.elided,
    // Silver: "l'argent" in French (money otherwise), the word itself in German and Spanish texts.
    argent: (w: Around) => w.elided || (w.lang !== 'fr' && w.lang !== 'en'),
    // Maize: "maïs" written with its diaeresis, or German "Mais" (French "mais" is "but").
    mais: (w: Around) => /ï/i.test(w.raw) || w.lang === 'de',
    // The metal, not the verb ("lead to") nor beside another name ("lead the copper market").
    lead: (w: Around) => w.lang === 'en' && w.next !== 'to' && !w.strongFound,
    // Crude oil, not "produit intérieur brut" (GDP).
    brut: (w: Around) => w.prev !== 'pib' && w.prev !== 'produit',
  }),
);

function accept(e: LexEntry, tokens: readonly Token[], i: number, len: number, lang: Lang, strongFound: boolean): boolean {
  if (e.upperOnly && !(len === 1 && isUpper(tokens[i]!.raw))) return false;
  if (e.onlyLang && e.onlyLang !== lang) return false;
  if (!e.weak) return true;
  const t = tokens[i]!;
  const prev = tokens[i - 1];
  const rule = WEAK_ALIASES.get(t.norm);
  if (!rule) return !strongFound || len > 1;
  const elided = !!prev && (prev.norm === 'l' || prev.norm === 'd') && prev.end === t.start - 1;
  return rule({ raw: t.raw, lang, elided, prev: prev?.norm, next: tokens[i + 1]?.norm, strongFound });
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
  return METRIC_PATTERNS.some(([, re]) => re.test(word)) || STATUS_PATTERNS.some(([, re]) => re.test(word)) || GENERIC.test(word);
}
