import type { Context } from 'hono';
import { CommodityPath, ListCommoditiesQuery } from '../../contract/api.ts';
import type { LoadedBuild } from '../build.ts';
import { queryObject, sendCsv, toCsv, wantsCsv } from '../http.ts';
import { parseParams } from '../params.ts';
import * as query from '../queries/commodities.ts';
import { send } from './send.ts';

export function listCommodities(c: Context, b: LoadedBuild): Response {
  const { format, ...q } = parseParams(ListCommoditiesQuery, queryObject(c));
  const answer = query.listCommodities(b, q);
  if (wantsCsv(c, format)) return sendCsv(c, b, toCsv(answer.envelope().data));
  return send(c, b, answer);
}

export function getCommodity(c: Context, b: LoadedBuild): Response {
  return send(c, b, query.getCommodity(b, parseParams(CommodityPath, { slug: c.req.param('slug') })));
}
