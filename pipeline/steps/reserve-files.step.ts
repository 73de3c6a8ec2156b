import { BUILD_FILES } from '../../contract/layout.ts';
import type { CitedSource } from '../../contract/sources.ts';
import { maxDate } from './dates.ts';
import { step } from './values.ts';

export default step({
  name: 'reserve files',
  inputs: ['writer', 'readings', 'metaFor'],
  outputs: ['reserveFiles'],
  run: async ({ writer, readings, metaFor }) => {
    const index = [];
    for (const [key, r] of readings) {
      const sources: CitedSource[] = r.reserve.commodity === 'gas' ? ['gie-agsi-gas-storage', 'ei-statistical-review-2026'] : ['eia-weekly-petroleum'];
      const meta = metaFor(sources, r.reserve.as_of, {}, { [sources[0]!]: r.reserve.as_of });
      await writer.file(BUILD_FILES.reserve(key), { data: r.reserve, meta });
      await writer.file(BUILD_FILES.reserveSeries(key), { data: r.series, meta });
      index.push({
        commodity: r.reserve.commodity,
        country: r.reserve.country,
        name: r.reserve.name,
        as_of: r.reserve.as_of,
        url: `/v1/reserves?commodity=${r.reserve.commodity}&country=${r.reserve.country}`,
      });
    }
    await writer.file(BUILD_FILES.reserveIndex(), {
      data: index,
      meta: metaFor(['gie-agsi-gas-storage', 'eia-weekly-petroleum'], maxDate(index.map((r) => r.as_of)), { count: index.length }),
    });
    return { reserveFiles: 2 * index.length + 1 };
  },
});
