import { LICENSE, METHODOLOGY_VERSION } from '../../contract/common.ts';
import { sitePage } from '../../contract/site.ts';
import { EDITORIAL_SOURCE } from '../../contract/sources.ts';
import { bulkStage } from '../bulk/stage.ts';
import { step } from './values.ts';

export default step({
  name: 'bulk package',
  inputs: ['db', 'writer', 'opts', 'catalogue', 'sheets', 'profiles', 'readings', 'content', 'statuses', 'buildId', 'generatedAt', 'version', 'priceTables'],
  outputs: ['bulk'],
  run: async ({ db, writer, opts, catalogue, sheets, profiles, readings, content, statuses, buildId, generatedAt, version }) => ({
    bulk: await bulkStage(
      db,
      writer,
      opts.outDir,
      {
        db,
        catalogue,
        sheets,
        profiles,
        readings,
        events: content.events,
        scenarios: content.scenarios,
        open: (id) => statuses.find((s) => s.id === id)?.redistribution === 'open' || id === EDITORIAL_SOURCE,
      },
      {
        build: buildId,
        generatedAt: generatedAt.toISOString(),
        baseUrl: opts.baseUrl,
        methodologyVersion: METHODOLOGY_VERSION,
        version,
        sources: [
          ...statuses.map((s) => ({
            id: s.id,
            title: `${s.publisher}, ${s.dataset}`,
            url: s.url,
            license: s.license,
            sha256: s.sha256,
            data_as_of: s.data_as_of,
          })),
          {
            id: EDITORIAL_SOURCE,
            title: 'Chokepoint, editorial content: events, scenarios, briefings',
            url: `${opts.baseUrl}${sitePage('en', '/docs/content/')}`,
            license: LICENSE,
            sha256: null,
            data_as_of: null,
          },
        ],
      },
    ),
  }),
  detail: ({ bulk: b }) =>
    `${b.files} files, ${Math.round(b.bytes / 1024)} KB, ${b.revisions} revisions, ${b.vintage ? 'a new vintage' : 'figures unchanged: no vintage'}`,
});
