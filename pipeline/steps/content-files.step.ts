import { publishContent } from '../content-stage.ts';
import { step } from './values.ts';
import { countWritten } from './written.ts';

export default step({
  name: 'editorial outputs',
  inputs: ['writer', 'content', 'briefings', 'metaFor'],
  outputs: ['contentFiles'],
  run: async ({ writer, content, briefings, metaFor }) => ({
    contentFiles: await countWritten(writer, () => publishContent(writer, { ...content, briefings }, metaFor)),
  }),
});
