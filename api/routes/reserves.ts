import type { Context } from 'hono';
import { ReserveQuery, TimeSeriesQuery } from '../../contract/api.ts';
import type { LoadedBuild } from '../build.ts';
import { queryObject, sendCsv, toCsv, wantsCsv } from '../http.ts';
import { parseParams } from '../params.ts';
import * as query from '../queries/reserves.ts';
import { send } from './send.ts';

export function getReserve(c: Context, b: LoadedBuild): Response {
  return send(c, b, query.getReserve(b, parseParams(ReserveQuery, queryObject(c))));
}

export function getTimeseries(c: Context, b: LoadedBuild): Response {
  const { format, ...q } = parseParams(TimeSeriesQuery, queryObject(c));
  const answer = query.getTimeseries(b, q);
  if (wantsCsv(c, format)) {
    const { commodity, country, metric, unit, points } = answer.envelope().data;
    return sendCsv(c, b, toCsv(points.map((p) => ({ commodity, country, metric, unit, ...p }))));
  }
  return send(c, b, answer);
}
