import { metaFactory } from '../meta.ts';
import { step } from './values.ts';

export default step({
  name: 'meta',
  inputs: ['buildId', 'generatedAt', 'opts', 'statuses', 'cadences'],
  outputs: ['metaFor'],
  run: ({ buildId, generatedAt, opts, statuses, cadences }) => ({
    metaFor: metaFactory({ build: buildId, generatedAt: generatedAt.toISOString(), baseUrl: opts.baseUrl, statuses, cadences }),
  }),
});
