import type { z } from 'zod';
import type { BriefingsQuery, EventsQuery, ScenariosQuery } from '../../contract/api.ts';
import type { Briefing, Event, Scenario } from '../../contract/content.ts';
import type { LoadedBuild } from '../build.ts';
import { resolveCommodity, resolveCountry } from '../resolve.ts';
import { type Answer, computed, fromFile } from './answer.ts';
import { BUILD_FILES } from '../../contract/layout.ts';

export const EVENTS_DEFAULT_DAYS = 90;

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
 * Events, newest first, filtered; without `since`, the EVENTS_DEFAULT_DAYS before the newest
 * event. (The published v1/events.json is the answer to a request without any parameter.)
 */
export function listEvents(b: LoadedBuild, q: EventsParams): Answer<Event[]> {
  const newest = b.events[0]?.date;
  const since = q.since ?? (newest ? new Date(Date.parse(newest) - EVENTS_DEFAULT_DAYS * 86_400_000).toISOString().slice(0, 10) : '0000-01-01');
  const slug = q.commodity ? resolveCommodity(b, q.commodity) : undefined;
  const iso3 = q.country ? resolveCountry(b, q.country).iso3 : undefined;
  const data = b.events
    .filter(
      (e) =>
        e.date >= since &&
        (!q.until || e.date <= q.until) &&
        (!q.category || e.category === q.category) &&
        (!slug || e.commodities.includes(slug)) &&
        (!iso3 || e.countries.includes(iso3)),
    )
    .slice(0, q.limit);
  return computed(data, { ...b.eventsMeta, as_of: data[0]?.date ?? null, count: data.length });
}

/** The latest briefings in one language (the published file for the default limit). */
export function listBriefings(b: LoadedBuild, q: BriefingsParams): Answer<Briefing[]> {
  if (q.limit === 10) return fromFile(b.files.get(BUILD_FILES.latestBriefings(q.lang).path)!);
  const set = b.briefings.get(q.lang)!;
  const data = set.items.slice(0, q.limit);
  return computed(data, { ...set.meta, count: data.length });
}
