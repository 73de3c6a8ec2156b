import type { Context } from 'hono';
import { ReservesQuery, TimeSeriesQuery } from '../../contract/api.ts';
import type { LoadedBuild } from '../build.ts';
import { csvOf, timeSeriesRows } from '../csv-views.ts';
import { queryObject, sendCsv, sendJsonBytes, wantsCsv } from '../http.ts';
import { parseParams } from '../params.ts';
import * as query from '../queries/reserves.ts';
import { timeseriesWindow, windowBody } from '../queries/timeseries-window.ts';
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

/** One window of a reserve's series; JSON written from the series' bytes (api/queries/timeseries-window.ts), or CSV. */
export function getTimeseries(c: Context, b: LoadedBuild): Response {
  const { format, ...q } = parseParams(TimeSeriesQuery, queryObject(c));
  if (wantsCsv(c, format)) return sendCsv(c, b, csvOf('getReserveTimeseries', timeSeriesRows(query.getTimeseries(b, q).envelope().data)));
  const window = timeseriesWindow(b, query.timeseriesPlan(b, q));
  // An empty window carries a note in its meta: written by the general path.
  return window ? sendJsonBytes(c, b, windowBody(window), window.etag) : send(c, b, query.getTimeseries(b, q));
}
