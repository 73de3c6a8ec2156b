import type { CommodityListEntry, CommoditySheet } from '../../contract/commodities.ts';
import { METHODOLOGY_VERSION } from '../../contract/common.ts';
import { BUILD_FILES } from '../../contract/layout.ts';
import { maxDate } from './dates.ts';
import { commoditySources, sheetDataAsOf, toListEntry } from './sheets.ts';
import { step } from './values.ts';

export default step({
  name: 'commodity files',
  inputs: ['writer', 'catalogue', 'sheets', 'metaFor'],
  outputs: ['commodityFiles'],
  run: async ({ writer, catalogue, sheets, metaFor }) => {
    const sourcesOf = (s: CommoditySheet) =>
      commoditySources(
        catalogue.find((c) => c.slug === s.slug)!,
        s,
      );
    for (const s of sheets) {
      await writer.file(BUILD_FILES.commodity(s.slug), {
        data: s,
        meta: metaFor(sourcesOf(s), s.updated_at, { methodology_version: METHODOLOGY_VERSION }, sheetDataAsOf(s)),
      });
    }
    const list: CommodityListEntry[] = sheets.map(toListEntry).sort((a, b) => a.slug.localeCompare(b.slug));
    const asOf = maxDate(sheets.flatMap((s) => [s.price?.as_of, ...s.stress.components.filter((k) => k.key !== 'events').map((k) => k.as_of)]));
    await writer.file(BUILD_FILES.commodityList(), {
      data: list,
      meta: metaFor(sheets.flatMap(sourcesOf), asOf, { count: list.length, methodology_version: METHODOLOGY_VERSION }),
    });
    return { commodityFiles: sheets.length + 1 };
  },
});
