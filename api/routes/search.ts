import type { Context } from 'hono';
import { SearchRouteQuery } from '../../contract/api.ts';
import type { LoadedBuild } from '../build.ts';
import { queryObject, sendJson } from '../http.ts';
import { parseParams } from '../params.ts';
import { searchDocuments } from '../queries/search.ts';

export async function search(c: Context, b: LoadedBuild): Promise<Response> {
  const { format: _format, ...q } = parseParams(SearchRouteQuery, queryObject(c));
  const hits = await searchDocuments(b, q);
  return sendJson(c, b, { data: hits, meta: { ...b.scenariosMeta, as_of: null, count: hits.length } });
}
