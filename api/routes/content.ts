import type { Context } from 'hono';
import { BriefingsQuery, EventsQuery, ScenariosQuery } from '../../contract/api.ts';
import type { LoadedBuild } from '../build.ts';
import { csvOf } from '../csv-views.ts';
import { queryObject, sendCsv, wantsCsv } from '../http.ts';
import { parseParams } from '../params.ts';
import * as query from '../queries/content.ts';
import { send } from './send.ts';

export function listScenarios(c: Context, b: LoadedBuild): Response {
  const { format, ...q } = parseParams(ScenariosQuery, queryObject(c));
  const answer = query.listScenarios(b, q);
  if (wantsCsv(c, format)) return sendCsv(c, b, csvOf('listScenarios', answer.envelope().data));
  return send(c, b, answer);
}

/** Events: the default query is answered with the published file (the query function decides). */
export function listEvents(c: Context, b: LoadedBuild): Response {
  const { format, ...q } = parseParams(EventsQuery, queryObject(c));
  const answer = query.listEvents(b, q);
  if (wantsCsv(c, format)) return sendCsv(c, b, csvOf('listEvents', answer.envelope().data));
  return send(c, b, answer);
}

export function listBriefings(c: Context, b: LoadedBuild): Response {
  const { format, ...q } = parseParams(BriefingsQuery, queryObject(c));
  const answer = query.listBriefings(b, q);
  if (wantsCsv(c, format)) return sendCsv(c, b, csvOf('listBriefings', answer.envelope().data));
  return send(c, b, answer);
}
