import { countryNames } from '../names.ts';
import { step } from './values.ts';

export default step({
  name: 'country names',
  // The names come from the country-codes source's table, loaded by the sources step.
  inputs: ['db', 'statuses'],
  outputs: ['names'],
  run: async ({ db }) => ({ names: await countryNames(db) }),
});
