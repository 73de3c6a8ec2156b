import type { Context } from 'hono';
import { BriefingsQuery, EventsQuery, ScenariosQuery } from '../../contract/api.ts';
import type { LoadedBuild } from '../build.ts';
import { queryObject, sendCsv, sendFile, toCsv, wantsCsv } from '../http.ts';
import { parseParams } from '../params.ts';
import * as query from '../queries/content.ts';
import { send } from './send.ts';
import { BUILD_FILES } from '../../contract/layout.ts';

export function listScenarios(c: Context, b: LoadedBuild): Response {
  const { format, ...q } = parseParams(ScenariosQuery, queryObject(c));
  const answer = query.listScenarios(b, q);
  if (wantsCsv(c, format)) return sendCsv(c, b, toCsv(answer.envelope().data));
  return send(c, b, answer);
}

export function listEvents(c: Context, b: LoadedBuild): Response {
  const raw = queryObject(c);
  const { format, ...q } = parseParams(EventsQuery, raw);
  const csv = wantsCsv(c, format);
  // Without any parameter the answer is the published file.
  if (Object.keys(raw).length === 0 && !csv) return sendFile(c, b, b.files.get(BUILD_FILES.recentEvents().path)!);
  const answer = query.listEvents(b, q);
  if (csv) return sendCsv(c, b, toCsv(answer.envelope().data));
  return send(c, b, answer);
}

export function listBriefings(c: Context, b: LoadedBuild): Response {
  const { format, ...q } = parseParams(BriefingsQuery, queryObject(c));
  const answer = query.listBriefings(b, q);
  if (wantsCsv(c, format)) return sendCsv(c, b, toCsv(answer.envelope().data.map(({ body: _body, ...rest }) => rest)));
  return send(c, b, answer);
}
