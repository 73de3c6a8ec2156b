import { priceAnomalies } from './prices.ts';
import { step } from './values.ts';

export default step({
  name: 'price anomalies',
  inputs: ['db', 'priceTables'],
  outputs: ['anomalies'],
  run: async ({ db }) => ({ anomalies: await priceAnomalies(db) }),
});
