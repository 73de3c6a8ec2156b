import { latestPrices } from './prices.ts';
import { step } from './values.ts';

export default step({
  name: 'latest prices',
  inputs: ['db', 'priceTables'],
  outputs: ['latest'],
  run: async ({ db }) => ({ latest: await latestPrices(db) }),
});
