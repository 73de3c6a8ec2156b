import type { z } from 'zod';
import { CountryComparison } from '../../../contract/tools.ts';
import { getCountry } from '../../queries/countries.ts';
import { ApiError } from '../../problem.ts';
import { defineTool, mergedSources, pct, share, table } from './common.ts';

const FIELDS = Object.keys(CountryComparison.shape) as (keyof z.infer<typeof CountryComparison>)[];
const code = (slug: string) => slug.slice(slug.indexOf('.') + 1);

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
  const line = (c: (typeof countries)[number]) => {
    const dep = c.exposures.filter((e) => e.import_dependence !== null).sort((x, y) => (y.import_dependence ?? 0) - (x.import_dependence ?? 0))[0];
    return `${c.name} (${c.iso3}): stress ${c.stress_index ?? 'n/a'}${c.stress_band ? ` (${c.stress_band})` : ''}${dep ? `, most import-dependent for ${dep.commodity} (${pct((dep.import_dependence ?? 0) * 100, 0)})` : ''}`;
  };
  // One row per country and commodity: the comparable exposure figures side by side.
  const exposureRows = countries.flatMap((c) =>
    c.exposures.map((e) => {
      const top = e.suppliers.filter((s) => s.iso3 !== null)[0] ?? e.suppliers[0];
      const autonomy = c.autonomy.find((a) => a.commodity === e.commodity);
      const hhi = c.supplier_concentration.find((h) => h.commodity === e.commodity)?.hhi ?? e.supplier_hhi;
      return [
        c.iso3,
        code(e.commodity),
        share(e.import_dependence),
        share(e.energy_share),
        autonomy ? share(autonomy.ratio) : null,
        hhi,
        top ? `${top.name} ${share(top.share)}` : null,
      ];
    }),
  );
  return {
    structured: {
      countries,
      as_of: asOf,
      license: meta.license,
      attribution: meta.attribution,
      sources: mergedSources(unique.map((a) => a.meta)),
      ...(notes.length ? { notes } : {}),
    },
    summary: `${countries.map(line).join('; ')}.`,
    figures: [
      table(
        ['country', 'name', 'stress_index', 'stress_band', 'reserves'],
        countries.map((c) => [
          c.iso3,
          c.name,
          c.stress_index,
          c.stress_band,
          c.reserves.map((r) => `${r.commodity} ${r.fill_pct !== null ? pct(r.fill_pct) : ''} on ${r.as_of}`.replace('  ', ' ')).join('; ') || 'none',
        ]),
      ),
      table(['country', 'commodity', 'import_dependence', 'energy_share', 'autonomy', 'supplier_hhi', 'main supplier'], exposureRows),
    ].join('\n\n'),
  };
});
