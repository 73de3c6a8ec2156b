import type { Context } from 'hono';
import { ListCommoditiesQuery, CommodityPath } from '../../contract/api.ts';
import type { LoadedBuild } from '../build.ts';
import { queryObject, sendCsv, sendFile, sendJson, toCsv, wantsCsv } from '../http.ts';
import { parseParams } from '../params.ts';
import { resolveCommodity } from '../resolve.ts';

export async function listCommodities(c: Context, b: LoadedBuild): Promise<Response> {
  const q = parseParams(ListCommoditiesQuery, queryObject(c));
  const data = q.group ? b.commodities.filter((x) => x.group === q.group) : b.commodities;
  if (wantsCsv(c, q.format)) return sendCsv(c, b, toCsv(data));
  if (!q.group) return sendFile(c, b, b.files.get('v1/commodities.json')!);
  return sendJson(c, b, { data, meta: { ...b.commodityMeta, count: data.length } });
}

export function getCommodity(c: Context, b: LoadedBuild): Response {
  const { slug } = parseParams(CommodityPath, { slug: c.req.param('slug') });
  const canonical = resolveCommodity(b, slug, 'slug');
  return sendFile(c, b, b.files.get(`v1/commodities/${canonical}.json`)!);
}
