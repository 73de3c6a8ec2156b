import type { z } from 'zod';
import type { BriefingsQuery, BriefingsQueryEcho, EventsQuery, EventsQueryEcho, ScenariosQuery } from '../../contract/api.ts';
import type { Briefing, Event, LocalizedEvent, Scenario } from '../../contract/content.ts';
import type { Lang } from '../../contract/languages.ts';
import { BUILD_FILES } from '../../contract/layout.ts';
import { defaultEventsSince, LIST_DEFAULTS } from '../../contract/limits.ts';
import type { LocalizedScenario as LocalizedScenarioSchema } from '../../contract/tools.ts';
import { lookupName, nameIndex, rankNames, type NameIndex } from '../../lib/suggest.ts';
import { type LoadedBuild, perBuild } from '../build.ts';
import { ExplainedError, MAX_SUGGESTIONS, resolveCommodity, resolveCountry } from '../resolve.ts';

export type LocalizedScenario = z.infer<typeof LocalizedScenarioSchema>;
import { type Answer, computed, type Envelope, fromFile } from './answer.ts';

export type ScenariosParams = Omit<z.output<typeof ScenariosQuery>, 'format'>;
export type EventsParams = Omit<z.output<typeof EventsQuery>, 'format'>;
export type BriefingsParams = Omit<z.output<typeof BriefingsQuery>, 'format'>;

/** Scenarios, optionally of one status and concerning one commodity. */
export function listScenarios(b: LoadedBuild, q: ScenariosParams): Answer<Scenario[]> {
  const slug = q.commodity ? resolveCommodity(b, q.commodity) : undefined;
  if (!q.status && !slug) return { file: b.files.get(BUILD_FILES.scenarios().path)!, envelope: () => ({ data: b.scenarios, meta: b.scenariosMeta }) };
  const data = b.scenarios.filter((s) => (!q.status || s.status === q.status) && (!slug || s.commodities.includes(slug)));
  return computed(data, { ...b.scenariosMeta, count: data.length });
}

/**
 * The effective parameters of an events query: defaults applied (LIST_DEFAULTS.events), the
 * commodity as its slug, the country as alpha-3. This is `meta.query` of the answer.
 */
export function eventsQuery(b: LoadedBuild, q: EventsParams): EventsQueryEcho {
  const since = q.since ?? defaultEventsSince(b.events[0]?.date);
  const commodity = q.commodity ? resolveCommodity(b, q.commodity) : undefined;
  const country = q.country ? resolveCountry(b, q.country).iso3 : undefined;
  return {
    ...(since ? { since } : {}),
    ...(q.until ? { until: q.until } : {}),
    ...(q.category ? { category: q.category } : {}),
    ...(commodity ? { commodity } : {}),
    ...(country ? { country } : {}),
    limit: q.limit,
    // English is the default: lang=en and no lang are the same query (and the same published file).
    ...(q.lang && q.lang !== 'en' ? { lang: q.lang } : {}),
  };
}

/** An event as GET /v1/events?lang=… gives it: English as recorded (with every translation), or the title and summary in `lang` alone. */
export function localizeEvent(e: Event, lang: Lang | undefined): Event | LocalizedEvent {
  if (!lang || lang === 'en') return e;
  const { translations, ...rest } = e;
  return { ...rest, lang, ...translations[lang] };
}

/** The default events query: what GET /v1/events answers without parameters, and the prebuilt v1/events.json holds. */
export function defaultEventsQuery(b: LoadedBuild): EventsQueryEcho {
  return eventsQuery(b, { limit: LIST_DEFAULTS.events.limit });
}

const sameQuery = (a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

/** The events an effective query selects, newest first, with its meta (`query` included). */
export function computeEvents(b: LoadedBuild, query: EventsQueryEcho): Envelope<(Event | LocalizedEvent)[]> {
  const data = b.events
    .filter(
      (e) =>
        (!query.since || e.date >= query.since) &&
        (!query.until || e.date <= query.until) &&
        (!query.category || e.category === query.category) &&
        (!query.commodity || e.commodities.includes(query.commodity)) &&
        (!query.country || e.countries.includes(query.country)),
    )
    .slice(0, query.limit)
    .map((e) => localizeEvent(e, query.lang));
  return { data, meta: { ...b.eventsMeta, as_of: data[0]?.date ?? null, count: data.length, query } };
}

/**
 * Events, newest first, filtered; without `since`, the LIST_DEFAULTS.events.sinceDays days
 * before the newest event; at most `limit`. The answer to the default query is the published
 * v1/events.json, which the pipeline makes with the same defaults (a test holds them equal).
 */
export function listEvents(b: LoadedBuild, q: EventsParams): Answer<(Event | LocalizedEvent)[]> {
  const query = eventsQuery(b, q);
  const file = b.files.get(BUILD_FILES.recentEvents().path);
  if (file && sameQuery(query, defaultEventsQuery(b))) return fromFile(file);
  const { data, meta } = computeEvents(b, query);
  return computed(data, meta);
}

/** The newest briefings of an effective query, with its meta (`query` included). */
export function computeBriefings(b: LoadedBuild, query: BriefingsQueryEcho): Envelope<Briefing[]> {
  const set = b.briefings.get(query.lang)!;
  const data = set.items.slice(0, query.limit);
  return { data, meta: { ...set.meta, count: data.length, query } };
}

/** The latest briefings in one language; for the default limit, the published v1/briefings/<lang>.json (the same answer). */
export function listBriefings(b: LoadedBuild, q: BriefingsParams): Answer<Briefing[]> {
  const query: BriefingsQueryEcho = { lang: q.lang, limit: q.limit };
  const file = b.files.get(BUILD_FILES.latestBriefings(q.lang).path);
  if (file && q.limit === LIST_DEFAULTS.briefings.limit) return fromFile(file);
  const { data, meta } = computeBriefings(b, query);
  return computed(data, meta);
}

/** A scenario in one language: its title and summary in `lang` (as written, in English), without the other translations. */
export function localizeScenario(s: Scenario, lang: Lang): LocalizedScenario {
  const { translations, ...rest } = s;
  const own = lang === 'en' ? undefined : translations[lang];
  return { ...rest, lang, title: own?.title ?? s.title, summary: own?.summary ?? s.summary };
}

/** Briefing names per language: id, translation key and title → id, for lookups and suggestions. */
const briefingNames = perBuild((b) => {
  const out = new Map<string, NameIndex<string>>();
  for (const [lang, set] of b.briefings) out.set(lang, nameIndex(set.items.map((x) => ({ id: x.id, names: [x.id, x.translation_key, x.title] }))));
  return out;
});

const BRIEFING_FORM =
  "a briefing's id (2026-08-20-eu-gas-storage-winter-2026-en) or translation key (the id without its language), as search_briefings and GET /v1/briefings give them";

/**
 * One briefing, by its language and its id (or its translation key, or its exact title), with the
 * meta of its language's set; 404 with at most five briefings of that language nearest in name.
 */
export function getBriefing(b: LoadedBuild, lang: Lang, input: string): Envelope<Briefing> {
  const set = b.briefings.get(lang)!;
  const index = briefingNames(b).get(lang)!;
  const hits = lookupName(index, input);
  const found = hits.length === 1 ? set.items.find((x) => x.id === hits[0]) : undefined;
  if (found) return { data: found, meta: { ...set.meta, as_of: found.published_at } };
  // Another language's id: the same briefing in this language first.
  const key = [...b.briefings.values()].flatMap((s) => s.items).find((x) => x.id === input.trim().toLowerCase())?.translation_key;
  const sibling = key ? set.items.filter((x) => x.translation_key === key).map((x) => x.id) : [];
  const nearest = [...new Set([...sibling, ...hits, ...rankNames(index, input, MAX_SUGGESTIONS)])].slice(0, MAX_SUGGESTIONS);
  const title = (id: string) => set.items.find((x) => x.id === id)?.title ?? id;
  throw new ExplainedError(
    404,
    `no ${lang} briefing '${input}'`,
    { errors: [{ param: 'id', message: `unknown briefing; expected ${BRIEFING_FORM}` }], suggestions: nearest },
    { problem: `no ${lang} briefing '${input}'`, accepted: BRIEFING_FORM, labelled: nearest.map((id) => `${id} (${title(id)})`) },
  );
}
