import { type AnswerData, type Derived, derived, eventFact, type Fact } from './fact.ts';
import type { CommoditySheet } from '../../contract/commodities.ts';
import type { Reserve } from '../../contract/reserves.ts';
import { fileData, perBuild, type LoadedBuild } from '../build.ts';
import { searchDocuments, type Hit } from '../queries/search.ts';
import { type Intent, minusPeriod, readIntent } from './intent.ts';
import { lexiconFor, type Lexicon } from './lexicon.ts';
import { localUnit, plan } from './plan.ts';
import { dateLong, monthLong, numUpTo, pctUpTo } from '../../lib/format.ts';
import { PHRASES, PLAN_PHRASES } from './lang/index.ts';
import type { Phrases } from './phrases.ts';
import { countryNameOf, onOrBefore } from './measures.ts';
import { type CountryRef, isGeneric, type Metric, type Recognised, recognise } from './recognise.ts';
import { type Lang, tokenize } from './text.ts';
import { unknownCommodity } from './unknown.ts';

export type { AnswerData, Fact } from './fact.ts';

export interface Grounded {
  answer: AnswerData;
  /** Everything retrieved for the question (cited or not): the context the model answers from. */
  context: Fact[];
  recognised: Recognised;
}

interface Draft {
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

export { onOrBefore } from './measures.ts';

const lowerFirst = (s: string, lang: Lang) => (PHRASES[lang].nounsCapitalised || /^\p{Lu}{2}/u.test(s) ? s : s.charAt(0).toLowerCase() + s.slice(1));
const num = (n: number, lang: Lang, d = 2) => numUpTo(n, d, lang);
const pct = (n: number, lang: Lang, d = 2) => pctUpTo(n, d, lang);
const share = (ratio: number, lang: Lang) => pctUpTo(ratio * 100, 1, lang);
const unitOf = (currency: string, unit: string | null) => (unit ? `${currency}/${unit}` : currency);

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

const GAS = new Set(['energy.gas', 'energy.lng']);
const OIL = new Set(['energy.oil', 'energy.wti']);

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
    const metric = code === 'gas' ? 'fill_pct' : 'volume';
    const points = series.metrics[metric]?.points ?? [];
    const pt = onOrBefore(points, r.date.date);
    if (!pt) {
      d.missing.push(d.p.reasons.beforeSeries(title, dateLong(points[0]?.date ?? cur.first_date, lang)));
      return false;
    }
    if (pt.date < r.date.from && r.date.from.slice(0, 7) !== pt.date.slice(0, 7)) d.dateMiss = true;
    const vol = onOrBefore(series.metrics.volume?.points ?? [], pt.date);
    const cover = onOrBefore(series.metrics.days_of_cover?.points ?? [], pt.date);
    const volUnit = localUnit(series.metrics.volume?.unit ?? '', lang);
    // One address per metric: the time-series route returns one metric at a time.
    const url = (m: string) =>
      `/v1/reserves/timeseries?commodity=${code}&country=${c.iso2}&from=${pt.date}&to=${pt.date}${m === 'fill_pct' ? '' : `&metric=${m}`}`;
    const cite = (m: string, v: number) => d.used.push({ id: key, type: 'reserve', title, url: url(m), quote: `date: ${pt.date}; ${m}: ${v}` });
    cite(metric, pt.value);
    if (code === 'gas' && vol?.date === pt.date) cite('volume', vol.value);
    if (cover?.date === pt.date && (wantsCover || code === 'oil')) cite('days_of_cover', cover.value);
    if (code === 'gas') {
      let s = d.p.storage(place, pct(pt.value, lang), dateLong(pt.date, lang));
      if (vol?.date === pt.date) s += d.p.storageVolume(`${num(vol.value, lang)} ${volUnit}`, null);
      s += '.';
      if (cover?.date === pt.date && wantsCover) s += d.p.cover(num(cover.value, lang, 1));
      d.parts.push(s);
    } else {
      let s = d.p.spr(num(pt.value, lang, 0), volUnit, dateLong(pt.date, lang));
      if (cover?.date === pt.date) s += d.p.sprCover(num(cover.value, lang, 1));
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

function priceFacts(lex: Lexicon, d: Draft, slug: string, r: Recognised): boolean {
  const sheet = lex.sheets.get(slug);
  const lang = d.lang;
  if (!sheet) return false;
  const name = sheet.names[lang];
  if (!sheet.price) {
    d.missing.push(d.p.reasons.noPrice(lowerFirst(name, lang)));
    return false;
  }
  const monthly = sheet.price.frequency === 'monthly' || sheet.price_history?.frequency === 'monthly';
  const u = unitOf(sheet.price.currency, sheet.price.unit);
  if (r.date) {
    const points = sheet.price_history?.points ?? [];
    const pt = onOrBefore(points, r.date.date);
    if (!pt) {
      d.missing.push(d.p.reasons.beforeSeries(`${d.p.what.price}, ${name}`, dateLong(points[0]?.date ?? sheet.price.as_of, lang)));
      return false;
    }
    if (pt.date < r.date.from && pt.date.slice(0, 7) !== r.date.from.slice(0, 7) && r.date.granularity !== 'year') d.dateMiss = true;
    d.used.push(commodityFact(sheet, `price_history ${pt.date}: ${pt.value} ${u}`));
    d.parts.push(d.p.price(name, `${num(pt.value, lang)} ${u}`, when(pt.date, monthly, lang), sheet.price.benchmark));
    earlier(d, r, pt.date);
    return true;
  }
  d.used.push(commodityFact(sheet, `price: ${sheet.price.value} ${u} (as_of ${sheet.price.as_of}; ${sheet.price.benchmark})`));
  d.parts.push(d.p.price(name, `${num(sheet.price.value, lang)} ${u}`, when(sheet.price.as_of, monthly, lang), sheet.price.benchmark));
  return true;
}

function stressFact(lex: Lexicon, d: Draft, slug: string): boolean {
  const sheet = lex.sheets.get(slug);
  if (!sheet || sheet.stress_index === null) return false;
  d.used.push(commodityFact(sheet, `stress_index: ${sheet.stress_index} (${sheet.stress_band}; as_of ${sheet.stress.as_of})`));
  d.parts.push(
    d.p.stress(lowerFirst(sheet.names[d.lang], d.lang), num(sheet.stress_index, d.lang, 1), d.p.band[sheet.stress_band ?? ''] ?? String(sheet.stress_band)),
  );
  return true;
}

function countryStressFact(b: LoadedBuild, lex: Lexicon, d: Draft, iso3: string): boolean {
  const p = lex.profiles.get(iso3);
  const name = countryName(lex, b, iso3, d.lang);
  if (!p || p.stress_index === null) {
    d.missing.push(d.p.reasons.noCountryData(name, d.p.what.stress));
    return false;
  }
  d.used.push({ id: iso3, type: 'country', title: p.name, url: p.url, quote: `stress_index: ${p.stress_index}; stress_band: ${p.stress_band}` });
  d.parts.push(d.p.countryStress(name, num(p.stress_index, d.lang, 1), d.p.band[p.stress_band ?? ''] ?? String(p.stress_band)));
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

function concentrationFact(lex: Lexicon, d: Draft, slug: string): boolean {
  const sheet = lex.sheets.get(slug);
  if (!sheet?.concentration) return false;
  const c = sheet.concentration;
  d.used.push(commodityFact(sheet, `concentration ${c.year} (${c.basis}): hhi ${c.hhi} (${c.band})`));
  d.parts.push(d.p.hhi(lowerFirst(sheet.names[d.lang], d.lang), num(c.hhi, d.lang, 1), d.p.hhiBand[c.band] ?? c.band, String(c.year)));
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
  const slugs = new Set(r.commodities.flatMap((c) => (OIL.has(c) ? [...OIL] : GAS.has(c) ? [...GAS] : [c])));
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

// ——— search hits ———————————————————————————————————————————————————————————————————————

/**
 * Whether a search hit could answer when no record does. Not when the question names a figure of
 * something named (a hit is then never given instead: the answer says which figure is missing),
 * nor when most of its words are neither known names nor function words of the four languages:
 * random text would only cost spelling correction against the whole index.
 */
function searchMayAnswer(r: Recognised, q: string, explicit: boolean): boolean {
  if (explicit && (r.commodities.length || r.countries.length)) return false;
  const words = tokenize(q).length;
  return words > 0 && 1 - r.rest.length / words >= 0.3;
}

function hitFact(h: Hit): Fact {
  return { id: h.id, type: h.type, title: h.title, url: h.url, quote: h.snippet };
}

async function searchHits(b: LoadedBuild, q: string, lang: Lang): Promise<Hit[]> {
  try {
    const hits: Hit[] = await Promise.resolve(searchDocuments(b, { q, limit: 3, lang }));
    return hits;
  } catch {
    return [];
  }
}

function tagRelevant(lex: Lexicon, h: Hit, r: Recognised): boolean {
  const tags = lex.docTags.get(`${h.type}:${h.id}`);
  if (!tags) return false;
  const iso3s = r.countries.map((c) => c.iso3);
  return tags.commodities.some((c) => r.commodities.includes(c)) || tags.countries.some((c) => iso3s.includes(c));
}

function wordRelevant(h: Hit, r: Recognised): boolean {
  const words = r.rest.filter((w) => w.length >= 5 && !/^\d+$/.test(w) && !isGeneric(w));
  if (!words.length) return false;
  const text = `${h.title} ${h.snippet}`.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '');
  return words.some((w) => new RegExp(`\\b${w}`).test(text));
}

// ——— planning ——————————————————————————————————————————————————————————————————————————

/** The grounded answer: every figure from a record it cites, or a plain "cannot answer". */
export async function groundedAnswer(b: LoadedBuild, q: string, now: Date = new Date(), search: 'always' | 'fallback' = 'always'): Promise<Grounded> {
  const lex = lexiconFor(b);
  const r = recognise(lex, q);
  const lang = r.lang;
  const p = PHRASES[lang];
  const d: Draft = { lang, p, parts: [], used: [], derived: [], missing: [], extra: [], dateMiss: false, today: now.toISOString().slice(0, 10) };
  const cannot = (reason: string): Grounded => ({
    answer: { answer: p.cannot(reason), lang, citations: [], derived: [], confidence: 0, mode: 'grounded' },
    context: [],
    recognised: r,
  });

  if (r.instructions) return cannot(p.reasons.instructions);
  if (r.outOfScope) return cannot(p.reasons.outOfScope);
  const today = now.toISOString().slice(0, 10);
  const numeric = (['price', 'storage', 'stress', 'volume', 'cover'] as Metric[]).some((x) => r.metrics.has(x)) || r.spr;
  if ((r.date && r.date.from > today) || (r.forecast && numeric)) return cannot(p.reasons.forecast);
  const unknown = unknownCommodity(lex, r, q);
  if (unknown) {
    const near = unknown.near.length ? `; ${p.reasons.nearCovered(PLAN_PHRASES[lang].list(unknown.near))}` : '';
    return cannot(`${p.reasons.notCovered(unknown.name)}${near}`);
  }

  const m = r.metrics;
  const explicit = m.size > 0 || r.spr;
  const has = (x: Metric) => m.has(x);
  const intent = readIntent(q, lang);
  // Two dates named in order are a span: the lookup reads its end, events fall in it, and a plain
  // question about it ("copper, May 2025 to May 2026") asks for the change over it.
  if (r.period) {
    r.date = { ...r.period.end, from: r.period.from };
    if (intent.op.kind === 'lookup') intent.op = { kind: 'change', months: 0, days: 0, since: null };
  }
  if (intent.ago && !r.date) {
    const at = minusPeriod(today, intent.ago);
    r.date = { date: at, from: at, granularity: 'day', text: '' };
  }
  const explicitFigure = numeric || (['producer', 'imports', 'autonomy', 'concentration', 'reserves_in_ground'] as Metric[]).some(has);
  if (!has('event') && !has('scenario') && !(intent.categories.length && !explicitFigure)) {
    const planned = plan(b, lex, r, intent, today, q);
    if (planned) {
      const citations = dedupe(planned.used);
      return {
        answer: { answer: planned.text, lang, citations, derived: planned.derived, confidence: 0.9, mode: 'grounded' },
        context: citations,
        recognised: r,
      };
    }
  }
  const commodities = r.commodities;
  const named = r.countries;
  const iso3s = named.map((c) => c.iso3).filter((x): x is string => !!x);
  const wantsReserve = has('storage') || has('cover') || has('volume');

  // Strategic petroleum reserve (the only oil reserve in the data).
  if (r.spr || (wantsReserve && commodities.some((c) => OIL.has(c)))) {
    const others = named.filter((c) => c.iso2 !== 'us');
    if (others.length) for (const c of others) reserveFacts(b, lex, d, 'oil', c, r);
    if (!others.length || named.some((c) => c.iso2 === 'us')) reserveFacts(b, lex, d, 'oil', { iso3: 'USA', iso2: 'us' }, r);
  }
  // Gas storage.
  const gasAsked = commodities.length === 0 || commodities.some((c) => GAS.has(c));
  if (wantsReserve && !r.spr && gasAsked && !commodities.some((c) => OIL.has(c))) {
    const places = named.length ? named : [{ iso3: null, iso2: 'eu' }];
    for (const c of places) reserveFacts(b, lex, d, 'gas', c, r);
  }
  const metals = commodities.filter((c) => !GAS.has(c) && !OIL.has(c) && c !== 'energy.usgas');
  if (wantsReserve && !r.spr) for (const c of metals) producerFacts(b, lex, d, c, [], 'reserves_in_ground');
  if (has('reserves_in_ground')) for (const c of commodities) producerFacts(b, lex, d, c, [], 'reserves_in_ground');

  if (has('price')) {
    if (commodities.length === 0) d.missing.push(p.reasons.nothing);
    for (const c of commodities) priceFacts(lex, d, c, r);
  }
  if (has('stress')) {
    if (commodities.length) for (const c of commodities) stressFact(lex, d, c);
    else for (const c of iso3s) countryStressFact(b, lex, d, c);
  }
  if (has('autonomy') || has('imports')) {
    const kind = has('autonomy') ? 'autonomy' : 'imports';
    if (iso3s.length === 0) d.missing.push(p.reasons.needCountry);
    for (const c of iso3s) countryShareFacts(b, lex, d, c, commodities, kind);
  } else if (has('producer') && !has('concentration')) {
    for (const c of commodities) producerFacts(b, lex, d, c, named, 'producers');
  }
  if (has('concentration')) for (const c of commodities) concentrationFact(lex, d, c);
  if (has('scenario')) scenarioFacts(b, d, r);
  if (has('event') || (intent.categories.length && !explicitFigure)) eventFacts(b, d, r, intent);

  // Nothing asked for by name: the usual reading of what was named.
  if (!explicit) {
    if (commodities.length && iso3s.length) {
      for (const c of commodities) {
        for (const ref of named) {
          if (GAS.has(c) && b.reserves.has(`gas/${ref.iso2}`)) reserveFacts(b, lex, d, 'gas', ref, r);
          else if (lex.sheets.get(c)?.producers?.entries.some((e) => e.iso3 === ref.iso3)) producerFacts(b, lex, d, c, [ref], 'producers');
          else if (ref.iso3) countryShareFacts(b, lex, d, ref.iso3, [c], 'imports');
        }
      }
    } else if (commodities.length) {
      for (const c of commodities) {
        priceFacts(lex, d, c, r);
        stressFact(lex, d, c);
      }
    } else if (named.length) {
      for (const ref of named) {
        if (ref.iso3) countryStressFact(b, lex, d, ref.iso3);
        if (b.reserves.has(`gas/${ref.iso2}`)) reserveFacts(b, lex, d, 'gas', ref, r);
      }
    }
  }

  // Search hits go to the model's context; the grounded answer needs them only when no record
  // answers (search is most of the cost of a grounded answer, so 'fallback' skips it otherwise).
  const hits = search === 'always' || (d.used.length === 0 && searchMayAnswer(r, q, explicit)) ? await searchHits(b, q, lang) : [];
  const context = [...d.used];
  for (const h of hits) context.push(hitFact(h));
  if (d.used.length === 0) {
    const near = hits.find((h) => tagRelevant(lex, h, r) || wordRelevant(h, r));
    if (near && !(explicit && (commodities.length || named.length))) {
      const f = hitFact(near);
      return {
        answer: { answer: p.searchOnly(near.title, f.quote), lang, citations: [f], derived: [], confidence: 0.3, mode: 'grounded' },
        context,
        recognised: r,
      };
    }
    const reason = d.missing.length ? [...new Set(d.missing)].join('; ') : p.reasons.nothing;
    return { ...cannot(reason), context: hits.length && (commodities.length || named.length) ? context : [] };
  }
  let text = d.parts.join(' ');
  const related = hits.find((h) => tagRelevant(lex, h, r));
  const citations = dedupe(d.used);
  if (related && !citations.some((c) => c.id === related.id)) {
    text += p.related(related.title);
    citations.push(hitFact(related));
  }
  if (d.missing.length) text += ` (${[...new Set(d.missing)].join('; ')}.)`;
  let confidence = d.missing.length ? 0.6 : explicit ? 0.9 : 0.7;
  if (d.dateMiss) confidence -= 0.2;
  return {
    answer: { answer: text, lang, citations, derived: d.derived, confidence: Math.round(confidence * 100) / 100, mode: 'grounded' },
    context: dedupe(context),
    recognised: r,
  };
}

function dedupe(facts: Fact[]): Fact[] {
  const seen = new Set<string>();
  return facts.filter((f) => {
    const k = `${f.type}|${f.id}|${f.quote}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
