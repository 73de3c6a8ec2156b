import type { AnswerData, Fact } from './fact.ts';
import type { LoadedBuild } from '../build.ts';
import { searchDocuments, type Hit } from '../queries/search.ts';
import { asksFigure, choose, LISTS } from './choose.ts';
import { minusPeriod, readIntent } from './intent.ts';
import { lexiconFor, type Lexicon } from './lexicon.ts';
import { type Draft, lookup } from './lookup.ts';
import { plan } from './plan.ts';
import { PHRASES, PLAN_PHRASES } from './lang/index.ts';
import { isGeneric, type Metric, type Recognised, recognise } from './recognise.ts';
import { type Lang, tokenize } from './text.ts';
import { unknownCommodity } from './unknown.ts';

export type { AnswerData, Fact } from './fact.ts';
export { onOrBefore } from './measures.ts';

export interface Grounded {
  answer: AnswerData;
  /** Everything retrieved for the question (cited or not): the context the model answers from. */
  context: Fact[];
  recognised: Recognised;
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

  const explicit = asksFigure(r);
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
  // One planner: the table picks the figures; an operation runs over the first, else the lookup reads them all.
  const picks = choose(b, lex, r, intent);
  if (!picks.some((x) => LISTS.has(x.id))) {
    const planned = plan(b, lex, r, intent, today, q, picks);
    if (planned) {
      const citations = dedupe(planned.used);
      return {
        answer: { answer: planned.text, lang, citations, derived: planned.derived, confidence: 0.9, mode: 'grounded' },
        context: citations,
        recognised: r,
      };
    }
  }
  lookup(b, lex, d, r, intent, picks);
  const commodities = r.commodities;
  const named = r.countries;

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
