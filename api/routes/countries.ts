import type { Context } from 'hono';
import { CountryPath } from '../../contract/api.ts';
import type { LoadedBuild } from '../build.ts';
import { sendFile } from '../http.ts';
import { parseParams } from '../params.ts';
import { resolveCountry } from '../resolve.ts';

export function getCountry(c: Context, b: LoadedBuild): Response {
  const { iso } = parseParams(CountryPath, { iso: c.req.param('iso') });
  const country = resolveCountry(b, iso, 'iso');
  return sendFile(c, b, b.files.get(`v1/countries/${country.iso3}.json`)!);
}
