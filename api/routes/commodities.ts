import type { Context } from 'hono';
import { CommodityPath, CommoditySheetQuery, ListCommoditiesQuery } from '../../contract/api.ts';
import type { LoadedBuild } from '../build.ts';
import { csvOf, priceHistoryRows } from '../csv-views.ts';
import { queryObject, sendCsv, wantsCsv } from '../http.ts';
import { parseParams } from '../params.ts';
import * as query from '../queries/commodities.ts';
import { send } from './send.ts';

export function listCommodities(c: Context, b: LoadedBuild): Response {
  const { format, ...q } = parseParams(ListCommoditiesQuery, queryObject(c));
  const answer = query.listCommodities(b, q);
  if (wantsCsv(c, format)) return sendCsv(c, b, csvOf('listCommodities', answer.envelope().data));
  return send(c, b, answer);
}

/** The sheet as JSON; as CSV, its price history. */
export function getCommodity(c: Context, b: LoadedBuild): Response {
  const { format } = parseParams(CommoditySheetQuery, queryObject(c));
  const answer = query.getCommodity(b, parseParams(CommodityPath, { slug: c.req.param('slug') }));
  if (wantsCsv(c, format)) return sendCsv(c, b, csvOf('getCommodity', priceHistoryRows(answer.envelope().data)));
  return send(c, b, answer);
}
