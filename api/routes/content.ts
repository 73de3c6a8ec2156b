import type { Context } from 'hono';
import { BriefingsQuery, EventsQuery, ScenariosQuery } from '../../contract/api.ts';
import type { LoadedBuild } from '../build.ts';
import { queryObject, sendCsv, sendFile, sendJson, toCsv, wantsCsv } from '../http.ts';
import { parseParams } from '../params.ts';
import { resolveCommodity, resolveCountry } from '../resolve.ts';

const EVENTS_DEFAULT_DAYS = 90;

export async function listScenarios(c: Context, b: LoadedBuild): Promise<Response> {
  const q = parseParams(ScenariosQuery, queryObject(c));
  const slug = q.commodity ? resolveCommodity(b, q.commodity) : undefined;
  const data = b.scenarios.filter((s) => (!q.status || s.status === q.status) && (!slug || s.commodities.includes(slug)));
  if (wantsCsv(c, q.format)) return sendCsv(c, b, toCsv(data));
  if (!q.status && !slug) return sendFile(c, b, b.files.get('v1/scenarios.json')!);
  return sendJson(c, b, { data, meta: { ...b.scenariosMeta, count: data.length } });
}

export async function listEvents(c: Context, b: LoadedBuild): Promise<Response> {
  const raw = queryObject(c);
  const q = parseParams(EventsQuery, raw);
  const csv = wantsCsv(c, q.format);
  if (Object.keys(raw).length === 0 && !csv) return sendFile(c, b, b.files.get('v1/events.json')!);
  const newest = b.events[0]?.date;
  const since = q.since ?? (newest ? new Date(Date.parse(newest) - EVENTS_DEFAULT_DAYS * 86_400_000).toISOString().slice(0, 10) : '0000-01-01');
  const slug = q.commodity ? resolveCommodity(b, q.commodity) : undefined;
  const iso3 = q.country ? resolveCountry(b, q.country).iso3 : undefined;
  const data = b.events
    .filter((e) => e.date >= since && (!q.until || e.date <= q.until) && (!q.category || e.category === q.category) && (!slug || e.commodities.includes(slug)) && (!iso3 || e.countries.includes(iso3)))
    .slice(0, q.limit);
  if (csv) return sendCsv(c, b, toCsv(data));
  return sendJson(c, b, { data, meta: { ...b.eventsMeta, as_of: data[0]?.date ?? null, count: data.length } });
}

export async function listBriefings(c: Context, b: LoadedBuild): Promise<Response> {
  const q = parseParams(BriefingsQuery, queryObject(c));
  const set = b.briefings.get(q.lang)!;
  const data = set.items.slice(0, q.limit);
  if (wantsCsv(c, q.format)) return sendCsv(c, b, toCsv(data.map(({ body: _body, ...rest }) => rest)));
  if (q.limit === 10) return sendFile(c, b, b.files.get(`v1/briefings/${q.lang}.json`)!);
  return sendJson(c, b, { data, meta: { ...set.meta, count: data.length } });
}
