import { createHash } from 'node:crypto';
import { METHODOLOGY_VERSION } from '../../contract/common.ts';
import { freeBuildId } from '../publish.ts';
import { step } from './values.ts';

/** The build's id: its time and a hash of its inputs (the sources' checksums and the method's version). */
export default step({
  name: 'build id',
  inputs: ['opts', 'statuses', 'generatedAt'],
  outputs: ['buildId'],
  run: async ({ opts, statuses, generatedAt }) => {
    const inputs = createHash('sha256')
      .update(statuses.map((s) => `${s.id}:${s.sha256}`).join('\n'))
      .update(METHODOLOGY_VERSION)
      .digest('hex')
      .slice(0, 8);
    const at = generatedAt
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
    return { buildId: await freeBuildId(opts.outDir, `${at}-${inputs}`) };
  },
  detail: ({ buildId }) => buildId,
});
