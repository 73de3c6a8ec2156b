import { loadCadences } from '../freshness.ts';
import { step } from './values.ts';

export default step({
  name: 'cadences',
  inputs: ['opts'],
  outputs: ['cadences'],
  run: async ({ opts }) => ({ cadences: await loadCadences(opts.dataDir) }),
});
