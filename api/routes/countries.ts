import type { Context } from 'hono';
import { CountryPath } from '../../contract/api.ts';
import type { LoadedBuild } from '../build.ts';
import { parseParams } from '../params.ts';
import * as query from '../queries/countries.ts';
import { send } from './send.ts';

export function getCountry(c: Context, b: LoadedBuild): Response {
  return send(c, b, query.getCountry(b, parseParams(CountryPath, { iso: c.req.param('iso') })));
}
