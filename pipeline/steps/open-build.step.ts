import { openBuild } from '../publish.ts';
import { step } from './values.ts';

export default step({
  name: 'open build folder',
  inputs: ['opts', 'buildId'],
  outputs: ['writer'],
  run: async ({ opts, buildId }) => ({ writer: await openBuild(opts.outDir, buildId) }),
});
