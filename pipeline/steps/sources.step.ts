import type { SourceStatus } from '../../contract/manifest.ts';
import { timed } from '../effects.ts';
import { fetchSources } from '../fetch/sources.ts';
import { hasSnapshot, ingestSource } from '../ingest.ts';
import { SOURCES } from '../sources/registry.ts';
import { type Omission, step } from './values.ts';

/** Every source loaded into the database (its tables), each with its status; an unusable one is left out. */
export default step({
  name: 'sources',
  inputs: ['db', 'opts', 'fx', 'paths', 'cadences', 'plan'],
  outputs: ['statuses', 'sourcesOmitted'],
  run: async ({ db, opts, fx, paths, cadences, plan }) => {
    const statuses: SourceStatus[] = [];
    const omitted: Omission[] = [];
    const adapters = opts.sources ?? SOURCES;
    // Live: every due source fetched at once, each isolated; then loaded one by one into the one database.
    const fetched = opts.download
      ? await timed(
          fx.log,
          'fetch from the publishers',
          () =>
            fetchSources(
              adapters,
              { snapshotsDir: paths.snapshots, keys: opts.sourceKeys ?? {}, live: opts.live ?? {}, hasSnapshot: (a) => hasSnapshot(paths.snapshots, a) },
              fx,
            ),
          (m) => [...m.values()].map((f) => f.kind).join(', '),
        )
      : null;
    for (const adapter of adapters) {
      const status = await timed(
        fx.log,
        `source ${adapter.id}`,
        () => ingestSource(db, adapter, { sourcesDir: opts.sourcesDir, snapshotsDir: paths.snapshots, fetched: fetched?.get(adapter.id), cadences, plan }, fx),
        (s) => `${s.status}${s.data_as_of ? `, data to ${s.data_as_of}` : ''}, ${s.freshness}`,
      );
      if (status.status === 'unavailable') omitted.push({ output: `outputs from ${status.id}`, reason: status.stale_reason ?? 'unavailable' });
      statuses.push(status);
    }
    return { statuses, sourcesOmitted: omitted };
  },
  detail: ({ statuses: s }) => `${s.length} sources, ${s.filter((x) => x.status === 'fresh' || x.status === 'unchanged').length} loaded`,
});
