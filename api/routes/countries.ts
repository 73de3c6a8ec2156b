import type { Context } from 'hono';
import { CountryPath, CountryQuery } from '../../contract/api.ts';
import type { LoadedBuild } from '../build.ts';
import { queryObject } from '../http.ts';
import { parseParams } from '../params.ts';
import * as query from '../queries/countries.ts';
import { send } from './send.ts';

/** The profile, JSON only: `format=json` is accepted, any other parameter refused. */
export function getCountry(c: Context, b: LoadedBuild): Response {
  parseParams(CountryQuery, queryObject(c));
  return send(c, b, query.getCountry(b, parseParams(CountryPath, { iso: c.req.param('iso') })));
}
