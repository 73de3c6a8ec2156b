import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CommodityListEntry } from '../../contract/commodities.ts';
import { BUILD_FILES } from '../../contract/layout.ts';
import { weeklyDigest } from './digest.ts';
import { step } from './values.ts';

export default step({
  name: 'weekly digest',
  inputs: ['db', 'paths', 'today', 'sheets', 'content', 'priceTables'],
  outputs: ['briefings'],
  run: async ({ db, paths, today, sheets, content }) => {
    // Stress movers are named against the live build.
    const previous = await readFile(join(paths.current, BUILD_FILES.commodityList().path), 'utf8').then(
      (t) => new Map((JSON.parse(t) as { data: CommodityListEntry[] }).data.map((c) => [c.slug, c.stress_index])),
      () => new Map<string, number | null>(),
    );
    const digest = await weeklyDigest(db, { today, sheets, events: content.events, previousStress: previous });
    return { briefings: [...digest, ...content.briefings.filter((b) => !digest.some((d) => d.id === b.id))] };
  },
  detail: ({ briefings }) => `${briefings.length} briefings`,
});
