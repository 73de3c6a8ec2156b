import { loadCatalogue } from '../catalogue.ts';
import { step } from './values.ts';

export default step({
  name: 'catalogue',
  inputs: ['opts'],
  outputs: ['catalogue'],
  run: async ({ opts }) => ({ catalogue: await loadCatalogue(opts.dataDir) }),
  detail: ({ catalogue }) => `${catalogue.length} commodities`,
});
