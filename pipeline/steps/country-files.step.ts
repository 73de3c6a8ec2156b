import { METHODOLOGY_VERSION } from '../../contract/common.ts';
import { CSV_TYPE } from '../../contract/http.ts';
import { BUILD_FILES, BUILD_PATHS } from '../../contract/layout.ts';
import type { CitedSource } from '../../contract/sources.ts';
import { stressHistoryCsv as historyCsv } from '../../lib/csv.ts';
import { maxDate } from './dates.ts';
import { step } from './values.ts';

export default step({
  name: 'country files',
  inputs: ['writer', 'profiles', 'metaFor'],
  outputs: ['countryFiles'],
  run: async ({ writer, profiles, metaFor }) => {
    for (const p of profiles) {
      // Energy balances from the current EI edition (2026), import suppliers from the 2024 edition's trade matrices (2023).
      const sources: CitedSource[] = [
        'ei-statistical-review-2026',
        'ei-statistical-review-2024',
        'usgs-mcs-2026',
        'eurostat-gas-imports-by-partner',
        'country-codes',
        ...(p.reserves.length ? (['gie-agsi-gas-storage'] as const) : []),
      ];
      await writer.file(BUILD_FILES.country(p.iso3), {
        data: p,
        meta: metaFor(sources, p.updated_at, { methodology_version: METHODOLOGY_VERSION }, { 'gie-agsi-gas-storage': maxDate(p.reserves.map((r) => r.as_of)) }),
      });
    }
    await writer.raw(BUILD_PATHS.countryStressCsv, historyCsv(profiles.map((p) => [p.iso3, p.stress_history])), CSV_TYPE);
    await writer.file(BUILD_FILES.countryIndex(), {
      data: profiles.map((p) => ({ iso3: p.iso3, iso2: p.iso2, name: p.name, stress_index: p.stress_index, stress_band: p.stress_band, url: p.url })),
      meta: metaFor(['country-codes', 'ei-statistical-review-2026', 'ei-statistical-review-2024'], maxDate(profiles.map((p) => p.updated_at)), {
        count: profiles.length,
      }),
    });
    return { countryFiles: profiles.length + 2 };
  },
});
