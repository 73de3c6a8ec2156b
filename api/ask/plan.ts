/**
 * The planner's operations over the measures: comparison on a common date, ranking and threshold
 * filters over a set, change over a period, and the explanation of a stress index by its
 * components. Each returns the sentences and the records they quote, or null when the question
 * does not fit the operation (the lookup answers it then).
 */
import type { LoadedBuild } from '../build.ts';
import { asksFigure, kin, leading, type Pick } from './choose.ts';
import { type Derived, derived, eventFact, type Fact } from './fact.ts';
import { type Intent, minusPeriod } from './intent.ts';
import type { Lexicon } from './lexicon.ts';
import { countryNameOf, entityName, isMeasure, measureOf, type Measure, onOrBefore, type Point, type Reading } from './measures.ts';
import { dateLong, numUpTo, pctUpTo } from '../../lib/format.ts';
import { cue, PHRASES, PLAN_PHRASES } from './lang/index.ts';
import type { PlanPhrases } from './plan-phrases.ts';
import type { Recognised } from './recognise.ts';
import { fold, type Lang } from './text.ts';

export interface Planned {
  text: string;
  used: Fact[];
  /** Figures computed from the records used: a gap, a change, a count (see fact.ts). */
  derived: Derived[];
}

interface Ctx {
  intent: Intent;
  b: LoadedBuild;
  lex: Lexicon;
  r: Recognised;
  lang: Lang;
  pp: PlanPhrases;
  today: string;
  /** The question as asked. */
  q: string;
}

const DAY = 86_400_000;
const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
const daysBetween = (a: string, z: string) => Math.round((Date.parse(`${z}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY);

/** A date as the language writes it; a year stays a year. */
const dateText = (d: string, lang: Lang) => (/^\d{4}$/.test(d) ? d : dateLong(d, lang));

function valueText(m: Measure, key: string, v: number, lang: Lang): string {
  switch (m.kind) {
    case 'pct':
      return pctUpTo(v, 2, lang);
    case 'share':
      return pctUpTo(v * 100, 1, lang);
    case 'index':
      return numUpTo(v, 1, lang);
    case 'amount': {
      const u = localUnit(m.unit(key), lang);
      return `${numUpTo(v, 2, lang)}${u ? ` ${u}` : ''}`;
    }
  }
}

/** A unit published in English, as the language writes it. */
export const localUnit = (u: string, lang: Lang) => PHRASES[lang].units[u] ?? u;

function diffText(m: Measure, key: string, d: number, ctx: Ctx): string {
  const a = Math.abs(d);
  if (m.kind === 'pct') return `${numUpTo(a, 2, ctx.lang)} ${ctx.pp.pp}`;
  if (m.kind === 'share') return `${numUpTo(a * 100, 1, ctx.lang)} ${ctx.pp.pp}`;
  if (m.kind === 'index') return `${numUpTo(a, 1, ctx.lang)} ${ctx.pp.points}`;
  return valueText(m, key, a, ctx.lang);
}

/** The unit a difference of the measure is counted in, as `derived` writes it. */
const diffUnit = (m: Measure, key: string) => (m.kind === 'pct' || m.kind === 'share' ? 'percentage points' : m.kind === 'index' ? 'points' : m.unit(key));

/** The gap between the top two readings, as a derived figure. */
function gapOf(m: Measure, hi: Reading, lo: Reading): Derived {
  const x100 = m.kind === 'share';
  const gap = round(x100 ? (hi.value - lo.value) * 100 : hi.value - lo.value);
  return derived('difference', gap, diffUnit(m, hi.key), x100 ? `(${hi.value} − ${lo.value}) × 100` : `${hi.value} − ${lo.value}`, [hi.fact, lo.fact]);
}

const name = (ctx: Ctx, m: Measure, key: string) => entityName(ctx.b, ctx.lex, m, key, ctx.lang, PHRASES[ctx.lang].eu);
const item = (ctx: Ctx, m: Measure, x: Reading) => ctx.pp.item(name(ctx, m, x.key), valueText(m, x.key, x.value, ctx.lang));
const itemDated = (ctx: Ctx, m: Measure, x: Reading) =>
  ctx.pp.itemDated(name(ctx, m, x.key), valueText(m, x.key, x.value, ctx.lang), dateText(x.date, ctx.lang));

/** The measure an operation runs over: the leading figure the planner's table picked (choose.ts), when it has readings. */
export function chooseMeasure(b: LoadedBuild, lex: Lexicon, r: Recognised, intent: Intent, picks: readonly Pick[]): Measure | null {
  const lead = leading(picks, r, intent);
  if (!lead || !isMeasure(lead.id)) return null;
  return measureOf(b, lex, lead.id, lead.commodities.length === 1 ? lead.commodities[0] : undefined);
}

/** The entities the question names, as the measure keys them. */
function namedKeys(ctx: Ctx, m: Measure): string[] {
  if (m.entity === 'commodity') return ctx.r.commodities;
  if (m.entity === 'country2') return ctx.r.countries.map((c) => c.iso2);
  return ctx.r.countries.map((c) => c.iso3).filter((x): x is string => !!x);
}

/** The set a ranking or a filter runs over: the named entities when several, else every member (of a group of commodities when asked). */
function setOf(ctx: Ctx, m: Measure): { keys: string[]; label: string } {
  const named = namedKeys(ctx, m);
  if (named.length >= 2) return { keys: named, label: ctx.pp.list(named.map((k) => name(ctx, m, k))) };
  let keys = m.members();
  const group = ctx.intent.group;
  if (m.entity === 'commodity' && group) keys = keys.filter((k) => k.startsWith(`${group}.`));
  const n = String(keys.length);
  const label = m.entity === 'commodity' ? ctx.pp.set.commodities(n) : m.entity === 'country2' ? ctx.pp.set.countries2(n) : ctx.pp.set.countries3(n);
  return { keys, label };
}

/**
 * Readings of several entities on one date. A date the question names governs: every series is
 * read on it (or on its nearest earlier reading, within a month). Without one, for series, the
 * latest date most of them report (the 25th percentile of their last dates, so one series that
 * stopped long ago does not drag the comparison into the past; those left out are named);
 * otherwise the current readings.
 */
function aligned(m: Measure, keys: string[], asked: string | null): { date: string | null; readings: Reading[]; left: Reading[] } {
  if (!m.series || !m.pointFact || !(m.align || asked))
    return { date: null, readings: keys.map((k) => m.current(k)).filter((x): x is Reading => !!x), left: [] };
  const lasts = keys.map((k) => ({ k, last: m.series!(k)?.at(-1) })).filter((x): x is { k: string; last: Point } => !!x.last);
  if (!lasts.length) return { date: null, readings: [], left: [] };
  const sorted = lasts.map((x) => x.last.date).sort();
  const date = asked ?? sorted[Math.floor((sorted.length - 1) * 0.25)]!;
  const readings: Reading[] = [];
  const left: Reading[] = [];
  for (const { k, last } of lasts) {
    const pt = onOrBefore(m.series(k)!, date);
    if (pt && daysBetween(pt.date, date) <= 31) readings.push({ key: k, value: pt.value, date: pt.date, fact: m.pointFact(k, pt) });
    else if (pt || !asked) left.push({ key: k, value: (pt ?? last).value, date: (pt ?? last).date, fact: m.pointFact(k, pt ?? last) });
  }
  return { date, readings, left };
}

/** The day the question names (the last day of a month or year named), or null for "latest". */
const askedDay = (ctx: Ctx): string | null => ctx.r.date?.date ?? null;

/** Said when a reading had to be taken before the day asked (a weekend, a monthly series). */
function earlierNote(ctx: Ctx, readings: readonly Reading[]): string {
  const asked = ctx.r.date;
  if (!asked || asked.granularity !== 'day') return '';
  return readings.some((x) => /^\d{4}-\d{2}-\d{2}$/.test(x.date) && x.date < asked.date) ? ctx.pp.earlier(dateText(asked.date, ctx.lang)) : '';
}

/** A comparison on the date the question names: every series read on it, or on its nearest earlier reading (said so). */
function compareOn(ctx: Ctx, m: Measure, keys: string[], asked: string): Planned | null {
  const { readings, left } = aligned(m, keys, asked);
  const label = ctx.pp.measure[m.id];
  const when = dateText(asked, ctx.lang);
  if (readings.length < 2) {
    const before = ctx.pp.list(left.map((x) => itemDated(ctx, m, x)));
    return left.length ? { text: ctx.pp.missingOn(before, when).trim(), used: left.map((x) => x.fact), derived: [] } : null;
  }
  const sorted = [...readings].sort((a, z) => z.value - a.value);
  const items = ctx.pp.list(readings.map((x) => (x.date === asked ? item(ctx, m, x) : itemDated(ctx, m, x))));
  const gap = sorted[0]!.value - sorted[1]!.value;
  let text =
    gap === 0
      ? ctx.pp.compareLevel(label, when, items)
      : ctx.pp.compareOn(label, when, items, name(ctx, m, sorted[0]!.key), diffText(m, sorted[0]!.key, gap, ctx));
  text += earlierNote(ctx, readings);
  if (left.length) text += ctx.pp.missingOn(ctx.pp.list(left.map((x) => itemDated(ctx, m, x))), when);
  return { text, used: [...readings.map((x) => x.fact), ...left.map((x) => x.fact)], derived: gap === 0 ? [] : [gapOf(m, sorted[0]!, sorted[1]!)] };
}

function compare(ctx: Ctx, m: Measure): Planned | null {
  const keys = namedKeys(ctx, m);
  if (keys.length < 2) return null;
  const label = ctx.pp.measure[m.id];
  if (m.kind === 'amount' && new Set(keys.map((k) => m.unit(k))).size > 1) {
    const cur = keys.map((k) => m.current(k)).filter((x): x is Reading => !!x);
    return { text: ctx.pp.units(ctx.pp.list(cur.map((x) => itemDated(ctx, m, x)))), used: cur.map((x) => x.fact), derived: [] };
  }
  const asked = askedDay(ctx);
  if (asked && m.series && m.pointFact) return compareOn(ctx, m, keys, asked);
  const cur = keys.map((k) => m.current(k));
  if (cur.some((x) => !x)) return null;
  const latest = cur as Reading[];
  const sameDay = new Set(latest.map((x) => x.date)).size === 1;
  let readings = latest;
  let date: string | null = sameDay ? latest[0]!.date : null;
  if (!sameDay && m.series && m.pointFact) {
    // The latest date every series reports.
    const common = latest.map((x) => x.date).sort()[0]!;
    const pts = keys.map((k) => onOrBefore(m.series!(k) ?? [], common));
    if (pts.every((p) => p && daysBetween(p.date, common) <= 31)) {
      readings = keys.map((k, i) => ({ key: k, value: pts[i]!.value, date: pts[i]!.date, fact: m.pointFact!(k, pts[i]!) }));
      date = common;
    }
  }
  const sorted = [...readings].sort((a, z) => z.value - a.value);
  const items = ctx.pp.list(readings.map((x) => item(ctx, m, x)));
  const used = readings.map((x) => x.fact);
  const found: Derived[] = [];
  let text: string;
  if (date === null) text = ctx.pp.compareApart(label, ctx.pp.list(readings.map((x) => itemDated(ctx, m, x))), name(ctx, m, sorted[0]!.key));
  else if (sorted[0]!.value === sorted[1]!.value) text = ctx.pp.compareLevel(label, dateText(date, ctx.lang), items);
  else {
    const gap = sorted[0]!.value - sorted[1]!.value;
    text = ctx.pp.compareCommon(label, dateText(date, ctx.lang), items, name(ctx, m, sorted[0]!.key), diffText(m, sorted[0]!.key, gap, ctx));
    found.push(gapOf(m, sorted[0]!, sorted[1]!));
  }
  if (date !== null && !sameDay) {
    const newer = latest.filter((x) => x.date > date);
    if (newer.length) {
      text += ctx.pp.newer(ctx.pp.list(newer.map((x) => itemDated(ctx, m, x))));
      used.push(...newer.map((x) => x.fact));
    }
  }
  return { text, used, derived: found };
}

/** Equal readings at the top of a ranking named one by one up to this many. */
const MAX_TIES_NAMED = 20;

function rank(ctx: Ctx, m: Measure, order: 'max' | 'min', n: number | null): Planned | null {
  const set = setOf(ctx, m);
  if (set.keys.length < 2) return null;
  if (m.kind === 'amount' && new Set(set.keys.map((k) => m.unit(k))).size > 1) return null;
  const asked = askedDay(ctx);
  const { date, readings, left } = aligned(m, set.keys, asked);
  if (asked && readings.length === 1)
    return { text: ctx.pp.onlyOn(set.label, dateText(asked, ctx.lang), itemDated(ctx, m, readings[0]!)), used: [readings[0]!.fact], derived: [] };
  if (readings.length < 2) return null;
  const sorted = [...readings].sort((a, z) => (order === 'max' ? z.value - a.value : a.value - z.value));
  const tied = sorted.filter((x) => x.value === sorted[0]!.value).length;
  // Three of sixteen equal readings would pick a "lowest" by sort order: name every tie (up to a
  // list a reader can take in), and only then the count of the rest.
  const shown = sorted.slice(0, Math.max(Math.min(n ?? 3, 10), Math.min(tied, MAX_TIES_NAMED)));
  const items = ctx.pp.list(shown.map((x) => (date && x.date === date ? item(ctx, m, x) : itemDated(ctx, m, x))));
  const when = date ? `${dateText(date, ctx.lang)} (${asked ? ctx.pp.askedDate : ctx.pp.commonDate})` : null;
  let text = ctx.pp.rank(ctx.pp.measure[m.id], order, set.label, when, items) + earlierNote(ctx, shown);
  if (tied > shown.length) text += ctx.pp.tied(String(tied), valueText(m, sorted[0]!.key, sorted[0]!.value, ctx.lang));
  if (left.length && date) text += ctx.pp.missingOn(ctx.pp.list(left.map((x) => itemDated(ctx, m, x))), dateText(date, ctx.lang));
  const found = [derived('count', set.keys.length, '', `members of the set ranked (${set.keys.join(', ')})`, [])];
  if (tied > shown.length)
    found.push(
      derived(
        'count',
        tied,
        '',
        `readings equal to ${sorted[0]!.value}`,
        sorted.slice(0, tied).map((x) => x.fact),
      ),
    );
  const tiedUnshown = tied > shown.length ? sorted.slice(shown.length, tied) : [];
  return { text, used: [...shown.map((x) => x.fact), ...tiedUnshown.map((x) => x.fact), ...(date ? left.map((x) => x.fact) : [])], derived: found };
}

function threshold(ctx: Ctx, m: Measure, op: '<' | '>', bound: number): Planned | null {
  const set = setOf(ctx, m);
  if (set.keys.length < 2) return null;
  const asked = askedDay(ctx);
  const { date, readings, left } = aligned(m, set.keys, asked);
  if (!readings.length) return null;
  const limit = m.kind === 'share' ? bound / 100 : bound;
  const hits = readings.filter((x) => (op === '<' ? x.value < limit : x.value > limit)).sort((a, z) => (op === '<' ? a.value - z.value : z.value - a.value));
  const boundText = m.kind === 'pct' || m.kind === 'share' ? pctUpTo(bound, 2, ctx.lang) : numUpTo(bound, 2, ctx.lang);
  const when = date ? `${dateText(date, ctx.lang)} (${asked ? ctx.pp.askedDate : ctx.pp.commonDate})` : null;
  const measure = ctx.pp.measure[m.id];
  let text: string;
  let used: Fact[];
  const found = [derived('count', set.keys.length, '', `members of the set filtered (${set.keys.join(', ')})`, [])];
  if (hits.length) {
    const fmt = (x: Reading) => (date && x.date === date ? item(ctx, m, x) : itemDated(ctx, m, x));
    text = ctx.pp.threshold(measure, op, boundText, set.label, when, String(hits.length), ctx.pp.list(hits.map(fmt)));
    used = hits.map((x) => x.fact);
    found.push(derived('count', hits.length, '', `readings ${op} ${bound}`, used));
  } else {
    const near = [...readings].sort((a, z) => (op === '<' ? a.value - z.value : z.value - a.value))[0]!;
    text = ctx.pp.thresholdNone(measure, op, boundText, set.label, when, date && near.date === date ? item(ctx, m, near) : itemDated(ctx, m, near));
    used = [near.fact];
  }
  if (left.length && date) {
    text += ctx.pp.missingOn(ctx.pp.list(left.map((x) => itemDated(ctx, m, x))), dateText(date, ctx.lang));
    used.push(...left.map((x) => x.fact));
  }
  return { text, used, derived: found };
}

/** The members of the set in the stress band the question names, each with its reading and date. */
function bandList(ctx: Ctx, m: Measure, band: string): Planned | null {
  const set = setOf(ctx, m);
  const bandOf = (k: string) => (m.entity === 'commodity' ? ctx.lex.sheets.get(k)?.stress_band : ctx.lex.profiles.get(k)?.stress_band);
  const hits = set.keys
    .filter((k) => bandOf(k) === band)
    .map((k) => m.current(k))
    .filter((x): x is Reading => !!x)
    .sort((a, z) => z.value - a.value);
  const label = ctx.pp.measure[m.id];
  const bandName = PHRASES[ctx.lang].band[band] ?? band;
  if (!hits.length) return { text: ctx.pp.bandNone(label, bandName, set.label), used: [], derived: [] };
  // The quote names the band the record holds, so the address shows why each member is listed.
  const used = hits.map((x) => (/stress_band/.test(x.fact.quote) ? x.fact : { ...x.fact, quote: `${x.fact.quote}; stress_band: ${band}` }));
  const text = ctx.pp.bandList(label, bandName, set.label, String(hits.length), ctx.pp.list(hits.map((x) => itemDated(ctx, m, x))));
  const counts = [
    derived('count', set.keys.length, '', `members of the set (${set.keys.join(', ')})`, []),
    derived('count', hits.length, '', `members with stress_band ${band}`, used),
  ];
  return { text, used, derived: counts };
}

function change(ctx: Ctx, m: Measure, months: number, days: number, since: boolean): Planned | null {
  if (!m.series || !m.rangeFact) return null;
  const keys = namedKeys(ctx, m);
  const target = keys.length ? keys : m.id === 'spr' ? ['us'] : m.id === 'gas_fill' ? ['eu'] : [];
  if (!target.length) return null;
  const parts: string[] = [];
  const used: Fact[] = [];
  const found: Derived[] = [];
  for (const k of target) {
    const pts = m.series(k);
    if (!pts?.length) continue;
    const asked = ctx.r.date;
    const span = ctx.r.period;
    // A span named ("between 1 April and 1 November 2022") governs; then "since D"; then a date
    // named as the end of a period counted back ("in the year to March 2026"); else the latest.
    const end = span ? onOrBefore(pts, span.to) : asked && !since ? onOrBefore(pts, asked.date) : pts.at(-1)!;
    if (!end) continue;
    const startDate = span ? span.from : since && asked ? asked.from : minusPeriod(end.date, months || days ? { months, days } : { months: 1, days: 0 });
    const start = onOrBefore(pts, startDate) ?? (since || span ? pts[0]! : null);
    if (!start || start.date === end.date) {
      parts.push(ctx.pp.seriesStarts(dateText(pts[0]!.date, ctx.lang)).trim());
      continue;
    }
    const d = end.value - start.value;
    const dir = d > 0 ? 'up' : d < 0 ? 'down' : 'flat';
    const rel = m.kind === 'amount' && start.value !== 0 ? `${d > 0 ? '+' : '−'}${pctUpTo(Math.abs((d / start.value) * 100), 1, ctx.lang)}` : null;
    let s = ctx.pp.change(
      m.id === 'spr' ? ctx.pp.measure.spr : name(ctx, m, k),
      m.id === 'price' || m.id === 'spr' ? '' : ctx.pp.measure[m.id],
      valueText(m, k, end.value, ctx.lang),
      dateText(end.date, ctx.lang),
      dir,
      diffText(m, k, d, ctx),
      rel,
      valueText(m, k, start.value, ctx.lang),
      dateText(start.date, ctx.lang),
    );
    const lag = daysBetween(end.date, ctx.today);
    const late = !asked && lag > 31;
    if (late) s += ctx.pp.seriesEnds(dateText(end.date, ctx.lang), String(lag));
    parts.push(s);
    const f = m.rangeFact(k, start, end);
    used.push(f);
    found.push(derived('change', round(m.kind === 'share' ? d * 100 : d), diffUnit(m, k), `${end.value} − ${start.value}`, [f]));
    if (rel) found.push(derived('change_pct', round((d / start.value) * 100, 1), '%', `(${end.value} − ${start.value}) / ${start.value} × 100`, [f]));
    if (late) found.push(derived('age_days', lag, 'days', `${ctx.today} − ${end.date}`, [f]));
  }
  return used.length ? { text: parts.join(' '), used, derived: found } : null;
}

function explainCommodity(ctx: Ctx, slug: string): Planned | null {
  const s = ctx.lex.sheets.get(slug);
  if (!s || s.stress_index === null) return null;
  const { lang, pp } = ctx;
  const cname = s.names[lang];
  const lowered = PHRASES[lang].nounsCapitalised ? cname : cname.charAt(0).toLowerCase() + cname.slice(1);
  let text = pp.explainHead(
    lowered,
    numUpTo(s.stress_index, 1, lang),
    PHRASES[lang].band[s.stress_band ?? ''] ?? String(s.stress_band),
    dateLong(s.stress.as_of, lang),
  );
  const bits = [`stress_index: ${s.stress_index} (${s.stress_band}; as_of ${s.stress.as_of})`];
  const comps = [...s.stress.components].sort((a, z) => (z.contribution ?? -1) - (a.contribution ?? -1));
  for (const c of comps) {
    const label = pp.component[c.key];
    const cap = label.charAt(0).toUpperCase() + label.slice(1);
    let detail = '';
    const inp = c.inputs;
    if (c.key === 'concentration' && typeof inp.top_supplier === 'string' && typeof inp.top_share === 'number') {
      const sup = countryNameOf(ctx.b, ctx.lex, inp.top_supplier, lang);
      detail = pp.detail.concentration(
        sup,
        pctUpTo(inp.top_share * 100, 1, lang),
        String(inp.basis ?? ''),
        String(inp.year ?? ''),
        numUpTo(Number(inp.hhi), 1, lang),
      );
      bits.push(`concentration: top_supplier ${inp.top_supplier} share ${inp.top_share}, hhi ${inp.hhi} (${inp.year})`);
    } else if (c.key === 'reserves' && typeof inp.fill_pct === 'number' && typeof inp.seasonal_norm_pct === 'number') {
      detail = pp.detail.reserves(pctUpTo(inp.fill_pct, 2, lang), pctUpTo(inp.seasonal_norm_pct, 2, lang));
      bits.push(`reserves: fill_pct ${inp.fill_pct}, seasonal_norm_pct ${inp.seasonal_norm_pct}`);
    } else if (c.key === 'events' && typeof inp.events_counted === 'number') {
      detail = pp.detail.events(String(inp.events_counted));
      bits.push(`events: events_counted ${inp.events_counted}`);
    } else if (c.key === 'price' && typeof inp.change_12m_pct === 'number' && c.contribution === 0) {
      detail = pp.detail.price12(`${inp.change_12m_pct > 0 ? '+' : '−'}${pctUpTo(Math.abs(inp.change_12m_pct), 2, lang)}`);
      bits.push(`price: change_12m_pct ${inp.change_12m_pct}`);
    }
    if (!c.available || c.contribution === null) {
      text += pp.explainOff(cap, lang === 'en' && c.reason ? c.reason : '');
    } else if (c.contribution > 0) {
      text += pp.explainPart(numUpTo(c.contribution, 2, lang), label, detail);
      bits.push(`${c.key}: contribution ${c.contribution}`);
    } else text += pp.explainNone(cap, detail);
  }
  return { text, used: [{ id: s.slug, type: 'commodity', title: s.name, url: `/v1/commodities/${s.slug}`, quote: bits.join('; ') }], derived: [] };
}

function explainCountry(ctx: Ctx, iso3: string): Planned | null {
  const p = ctx.lex.profiles.get(iso3);
  if (!p || p.stress_index === null) return null;
  const { lang, pp } = ctx;
  const cname = p.names[lang];
  let text = pp.explainCountryHead(cname, numUpTo(p.stress_index, 1, lang), PHRASES[lang].band[p.stress_band ?? ''] ?? String(p.stress_band));
  const bits = [`stress_index: ${p.stress_index} (${p.stress_band})`];
  const fuels = p.stress.parts.filter((x) => x.material).sort((a, z) => z.contribution - a.contribution);
  text +=
    fuels
      .map((f) => {
        bits.push(
          `${f.commodity}: contribution ${f.contribution}, energy_share ${f.energy_share}, import_dependence ${f.import_dependence}, commodity_stress ${f.commodity_stress}`,
        );
        return pp
          .explainFuel(
            ctx.lex.sheets.get(f.commodity)?.names[lang] ?? f.commodity,
            numUpTo(f.contribution, 2, lang),
            pctUpTo(f.energy_share * 100, 1, lang),
            pctUpTo(f.import_dependence * 100, 1, lang),
            f.commodity_stress === null ? '—' : numUpTo(f.commodity_stress, 1, lang),
          )
          .trimEnd();
      })
      .join(';') + '.';
  return { text, used: [{ id: p.iso3, type: 'country', title: p.name, url: p.url, quote: bits.join('; ') }], derived: [] };
}

/** A word of movement (rise, fall, climb, surge, drop…) in the four languages. */
const CHANGE_WORDS = cue((p) => p.movement);
/** "behind last year", "par rapport à l'an dernier", "gegenüber dem Vorjahr", "que el año pasado": a year's move. */
const LAST_YEAR = cue((p) => p.lastYear);

/**
 * Why a figure moved: its change over the period the question implies (a span or a date named,
 * a year when it says "last year", else the three months to the newest reading), the events
 * recorded on the commodity from three months before that period to its end (what moved it, with
 * their dates and effect), or a plain "no recorded cause"; then, without a date named, the
 * components of its stress index.
 */
function why(ctx: Ctx, m: Measure, key: string, slug: string): Planned | null {
  const pts = m.series?.(key);
  if (!pts?.length || !m.rangeFact) return null;
  const { lang, pp, r } = ctx;
  const months = LAST_YEAR.test(fold(ctx.q)) ? 12 : 3;
  const end = r.period ? onOrBefore(pts, r.period.to) : r.date ? onOrBefore(pts, r.date.date) : pts.at(-1)!;
  if (!end) return null;
  const startDay = r.period ? r.period.from : r.date?.granularity === 'year' ? r.date.from : minusPeriod(end.date, { months, days: 0 });
  const start = onOrBefore(pts, startDay) ?? pts[0]!;
  const used: Fact[] = [];
  const found: Derived[] = [];
  const parts: string[] = [];
  const who = name(ctx, m, key);
  if (start.date !== end.date) {
    const d = end.value - start.value;
    const rel = m.kind === 'amount' && start.value !== 0 ? `${d > 0 ? '+' : '−'}${pctUpTo(Math.abs((d / start.value) * 100), 1, lang)}` : null;
    parts.push(
      pp.change(
        who,
        m.id === 'price' ? '' : pp.measure[m.id],
        valueText(m, key, end.value, lang),
        dateText(end.date, lang),
        d > 0 ? 'up' : d < 0 ? 'down' : 'flat',
        diffText(m, key, d, ctx),
        rel,
        valueText(m, key, start.value, lang),
        dateText(start.date, lang),
      ),
    );
    const f = m.rangeFact(key, start, end);
    used.push(f);
    found.push(derived('change', round(d), diffUnit(m, key), `${end.value} − ${start.value}`, [f]));
    if (rel) found.push(derived('change_pct', round((d / start.value) * 100, 1), '%', `(${end.value} − ${start.value}) / ${start.value} × 100`, [f]));
  }
  // Events shortly before a move cause it: the window opens three months before the period.
  const from = minusPeriod(start.date, { months: 3, days: 0 });
  const slugs = new Set(kin(slug));
  const events = ctx.b.events
    .filter((e) => e.date >= from && e.date <= end.date && e.commodities.some((c) => slugs.has(c)))
    .sort((a, z) => (a.date < z.date ? 1 : -1))
    .slice(0, 4);
  const subject = m.id === 'gas_fill' ? pp.measure.gas_fill.toLowerCase() : lowerName(ctx, slug);
  if (events.length) {
    const items = events.map((e) => {
      const fact = eventFact(e, lang, ['category', 'effect']);
      used.push(fact);
      return `${PHRASES[lang].event(dateLong(e.date, lang), fact.title, PHRASES[lang].category[e.category] ?? e.category)} — ${pp.effect[e.effect]}`;
    });
    parts.push(pp.whyEvents(subject, dateText(from, lang), dateText(end.date, lang), items.join('; ')));
  } else parts.push(pp.whyNoEvent(subject, dateText(from, lang), dateText(end.date, lang)));
  if (!r.date && !r.period && ctx.lex.sheets.get(slug)?.stress_index != null) {
    const x = explainCommodity(ctx, slug);
    if (x) {
      parts.push(x.text);
      used.push(...x.used);
    }
  }
  return { text: parts.join(' '), used, derived: found };
}

const lowerName = (ctx: Ctx, slug: string) => {
  const n = ctx.lex.sheets.get(slug)?.names[ctx.lang] ?? slug;
  return PHRASES[ctx.lang].nounsCapitalised ? n : n.charAt(0).toLowerCase() + n.slice(1);
};

/** Carry out the operation the question asks for; null when the lookup should answer it instead. */
export function plan(b: LoadedBuild, lex: Lexicon, r: Recognised, intent: Intent, today: string, q: string, picks: readonly Pick[]): Planned | null {
  const ctx: Ctx = { intent, b, lex, r, lang: r.lang, pp: PLAN_PHRASES[r.lang], today, q };
  const op = intent.op;
  if (op.kind === 'explain') {
    const one = r.commodities.length === 1 ? r.commodities[0]! : null;
    const named = asksFigure(r);
    // "Why did the urea price rise?", "Why is Europe's gas storage behind last year?": a moving
    // series picked (gas storage, a price; "why did urea rise", naming no figure: its price), the
    // move and its recorded causes.
    const moving = named
      ? picks.find((x) => x.id === 'gas_fill' || (x.id === 'price' && one))
      : one && CHANGE_WORDS.test(fold(ctx.q))
        ? { id: 'price' as const }
        : undefined;
    if (moving) {
      const gas = moving.id === 'gas_fill';
      const m = measureOf(b, lex, gas ? 'gas_fill' : 'price');
      const key = gas ? (picks.find((x) => x.id === 'gas_fill')?.countries[0]?.iso2 ?? 'eu') : one!;
      const answered = m && why(ctx, m, key, gas ? 'energy.gas' : one!);
      if (answered) return answered;
    }
    // Otherwise an index by its components: a commodity's, else a country's.
    if (one && (!named || picks.some((x) => x.id === 'stress'))) return explainCommodity(ctx, one);
    const iso3 = r.countries.find((c) => c.iso3)?.iso3;
    if (!r.commodities.length && iso3 && (!named || picks.some((x) => x.id === 'country_stress'))) return explainCountry(ctx, iso3);
    return null;
  }
  const m = chooseMeasure(b, lex, r, intent, picks);
  // "Which commodities have a high stress index?": a band named over a set, nothing named in it.
  if (op.kind === 'lookup' && intent.band && m && (m.id === 'stress' || m.id === 'country_stress') && namedKeys(ctx, m).length === 0 && intent.set)
    return bandList(ctx, m, intent.band);
  if (op.kind === 'lookup') return null;
  if (!m) return null;
  switch (op.kind) {
    case 'compare':
      // "the fullest storage in the EU" read as a comparison with nothing to compare: a ranking.
      return namedKeys(ctx, m).length >= 2 ? compare(ctx, m) : rank(ctx, m, intent.order, null);
    case 'rank':
      // "the largest producer of cobalt": the producer table answers that, ranked already.
      if (m.id === 'producer_share' && namedKeys(ctx, m).length < 2 && op.n === null) return null;
      // "which is dearer, Brent or WTI?": of two named, a comparison (with the gap).
      if (namedKeys(ctx, m).length === 2 && op.n === null) return compare(ctx, m);
      return rank(ctx, m, op.order, op.n);
    case 'threshold':
      return threshold(ctx, m, op.op, op.value);
    case 'change':
      return change(ctx, m, op.months, op.days, op.since !== null);
  }
}
