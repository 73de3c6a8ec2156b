import type { CommoditySheet } from '../../contract/commodities.ts';
import { cadenceFor } from '../freshness.ts';
import { commoditySheet } from './sheets.ts';
import type { Cadences } from './stress.ts';
import { step } from './values.ts';

export default step({
  name: 'commodity stress and sheets',
  inputs: ['db', 'catalogue', 'latest', 'anomalies', 'shares', 'readings', 'content', 'today', 'stressInputs', 'cadences'],
  outputs: ['sheets'],
  run: async ({ db, catalogue, latest, anomalies, shares, readings, content, today, stressInputs, cadences }) => {
    const cadenceOf: Cadences = (source, series) => cadenceFor(cadences, source, series ?? undefined);
    const sheets: CommoditySheet[] = [];
    for (const c of catalogue)
      sheets.push(await commoditySheet(db, c, { latest, anomalies, shares, readings, content, today, inputs: stressInputs.get(c.slug)!, cadenceOf }));
    return { sheets };
  },
  detail: ({ sheets }) => `${sheets.length} sheets`,
});
