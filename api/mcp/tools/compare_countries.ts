import { pct } from '../../../lib/format.ts';
import type { z } from 'zod';
import { CountryComparison } from '../../../contract/tools.ts';
import { getCountry } from '../../queries/countries.ts';
import { ApiError } from '../../problem.ts';
import { defineTool, mergedSources } from './common.ts';
import { BAND_WORDS } from '../../../lib/i18n/terms.ts';

const FIELDS = Object.keys(CountryComparison.shape) as (keyof z.infer<typeof CountryComparison>)[];

export default defineTool('compare_countries', (b, args) => {
  const answers = args.countries.map((iso) => getCountry(b, { iso }, 'countries').envelope());
  const seen = new Set<string>();
  const unique = answers.filter((a) => !seen.has(a.data.iso3) && seen.add(a.data.iso3));
  if (unique.length < 2)
    throw new ApiError(400, `give at least 2 different countries (got ${[...seen].join(', ')})`, {
      errors: [{ param: 'countries', message: 'fewer than 2 different countries' }],
    });
  const countries = unique.map(({ data }) => Object.fromEntries(FIELDS.map((k) => [k, data[k]])) as z.infer<typeof CountryComparison>);
  const asOf =
    unique
      .map((a) => a.meta.as_of)
      .filter((d): d is string => d !== null)
      .sort()
      .at(-1) ?? null;
  const notes = [...new Set(unique.flatMap((a) => a.meta.notes ?? []))];
  if (unique.length < answers.length) notes.push('countries given more than once are compared once');
  const meta = unique[0]!.meta;
  const reserves = (c: (typeof countries)[number]) =>
    c.reserves.map((r) => `${r.commodity} ${r.fill_pct !== null ? `${pct(r.fill_pct)} ` : ''}on ${r.as_of}`).join(', ') || 'none published';
  const line = (c: (typeof countries)[number]) => {
    const dep = c.exposures.filter((e) => e.import_dependence !== null).sort((x, y) => (y.import_dependence ?? 0) - (x.import_dependence ?? 0))[0];
    return `${c.name} (${c.iso3}): stress ${c.stress_index ?? 'n/a'}${c.stress_band ? ` (${BAND_WORDS.en[c.stress_band]})` : ''}${dep ? `, most import-dependent for ${dep.commodity} (${pct((dep.import_dependence ?? 0) * 100, 0)})` : ''}`;
  };
  return {
    structured: {
      countries,
      as_of: asOf,
      license: meta.license,
      attribution: meta.attribution,
      sources: mergedSources(unique.map((a) => a.meta)),
      ...(notes.length ? { notes } : {}),
    },
    summary: `${countries.length} countries; stress index: the share of primary energy supply at risk, in % (band in brackets).`,
    figures: countries.map((c) => `- ${line(c)}; reserves: ${reserves(c)}`).join('\n'),
  };
});
