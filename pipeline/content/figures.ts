/**
 * Figure directives: briefings never type a number that comes from the data; they write a
 * directive such as `{{price energy.oil 2026-08-18}}` and the build replaces it with the value
 * from the published data, formatted for the briefing's language. See docs/content.md.
 */
import type { BriefingLang, BriefingSeries } from '../../contract/content.ts';
import { didYouMean } from '../../lib/suggest.ts';
import { num, signed } from '../../lib/format.ts';

/** A price observation: `value` in `currency` per `unit`. */
export interface PriceObservation {
  value: number;
  /** ISO 4217 code, e.g. 'USD'. */
  currency: string;
  /** The quantity the price is for, e.g. 'bbl', 'MMBtu', 't', 'troy oz', 'dmtu' (no currency). */
  unit: string;
  /** Day of the observation (YYYY-MM-DD); a monthly average carries the day the series stamps it with. */
  date: string;
}

/** Gas storage on one gas day (GIE AGSI+). */
export interface StorageObservation {
  /** Gas in storage as a percentage of working gas volume, 0–100. */
  fill_pct: number;
  /** Gas in storage, TWh. */
  gas_in_storage_twh: number;
  /** Gas day (YYYY-MM-DD). */
  date: string;
}

/** A country's share of world production. */
export interface ProducerShare {
  /** Share of world production in percent, 0–100. */
  share_pct: number;
  /** Year the share is for. */
  year: number;
}

/** US Strategic Petroleum Reserve stock on one week. */
export interface SprObservation {
  /** Stock in thousand barrels (EIA series WCSSTUS1). */
  value_kb: number;
  /** Week-ending day (YYYY-MM-DD). */
  date: string;
}

/**
 * What the figure resolver needs from the built data. The integrator implements it over the
 * published tables; every method returns undefined when it has nothing to give.
 */
export interface FigureLookup {
  /** The newest price observation of commodity `slug` (canonical, lower case) on or before `date`. */
  price(slug: string, date: string): PriceObservation | undefined;
  /**
   * The newest gas storage observation on or before gas day `date` for `country`: an ISO 3166-1
   * alpha-2 code in lower case ('de', 'fr') or 'eu' for the EU aggregate.
   */
  storage(country: string, date: string): StorageObservation | undefined;
  /** The share of world production of `iso3` (upper case) for `slug`, in the newest year available. */
  producerShare(slug: string, iso3: string): ProducerShare | undefined;
  /** The newest weekly US SPR stock on or before `date`. */
  spr(date: string): SprObservation | undefined;
}

export const DIRECTIVES = ['price', 'price_change', 'storage', 'storage_twh', 'share', 'spr'] as const;
export type DirectiveName = (typeof DIRECTIVES)[number];

const USAGE: Record<DirectiveName, string> = {
  price: '{{price <slug> <YYYY-MM-DD>}}',
  price_change: '{{price_change <slug> <from YYYY-MM-DD> <to YYYY-MM-DD>}}',
  storage: '{{storage <iso2|eu> <YYYY-MM-DD>}}',
  storage_twh: '{{storage_twh <iso2|eu> <YYYY-MM-DD>}}',
  share: '{{share <slug> <ISO3>}}',
  spr: '{{spr <YYYY-MM-DD>}}',
};

const ARITY: Record<DirectiveName, number> = {
  price: 2,
  price_change: 3,
  storage: 2,
  storage_twh: 2,
  share: 2,
  spr: 1,
};

/**
 * Kept between a number and its unit, in every language: a briefing's figure sits in running prose
 * that the site and the feeds wrap, and a line must never break inside it.
 */
const NBSP = '\u00a0';

/** The number itself as the site writes it (lib/format.ts): the locale's separators, the minus sign `−`. */
const fmt = (lang: BriefingLang, value: number, decimals: number, sign = false): string => (sign ? signed : num)(value, decimals, lang);

const CURRENCY_SYMBOLS: Record<string, string> = { USD: 'US$', EUR: '€', GBP: '£', JPY: '¥' };

/** 'bbl' from 'bbl', '$/bbl' or 'USD/bbl'. */
function quantityUnit(unit: string): string {
  const u = unit.trim();
  return u.includes('/') ? u.slice(u.lastIndexOf('/') + 1).trim() : u;
}

/** 'US$67.43/bbl' (en) or '67,43 US$/bbl' (fr, de, es); no decimals from 1,000 up. */
export function formatPrice(obs: Pick<PriceObservation, 'value' | 'currency' | 'unit'>, lang: BriefingLang): string {
  const decimals = Math.abs(obs.value) >= 1000 ? 0 : 2;
  const number = fmt(lang, obs.value, decimals);
  const symbol = CURRENCY_SYMBOLS[obs.currency.toUpperCase()] ?? obs.currency.toUpperCase();
  const unit = quantityUnit(obs.unit);
  const per = unit ? `/${unit}` : '';
  return lang === 'en' ? `${symbol}${number}${per}` : `${number}${NBSP}${symbol}${per}`;
}

/** Signed change with one decimal: '+12.4 %' (en), '+12,4 %' (fr, de, es). */
export function formatChange(pct: number, lang: BriefingLang): string {
  return `${fmt(lang, pct, 1, true)}${NBSP}%`;
}

/** A percentage with one decimal: '62.3 %'. */
export function formatPercent(pct: number, lang: BriefingLang, decimals = 1): string {
  return `${fmt(lang, pct, decimals)}${NBSP}%`;
}

/** A production share: whole percent from 10 % up, one decimal below ('74 %', '4.5 %'). */
export function formatShare(pct: number, lang: BriefingLang): string {
  return formatPercent(pct, lang, pct >= 10 ? 0 : 1);
}

/** Gas in storage: '210.2 TWh'. */
export function formatTwh(twh: number, lang: BriefingLang): string {
  return `${fmt(lang, twh, 1)}${NBSP}TWh`;
}

const MILLION_BARRELS: Record<BriefingLang, string> = {
  en: 'million barrels',
  fr: 'millions de barils',
  de: 'Mio. Barrel',
  es: 'millones de barriles',
};

/** A stock in thousand barrels, written in million barrels: '395.3 million barrels'. */
export function formatMillionBarrels(valueKb: number, lang: BriefingLang): string {
  return `${fmt(lang, valueKb / 1000, 1)}${NBSP}${MILLION_BARRELS[lang]}`;
}

export interface FigureContext {
  lang: BriefingLang;
  /** Valid commodity slugs (canonical, lower case). */
  commodities: ReadonlySet<string>;
  /** Valid ISO 3166-1 alpha-3 codes (upper case). */
  countries: ReadonlySet<string>;
  figures: FigureLookup;
  /** When set, a directive may not quote data dated after this day (the briefing's published_at). */
  notAfter?: string;
}

/** A problem with one directive; `line` is 1-based within the text given to resolveFigures. */
export interface FigureProblem {
  line: number;
  message: string;
}

/** One directive as written, with the text that replaced it. */
export interface ResolvedDirective {
  line: number;
  directive: string;
  value: string;
}

export interface ResolvedText {
  text: string;
  problems: FigureProblem[];
  directives: ResolvedDirective[];
}

function isValidDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

class DirectiveError extends Error {}

/** Resolve one directive's words (name first) to its text, or throw DirectiveError. */
function resolveOne(words: string[], ctx: FigureContext): string {
  const [rawName = '', ...args] = words;
  const name = rawName.toLowerCase();
  if (!(DIRECTIVES as readonly string[]).includes(name)) {
    const hint = rawName ? `unknown directive '${rawName}'` : 'empty directive';
    throw new DirectiveError(`${hint}${rawName ? didYouMean(name, DIRECTIVES) : ''}; expected one of ${DIRECTIVES.join(', ')}`);
  }
  const directive = name as DirectiveName;
  if (args.length !== ARITY[directive]) {
    throw new DirectiveError(`expected ${USAGE[directive]}, got ${args.length} argument${args.length === 1 ? '' : 's'}`);
  }
  const date = (s: string): string => {
    if (!isValidDate(s)) throw new DirectiveError(`'${s}' is not a valid date (expected YYYY-MM-DD)`);
    if (ctx.notAfter && s > ctx.notAfter) {
      throw new DirectiveError(`date ${s} is after the briefing's published_at ${ctx.notAfter}`);
    }
    return s;
  };
  const slug = (s: string): string => {
    const v = s.toLowerCase();
    if (!ctx.commodities.has(v)) throw new DirectiveError(`unknown commodity '${s}'${didYouMean(v, ctx.commodities)}`);
    return v;
  };
  const iso3 = (s: string): string => {
    const v = s.toUpperCase();
    if (!ctx.countries.has(v)) {
      throw new DirectiveError(`unknown country '${s}' (expected an ISO 3166-1 alpha-3 code)${didYouMean(v, ctx.countries)}`);
    }
    return v;
  };
  const storageArea = (s: string): string => {
    const v = s.toLowerCase();
    if (!/^[a-z]{2}$/.test(v)) {
      throw new DirectiveError(`'${s}' is not a storage area (expected an ISO 3166-1 alpha-2 code such as 'de', or 'eu')`);
    }
    return v;
  };
  const { lang, figures } = ctx;
  // Arity is checked above, so the arguments exist.
  const a0 = args[0] ?? '';
  const a1 = args[1] ?? '';
  const a2 = args[2] ?? '';
  switch (directive) {
    case 'price': {
      const s = slug(a0);
      const d = date(a1);
      const obs = figures.price(s, d);
      if (!obs) throw new DirectiveError(`no price for ${s} on or before ${d}`);
      return formatPrice(obs, lang);
    }
    case 'price_change': {
      const s = slug(a0);
      const from = date(a1);
      const to = date(a2);
      if (from >= to) throw new DirectiveError(`the first date (${from}) must be before the second (${to})`);
      const a = figures.price(s, from);
      if (!a) throw new DirectiveError(`no price for ${s} on or before ${from}`);
      const b = figures.price(s, to);
      if (!b) throw new DirectiveError(`no price for ${s} on or before ${to}`);
      if (a.date === b.date) {
        throw new DirectiveError(`both dates resolve to the same observation of ${s} (${a.date}); pick dates further apart`);
      }
      if (a.value === 0) throw new DirectiveError(`the price of ${s} on ${a.date} is zero; no percentage change`);
      return formatChange((b.value / a.value - 1) * 100, lang);
    }
    case 'storage':
    case 'storage_twh': {
      const c = storageArea(a0);
      const d = date(a1);
      const obs = figures.storage(c, d);
      if (!obs) throw new DirectiveError(`no gas storage figure for '${c}' on or before ${d}`);
      return directive === 'storage' ? formatPercent(obs.fill_pct, lang) : formatTwh(obs.gas_in_storage_twh, lang);
    }
    case 'share': {
      const s = slug(a0);
      const c = iso3(a1);
      const obs = figures.producerShare(s, c);
      if (!obs) throw new DirectiveError(`no production share of ${c} for ${s}`);
      return formatShare(obs.share_pct, lang);
    }
    case 'spr': {
      const d = date(a0);
      const obs = figures.spr(d);
      if (!obs) throw new DirectiveError(`no US SPR stock on or before ${d}`);
      return formatMillionBarrels(obs.value_kb, lang);
    }
  }
}

const DIRECTIVE_RE = /\{\{([^{}\n]*)\}\}/g;

/**
 * The series the resolved directives quote, in the order first quoted: one entry per price,
 * storage area and commodity's producer shares, with the days (or producers) quoted. Read from
 * directives that resolved, so every argument is already checked.
 */
export function seriesOf(directives: readonly ResolvedDirective[]): BriefingSeries[] {
  const out = new Map<string, BriefingSeries>();
  const entry = (key: string, make: () => BriefingSeries) => {
    let e = out.get(key);
    if (!e) out.set(key, (e = make()));
    return e;
  };
  const blank = { commodity: null, area: null, countries: [], dates: [] };
  for (const d of directives) {
    const [name = '', ...args] = d.directive.slice(2, -2).trim().split(/\s+/);
    const a = args.map((x) => x.toLowerCase());
    switch (name.toLowerCase() as DirectiveName) {
      case 'price':
      case 'price_change':
        entry(`price ${a[0]}`, () => ({ ...blank, metric: 'price', commodity: a[0]!, dates: [] })).dates.push(...a.slice(1));
        break;
      case 'storage':
      case 'storage_twh':
        entry(`gas_storage ${a[0]}`, () => ({ ...blank, metric: 'gas_storage', area: a[0]!, dates: [] })).dates.push(a[1]!);
        break;
      case 'share':
        entry(`producer_share ${a[0]}`, () => ({ ...blank, metric: 'producer_share', commodity: a[0]!, countries: [] })).countries.push(a[1]!.toUpperCase());
        break;
      case 'spr':
        entry('us_spr', () => ({ ...blank, metric: 'us_spr', dates: [] })).dates.push(a[0]!);
        break;
    }
  }
  return [...out.values()].map((e) => ({ ...e, countries: [...new Set(e.countries)], dates: [...new Set(e.dates)].sort() }));
}

/**
 * Replace every figure directive in `text` with its value. Problems (malformed directive, unknown
 * slug or country, nothing in the data) are returned with their line; the directive is then left
 * as written so the caller can report them all at once.
 */
export function resolveFigures(text: string, ctx: FigureContext): ResolvedText {
  const problems: FigureProblem[] = [];
  const directives: ResolvedDirective[] = [];
  const lines = text.split('\n');
  const out = lines.map((lineText, i) => {
    const line = i + 1;
    const replaced = lineText.replace(DIRECTIVE_RE, (whole, inner: string) => {
      try {
        const value = resolveOne(inner.trim().split(/\s+/).filter(Boolean), ctx);
        directives.push({ line, directive: whole, value });
        return value;
      } catch (e) {
        if (!(e instanceof DirectiveError)) throw e;
        problems.push({ line, message: `${whole}: ${e.message}` });
        return whole;
      }
    });
    // Whatever braces remain after the well-formed directives are taken out are malformed.
    const rest = lineText.replace(DIRECTIVE_RE, '');
    if (rest.includes('{{') || rest.includes('}}')) {
      const at = rest.includes('{{') ? rest.slice(rest.indexOf('{{'), rest.indexOf('{{') + 40) : '}}';
      problems.push({
        line,
        message: `malformed directive near '${at.trim()}': a directive is written {{name args}} on one line`,
      });
    }
    return replaced;
  });
  return { text: out.join('\n'), problems, directives };
}
