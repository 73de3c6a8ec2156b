/** The sentences of a grounded answer, per language. Figures arrive already formatted. */
export interface Phrases {
  /** A day and a month as a complement of time ("on 3 May 2026", "in May 2026"). */
  onDay: (date: string) => string;
  inMonth: (month: string) => string;
  /** The last joiner of a list. */
  and: string;
  /** Nouns keep their capital inside a sentence (German): names are not lower-cased. */
  nounsCapitalised: boolean;
  /** Units published in English, as the language writes them. */
  units: Record<string, string>;
  cannot: (reason: string) => string;
  reasons: {
    nothing: string;
    outOfScope: string;
    /** A request to reveal the answerer's instructions or to change its role. */
    instructions: string;
    /** A commodity or topic named that the data do not cover. */
    notCovered: (name: string) => string;
    /** Covered commodities spelled close to a name not covered. */
    nearCovered: (names: string) => string;
    forecast: string;
    noReserve: (commodity: string, place: string) => string;
    beforeSeries: (what: string, first: string) => string;
    noPrice: (name: string) => string;
    needCountry: string;
    noProducers: (name: string) => string;
    noCountryData: (place: string, what: string) => string;
    noScenario: string;
    noEvent: string;
    /** Nothing in the period asked: the newest matching events outside it follow. */
    noEventIn: (from: string, to: string) => string;
  };
  what: { storage: string; price: string; autonomy: string; imports: string; production: string; stress: string; concentration: string; reserves: string };
  eu: string;
  gas: string;
  storage: (place: string, pct: string, date: string) => string;
  storageVolume: (vol: string, cap: string | null) => string;
  cover: (days: string) => string;
  target: (pct: string, date: string) => string;
  /** A target date already past on the day of the question (the data end before it). */
  targetPassed: (pct: string, date: string) => string;
  spr: (vol: string, unit: string, date: string) => string;
  sprCover: (days: string) => string;
  price: (name: string, price: string, when: string, benchmark: string) => string;
  stress: (name: string, index: string, band: string) => string;
  countryStress: (name: string, index: string, band: string) => string;
  topProducer: (name: string, country: string, share: string, year: string, basis: string) => string;
  followedBy: (list: string) => string;
  countryShare: (country: string, name: string, share: string, rank: string, year: string) => string;
  topReserves: (name: string, country: string, share: string, year: string) => string;
  autonomy: (country: string, name: string, pct: string, year: string) => string;
  imports: (country: string, name: string, pct: string, year: string) => string;
  /** A mineral's net import reliance (USGS) and its largest import source. */
  mineralImports: (country: string, name: string, pct: string, year: string, supplier: string | null, share: string | null) => string;
  hhi: (name: string, hhi: string, band: string, year: string) => string;
  scenarios: (count: string) => string;
  scenario: (title: string, status: string, probability: string, severity: string) => string;
  events: string;
  event: (date: string, title: string, category: string) => string;
  related: (title: string) => string;
  searchOnly: (title: string, snippet: string) => string;
  /** A scenario's status, a stress band and an event category: lib/i18n/terms.ts's words (lang/index.ts adds them to the pack's). */
  status: Readonly<Record<string, string>>;
  band: Readonly<Record<string, string>>;
  hhiBand: Record<string, string>;
  category: Readonly<Record<string, string>>;
}

/** What a language pack writes itself: the words of lib/i18n/terms.ts come from there. */
export type PackPhrases = Omit<Phrases, 'status' | 'band' | 'category'>;
