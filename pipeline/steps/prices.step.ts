import { buildPriceTables } from './prices.ts';
import { step } from './values.ts';

export default step({
  name: 'prices',
  inputs: ['db', 'catalogue'],
  outputs: ['priceTables'],
  run: async ({ db, catalogue }) => ({ priceTables: await buildPriceTables(db, catalogue) }),
});
