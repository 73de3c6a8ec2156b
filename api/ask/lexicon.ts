import type { CommoditySheet } from '../../contract/commodities.ts';
import type { CountryProfile } from '../../contract/countries.ts';
import { fileData, perBuild, type LoadedBuild } from '../build.ts';
import { LANG_LIST, type Lang, phraseKey } from './text.ts';

/** What a phrase of a question can name. */
export type Entity = { kind: 'commodity'; slug: string } | { kind: 'country'; iso3: string } | { kind: 'eu' };

export interface LexEntry {
  entity: Entity;
  /** Languages whose names or aliases include the phrase (evidence for language detection). */
  langs: Set<Lang>;
  /** Only when written in capitals (ISO codes, US, UK, EU: "us", "it", "eu" are words too). */
  upperOnly?: boolean;
  /** An alias that is also a common word ("or", "mais", "argent", "lead"): accepted only in context. */
  weak?: boolean;
  /** Accepted only in a question in this language ("Island" is Iceland in German only). */
  onlyLang?: Lang;
}

export interface Lexicon {
  phrases: Map<string, LexEntry[]>;
  maxWords: number;
  /** Single-word commodity aliases, longest first: heads of German compounds (Ölpreis, Gasspeicher). */
  compoundHeads: { alias: string; slug: string }[];
  sheets: Map<string, CommoditySheet>;
  profiles: Map<string, CountryProfile>;
  /** Lower-case alpha-2 → alpha-3. */
  iso2to3: Map<string, string>;
  /** Slug → search-document tags, for judging whether a search hit concerns what was asked. */
  docTags: Map<string, { commodities: string[]; countries: string[] }>;
}

/** Common words that are also aliases; see LexEntry.weak. */
const WEAK = new Set(['or', 'argent', 'mais', 'lead', 'brut', 'fer', 'grain', 'iron', 'ree', 'pgm']);

/** Names people use beyond the published ones: demonyms, short forms, the usual abbreviations. */
const EXTRA_COUNTRY: Record<string, string[]> = {
  USA: [
    'united states of america',
    'america',
    'american*',
    'americain*',
    'etats unis',
    'amerikanisch*',
    'ee uu',
    'eeuu',
    'ee uu',
    'estadounidense*',
    'norteamerican*',
    'u s',
    'u s a',
  ],
  GBR: ['britain', 'great britain', 'british', 'grande bretagne', 'britannique*', 'grossbritannien', 'britisch*', 'gran bretana', 'britanic*'],
  DEU: ['german', 'allemand*', 'deutsch*', 'aleman', 'alemana*', 'alemanes'],
  FRA: ['french', 'francais', 'francaise*', 'franzosisch*', 'frances', 'francesa*'],
  ITA: ['italian', 'italienne*', 'italienisch*', 'italiano*', 'italiana*'],
  ESP: ['spanish', 'espagnol*', 'spanisch*', 'espanol*', 'espanola*'],
  NLD: ['dutch', 'holland', 'hollande', 'holanda', 'neerlandais*', 'niederlandisch*', 'neerlandes*', 'niederlanden'],
  AUT: ['austrian', 'autrichien*', 'osterreichisch*', 'austriaco*', 'austriaca*'],
  POL: ['polish', 'polonais*', 'polnisch*', 'polaco*'],
  CZE: ['czech republic', 'czech', 'republique tcheque', 'tschechische republik', 'republica checa'],
  CHN: ['chinese', 'chinois*', 'chinesisch*', 'chino*', 'china*'],
  RUS: ['russian', 'russe*', 'russisch*', 'ruso*', 'rusa*'],
  JPN: ['japanese', 'japonais*', 'japanisch*', 'japones*', 'japonesa*'],
  IND: ['indian', 'indien*', 'indisch*', 'indio*'],
  KOR: ['korea', 'coree', 'korea', 'corea', 'south korean', 'sudkorea'],
  COD: [
    'drc',
    'dr congo',
    'd r congo',
    'democratic republic of the congo',
    'democratic republic of congo',
    'congo',
    'kongo',
    'rdc',
    'rd congo',
    'republique democratique du congo',
    'demokratische republik kongo',
    'dr kongo',
    'rd del congo',
    'republica democratica del congo',
    'congoles*',
    'kongolesisch*',
  ],
  TUR: ['turkey', 'turkish', 'turc', 'turque', 'turkisch*', 'turco*'],
  SAU: ['saudi', 'saudi arabian', 'saoudien*', 'saudisch*', 'saudi'],
  ARE: ['uae', 'emirates', 'emirats', 'emirate', 'emiratos'],
  NOR: ['norwegian', 'norvegien*', 'norwegisch*', 'noruego*'],
  QAT: ['qatari', 'katarisch*', 'catari'],
  UKR: ['ukrainian', 'ukrainien*', 'ukrainisch*', 'ucraniano*'],
  IRN: ['iranian', 'iranien*', 'iranisch*', 'irani'],
  AUS: ['australian', 'australien*', 'australisch*', 'australiano*'],
  IDN: ['indonesian', 'indonesien*', 'indonesisch*', 'indonesio*'],
  CHL: ['chilean', 'chilien*', 'chilenisch*', 'chileno*'],
  ZAF: ['south african', 'sud africain*', 'sudafrikanisch*', 'sudafricano*'],
};
const UPPER_EXTRA: Record<string, string> = { US: 'USA', UK: 'GBR' };
const EU_PHRASES = [
  'european union',
  'union europeenne',
  'europaische union',
  'europaischen union',
  'union europea',
  'ue',
  'europe',
  'europa',
  'european',
  'europeen*',
  'europeenne*',
  'europaisch*',
  'europeo*',
  'europea*',
  'eu weit',
  'eu wide',
  'eu27',
  'eu 27',
];

/** `deutsch*` → deutsch, deutsche, deutschen, deutscher, deutsches (and s/es plural forms). */
function expand(p: string): string[] {
  if (!p.endsWith('*')) return [p];
  const s = p.slice(0, -1);
  return [s, `${s}e`, `${s}en`, `${s}er`, `${s}es`, `${s}s`, `${s}n`];
}

function buildLexicon(b: LoadedBuild): Lexicon {
  const phrases = new Map<string, LexEntry[]>();
  let maxWords = 1;
  const sameEntity = (a: Entity, e: Entity) =>
    a.kind === e.kind &&
    (a.kind !== 'commodity' || a.slug === (e as { slug: string }).slug) &&
    (a.kind !== 'country' || a.iso3 === (e as { iso3: string }).iso3);
  const add = (phrase: string, entity: Entity, langs: Lang[], extra: Partial<LexEntry> = {}) => {
    const key = phraseKey(phrase);
    if (!key) return;
    maxWords = Math.max(maxWords, key.split(' ').length);
    const list = phrases.get(key) ?? [];
    const found = list.find((x) => sameEntity(x.entity, entity) && !!x.upperOnly === !!extra.upperOnly);
    if (found) langs.forEach((l) => found.langs.add(l));
    else list.push({ entity, langs: new Set(langs), ...extra });
    phrases.set(key, list);
  };

  const sheets = new Map<string, CommoditySheet>();
  const compound = new Map<string, string>();
  for (const c of b.commodities) {
    const sheet = fileData<CommoditySheet>(b, `v1/commodities/${c.slug}.json`);
    if (sheet) sheets.set(c.slug, sheet);
    const entity: Entity = { kind: 'commodity', slug: c.slug };
    add(c.slug, entity, []);
    add(c.code, entity, []);
    const names = sheet?.names ?? c.names;
    for (const lang of LANG_LIST) {
      const list = [names[lang], names[lang].replace(/\s*\(.*\)\s*/g, ' ').trim(), ...(sheet?.aliases[lang] ?? [])];
      for (const n of list) {
        const key = phraseKey(n);
        add(n, entity, [lang], WEAK.has(key) ? { weak: true } : {});
        // German adjectives decline: seltene Erden → (bei) seltenen Erden, (Importe) seltener Erden.
        if (lang === 'de' && key.includes(' ')) for (const ending of ['en', 'er']) add(key.replace(/e\b/g, ending), entity, [lang]);
        if (!key.includes(' ') && key.length >= 2 && !WEAK.has(key)) compound.set(key, c.slug);
      }
    }
  }

  const profiles = new Map<string, CountryProfile>();
  const iso2to3 = new Map<string, string>();
  for (const c of b.countries.values()) {
    iso2to3.set(c.iso2.toLowerCase(), c.iso3);
    const p = fileData<CountryProfile>(b, `v1/countries/${c.iso3}.json`);
    const entity: Entity = { kind: 'country', iso3: c.iso3 };
    add(c.iso3, entity, [], { upperOnly: true });
    add(c.iso2, entity, [], { upperOnly: true });
    add(c.name, entity, ['en']);
    if (!p) continue;
    profiles.set(c.iso3, p);
    for (const lang of LANG_LIST) {
      const name = p.names[lang];
      const key = phraseKey(name);
      // Island (Iceland) is an English word, Chad a name, Georgia a US state: keep those to their language.
      add(name, entity, [lang], key === 'island' ? { onlyLang: 'de' } : {});
      const short = name.replace(/\s*\(.*\)\s*/g, ' ').trim();
      if (short !== name) add(short, entity, [lang]);
    }
  }
  for (const [iso3, list] of Object.entries(EXTRA_COUNTRY)) {
    if (!b.countries.has(iso3)) continue;
    for (const p of list) for (const x of expand(p)) add(x, { kind: 'country', iso3 }, []);
  }
  for (const [code, iso3] of Object.entries(UPPER_EXTRA)) if (b.countries.has(iso3)) add(code, { kind: 'country', iso3 }, [], { upperOnly: true });
  // "congo" in Spanish is the Republic of the Congo, but in questions about cobalt it is the DRC.
  phrases.set('congo', [{ entity: { kind: 'country', iso3: 'COD' }, langs: new Set() }]);
  for (const p of EU_PHRASES) for (const x of expand(p)) add(x, { kind: 'eu' }, []);
  add('EU', { kind: 'eu' }, [], { upperOnly: true });

  const docTags = new Map<string, { commodities: string[]; countries: string[] }>();
  for (const s of b.scenarios) docTags.set(`scenario:${s.id}`, { commodities: s.commodities, countries: s.countries });
  for (const set of b.briefings.values()) for (const x of set.items) docTags.set(`briefing:${x.id}`, { commodities: x.commodities, countries: x.countries });

  return {
    phrases,
    maxWords,
    compoundHeads: [...compound].map(([alias, slug]) => ({ alias, slug })).sort((a, z) => z.alias.length - a.alias.length),
    sheets,
    profiles,
    iso2to3,
    docTags,
  };
}

/** The lexicon and parsed records of a build, made on first use and dropped with the build. */
export const lexiconFor = perBuild(buildLexicon);
