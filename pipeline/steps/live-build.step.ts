import { previousBuild } from '../stage-cache.ts';
import { step } from './values.ts';

export default step({
  name: 'live build',
  inputs: ['paths'],
  outputs: ['live'],
  run: async ({ paths }) => ({ live: await previousBuild(paths.current) }),
  detail: ({ live: l }) => (l ? `reusing from ${l.manifest.build} where inputs match` : 'none'),
});
