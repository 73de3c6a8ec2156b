import type { Context } from 'hono';
import { ReservesQuery, TimeSeriesQuery } from '../../contract/api.ts';
import type { LoadedBuild } from '../build.ts';
import { csvOf, timeSeriesRows } from '../csv-views.ts';
import { queryObject, sendCsv, wantsCsv } from '../http.ts';
import { parseParams } from '../params.ts';
import * as query from '../queries/reserves.ts';
import { send } from './send.ts';

/** One reserve, or without `country` every country's reserve of the commodity; JSON or CSV (one row per reserve). */
export function getReserve(c: Context, b: LoadedBuild): Response {
  const { format, ...q } = parseParams(ReservesQuery, queryObject(c));
  const answer = query.reserves(b, q);
  if (wantsCsv(c, format)) {
    const data = answer.envelope().data;
    return sendCsv(c, b, csvOf('getReserve', Array.isArray(data) ? data : [data]));
  }
  return send(c, b, answer);
}

export function getTimeseries(c: Context, b: LoadedBuild): Response {
  const { format, ...q } = parseParams(TimeSeriesQuery, queryObject(c));
  const answer = query.getTimeseries(b, q);
  if (wantsCsv(c, format)) return sendCsv(c, b, csvOf('getReserveTimeseries', timeSeriesRows(answer.envelope().data)));
  return send(c, b, answer);
}
