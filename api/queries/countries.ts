import type { z } from 'zod';
import type { CountryPath } from '../../contract/api.ts';
import type { CountryProfile } from '../../contract/countries.ts';
import type { LoadedBuild } from '../build.ts';
import { resolveCountry } from '../resolve.ts';
import { type Answer, fromFile } from './answer.ts';
import { BUILD_FILES } from '../../contract/layout.ts';

/** The profile of one country, by alpha-3 or alpha-2 code, any case; 404 with the nearest codes. */
export function getCountry(b: LoadedBuild, q: z.output<typeof CountryPath>, param = 'iso'): Answer<CountryProfile> {
  const country = resolveCountry(b, q.iso, param);
  return fromFile(b.files.get(BUILD_FILES.country(country.iso3).path)!);
}
