import { readFile } from 'node:fs/promises';
import { BUILD_PATHS } from '../../contract/layout.ts';
import { publishDiscovery } from '../discovery/stage.ts';
import { repoPath } from '../repo-path.ts';
import { step } from './values.ts';
import { countWritten } from './written.ts';

/** docs/<page>.md published at /docs/<page> (the changelog from CHANGELOG.md). */
export const DOC_PAGES = ['api', 'methodology', 'freshness', 'security', 'content', 'bulk', 'changelog'] as const;
const docSource = (page: (typeof DOC_PAGES)[number]) => (page === 'changelog' ? repoPath('CHANGELOG.md') : repoPath('docs', `${page}.md`));

export default step({
  name: 'contract and discovery files',
  inputs: ['writer', 'opts', 'version', 'generatedAt', 'briefings', 'content'],
  outputs: ['discoveryFiles'],
  run: async ({ writer, opts, version, generatedAt, briefings, content }) => ({
    discoveryFiles: await countWritten(writer, async () => {
      await publishDiscovery(writer, {
        baseUrl: opts.baseUrl,
        version,
        now: generatedAt,
        briefings,
        events: content.events,
        ...(opts.rateLimits ? { rateLimits: opts.rateLimits } : {}),
        rebuildEveryMs: opts.rebuildEveryMs,
        ...(opts.securityContact ? { securityContact: opts.securityContact } : {}),
      });
      // The human guides the discovery files link to, as Markdown (the site renders them as pages).
      for (const page of DOC_PAGES) await writer.raw(`${BUILD_PATHS.docs}${page}`, await readFile(docSource(page)), 'text/markdown; charset=utf-8');
    }),
  }),
});
