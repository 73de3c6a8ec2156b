import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LICENSE, METHODOLOGY_VERSION } from '../contract/common.ts';
import type { CommodityListEntry, CommoditySheet } from '../contract/commodities.ts';
import type { Briefing } from '../contract/content.ts';
import type { CountryProfile } from '../contract/countries.ts';
import { BUILD_FILES, BUILD_PATHS } from '../contract/layout.ts';
import { CSV_TYPE } from '../contract/http.ts';
import type { SourceStatus } from '../contract/manifest.ts';
import { EDITORIAL_SOURCE, type CitedSource } from '../contract/sources.ts';
import type { BacktestResult } from '../contract/stress.ts';
import { stressHistoryCsv as historyCsv } from '../lib/csv.ts';
import { bulkStage } from './bulk/stage.ts';
import { publishVintage } from './bulk/vintages.ts';
import { type Commodity, loadCatalogue } from './catalogue.ts';
import { type ContentBundle, publishContent, readContent } from './content-stage.ts';
import { type AnyStep, runSteps, stepOf } from './dag.ts';
import { Db } from './db.ts';
import { publishDiscovery } from './discovery/stage.ts';
import { type Effects, timed } from './effects.ts';
import { type SourceCadence, cadenceFor, loadCadences } from './freshness.ts';
import { fetchSources, type LiveOptions } from './fetch/sources.ts';
import { hasSnapshot, ingestSource } from './ingest.ts';
import { clearFailedBuilds, recordFailedBuild } from './build-failures.ts';
import { LOCK_FILE, acquireBuildLock } from './lock.ts';
import { type MetaFor, metaFactory } from './meta.ts';
import { type CountryNames, countryNames } from './names.ts';
import { type BuildPaths, buildPaths, clearLeftovers, discardBuild, freeBuildId, openBuild, publishBuild, type BuildWriter } from './publish.ts';
import { publishSearchIndex } from './search/stage.ts';
import { SnapshotPlan, recoverSnapshots } from './snapshots.ts';
import { SOURCES } from './sources/registry.ts';
import type { SourceAdapter, SourceKeys } from './sources/types.ts';
import type { EmbeddingsConfig } from '../lib/search/remote.ts';
import type { RateLimitQuotas } from './discovery/openapi.ts';
import type { SiteSwitches } from './site-stage.ts';
import { type PreviousBuild, cachedStage, keyOf, previousBuild, treeHash } from './stage-cache.ts';
import { loadBacktest, runBacktest } from './steps/backtest.ts';
import { maxDate } from './steps/dates.ts';
import { weeklyDigest } from './steps/digest.ts';
import { buildPriceTables, latestPrices, priceAnomalies } from './steps/prices.ts';
import { countryProfiles } from './steps/profiles.ts';
import { gasStorageReading, usOilReading, type ReserveReading } from './steps/reserves.ts';
import { shareTable, type ShareTableData } from './steps/shares.ts';
import { type Shares, commoditySheet, commoditySources, sheetDataAsOf, toListEntry } from './steps/sheets.ts';
import type { Cadences } from './steps/stress.ts';
import { loadStressInputs } from './steps/stress-inputs.ts';
import { sitePage } from '../contract/site.ts';

export interface BuildOptions {
  sourcesDir: string;
  dataDir: string;
  outDir: string;
  baseUrl: string;
  /** The server's rate limits (RATE_LIMIT_DATA, RATE_LIMIT_ASK; 0 = off), stated by the discovery files like baseUrl; default 60 and 10. */
  rateLimits?: RateLimitQuotas;
  /** How often the data is rebuilt (REBUILD_EVERY, `--every`), stated by the site and the discovery files; default 15 minutes, null for no schedule. */
  rebuildEveryMs?: number | null;
  /** Fetch the sources from their publishers, each when due on its cadence (DATA_SOURCE=live, `--download`), instead of reading sourcesDir. */
  download?: boolean;
  /** How live fetching runs: `--force`, timeouts and deadlines, PUBLISHER_URL_* (pipeline/fetch/sources.ts). */
  live?: LiveOptions;
  /** API keys of the publishers that require one for `download` (EIA_API_KEY, AGSI_API_KEY). */
  sourceKeys?: SourceKeys;
  /** The embeddings endpoint of the search index (EMBEDDINGS_*); absent or null: the local word vectors. */
  embeddings?: EmbeddingsConfig | null;
  /** How the website stage runs (CHOKEPOINT_SITE=off: skip; SITE_LOG). */
  site?: SiteSwitches;
  /** `Contact:` of security.txt (SECURITY_CONTACT); default mailto:security@chokepoint.example. */
  securityContact?: readonly string[];
  sources?: readonly SourceAdapter[];
  /** How long to wait for another build of the same outDir to finish (default 0: refuse at once). */
  lockWaitMs?: number;
}

export interface BuildResult {
  build: string;
  dir: string;
  files: number;
  sources: SourceStatus[];
  durationMs: number;
}

/** docs/<page>.md published at /docs/<page> (the changelog from CHANGELOG.md). */
export const DOC_PAGES = ['api', 'methodology', 'freshness', 'security', 'content', 'bulk', 'changelog'] as const;
const docSource = (page: (typeof DOC_PAGES)[number]) => (page === 'changelog' ? repoPath('CHANGELOG.md') : repoPath('docs', `${page}.md`));

/** An output left out of the build, and why (manifest `omitted`). */
interface Omission {
  output: string;
  reason: string;
}

/**
 * Every value the build makes, by name: the graph's nodes. The first group is given when the
 * build starts; each of the others is the output of exactly one step of BUILD_STEPS.
 */
export interface BuildValues {
  opts: BuildOptions;
  fx: Effects;
  db: Db;
  generatedAt: Date;
  today: string;
  paths: BuildPaths;
  plan: SnapshotPlan;
  /** Outputs left out so far; steps that leave something out add to it. */
  omitted: Omission[];
  /** Input key of each cached stage, for the manifest. */
  stages: Record<string, string>;
  version: string;

  catalogue: Commodity[];
  cadences: Record<string, SourceCadence>;
  statuses: SourceStatus[];
  buildId: string;
  writer: BuildWriter;
  metaFor: MetaFor;
  priceTables: true;
  latest: Awaited<ReturnType<typeof latestPrices>>;
  anomalies: Awaited<ReturnType<typeof priceAnomalies>>;
  names: CountryNames;
  shares: Shares;
  readings: Map<string, ReserveReading>;
  content: ContentBundle;
  stressInputs: Awaited<ReturnType<typeof loadStressInputs>>;
  sheets: CommoditySheet[];
  commodityFiles: number;
  backtest: BacktestResult;
  stressFiles: number;
  briefings: Briefing[];
  reserveFiles: number;
  profiles: CountryProfile[];
  countryFiles: number;
  contentFiles: true;
  bulk: Awaited<ReturnType<typeof bulkStage>>;
  live: PreviousBuild | null;
  search: Awaited<ReturnType<typeof cachedStage<Awaited<ReturnType<typeof publishSearchIndex>>>>>;
  discovery: true;
  site: Awaited<ReturnType<typeof cachedStage<unknown>>> | { reused: false; result: null; distrusted: null };
}

/** The values the build starts from (the rest come from BUILD_STEPS). */
export const GIVEN = [
  'opts',
  'fx',
  'db',
  'generatedAt',
  'today',
  'paths',
  'plan',
  'omitted',
  'stages',
  'version',
] as const satisfies readonly (keyof BuildValues)[];

/**
 * The code each cached stage runs, besides its data inputs: part of its cache key, so a stage is
 * reused only when neither its inputs nor its code changed (pipeline/build-graph.test.ts checks
 * these cover the modules each stage imports).
 */
export const STAGE_CODE = {
  search: ['pipeline/search', 'lib/search', 'contract', 'data/search-lexicon.yaml', 'package-lock.json'],
  site: ['site/src', 'pipeline/site-stage.ts', 'pipeline/sitemap.ts', 'lib/format.ts', 'contract', 'package-lock.json'],
} as const;

/** Files besides the JSON payloads that site pages read (site/src/lib/data.ts, docs.ts, the CSV routes). */
const SITE_READS = [BUILD_PATHS.docs, BUILD_PATHS.commodityStressCsv, BUILD_PATHS.countryStressCsv, BUILD_PATHS.openapi, BUILD_PATHS.serverCard];

const step = stepOf<BuildValues>();

/** The build, step by step, in an order the graph allows (checked when it runs). */
export const BUILD_STEPS: readonly AnyStep<BuildValues>[] = [
  step({ name: 'catalogue', inputs: ['opts'], output: 'catalogue', run: ({ opts }) => loadCatalogue(opts.dataDir), detail: (c) => `${c.length} commodities` }),
  step({ name: 'cadences', inputs: ['opts'], output: 'cadences', run: ({ opts }) => loadCadences(opts.dataDir) }),
  step({
    name: 'sources',
    inputs: ['db', 'opts', 'fx', 'paths', 'cadences', 'plan', 'omitted'],
    output: 'statuses',
    run: async ({ db, opts, fx, paths, cadences, plan, omitted }) => {
      const statuses: SourceStatus[] = [];
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
          () =>
            ingestSource(db, adapter, { sourcesDir: opts.sourcesDir, snapshotsDir: paths.snapshots, fetched: fetched?.get(adapter.id), cadences, plan }, fx),
          (s) => `${s.status}${s.data_as_of ? `, data to ${s.data_as_of}` : ''}, ${s.freshness}`,
        );
        if (status.status === 'unavailable') omitted.push({ output: `outputs from ${status.id}`, reason: status.stale_reason ?? 'unavailable' });
        statuses.push(status);
      }
      return statuses;
    },
    detail: (s) => `${s.length} sources, ${s.filter((x) => x.status === 'fresh' || x.status === 'unchanged').length} loaded`,
  }),
  step({
    name: 'build id',
    inputs: ['opts', 'statuses', 'generatedAt'],
    output: 'buildId',
    run: ({ opts, statuses, generatedAt }) => {
      const inputs = createHash('sha256')
        .update(statuses.map((s) => `${s.id}:${s.sha256}`).join('\n'))
        .update(METHODOLOGY_VERSION)
        .digest('hex')
        .slice(0, 8);
      return freeBuildId(
        opts.outDir,
        `${generatedAt
          .toISOString()
          .replace(/[-:]/g, '')
          .replace(/\.\d+Z$/, 'Z')}-${inputs}`,
      );
    },
    detail: (id) => id,
  }),
  step({ name: 'open build folder', inputs: ['opts', 'buildId'], output: 'writer', run: ({ opts, buildId }) => openBuild(opts.outDir, buildId) }),
  step({
    name: 'meta',
    inputs: ['buildId', 'generatedAt', 'opts', 'statuses', 'cadences'],
    output: 'metaFor',
    run: ({ buildId, generatedAt, opts, statuses, cadences }) =>
      metaFactory({ build: buildId, generatedAt: generatedAt.toISOString(), baseUrl: opts.baseUrl, statuses, cadences }),
  }),
  step({
    name: 'prices',
    inputs: ['db', 'catalogue'],
    output: 'priceTables',
    run: async ({ db, catalogue }) => (await buildPriceTables(db, catalogue), true as const),
  }),
  step({ name: 'latest prices', inputs: ['db', 'priceTables'], output: 'latest', run: ({ db }) => latestPrices(db) }),
  step({ name: 'price anomalies', inputs: ['db', 'priceTables'], output: 'anomalies', run: ({ db }) => priceAnomalies(db) }),
  step({ name: 'country names', inputs: ['db', 'statuses'], output: 'names', run: ({ db }) => countryNames(db) }),
  step({
    name: 'producers and consumers',
    inputs: ['db', 'catalogue', 'names'],
    output: 'shares',
    run: async ({ db, catalogue, names }) => {
      // Publishers spell countries their own way ('US', 'Congo (Kinshasa)'); publish one canonical name.
      const named = (t: ShareTableData | null) => t && { ...t, entries: t.entries.map((e) => ({ ...e, name: names.nameOf3(e.iso3) })) };
      const out: Shares = new Map();
      for (const c of catalogue) {
        out.set(c.slug, {
          producers: named(c.production ? await shareTable(db, c.production, c.production.basis ?? 'production') : null),
          consumers: named(c.consumption ? await shareTable(db, c.consumption, c.consumption.basis) : null),
          inGround: named(c.reserves_in_ground ? await shareTable(db, c.reserves_in_ground, 'reserves') : null),
        });
      }
      return out;
    },
  }),
  step({
    name: 'reserves',
    inputs: ['db', 'catalogue', 'names', 'omitted'],
    output: 'readings',
    run: async ({ db, catalogue, names, omitted }) => {
      const out = new Map<string, ReserveReading>();
      for (const country of catalogue.find((c) => c.code === 'gas')?.reserves ?? []) {
        const r = await gasStorageReading(db, country, names.nameOf2(country));
        if (r) out.set(`gas/${country}`, r);
        else omitted.push({ output: `v1/reserves/gas/${country}.json`, reason: 'no gas storage rows for this country' });
      }
      const oil = await usOilReading(db);
      if (oil) out.set('oil/us', oil);
      else omitted.push({ output: 'v1/reserves/oil/us.json', reason: 'no US SPR rows' });
      return out;
    },
    detail: (m) => `${m.size} reserves`,
  }),
  step({
    name: 'editorial content',
    inputs: ['db', 'opts', 'catalogue', 'names', 'shares', 'statuses', 'omitted'],
    output: 'content',
    run: async ({ db, opts, catalogue, names, shares, statuses, omitted }) => {
      const shareOf = (slug: string, iso3: string) => {
        const t = shares.get(slug)?.producers;
        const e = t?.entries.find((x) => x.iso3 === iso3);
        return t && e ? { share_pct: e.share * 100, year: t.year } : undefined;
      };
      const unavailable = new Set(statuses.filter((s) => s.status === 'unavailable').map((s) => s.id));
      const content = await readContent(db, opts.dataDir, catalogue, names, shareOf, unavailable);
      for (const s of content.skipped) omitted.push({ output: `briefing ${s.file}`, reason: s.reason });
      return content;
    },
    detail: (c) => `${c.events.length} events, ${c.scenarios.length} scenarios, ${c.briefings.length} briefings`,
  }),
  step({
    name: 'stress inputs',
    inputs: ['db', 'catalogue', 'content', 'shares'],
    output: 'stressInputs',
    run: ({ db, catalogue, content, shares }) =>
      loadStressInputs(
        db,
        catalogue,
        content.events,
        (slug) =>
          new Set(
            shares
              .get(slug)
              ?.producers?.entries.slice(0, 3)
              .map((e) => e.iso3) ?? [],
          ),
      ),
  }),
  step({
    name: 'commodity stress and sheets',
    inputs: ['db', 'catalogue', 'latest', 'anomalies', 'shares', 'readings', 'content', 'today', 'stressInputs', 'cadences'],
    output: 'sheets',
    run: async ({ db, catalogue, latest, anomalies, shares, readings, content, today, stressInputs, cadences }) => {
      const cadenceOf: Cadences = (source, series) => cadenceFor(cadences, source, series ?? undefined);
      const sheets: CommoditySheet[] = [];
      for (const c of catalogue)
        sheets.push(await commoditySheet(db, c, { latest, anomalies, shares, readings, content, today, inputs: stressInputs.get(c.slug)!, cadenceOf }));
      return sheets;
    },
    detail: (s) => `${s.length} sheets`,
  }),
  step({
    name: 'commodity files',
    inputs: ['writer', 'catalogue', 'sheets', 'metaFor'],
    output: 'commodityFiles',
    run: async ({ writer, catalogue, sheets, metaFor }) => {
      const sourcesOf = (s: CommoditySheet) =>
        commoditySources(
          catalogue.find((c) => c.slug === s.slug)!,
          s,
        );
      for (const s of sheets) {
        await writer.file(BUILD_FILES.commodity(s.slug), {
          data: s,
          meta: metaFor(sourcesOf(s), s.updated_at, { methodology_version: METHODOLOGY_VERSION }, sheetDataAsOf(s)),
        });
      }
      const list: CommodityListEntry[] = sheets.map(toListEntry).sort((a, b) => a.slug.localeCompare(b.slug));
      const asOf = maxDate(sheets.flatMap((s) => [s.price?.as_of, ...s.stress.components.filter((k) => k.key !== 'events').map((k) => k.as_of)]));
      await writer.file(BUILD_FILES.commodityList(), {
        data: list,
        meta: metaFor(sheets.flatMap(sourcesOf), asOf, { count: list.length, methodology_version: METHODOLOGY_VERSION }),
      });
      return sheets.length + 1;
    },
  }),
  step({
    name: 'backtest',
    inputs: ['opts', 'db', 'sheets'],
    output: 'backtest',
    run: async ({ opts, db, sheets }) =>
      runBacktest(
        await loadBacktest(opts.dataDir),
        new Map(sheets.map((sh) => [sh.slug, sh.stress_history])),
        await db.all<{ month: string; value: number }>(`SELECT strftime(date, '%Y-%m') AS month, value FROM gscpi ORDER BY date`),
      ),
    detail: (b) => `${b.crises.filter((c) => c.hit).length} of ${b.crises.length} crises flagged, ${b.calm_flagged} of ${b.calm_months} calm months flagged`,
  }),
  step({
    name: 'stress history files',
    inputs: ['writer', 'backtest', 'sheets', 'metaFor'],
    output: 'stressFiles',
    run: async ({ writer, backtest, sheets, metaFor }) => {
      await writer.file(BUILD_FILES.backtest(), {
        data: backtest,
        meta: metaFor([EDITORIAL_SOURCE, 'nyfed-gscpi'], null, { methodology_version: METHODOLOGY_VERSION }),
      });
      await writer.raw(BUILD_PATHS.commodityStressCsv, historyCsv(sheets.map((sh) => [sh.slug, sh.stress_history])), CSV_TYPE);
      return 2;
    },
  }),
  step({
    name: 'weekly digest',
    inputs: ['db', 'paths', 'today', 'sheets', 'content'],
    output: 'briefings',
    run: async ({ db, paths, today, sheets, content }) => {
      // Stress movers are named against the live build.
      const previous = await readFile(join(paths.current, BUILD_FILES.commodityList().path), 'utf8').then(
        (t) => new Map((JSON.parse(t) as { data: CommodityListEntry[] }).data.map((c) => [c.slug, c.stress_index])),
        () => new Map<string, number | null>(),
      );
      const digest = await weeklyDigest(db, { today, sheets, events: content.events, previousStress: previous });
      return [...digest, ...content.briefings.filter((b) => !digest.some((d) => d.id === b.id))];
    },
    detail: (b) => `${b.length} briefings`,
  }),
  step({
    name: 'reserve files',
    inputs: ['writer', 'readings', 'metaFor'],
    output: 'reserveFiles',
    run: async ({ writer, readings, metaFor }) => {
      const index = [];
      for (const [key, r] of readings) {
        const sources: CitedSource[] = r.reserve.commodity === 'gas' ? ['gie-agsi-gas-storage', 'ei-statistical-review-2026'] : ['eia-weekly-petroleum'];
        const meta = metaFor(sources, r.reserve.as_of, {}, { [sources[0]!]: r.reserve.as_of });
        await writer.file(BUILD_FILES.reserve(key), { data: r.reserve, meta });
        await writer.file(BUILD_FILES.reserveSeries(key), { data: r.series, meta });
        index.push({
          commodity: r.reserve.commodity,
          country: r.reserve.country,
          name: r.reserve.name,
          as_of: r.reserve.as_of,
          url: `/v1/reserves?commodity=${r.reserve.commodity}&country=${r.reserve.country}`,
        });
      }
      await writer.file(BUILD_FILES.reserveIndex(), {
        data: index,
        meta: metaFor(['gie-agsi-gas-storage', 'eia-weekly-petroleum'], maxDate(index.map((r) => r.as_of)), { count: index.length }),
      });
      return 2 * index.length + 1;
    },
  }),
  step({
    name: 'country profiles and history',
    inputs: ['db', 'catalogue', 'sheets', 'shares', 'readings', 'names', 'today', 'cadences'],
    output: 'profiles',
    run: ({ db, catalogue, sheets, shares, readings, names, today, cadences }) =>
      countryProfiles(db, catalogue, sheets, shares, readings, names, { today, eiLagDays: cadenceFor(cadences, 'ei-statistical-review-2024').lag_days }),
    detail: (p) => `${p.length} countries`,
  }),
  step({
    name: 'country files',
    inputs: ['writer', 'profiles', 'metaFor'],
    output: 'countryFiles',
    run: async ({ writer, profiles, metaFor }) => {
      for (const p of profiles) {
        // Energy balances from the current EI edition (2026), import suppliers from the 2024 edition's trade matrices (2023).
        const sources: CitedSource[] = [
          'ei-statistical-review-2026',
          'ei-statistical-review-2024',
          'usgs-mcs-2026',
          'eurostat-gas-imports-by-partner',
          'country-codes',
          ...(p.reserves.length ? (['gie-agsi-gas-storage'] as const) : []),
        ];
        await writer.file(BUILD_FILES.country(p.iso3), {
          data: p,
          meta: metaFor(
            sources,
            p.updated_at,
            { methodology_version: METHODOLOGY_VERSION },
            { 'gie-agsi-gas-storage': maxDate(p.reserves.map((r) => r.as_of)) },
          ),
        });
      }
      await writer.raw(BUILD_PATHS.countryStressCsv, historyCsv(profiles.map((p) => [p.iso3, p.stress_history])), CSV_TYPE);
      await writer.file(BUILD_FILES.countryIndex(), {
        data: profiles.map((p) => ({ iso3: p.iso3, iso2: p.iso2, name: p.name, stress_index: p.stress_index, stress_band: p.stress_band, url: p.url })),
        meta: metaFor(['country-codes', 'ei-statistical-review-2026', 'ei-statistical-review-2024'], maxDate(profiles.map((p) => p.updated_at)), {
          count: profiles.length,
        }),
      });
      return profiles.length + 2;
    },
  }),
  step({
    name: 'editorial outputs',
    inputs: ['writer', 'content', 'briefings', 'metaFor'],
    output: 'contentFiles',
    run: async ({ writer, content, briefings, metaFor }) => (await publishContent(writer, { ...content, briefings }, metaFor), true as const),
  }),
  step({
    name: 'bulk package',
    inputs: ['db', 'writer', 'opts', 'catalogue', 'sheets', 'profiles', 'readings', 'content', 'statuses', 'buildId', 'generatedAt', 'version'],
    output: 'bulk',
    run: ({ db, writer, opts, catalogue, sheets, profiles, readings, content, statuses, buildId, generatedAt, version }) =>
      bulkStage(
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
    detail: (b) =>
      `${b.files} files, ${Math.round(b.bytes / 1024)} KB, ${b.revisions} revisions, ${b.vintage ? 'a new vintage' : 'figures unchanged: no vintage'}`,
  }),
  step({
    name: 'live build',
    inputs: ['paths'],
    output: 'live',
    run: ({ paths }) => previousBuild(paths.current),
    detail: (l) => (l ? `reusing from ${l.manifest.build} where inputs match` : 'none'),
  }),
  // The search index and the site are the slow stages: each reuses the live build's output when
  // its inputs (what it reads and the code that makes it) are unchanged.
  step({
    name: 'search index',
    inputs: ['writer', 'stages', 'live', 'content', 'briefings', 'catalogue', 'statuses', 'names', 'opts', 'fx'],
    output: 'search',
    run: async ({ writer, stages, live, content, briefings, catalogue, statuses, names, opts, fx }) =>
      cachedStage({
        writer,
        stages,
        previous: live,
        name: 'search',
        prefix: 'search/',
        key: keyOf(
          await treeHash(repoPath(), STAGE_CODE.search),
          briefings,
          content.scenarios,
          catalogue,
          // Country names come from the country-codes source.
          statuses.find((s) => s.id === 'country-codes')?.sha256 ?? null,
          opts.embeddings?.baseUrl ?? null,
          opts.embeddings?.model ?? null,
        ),
        run: () =>
          publishSearchIndex(writer, {
            briefings,
            scenarios: content.scenarios,
            catalogue,
            names,
            dataDir: opts.dataDir,
            log: fx.log,
            fetch: fx.fetch,
            embeddings: opts.embeddings ?? null,
          }),
      }),
    detail: (r) =>
      r.reused
        ? `unchanged, ${r.files} files reused`
        : `${r.result.documents} documents, ${r.result.embedder.kind} vectors${r.distrusted ? ` (not reused: ${r.distrusted})` : ''}`,
  }),
  step({
    name: 'contract and discovery files',
    inputs: ['writer', 'opts', 'version', 'generatedAt', 'briefings', 'content'],
    output: 'discovery',
    run: async ({ writer, opts, version, generatedAt, briefings, content }) => {
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
      return true as const;
    },
  }),
  step({
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
      'omitted',
      'commodityFiles',
      'stressFiles',
      'reserveFiles',
      'countryFiles',
      'contentFiles',
      'discovery',
    ],
    output: 'site',
    run: async ({ writer, stages, live, opts, fx, today, statuses, omitted }) => {
      // Switched off (CHOKEPOINT_SITE=off): no pages and no key, so no later build reuses an empty site.
      if (opts.site?.skip) return { reused: false as const, result: null, distrusted: null };
      const key = keyOf(
        await treeHash(repoPath(), STAGE_CODE.site),
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
      const omissions = omitted.length;
      return cachedStage({
        writer,
        stages,
        previous: live,
        name: 'site',
        prefix: 'site/',
        key,
        run: async () =>
          (await import('./site-stage.ts')).publishSite(writer, {
            buildDir: writer.dir,
            today,
            baseUrl: opts.baseUrl,
            rebuildEveryMs: opts.rebuildEveryMs,
            sources: statuses,
            omitted: [...omitted],
            logLevel: opts.site?.logLevel,
          }),
      }).catch((err: unknown) => {
        // A site that cannot be made without outputs this build left out is left out too (the
        // API still publishes); one that fails with every output present is a bug, and fails the build.
        if (omissions === 0) throw err;
        const why = (err instanceof Error ? err.message : String(err)).replaceAll(`${writer.dir}/`, '');
        omitted.push({ output: 'site/', reason: `the site could not be generated without the outputs left out above: ${why}` });
        fx.log.warn(`site left out: ${why}`);
        return { reused: false as const, result: null, distrusted: null };
      });
    },
    detail: (r) =>
      r.reused
        ? `unchanged, ${r.files} files reused`
        : r.result
          ? `${siteSummary(r.result)}${r.distrusted ? ` (not reused: ${r.distrusted})` : ''}`
          : 'left out or switched off',
  }),
];

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
    omitted: [],
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
          omitted: v.omitted,
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

const siteSummary = (r: unknown) => {
  const s = r as { pages: number; files: number; bytes: number };
  return `${s.pages} pages, ${s.files} files, ${Math.round(s.bytes / 1024)} KB`;
};

export const repoPath = (...p: string[]) => join(import.meta.dirname, '..', ...p);
