import { readFile } from 'node:fs/promises';
import { METHODOLOGY_VERSION } from '../contract/common.ts';
import type { SourceStatus } from '../contract/manifest.ts';
import { clearFailedBuilds, recordFailedBuild } from './build-failures.ts';
import { publishVintage } from './bulk/vintages.ts';
import { type AnyStep, runSteps } from './dag.ts';
import { Db } from './db.ts';
import { type Effects, timed } from './effects.ts';
import { LOCK_FILE, acquireBuildLock } from './lock.ts';
import { buildPaths, clearLeftovers, discardBuild, publishBuild } from './publish.ts';
import { repoPath } from './repo-path.ts';
import { SnapshotPlan, recoverSnapshots } from './snapshots.ts';
import backtest from './steps/backtest.step.ts';
import buildId from './steps/build-id.step.ts';
import bulk from './steps/bulk.step.ts';
import cadences from './steps/cadences.step.ts';
import catalogue from './steps/catalogue.step.ts';
import commodityFiles from './steps/commodity-files.step.ts';
import contentFiles from './steps/content-files.step.ts';
import content from './steps/content.step.ts';
import countryFiles from './steps/country-files.step.ts';
import countryNames from './steps/country-names.step.ts';
import digest from './steps/digest.step.ts';
import discovery from './steps/discovery.step.ts';
import latestPrices from './steps/latest-prices.step.ts';
import liveBuild from './steps/live-build.step.ts';
import meta from './steps/meta.step.ts';
import openBuild from './steps/open-build.step.ts';
import priceAnomalies from './steps/price-anomalies.step.ts';
import prices from './steps/prices.step.ts';
import profiles from './steps/profiles.step.ts';
import reserveFiles from './steps/reserve-files.step.ts';
import reserves from './steps/reserves.step.ts';
import search from './steps/search.step.ts';
import shares from './steps/shares.step.ts';
import sheets from './steps/sheets.step.ts';
import site from './steps/site.step.ts';
import sources from './steps/sources.step.ts';
import stressFiles from './steps/stress-files.step.ts';
import stressInputs from './steps/stress-inputs.step.ts';
import { type BuildOptions, type BuildValues, type GIVEN, type Omission, isOmissions } from './steps/values.ts';

export type { BuildOptions } from './steps/values.ts';

export interface BuildResult {
  build: string;
  dir: string;
  files: number;
  sources: SourceStatus[];
  durationMs: number;
}

/**
 * The build, step by step (each declared in pipeline/steps/<name>.step.ts), in an order the graph
 * allows (checked when it runs).
 *
 * Two steps are cached: the search index and the site, the slow ones. Each keys on its inputs and
 * on its module's import closure (pipeline/code-hash.ts), and when the key equals the live build's,
 * hard-links the live build's files instead of running. No other step is cached, because none
 * can be skipped without changing what the build makes: the steps up to the bulk package read or
 * write the DuckDB database, whose tables are not among their inputs by content (a key of the
 * sources' checksums would miss a change in an adapter or in the SQL of a step before); the steps
 * that write files must write them into each new build folder; the rest read the file system
 * (catalogue, cadences, build id, live build, the digest's previous list) or return a function
 * (meta). Together they take about 14 s of a 23 s build with the site off, 5 s of it loading the
 * sources.
 */
export const BUILD_STEPS: readonly AnyStep<BuildValues>[] = [
  catalogue,
  cadences,
  sources,
  buildId,
  openBuild,
  meta,
  prices,
  latestPrices,
  priceAnomalies,
  countryNames,
  shares,
  reserves,
  content,
  stressInputs,
  sheets,
  commodityFiles,
  backtest,
  stressFiles,
  digest,
  reserveFiles,
  profiles,
  countryFiles,
  contentFiles,
  bulk,
  liveBuild,
  search,
  discovery,
  site,
];

/** What the build left out, as the steps that left something out returned it, in build order (manifest `omitted`). */
export const omissionsOf = (v: BuildValues): Omission[] => BUILD_STEPS.flatMap((s) => s.outputs.filter(isOmissions).flatMap((k) => v[k]));

/** One full build: ingest every source, compute the indicators, write and validate every output, publish. */
export async function runBuild(opts: BuildOptions, fx: Effects): Promise<BuildResult> {
  // One build at a time per outDir: everything below, the snapshots included, assumes it.
  const lock = await acquireBuildLock(opts.outDir, opts.lockWaitMs ?? 0);
  try {
    fx.log.info(`building into ${opts.outDir} as pid ${process.pid} (holding ${LOCK_FILE})`);
    if (lock.tookOverFrom)
      fx.log.warn(`took over the lock of build pid ${lock.tookOverFrom.pid} (since ${lock.tookOverFrom.since}), which is no longer running`);
    const left = [...(await clearLeftovers(opts.outDir)), ...(await recoverSnapshots(buildPaths(opts.outDir).snapshots))];
    if (left.length) fx.log.warn(`removed what an interrupted build left: ${left.join(', ')}`);
    const result = await buildLocked(opts, fx).catch(async (err: unknown) => {
      // Recorded after buildLocked has discarded its folder: on a full disk that freed the room.
      await recordFailedBuild(opts.outDir, err, fx);
      throw err;
    });
    await clearFailedBuilds(opts.outDir);
    return result;
  } finally {
    await lock.release();
  }
}

async function buildLocked(opts: BuildOptions, fx: Effects): Promise<BuildResult> {
  const started = performance.now();
  const generatedAt = fx.now();
  const { version } = JSON.parse(await readFile(repoPath('package.json'), 'utf8')) as { version: string };
  const values: Partial<BuildValues> = {
    opts,
    fx,
    db: await Db.open(),
    generatedAt,
    today: generatedAt.toISOString().slice(0, 10),
    paths: buildPaths(opts.outDir),
    // Snapshot changes wait for the publish: a load this build then rejects keeps the last good one.
    plan: new SnapshotPlan(),
    stages: {},
    version,
  } satisfies Pick<BuildValues, (typeof GIVEN)[number]>;
  try {
    const v = await runSteps(BUILD_STEPS, values, fx.log);
    const durationMs = Math.round(performance.now() - started);
    const { dir } = await timed(
      fx.log,
      'validate and publish',
      () =>
        publishBuild(opts.outDir, v.writer, {
          build: v.buildId,
          generated_at: generatedAt.toISOString(),
          methodology_version: METHODOLOGY_VERSION,
          base_url: opts.baseUrl,
          duration_ms: durationMs,
          sources: v.statuses,
          omitted: omissionsOf(v),
          stages: v.stages,
        }),
      (r) => (r.removed.length ? `${r.removed.length} old build(s) removed: ${r.removed.join(', ')}` : ''),
    );
    const files = Object.keys(v.writer.files).length;
    delete values.writer;
    await timed(fx.log, 'snapshots', () => v.plan.commit());
    const vintage = v.bulk.vintage;
    if (vintage)
      await timed(
        fx.log,
        'vintage',
        () => publishVintage(opts.outDir, dir, vintage, generatedAt),
        (r) => `${vintage.id} kept (${r.kept} vintages${r.removed.length ? `, ${r.removed.length} past retention removed` : ''})`,
      );
    return { build: v.buildId, dir, files, sources: v.statuses, durationMs: Math.round(performance.now() - started) };
  } finally {
    if (values.writer) await discardBuild(values.writer);
    await values.plan!.discard();
    values.db!.close();
  }
}
