import { gasStorageReading, type ReserveReading, usOilReading } from './reserves.ts';
import { type Omission, step } from './values.ts';

/** A reading per country with gas storage and for US oil; one with no rows is left out. */
export default step({
  name: 'reserves',
  inputs: ['db', 'catalogue', 'names'],
  outputs: ['readings', 'reservesOmitted'],
  run: async ({ db, catalogue, names }) => {
    const readings = new Map<string, ReserveReading>();
    const omitted: Omission[] = [];
    for (const country of catalogue.find((c) => c.code === 'gas')?.reserves ?? []) {
      const r = await gasStorageReading(db, country, names.nameOf2(country));
      if (r) readings.set(`gas/${country}`, r);
      else omitted.push({ output: `v1/reserves/gas/${country}.json`, reason: 'no gas storage rows for this country' });
    }
    const oil = await usOilReading(db);
    if (oil) readings.set('oil/us', oil);
    else omitted.push({ output: 'v1/reserves/oil/us.json', reason: 'no US SPR rows' });
    return { readings, reservesOmitted: omitted };
  },
  detail: ({ readings }) => `${readings.size} reserves`,
});
