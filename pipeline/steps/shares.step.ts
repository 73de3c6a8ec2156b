import { type ShareTableData, shareTable } from './shares.ts';
import type { Shares } from './sheets.ts';
import { step } from './values.ts';

export default step({
  name: 'producers and consumers',
  inputs: ['db', 'catalogue', 'names'],
  outputs: ['shares'],
  run: async ({ db, catalogue, names }) => {
    // Publishers spell countries their own way ('US', 'Congo (Kinshasa)'); publish one canonical name.
    const named = (t: ShareTableData | null) => t && { ...t, entries: t.entries.map((e) => ({ ...e, name: names.nameOf3(e.iso3) })) };
    const shares: Shares = new Map();
    for (const c of catalogue) {
      shares.set(c.slug, {
        producers: named(c.production ? await shareTable(db, c.production, c.production.basis ?? 'production') : null),
        consumers: named(c.consumption ? await shareTable(db, c.consumption, c.consumption.basis) : null),
        inGround: named(c.reserves_in_ground ? await shareTable(db, c.reserves_in_ground, 'reserves') : null),
      });
    }
    return { shares };
  },
});
