import { BUILD_PATHS } from '../../contract/layout.ts';
import { codeHash } from '../code-hash.ts';
import { cachedStage, keyOf } from '../stage-cache.ts';
import { type Omission, type SiteOutcome, step } from './values.ts';

/** Files besides the JSON payloads that site pages read (site/src/lib/data.ts, docs.ts, the CSV routes). */
const SITE_READS = [BUILD_PATHS.docs, BUILD_PATHS.commodityStressCsv, BUILD_PATHS.countryStressCsv, BUILD_PATHS.openapi, BUILD_PATHS.serverCard];

const none = { reused: false as const, result: null, distrusted: null };

const siteSummary = (r: unknown) => {
  const s = r as { pages: number; files: number; bytes: number };
  return `${s.pages} pages, ${s.files} files, ${Math.round(s.bytes / 1024)} KB`;
};

/**
 * The website, made by Astro from the payloads the steps above wrote: reused from the live build
 * when its inputs and its code are unchanged. A site that cannot be made without outputs this
 * build left out is left out too.
 */
export default step({
  name: 'site',
  // The site reads every payload the steps above wrote: it comes last.
  inputs: [
    'writer',
    'stages',
    'live',
    'opts',
    'fx',
    'today',
    'statuses',
    'sourcesOmitted',
    'reservesOmitted',
    'contentOmitted',
    'commodityFiles',
    'stressFiles',
    'reserveFiles',
    'countryFiles',
    'contentFiles',
    'discoveryFiles',
  ],
  outputs: ['site', 'siteOmitted'],
  run: async ({ writer, stages, live, opts, fx, today, statuses, sourcesOmitted, reservesOmitted, contentOmitted }) => {
    // Switched off (CHOKEPOINT_SITE=off): no pages and no key, so no later build reuses an empty site.
    if (opts.site?.skip) return { site: none, siteOmitted: [] };
    const omitted = [...sourcesOmitted, ...reservesOmitted, ...contentOmitted];
    const key = keyOf(
      // Astro builds site/src: code the stage runs without importing it.
      await codeHash(import.meta.filename, ['site/src']),
      opts.baseUrl,
      // The footer says how often the pages are rebuilt.
      String(opts.rebuildEveryMs),
      // The pages say how old each series is and count days to a deadline from today.
      today,
      Object.entries(writer.payloadHashes).sort(),
      // The other files the pages read, by checksum.
      Object.entries(writer.files)
        .filter(([p]) => SITE_READS.some((r) => p.startsWith(r)))
        .map(([p, f]) => [p, f.sha256])
        .sort(),
      // fresh and unchanged read the same on the site: both mean the files loaded.
      statuses.map((s) => [s.id, s.status === 'fresh' ? 'unchanged' : s.status, s.retrieved_at, s.data_as_of, s.stale_reason, s.freshness, s.expected_next]),
      omitted,
    );
    try {
      const site: SiteOutcome = await cachedStage({
        writer,
        stages,
        previous: live,
        name: 'site',
        prefix: 'site/',
        key,
        run: async () =>
          (await import('../site-stage.ts')).publishSite(writer, {
            buildDir: writer.dir,
            today,
            baseUrl: opts.baseUrl,
            rebuildEveryMs: opts.rebuildEveryMs,
            sources: statuses,
            omitted,
            logLevel: opts.site?.logLevel,
          }),
      });
      return { site, siteOmitted: [] };
    } catch (err) {
      // A site that cannot be made without outputs this build left out is left out too (the
      // API still publishes); one that fails with every output present is a bug, and fails the build.
      if (omitted.length === 0) throw err;
      const why = (err instanceof Error ? err.message : String(err)).replaceAll(`${writer.dir}/`, '');
      fx.log.warn(`site left out: ${why}`);
      const siteOmitted: Omission[] = [{ output: 'site/', reason: `the site could not be generated without the outputs left out above: ${why}` }];
      return { site: none, siteOmitted };
    }
  },
  detail: ({ site: r }) =>
    r.reused
      ? `unchanged, ${r.files} files reused`
      : r.result
        ? `${siteSummary(r.result)}${r.distrusted ? ` (not reused: ${r.distrusted})` : ''}`
        : 'left out or switched off',
});
