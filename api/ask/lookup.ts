/**
 * The lookup: every figure the planner's table picks (choose.ts), said in the question's language,
 * one reader per figure. Which figures is the table's; what is read for a pick is the reader's:
 * the measure's reading (measures.ts: a price, a stress index, a concentration, a reserve on a
 * day with the record's other metrics of that day), or, for what no operation ranks, the record
 * the REST route serves (a reserve's current record with its target, a producer table's top
 * three or a named country's share and rank, a scenario list and its count, events).
 */
import type { CommoditySheet } from '../../contract/commodities.ts';
import type { Reserve } from '../../contract/reserves.ts';
import { fileData, perBuild, type LoadedBuild } from '../build.ts';
import type { FigureId, Pick } from './choose.ts';
import { kin } from './choose.ts';
import { type Derived, derived, eventFact, type Fact } from './fact.ts';
import { type Intent, minusPeriod } from './intent.ts';
import type { Lexicon } from './lexicon.ts';
import { localUnit } from './plan.ts';
import { dateLong, monthLong, numUpTo, pctUpTo } from '../../lib/format.ts';
import { PHRASES, PLAN_PHRASES } from './lang/index.ts';
import type { Phrases } from './phrases.ts';
import { countryNameOf, measureOf, readingAt, reserveMeasure, type ReserveMetric } from './measures.ts';
import type { CountryRef, Recognised } from './recognise.ts';
import type { Lang } from './text.ts';

export interface Draft {
  lang: Lang;
  p: Phrases;
  parts: string[];
  used: Fact[];
  /** Figures computed from the records used (see fact.ts). */
  derived: Derived[];
  missing: string[];
  /** Extra records for the model's context (not cited by the grounded answer). */
  extra: Fact[];
  dateMiss: boolean;
  /** The day of the question: deadlines are counted from it, not from the data's date. */
  today: string;
}

/** Records parsed once per build and path. */
const parsed = perBuild(() => new Map<string, unknown>());
function record<T>(b: LoadedBuild, path: string): T | null {
  const m = parsed(b);
  if (!m.has(path)) m.set(path, fileData<T>(b, path));
  return m.get(path) as T | null;
}

const lowerFirst = (s: string, lang: Lang) => (PHRASES[lang].nounsCapitalised || /^\p{Lu}{2}/u.test(s) ? s : s.charAt(0).toLowerCase() + s.slice(1));
const num = (n: number, lang: Lang, d = 2) => numUpTo(n, d, lang);
const pct = (n: number, lang: Lang, d = 2) => pctUpTo(n, d, lang);
const share = (ratio: number, lang: Lang) => pctUpTo(ratio * 100, 1, lang);

function when(iso: string, monthly: boolean, lang: Lang): string {
  if (monthly) return PHRASES[lang].inMonth(monthLong(iso, lang));
  return PHRASES[lang].onDay(dateLong(iso, lang));
}

function placeName(lex: Lexicon, b: LoadedBuild, c: CountryRef, lang: Lang): string {
  if (c.iso2 === 'eu') return PHRASES[lang].eu;
  return lex.profiles.get(c.iso3!)?.names[lang] ?? b.countries.get(c.iso3!)?.name ?? c.iso3!;
}
const countryName = (lex: Lexicon, b: LoadedBuild, iso3: string, lang: Lang) => countryNameOf(b, lex, iso3, lang);
const commodityName = (lex: Lexicon, slug: string, lang: Lang) => lex.sheets.get(slug)?.names[lang] ?? slug;

/** A day was asked and the series has no reading on it: the nearest earlier one was read, said so. */
function earlier(d: Draft, r: Recognised, taken: string): void {
  if (r.date?.granularity === 'day' && taken < r.date.date) d.parts.push(PLAN_PHRASES[d.lang].earlier(dateLong(r.date.date, d.lang)).trim());
}

// ——— the records ————————————————————————————————————————————————————————————————————————

function reserveFacts(b: LoadedBuild, lex: Lexicon, d: Draft, code: 'gas' | 'oil', c: CountryRef, r: Recognised): boolean {
  const key = `${code}/${c.iso2}`;
  const cur = record<Reserve>(b, `v1/reserves/${key}.json`);
  const series = b.reserves.get(key)?.series;
  const place = placeName(lex, b, c, d.lang);
  if (!cur || !series) {
    d.missing.push(d.p.reasons.noReserve(code === 'gas' ? d.p.gas : lowerFirst(commodityName(lex, 'energy.oil', d.lang), d.lang), place));
    return false;
  }
  const title = cur.name;
  const lang = d.lang;
  const wantsCover = r.metrics.has('cover');
  if (r.date) {
    // The measure's reading on the day, and the record's other metrics of that day beside it.
    const pt = readingAt(reserveMeasure(b, code), c.iso2, r.date.date);
    if (!pt) {
      d.missing.push(d.p.reasons.beforeSeries(title, dateLong(reserveMeasure(b, code).series!(c.iso2)?.[0]?.date ?? cur.first_date, lang)));
      return false;
    }
    if (pt.date < r.date.from && r.date.from.slice(0, 7) !== pt.date.slice(0, 7)) d.dateMiss = true;
    const sameDay = (metric: ReserveMetric) => {
      const x = readingAt(reserveMeasure(b, code, metric), c.iso2, pt.date);
      return x?.date === pt.date ? x : null;
    };
    const vol = code === 'gas' ? sameDay('volume') : pt;
    const cover = sameDay('days_of_cover');
    const volUnit = localUnit(reserveMeasure(b, code, 'volume').unit(c.iso2), lang);
    d.used.push(pt.fact);
    if (code === 'gas' && vol) d.used.push(vol.fact);
    if (cover && (wantsCover || code === 'oil')) d.used.push(cover.fact);
    if (code === 'gas') {
      let s = d.p.storage(place, pct(pt.value, lang), dateLong(pt.date, lang));
      if (vol) s += d.p.storageVolume(`${num(vol.value, lang)} ${volUnit}`, null);
      s += '.';
      if (cover && wantsCover) s += d.p.cover(num(cover.value, lang, 1));
      d.parts.push(s);
    } else {
      let s = d.p.spr(num(pt.value, lang, 0), volUnit, dateLong(pt.date, lang));
      if (cover) s += d.p.sprCover(num(cover.value, lang, 1));
      d.parts.push(`${s}.`);
    }
    earlier(d, r, pt.date);
    return true;
  }
  if (code === 'gas' && cur.fill_pct !== null) {
    const bits = [`as_of: ${cur.as_of}`, `fill_pct: ${cur.fill_pct}`];
    if (cur.volume) bits.push(`volume: ${cur.volume.value} ${cur.volume.unit}`);
    if (cur.capacity) bits.push(`capacity: ${cur.capacity.value} ${cur.capacity.unit}`);
    if (cur.coverage_days !== null) bits.push(`coverage_days: ${cur.coverage_days}`);
    const passed = cur.target !== null && cur.target.date < d.today;
    if (cur.target) bits.push(`target: fill_pct ${cur.target.fill_pct}, date ${cur.target.date}`);
    d.used.push({ id: key, type: 'reserve', title, url: `/v1/reserves?commodity=${code}&country=${c.iso2}`, quote: bits.join('; ') });
    let s = d.p.storage(place, pct(cur.fill_pct, lang), dateLong(cur.as_of, lang));
    if (cur.volume)
      s += d.p.storageVolume(
        `${num(cur.volume.value, lang)} ${cur.volume.unit}`,
        cur.capacity ? `${num(cur.capacity.value, lang)} ${cur.capacity.unit}` : null,
      );
    s += '.';
    if (cur.coverage_days !== null && wantsCover) s += d.p.cover(num(cur.coverage_days, lang, 1));
    if (cur.target && !r.metrics.has('cover'))
      s += (passed ? d.p.targetPassed : d.p.target)(pct(cur.target.fill_pct, lang, 0), dateLong(cur.target.date, lang));
    d.parts.push(s);
    return true;
  }
  if (cur.volume) {
    const bits = [`as_of: ${cur.as_of}`, `volume: ${cur.volume.value} ${cur.volume.unit}`];
    if (cur.coverage_days !== null) bits.push(`coverage_days: ${cur.coverage_days}`);
    d.used.push({ id: key, type: 'reserve', title, url: `/v1/reserves?commodity=${code}&country=${c.iso2}`, quote: bits.join('; ') });
    let s = d.p.spr(num(cur.volume.value, lang, 0), localUnit(cur.volume.unit, lang), dateLong(cur.as_of, lang));
    if (cur.coverage_days !== null) s += d.p.sprCover(num(cur.coverage_days, lang, 1));
    d.parts.push(`${s}.`);
    return true;
  }
  return false;
}

function commodityFact(sheet: CommoditySheet, quote: string): Fact {
  return { id: sheet.slug, type: 'commodity', title: sheet.name, url: sheet.url, quote };
}

function priceFacts(b: LoadedBuild, lex: Lexicon, d: Draft, slug: string, r: Recognised): boolean {
  const sheet = lex.sheets.get(slug);
  const lang = d.lang;
  if (!sheet) return false;
  const name = sheet.names[lang];
  const m = measureOf(b, lex, 'price')!;
  let x = m.current(slug);
  if (!sheet.price || !x) {
    d.missing.push(d.p.reasons.noPrice(lowerFirst(name, lang)));
    return false;
  }
  const monthly = sheet.price.frequency === 'monthly' || sheet.price_history?.frequency === 'monthly';
  if (r.date) {
    x = readingAt(m, slug, r.date.date);
    if (!x) {
      d.missing.push(d.p.reasons.beforeSeries(`${d.p.what.price}, ${name}`, dateLong(m.series!(slug)?.[0]?.date ?? sheet.price.as_of, lang)));
      return false;
    }
    if (x.date < r.date.from && x.date.slice(0, 7) !== r.date.from.slice(0, 7) && r.date.granularity !== 'year') d.dateMiss = true;
  }
  d.used.push(x.fact);
  d.parts.push(d.p.price(name, `${num(x.value, lang)} ${m.unit(slug)}`, when(x.date, monthly, lang), sheet.price.benchmark));
  if (r.date) earlier(d, r, x.date);
  return true;
}

function stressFact(b: LoadedBuild, lex: Lexicon, d: Draft, slug: string): boolean {
  const x = measureOf(b, lex, 'stress')!.current(slug);
  const sheet = lex.sheets.get(slug);
  if (!x || !sheet) return false;
  d.used.push(x.fact);
  d.parts.push(d.p.stress(lowerFirst(sheet.names[d.lang], d.lang), num(x.value, d.lang, 1), d.p.band[sheet.stress_band ?? ''] ?? String(sheet.stress_band)));
  return true;
}

function countryStressFact(b: LoadedBuild, lex: Lexicon, d: Draft, iso3: string): boolean {
  const x = measureOf(b, lex, 'country_stress')!.current(iso3);
  const p = lex.profiles.get(iso3);
  const name = countryName(lex, b, iso3, d.lang);
  if (!x || !p) {
    d.missing.push(d.p.reasons.noCountryData(name, d.p.what.stress));
    return false;
  }
  d.used.push(x.fact);
  d.parts.push(d.p.countryStress(name, num(x.value, d.lang, 1), d.p.band[p.stress_band ?? ''] ?? String(p.stress_band)));
  return true;
}

function producerFacts(b: LoadedBuild, lex: Lexicon, d: Draft, slug: string, countries: CountryRef[], table: 'producers' | 'reserves_in_ground'): boolean {
  const sheet = lex.sheets.get(slug);
  const lang = d.lang;
  if (!sheet) return false;
  const name = lowerFirst(sheet.names[lang], lang);
  const t = sheet[table];
  if (!t || t.entries.length === 0) {
    d.missing.push(d.p.reasons.noProducers(name));
    return false;
  }
  const named = countries.filter((c) => c.iso3);
  if (named.length) {
    let any = false;
    for (const c of named) {
      const i = t.entries.findIndex((e) => e.iso3 === c.iso3);
      const place = countryName(lex, b, c.iso3!, lang);
      if (i < 0) {
        d.missing.push(d.p.reasons.noCountryData(place, `${d.p.what.production}, ${name}`));
        continue;
      }
      const e = t.entries[i]!;
      const f = commodityFact(sheet, `${table} ${t.year} (${t.basis}): ${e.name} ${e.value} ${t.unit}, share ${e.share}`);
      d.used.push(f);
      d.derived.push(derived('rank', i + 1, '', `position of ${e.iso3} in ${table}.entries, ordered by value`, [f]));
      d.parts.push(d.p.countryShare(place, name, share(e.share, lang), String(i + 1), String(t.year)));
      any = true;
    }
    return any;
  }
  const [first, second, third] = t.entries;
  const quote = [first, second, third]
    .filter((e) => e)
    .map((e) => `${e!.name} ${e!.value} ${t.unit}, share ${e!.share}`)
    .join('; ');
  d.used.push(commodityFact(sheet, `${table} ${t.year} (${t.basis}): ${quote}`));
  if (table === 'reserves_in_ground') {
    d.parts.push(d.p.topReserves(name, countryName(lex, b, first!.iso3, lang), share(first!.share, lang), String(t.year)));
    return true;
  }
  let s = d.p.topProducer(name, countryName(lex, b, first!.iso3, lang), share(first!.share, lang), String(t.year), t.basis);
  const next = [second, third].filter((e) => e).map((e) => `${countryName(lex, b, e!.iso3, lang)} (${share(e!.share, lang)})`);
  if (next.length) s += d.p.followedBy(next.join(d.p.and));
  d.parts.push(`${s}.`);
  return true;
}

function concentrationFact(b: LoadedBuild, lex: Lexicon, d: Draft, slug: string): boolean {
  const x = measureOf(b, lex, 'hhi')!.current(slug);
  const c = lex.sheets.get(slug)?.concentration;
  if (!x || !c) return false;
  d.used.push(x.fact);
  d.parts.push(d.p.hhi(lowerFirst(lex.sheets.get(slug)!.names[d.lang], d.lang), num(x.value, d.lang, 1), d.p.hhiBand[c.band] ?? c.band, x.date));
  return true;
}

function countryShareFacts(b: LoadedBuild, lex: Lexicon, d: Draft, iso3: string, slugs: string[], kind: 'autonomy' | 'imports'): boolean {
  const p = lex.profiles.get(iso3);
  const lang = d.lang;
  const place = countryName(lex, b, iso3, lang);
  if (!p) return false;
  let any = false;
  if (kind === 'autonomy') {
    const rows = p.autonomy.filter((a) => slugs.length === 0 || slugs.includes(a.commodity));
    for (const a of rows) {
      d.used.push({ id: iso3, type: 'country', title: p.name, url: p.url, quote: `autonomy ${a.commodity} (${a.year}): ratio ${a.ratio}` });
      d.parts.push(d.p.autonomy(place, lowerFirst(commodityName(lex, a.commodity, lang), lang), pct(a.ratio * 100, lang), String(a.year)));
      any = true;
    }
  } else {
    const rows = p.exposures.filter((e) => e.import_dependence !== null && (slugs.length === 0 || slugs.includes(e.commodity)));
    for (const e of rows) {
      d.used.push({
        id: iso3,
        type: 'country',
        title: p.name,
        url: p.url,
        quote: `exposures ${e.commodity} (${e.year}): import_dependence ${e.import_dependence}`,
      });
      d.parts.push(d.p.imports(place, lowerFirst(commodityName(lex, e.commodity, lang), lang), pct(e.import_dependence! * 100, lang), String(e.year)));
      any = true;
    }
    // Minerals: USGS net import reliance, where the profile publishes it (the United States), only when asked by name.
    for (const m of p.mineral_exposures.filter((x) => x.net_import_reliance !== null && slugs.includes(x.commodity))) {
      // "Other countries" is a remainder, not a source: the largest named one.
      const top = m.suppliers.find((x) => x.iso3);
      d.used.push({
        id: iso3,
        type: 'country',
        title: p.name,
        url: p.url,
        quote: `mineral_exposures ${m.commodity} (${m.year}): net_import_reliance ${m.net_import_reliance}${top ? `; suppliers: ${top.name} ${top.value}` : ''}`,
      });
      d.parts.push(
        d.p.mineralImports(
          place,
          lowerFirst(commodityName(lex, m.commodity, lang), lang),
          pct(m.net_import_reliance! * 100, lang),
          String(m.year),
          top ? (top.iso3 ? countryName(lex, b, top.iso3, lang) : top.name) : null,
          top ? pct(top.value, lang) : null,
        ),
      );
      any = true;
    }
  }
  if (!any) d.missing.push(d.p.reasons.noCountryData(place, kind === 'autonomy' ? d.p.what.autonomy : d.p.what.imports));
  return any;
}

const STATUS_ORDER = ['active', 'elevated', 'monitoring', 'resolved', 'dismissed'];

function scenarioFacts(b: LoadedBuild, d: Draft, r: Recognised): boolean {
  const iso3s = r.countries.map((c) => c.iso3).filter((x): x is string => !!x);
  const list = b.scenarios
    .filter(
      (s) =>
        (r.commodities.length === 0 || s.commodities.some((c) => r.commodities.includes(c))) &&
        (iso3s.length === 0 || s.countries.some((c) => iso3s.includes(c))) &&
        (r.statuses.size === 0 || r.statuses.has(s.status)),
    )
    .sort((a, z) => STATUS_ORDER.indexOf(a.status) - STATUS_ORDER.indexOf(z.status) || z.probability - a.probability);
  if (!list.length) {
    d.missing.push(d.p.reasons.noScenario);
    return false;
  }
  const shown = list.slice(0, 6);
  const lang = d.lang;
  // The count is stated only when the list route can show it (one status, one commodity, no country).
  let head = '';
  if (r.statuses.size <= 1 && r.commodities.length <= 1 && iso3s.length === 0) {
    const params = [...[...r.statuses].map((s) => `status=${s}`), ...r.commodities.map((c) => `commodity=${c.split('.')[1]}`)].join('&');
    const id = `scenarios${params ? `?${params}` : ''}`;
    d.used.push({ id, type: 'scenario', title: 'Scenarios', url: `/v1/${id}`, quote: `count: ${list.length}` });
    head = d.p.scenarios(String(list.length));
  }
  const items = shown.map((s) => {
    const title = lang === 'en' ? s.title : s.translations[lang].title;
    d.used.push({
      id: s.id,
      type: 'scenario',
      title,
      url: `/v1/scenarios?status=${s.status}`,
      quote: `status: ${s.status}; probability: ${s.probability}; severity: ${s.severity}; updated_at: ${s.updated_at}`,
    });
    return d.p.scenario(title, d.p.status[s.status] ?? s.status, pct(s.probability * 100, lang, 0), String(s.severity));
  });
  d.parts.push(`${head}${items.join('; ')}.`);
  return true;
}

function eventFacts(b: LoadedBuild, d: Draft, r: Recognised, intent: Intent): boolean {
  const iso3s = r.countries.map((c) => c.iso3).filter((x): x is string => !!x);
  // A period: "over the last month" (from the day of the question), "since March", a named date or month.
  const op = intent.op;
  const from =
    op.kind === 'change' && !(op.since && r.date)
      ? minusPeriod(d.today, op.months || op.days ? { months: op.months, days: op.days } : { months: 1, days: 0 })
      : (r.date?.from ?? null);
  const to = op.kind === 'change' ? d.today : (r.date?.date ?? null);
  // Oil events are tagged with the benchmark they moved (Brent or WTI): either counts for "oil".
  const slugs = new Set(r.commodities.flatMap(kin));
  const matching = (windowed: boolean) =>
    b.events
      .filter(
        (e) =>
          (slugs.size === 0 || e.commodities.some((c) => slugs.has(c))) &&
          (iso3s.length === 0 || e.countries.some((c) => iso3s.includes(c))) &&
          (intent.categories.length === 0 || intent.categories.includes(e.category)) &&
          (!windowed || ((from === null || e.date >= from) && (to === null || e.date <= to))),
      )
      .sort((a, z) => (a.date < z.date ? 1 : a.date > z.date ? -1 : 0));
  let list = matching(true);
  let head = d.p.events;
  // Nothing in the period: say so, then the newest matching events before it (what an analyst would look at next).
  if (!list.length && (from !== null || to !== null)) {
    list = matching(false).filter((e) => to === null || e.date <= to);
    head = d.p.reasons.noEventIn(dateLong(from ?? list.at(-1)?.date ?? d.today, d.lang), dateLong(to ?? d.today, d.lang)) + d.p.events;
  }
  if (!list.length) {
    d.missing.push(d.p.reasons.noEvent);
    return false;
  }
  const shown = list.slice(0, 3);
  const items = shown.map((e) => {
    const fact = eventFact(e, d.lang, ['category']);
    d.used.push(fact);
    return d.p.event(dateLong(e.date, d.lang), fact.title, d.p.category[e.category] ?? e.category);
  });
  d.parts.push(`${head}${items.join('; ')}.`);
  return true;
}

interface Ctx {
  b: LoadedBuild;
  lex: Lexicon;
  d: Draft;
  r: Recognised;
  intent: Intent;
}

const iso3sOf = (p: Pick) => p.countries.flatMap((c) => (c.iso3 ? [c.iso3] : []));

/** One reader per figure: the sentences and records of a pick. */
const READERS: Readonly<Record<FigureId, (x: Ctx, p: Pick) => void>> = {
  spr: (x, p) => p.countries.forEach((c) => reserveFacts(x.b, x.lex, x.d, 'oil', c, x.r)),
  gas_fill: (x, p) => p.countries.forEach((c) => reserveFacts(x.b, x.lex, x.d, 'gas', c, x.r)),
  reserves_in_ground: (x, p) => p.commodities.forEach((c) => producerFacts(x.b, x.lex, x.d, c, [], 'reserves_in_ground')),
  price: (x, p) => {
    if (p.commodities.length === 0) x.d.missing.push(x.d.p.reasons.nothing);
    for (const c of p.commodities) priceFacts(x.b, x.lex, x.d, c, x.r);
  },
  stress: (x, p) => p.commodities.forEach((c) => stressFact(x.b, x.lex, x.d, c)),
  country_stress: (x, p) => iso3sOf(p).forEach((c) => countryStressFact(x.b, x.lex, x.d, c)),
  autonomy: (x, p) => shares(x, p, 'autonomy'),
  import_dependence: (x, p) => shares(x, p, 'imports'),
  hhi: (x, p) => p.commodities.forEach((c) => concentrationFact(x.b, x.lex, x.d, c)),
  producer_share: (x, p) => p.commodities.forEach((c) => producerFacts(x.b, x.lex, x.d, c, p.countries, 'producers')),
  scenarios: (x) => scenarioFacts(x.b, x.d, x.r),
  events: (x) => eventFacts(x.b, x.d, x.r, x.intent),
};

function shares(x: Ctx, p: Pick, kind: 'autonomy' | 'imports'): void {
  const iso3s = iso3sOf(p);
  if (iso3s.length === 0) x.d.missing.push(x.d.p.reasons.needCountry);
  for (const c of iso3s) countryShareFacts(x.b, x.lex, x.d, c, p.commodities, kind);
}

/** Read every figure picked into the draft, in the table's order. */
export function lookup(b: LoadedBuild, lex: Lexicon, d: Draft, r: Recognised, intent: Intent, picks: readonly Pick[]): void {
  const x: Ctx = { b, lex, d, r, intent };
  for (const p of picks) READERS[p.id](x, p);
}
