import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { LICENSE, METHODOLOGY_VERSION } from '../contract/common.ts';
import { CommodityListResponse, CommoditySheetResponse, type CommodityListEntry, type CommoditySheet } from '../contract/commodities.ts';
import { CountryIndexResponse, CountryProfileResponse, type CountryProfile } from '../contract/countries.ts';
import { BacktestResponse, type StressHistoryPoint } from '../contract/stress.ts';
import type { SourceStatus } from '../contract/manifest.ts';
import { ReserveIndexFile, ReserveResponse, ReserveSeriesFile } from '../contract/reserves.ts';
import { type Commodity, loadCatalogue } from './catalogue.ts';
import { type ContentBundle, publishContent, readContent } from './content-stage.ts';
import { Db } from './db.ts';
import { type Effects, timed } from './effects.ts';
import { ingestSource } from './ingest.ts';
import { cadenceFor, loadCadences } from './freshness.ts';
import { countryNames } from './names.ts';
import { buildPaths, clearLeftovers, freeBuildId, openBuild, publishBuild, discardBuild, type BuildWriter } from './publish.ts';
import { LOCK_FILE, acquireBuildLock } from './lock.ts';
import { SnapshotPlan, recoverSnapshots } from './snapshots.ts';
import { SOURCES } from './sources/registry.ts';
import type { SourceAdapter } from './sources/types.ts';
import { type CountryEnergy, countryStressAt, coveredCountries, energyExposures, energyInputs, russianGasShares } from './steps/countries.ts';
import { buildPriceTables, latestPrices, priceAnomalies, priceFrequency, priceHistory } from './steps/prices.ts';
import { gasStorageReading, usOilReading, type ReserveReading } from './steps/reserves.ts';
import { EI_TRADE_YEAR, HHI_THRESHOLDS, hhi, hhiBand, shareTable, topFlows, type ShareTableData } from './steps/shares.ts';
import { type Cadences, type CommodityInputs, band, readingDate, stressAt, stressHistory } from './steps/stress.ts';
import { loadStressInputs } from './steps/stress-inputs.ts';
import { bulkStage } from './bulk/stage.ts';
import { publishVintage } from './bulk/vintages.ts';
import { usMineralExposures } from './steps/us-minerals.ts';
import { loadBacktest, runBacktest } from './steps/backtest.ts';
import { weeklyDigest } from './steps/digest.ts';
import { publishDiscovery } from './discovery/stage.ts';
import { publishSearchIndex } from './search/stage.ts';
import { metaFactory } from './meta.ts';
import { EDITORIAL_SOURCE, citedSource, type CitedSource } from '../contract/sources.ts';
import { cachedStage, keyOf, previousBuild, treeHash } from './stage-cache.ts';
import { dateTime } from '../lib/format.ts';
import { readFile } from 'node:fs/promises';

export interface BuildOptions {
  sourcesDir: string;
  dataDir: string;
  outDir: string;
  baseUrl: string;
  download?: boolean;
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

/** docs/<page>.md published at /docs/<page>. */
export const DOC_PAGES = ['api', 'methodology', 'freshness', 'security', 'content', 'bulk'] as const;

/** One full build: ingest every source, compute the indicators, write and validate every output, publish. */
export async function runBuild(opts: BuildOptions, fx: Effects): Promise<BuildResult> {
  // One build at a time per outDir: everything below, the snapshots included, assumes it.
  const lock = await acquireBuildLock(opts.outDir, opts.lockWaitMs ?? 0);
  try {
    fx.log.info(`building into ${opts.outDir} as pid ${process.pid} (holding ${LOCK_FILE})`);
    if (lock.tookOverFrom) fx.log.warn(`took over the lock of build pid ${lock.tookOverFrom.pid} (since ${lock.tookOverFrom.since}), which is no longer running`);
    const left = [...(await clearLeftovers(opts.outDir)), ...(await recoverSnapshots(buildPaths(opts.outDir).snapshots))];
    if (left.length) fx.log.warn(`removed what an interrupted build left: ${left.join(', ')}`);
    return await buildLocked(opts, fx);
  } finally {
    await lock.release();
  }
}

async function buildLocked(opts: BuildOptions, fx: Effects): Promise<BuildResult> {
  const started = performance.now();
  const generatedAt = fx.now();
  const db = await Db.open();
  let writer: BuildWriter | undefined;
  // Snapshot changes wait for the publish: a load this build then rejects keeps the last good one.
  const plan = new SnapshotPlan();
  try {
    const catalogue = await timed(fx.log, 'catalogue', () => loadCatalogue(opts.dataDir), (c) => `${c.length} commodities`);
    const statuses: SourceStatus[] = [];
    const cadences = await loadCadences(opts.dataDir);
    const paths = buildPaths(opts.outDir);
    for (const adapter of opts.sources ?? SOURCES) {
      const status = await timed(fx.log, `source ${adapter.id}`, () =>
        ingestSource(db, adapter, { sourcesDir: opts.sourcesDir, snapshotsDir: paths.snapshots, download: opts.download ?? false, cadences, plan }, fx),
        (s) => `${s.status}${s.data_as_of ? `, data to ${s.data_as_of}` : ''}, ${s.freshness}`,
      );
      statuses.push(status);
    }

    const inputsHash = createHash('sha256')
      .update(statuses.map((s) => `${s.id}:${s.sha256}`).join('\n'))
      .update(METHODOLOGY_VERSION)
      .digest('hex')
      .slice(0, 8);
    const buildId = freeBuildId(opts.outDir, `${generatedAt.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}-${inputsHash}`);
    writer = await openBuild(opts.outDir, buildId);
    const metaFor = metaFactory({ build: buildId, generatedAt: generatedAt.toISOString(), baseUrl: opts.baseUrl, statuses, cadences });
    const today = generatedAt.toISOString().slice(0, 10);
    const omitted: { output: string; reason: string }[] = [];
    for (const s of statuses) if (s.status === 'unavailable') omitted.push({ output: `outputs from ${s.id}`, reason: s.stale_reason ?? 'unavailable' });

    await timed(fx.log, 'prices', () => buildPriceTables(db, catalogue));
    const latest = await latestPrices(db);
    const anomalies = await priceAnomalies(db);
    const names = await countryNames(db);

    const shares = await timed(fx.log, 'producers and consumers', async () => {
      // Publishers spell countries their own way ('US', 'Congo (Kinshasa)'); publish one canonical name.
      const named = (t: ShareTableData | null) => t && { ...t, entries: t.entries.map((e) => ({ ...e, name: names.nameOf3(e.iso3) })) };
      const out = new Map<string, { producers: ShareTableData | null; consumers: ShareTableData | null; inGround: ShareTableData | null }>();
      for (const c of catalogue) {
        out.set(c.slug, {
          producers: named(c.production ? await shareTable(db, c.production, c.production.basis ?? 'production') : null),
          consumers: named(c.consumption ? await shareTable(db, c.consumption, c.consumption.basis) : null),
          inGround: named(c.reserves_in_ground ? await shareTable(db, c.reserves_in_ground, 'reserves') : null),
        });
      }
      return out;
    });

    const readings = await timed(fx.log, 'reserves', async () => {
      const out = new Map<string, ReserveReading>();
      const gas = catalogue.find((c) => c.code === 'gas');
      for (const country of gas?.reserves ?? []) {
        const r = await gasStorageReading(db, country, names.nameOf2(country));
        if (r) out.set(`gas/${country}`, r);
        else omitted.push({ output: `v1/reserves/gas/${country}.json`, reason: 'no gas storage rows for this country' });
      }
      const oil = await usOilReading(db);
      if (oil) out.set('oil/us', oil);
      else omitted.push({ output: 'v1/reserves/oil/us.json', reason: 'no US SPR rows' });
      return out;
    }, (m) => `${m.size} reserves`);

    const shareOf = (slug: string, iso3: string) => {
      const t = shares.get(slug)?.producers;
      const e = t?.entries.find((x) => x.iso3 === iso3);
      return t && e ? { share_pct: e.share * 100, year: t.year } : undefined;
    };
    const content = await timed(fx.log, 'editorial content', () => readContent(db, opts.dataDir, catalogue, names, shareOf, new Set(statuses.filter((s) => s.status === 'unavailable').map((s) => s.id))), (c) => `${c.events.length} events, ${c.scenarios.length} scenarios, ${c.briefings.length} briefings`);

    for (const s of content.skipped) omitted.push({ output: `briefing ${s.file}`, reason: s.reason });

    // Commodity stress, then the sheets and the list.
    const cadenceOf: Cadences = (source, series) => cadenceFor(cadences, source, series ?? undefined);
    const stressInputs = await timed(fx.log, 'stress inputs', () =>
      loadStressInputs(db, catalogue, content.events, (slug) => new Set(shares.get(slug)?.producers?.entries.slice(0, 3).map((e) => e.iso3) ?? [])),
    );
    const sheets: CommoditySheet[] = [];
    await timed(fx.log, 'commodity stress, history and sheets', async () => {
      for (const c of catalogue) sheets.push(await commoditySheet(db, c, { latest, anomalies, shares, readings, content, today, inputs: stressInputs.get(c.slug)!, cadenceOf }));
    }, () => `${sheets.length} sheets`);
    for (const s of sheets) {
      await writer!.json(`v1/commodities/${s.slug}.json`, CommoditySheetResponse, {
        data: s,
        meta: metaFor(commoditySources(catalogue.find((c) => c.slug === s.slug)!, s), s.updated_at, { methodology_version: METHODOLOGY_VERSION }, sheetDataAsOf(s)),
      });
    }
    const list: CommodityListEntry[] = sheets.map(toListEntry).sort((a, b) => a.slug.localeCompare(b.slug));
    await writer.json('v1/commodities.json', CommodityListResponse, {
      data: list,
      meta: metaFor(unique(sheets.flatMap((s) => commoditySources(catalogue.find((c) => c.slug === s.slug)!, s))), maxDate(sheets.flatMap((s) => [s.price?.as_of, ...s.stress.components.filter((k) => k.key !== 'events').map((k) => k.as_of)])), { count: list.length, methodology_version: METHODOLOGY_VERSION }),
    });

    // The index history as one CSV, and the backtest of that history against documented crises.
    const backtest = runBacktest(await loadBacktest(opts.dataDir), new Map(sheets.map((sh) => [sh.slug, sh.stress_history])));
    fx.log.info(`✓ backtest: ${backtest.crises.filter((c) => c.hit).length} of ${backtest.crises.length} crises flagged, ${backtest.calm_flagged} of ${backtest.calm_months} calm months flagged`);
    await writer.json('data/stress/backtest.json', BacktestResponse, { data: backtest, meta: metaFor([EDITORIAL_SOURCE], null, { methodology_version: METHODOLOGY_VERSION }) });
    await writer.raw('data/stress/commodities.csv', historyCsv(sheets.map((sh) => [sh.slug, sh.stress_history])), 'text/csv; charset=utf-8');

    // The weekly digest, from what changed; stress movers are named against the live build.
    const previous = await readFile(join(paths.current, 'v1/commodities.json'), 'utf8').then(
      (t) => new Map((JSON.parse(t) as { data: CommodityListEntry[] }).data.map((c) => [c.slug, c.stress_index])),
      () => new Map<string, number | null>(),
    );
    const digest = await timed(fx.log, 'weekly digest', () => weeklyDigest(db, { today, sheets, events: content.events, previousStress: previous }));
    content.briefings = [...digest, ...content.briefings.filter((b) => !digest.some((d) => d.id === b.id))];

    // Reserves: the current reading and the full series the API slices.
    const reserveIndex = [];
    for (const [key, r] of readings) {
      const sources: CitedSource[] = r.reserve.commodity === 'gas' ? ['gie-agsi-gas-storage', 'ei-statistical-review-2024'] : ['eia-weekly-petroleum'];
      await writer.json(`v1/reserves/${key}.json`, ReserveResponse, { data: r.reserve, meta: metaFor(sources, r.reserve.as_of, {}, { [sources[0]!]: r.reserve.as_of }) });
      await writer.json(`data/reserves/${key}.json`, ReserveSeriesFile, { data: r.series, meta: metaFor(sources, r.reserve.as_of, {}, { [sources[0]!]: r.reserve.as_of }) });
      reserveIndex.push({ commodity: r.reserve.commodity, country: r.reserve.country, name: r.reserve.name, as_of: r.reserve.as_of, url: `/v1/reserves?commodity=${r.reserve.commodity}&country=${r.reserve.country}` });
    }
    await writer.json('data/reserves.json', ReserveIndexFile, { data: reserveIndex, meta: metaFor(['gie-agsi-gas-storage', 'eia-weekly-petroleum'], maxDate(reserveIndex.map((r) => r.as_of)), { count: reserveIndex.length }) });

    // Countries.
    const profiles = await timed(fx.log, 'country profiles and history', () => countryProfiles(db, catalogue, sheets, shares, readings, names, { today, eiLagDays: cadenceOf('ei-statistical-review-2024').lag_days }), (p) => `${p.length} countries`);
    for (const p of profiles) {
      await writer.json(`v1/countries/${p.iso3}.json`, CountryProfileResponse, { data: p, meta: metaFor(['ei-statistical-review-2024', 'usgs-mcs-2026', 'eurostat-gas-imports-by-partner', 'country-codes', ...(p.reserves.length ? (['gie-agsi-gas-storage'] as const) : [])], p.updated_at, { methodology_version: METHODOLOGY_VERSION }, { 'gie-agsi-gas-storage': maxDate(p.reserves.map((r) => r.as_of)) }) });
    }
    await writer.raw('data/stress/countries.csv', historyCsv(profiles.map((p) => [p.iso3, p.stress_history])), 'text/csv; charset=utf-8');
    await writer.json('data/countries.json', CountryIndexResponse, {
      data: profiles.map((p) => ({ iso3: p.iso3, iso2: p.iso2, name: p.name, stress_index: p.stress_index, stress_band: p.stress_band, url: p.url })),
      meta: metaFor(['country-codes', 'ei-statistical-review-2024'], maxDate(profiles.map((p) => p.updated_at)), { count: profiles.length }),
    });

    await timed(fx.log, 'editorial outputs', () => publishContent(writer!, content, metaFor));
    const { version } = JSON.parse(await readFile(repoPath('package.json'), 'utf8')) as { version: string };
    const bulk = await timed(fx.log, 'bulk package', () =>
      bulkStage(db, writer!, opts.outDir, { db, catalogue, sheets, profiles, readings, events: content.events, scenarios: content.scenarios, open: (id) => statuses.find((s) => s.id === id)?.redistribution === 'open' || id === EDITORIAL_SOURCE }, {
        build: buildId, generatedAt: generatedAt.toISOString(), baseUrl: opts.baseUrl, methodologyVersion: METHODOLOGY_VERSION, version,
        sources: [...statuses.map((s) => ({ id: s.id, title: `${s.publisher}, ${s.dataset}`, url: s.url, license: s.license, sha256: s.sha256, data_as_of: s.data_as_of })), { id: EDITORIAL_SOURCE, title: 'Chokepoint, editorial content: events, scenarios, briefings', url: `${opts.baseUrl}/docs/content`, license: LICENSE, sha256: null, data_as_of: null }],
      }),
      (b) => `${b.files} files, ${Math.round(b.bytes / 1024)} KB, ${b.revisions} revisions, ${b.vintage ? 'a new vintage' : 'figures unchanged: no vintage'}`,
    );
    // The search index and the site are the slow stages: each reuses the live build's output when
    // its inputs (the payloads it reads and the code that makes it) are unchanged.
    const live = await previousBuild(paths.current);
    const stages: Record<string, string> = {};
    const code = await treeHash(repoPath(), ['pipeline', 'contract', 'api/search', 'site', 'data', 'package-lock.json']);
    await timed(fx.log, 'search index', () =>
      cachedStage({
        writer: writer!, stages, previous: live, name: 'search', prefix: 'search/',
        key: keyOf(code, content.briefings, content.scenarios, process.env.EMBEDDINGS_BASE_URL ?? null, process.env.EMBEDDINGS_MODEL ?? null),
        run: () => publishSearchIndex(writer!, { briefings: content.briefings, scenarios: content.scenarios, catalogue, names, dataDir: opts.dataDir, log: fx.log, fetch: fx.fetch }),
      }),
      (r) => (r.reused ? `unchanged, ${r.files} files reused` : `${r.result.documents} documents, ${r.result.embedder.kind} vectors${r.distrusted ? ` (not reused: ${r.distrusted})` : ''}`),
    );
    await timed(fx.log, 'contract and discovery files', async () => {
      await publishDiscovery(writer!, { baseUrl: opts.baseUrl, version, buildId, now: generatedAt, briefings: content.briefings, events: content.events });
      // The human guides the discovery files link to, as Markdown (the site renders them as pages).
      for (const page of DOC_PAGES) await writer!.raw(`docs/${page}`, await readFile(repoPath('docs', `${page}.md`)), 'text/markdown; charset=utf-8');
    });
    const siteKey = keyOf(
      code,
      opts.baseUrl,
      generatedAt.getUTCFullYear(),
      // The pages say how old each series is and count days to a deadline from today.
      today,
      Object.entries(writer.payloadHashes).sort(),
      // fresh and unchanged read the same on the site: both mean the files loaded.
      statuses.map((s) => [s.id, s.status === 'fresh' ? 'unchanged' : s.status, s.retrieved_at, s.data_as_of, s.stale_reason, s.freshness, s.expected_next]),
      (await readFile(join(writer.dir, 'openapi.json'), 'utf8')).replaceAll(buildId, ''),
    );
    const siteOmissions = omitted.length;
    await timed(fx.log, 'site', () =>
      cachedStage({
        writer: writer!, stages, previous: live, name: 'site', prefix: 'site/', key: siteKey,
        run: async () => (await import('./site-stage.ts')).publishSite(writer!, { buildDir: writer!.dir, build: buildId, generatedAt: generatedAt.toISOString(), baseUrl: opts.baseUrl, sources: statuses, omitted: [...omitted] }),
        // Pages name their build in the footer; everything else on them comes from the payloads.
        rewrite: (path, bytes, prev) => (/\.(html|csv|json|txt)$/.test(path) ? Buffer.from(renameBuild(bytes.toString('utf8'), prev.manifest, buildId, generatedAt.toISOString())) : bytes),
      }).catch((err: unknown) => {
        // A site that cannot be made without outputs this build left out is left out too (the
        // API still publishes); one that fails with every output present is a bug, and fails the build.
        if (siteOmissions === 0) throw err;
        const why = (err instanceof Error ? err.message : String(err)).replaceAll(`${writer!.dir}/`, '');
        omitted.push({ output: 'site/', reason: `the site could not be generated without the outputs left out above: ${why}` });
        fx.log.warn(`site left out: ${why}`);
        return { reused: false as const, result: null, distrusted: null };
      }),
      (r) => (r.reused ? `unchanged, ${r.files} files reused` : r.result ? `${r.result.pages} pages, ${r.result.files} files, ${Math.round(r.result.bytes / 1024)} KB${r.distrusted ? ` (not reused: ${r.distrusted})` : ''}` : 'left out'),
    );

    const durationMs = Math.round(performance.now() - started);
    const dir = await timed(fx.log, 'validate and publish', () =>
      publishBuild(opts.outDir, writer!, {
        build: buildId, generated_at: generatedAt.toISOString(), methodology_version: METHODOLOGY_VERSION, base_url: opts.baseUrl,
        duration_ms: durationMs, sources: statuses, omitted, stages,
      }),
    );
    const files = Object.keys(writer.files).length;
    writer = undefined;
    await timed(fx.log, 'snapshots', () => plan.commit());
    const vintage = bulk.vintage;
    if (vintage) await timed(fx.log, 'vintage', () => publishVintage(opts.outDir, dir, vintage, generatedAt), (v) => `${vintage.id} kept (${v.kept} vintages${v.removed.length ? `, ${v.removed.length} past retention removed` : ''})`);
    return { build: buildId, dir, files, sources: statuses, durationMs: Math.round(performance.now() - started) };
  } finally {
    if (writer) await discardBuild(writer);
    await plan.discard();
    db.close();
  }
}

/**
 * The meta of a payload: the sources behind it (ids), the date of its newest observation, and
 * extras. `dataAsOf` gives, per source, the newest observation of that source in this payload
 * where it ends earlier than the source (one country's storage, one commodity's price series):
 * its `data_as_of` and freshness are then the payload's own.
 */
interface SheetContext {
  latest: Awaited<ReturnType<typeof latestPrices>>;
  anomalies: Awaited<ReturnType<typeof priceAnomalies>>;
  shares: Map<string, { producers: ShareTableData | null; consumers: ShareTableData | null; inGround: ShareTableData | null }>;
  readings: Map<string, ReserveReading>;
  content: ContentBundle;
  today: string;
  inputs: CommodityInputs;
  cadenceOf: Cadences;
}

async function commoditySheet(db: Db, c: Commodity, x: SheetContext): Promise<CommoditySheet> {
  const sh = x.shares.get(c.slug)!;
  const lp = x.latest.get(c.slug);
  const producers = sh.producers;
  const concentration = producers
    ? { hhi: hhi(producers.entries.map((e) => e.share)), year: producers.year, source: producers.source, countries: producers.entries.length }
    : null;
  // The reserve behind the commodity's buffer score: EU storage for European gas, the US SPR for
  // crude (both benchmarks); its code names the reserves in /v1/reserves.
  const reserveCode = c.code === 'gas' ? 'gas' : c.code === 'oil' || c.code === 'wti' ? 'oil' : null;
  const reserveKey = reserveCode === 'gas' ? 'gas/eu' : reserveCode === 'oil' ? 'oil/us' : null;
  const reading = reserveKey ? x.readings.get(reserveKey) : undefined;
  // The reading describes the newest market observation behind it, not the build date.
  const asOf = readingDate(x.inputs, x.today);
  const stress = stressAt(x.inputs, asOf, x.today, x.cadenceOf);
  const stressHist = stressHistory(x.inputs, asOf, x.today, x.cadenceOf);
  const history = lp ? await priceHistory(db, c.slug) : [];
  const dates = [lp?.as_of, reading?.reserve.as_of, producers ? `${producers.year}-12-31` : undefined, maxDate(stress.events.map((e) => e.date))];
  const flows = c.trade ? await topFlows(db, c.trade.sheet, c.trade.flow) : [];
  const critical = c.production?.source === 'usgs-mcs-2026'
    ? ((await db.one<{ c: boolean | null }>(`SELECT bool_or(is_critical) AS c FROM usgs_world WHERE chapter = ?`, [c.production.chapter]))?.c ?? null)
    : null;
  return {
    slug: c.slug, code: c.code, group: c.group, name: c.names.en, names: c.names, unit: c.unit,
    price: lp && c.price
      ? { value: lp.value, currency: c.price.currency, unit: c.price.unit, as_of: lp.as_of, frequency: priceFrequency(c.price.source), benchmark: c.price.benchmark, source: c.price.source, change_1y_pct: lp.change_1y_pct }
      : null,
    stress_index: stress.index,
    stress_band: stress.band,
    // With no observation at all (a commodity we only track through events), the build date.
    updated_at: maxDate(dates) ?? x.today,
    url: `/v1/commodities/${c.slug}`,
    aliases: c.aliases,
    critical_mineral_us: critical,
    producers: producers ? { ...producers, entries: producers.entries.slice(0, 15) } : null,
    consumers: sh.consumers ? { ...sh.consumers, entries: sh.consumers.entries.slice(0, 15) } : null,
    reserves_in_ground: sh.inGround ? { ...sh.inGround, entries: sh.inGround.entries.slice(0, 15) } : null,
    concentration: concentration
      ? { hhi: concentration.hhi, band: hhiBand(concentration.hhi), thresholds: HHI_THRESHOLDS, basis: producers!.basis, year: concentration.year, countries: concentration.countries, source: concentration.source }
      : null,
    flows: flows.map((f) => ({ ...f, year: EI_TRADE_YEAR, source: 'ei-statistical-review-2024' })),
    stress,
    stress_history: stressHist,
    price_history: lp && c.price ? { frequency: priceFrequency(c.price.source), currency: c.price.currency, unit: c.price.unit, points: history } : null,
    reserves: [...x.readings.keys()]
      .filter((k) => reserveCode !== null && k.startsWith(`${reserveCode}/`))
      .map((k) => k.split('/')[1] as string)
      .map((country) => ({ country, url: `/v1/reserves?commodity=${reserveCode}&country=${country}` })),
  };
}

function commoditySources(c: Commodity, s: CommoditySheet): CitedSource[] {
  const reserves = s.stress.components.find((k) => k.key === 'reserves')?.source;
  return [
    ...(s.price ? [citedSource(s.price.source)] : []),
    ...(c.production ? [citedSource(c.production.source)] : []),
    ...(c.consumption ? [citedSource(c.consumption.source)] : []),
    ...(c.trade ? (['ei-statistical-review-2024'] as const) : []),
    ...(reserves ? [citedSource(reserves)] : []),
    EDITORIAL_SOURCE,
  ];
}

/** Per source, the newest observation a sheet uses where it can end before its source: the price series, the reserve. */
function sheetDataAsOf(s: CommoditySheet): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  const reserve = s.stress.components.find((k) => k.key === 'reserves');
  if (reserve?.source && reserve.as_of) out[reserve.source] = reserve.as_of;
  if (s.price) out[s.price.source] = s.price.as_of;
  return out;
}

function toListEntry(s: CommoditySheet): CommodityListEntry {
  return { slug: s.slug, code: s.code, group: s.group, name: s.name, names: s.names, unit: s.unit, price: s.price, stress_index: s.stress_index, stress_band: s.stress_band, updated_at: s.updated_at, url: s.url };
}

async function countryProfiles(
  db: Db,
  catalogue: readonly Commodity[],
  sheets: readonly CommoditySheet[],
  shares: SheetContext['shares'],
  readings: Map<string, ReserveReading>,
  names: Awaited<ReturnType<typeof countryNames>>,
  x: { today: string; eiLagDays: number },
): Promise<CountryProfile[]> {
  const countries = await coveredCountries(db);
  const energy = await energyInputs(db, new Map(countries.map((c) => [c.iso3, c.region])));
  const { exposures, autonomy } = energyExposures(energy);
  const sheetBySlug = new Map(sheets.map((s) => [s.slug, s]));
  const historyBySlug = new Map(sheets.map((s) => [s.slug, new Map(s.stress_history.map((h) => [h.date, h.index]))]));
  const months = sheets.find((s) => s.slug === 'energy.oil')?.stress_history.map((h) => h.date) ?? [];
  const russian = await russianGasShares(db);
  const usMinerals = await usMineralExposures(db, catalogue, (slug) => sheetBySlug.get(slug)?.stress_index ?? null);
  const production = new Map<string, CountryProfile['production']>();
  // From the full tables: a sheet shows the top 15 producers, a profile every commodity the country produces.
  for (const [slug, { producers }] of shares) {
    producers?.entries.forEach((e, i) => {
      const list = production.get(e.iso3) ?? [];
      list.push({ commodity: slug, value: e.value, unit: producers.unit, share: round4(e.share), rank: i + 1, year: producers.year, source: producers.source });
      production.set(e.iso3, list);
    });
  }
  return countries.map((ref) => {
    const exp = exposures.get(ref.iso3) ?? [];
    const ce: CountryEnergy = energy.get(ref.iso3) ?? { iso3: ref.iso3, region: ref.region, years: new Map(), suppliers: new Map() };
    const st = countryStressAt(ce, x.today, x.eiLagDays, (slug) => sheetBySlug.get(slug)?.stress_index ?? null);
    const stressAsOf = maxDate(st.parts.filter((p) => p.material).map((p) => sheetBySlug.get(p.benchmark)?.stress.as_of));
    const history = months.map((d) => {
      // After a benchmark's last month end its current reading stands, as it does for the headline
      // index: coal's monthly price ending in May must not blank a country's June.
      const h = countryStressAt(ce, d, x.eiLagDays, (slug) => {
        const sheet = sheetBySlug.get(slug);
        const last = sheet?.stress_history.at(-1)?.date;
        return historyBySlug.get(slug)?.get(d) ?? (last && d > last ? (sheet?.stress_index ?? null) : null);
      });
      return { date: d, index: h.index, band: band(h.index), coverage: h.index === null ? 0 : 1 };
    });
    const iso2 = ref.iso2.toLowerCase();
    const reserves = [...readings.values()].filter((r) => r.reserve.country === iso2).map((r) => ({
      commodity: r.reserve.commodity, country: iso2, fill_pct: r.reserve.fill_pct, as_of: r.reserve.as_of, url: `/v1/reserves?commodity=${r.reserve.commodity}&country=${iso2}`,
    }));
    const years = [...exp.map((e) => `${e.year}-12-31`), ...reserves.map((r) => r.as_of), ...(production.get(ref.iso3) ?? []).map((p) => `${p.year}-12-31`)];
    return {
      iso3: ref.iso3, iso2: ref.iso2, name: names.nameOf3(ref.iso3, 'en'), names: names.namesOf3(ref.iso3), region: ref.region, subregion: ref.subregion,
      stress_index: st.index, stress_band: band(st.index),
      stress: {
        method: 'Σ over fuels above 5 % of primary energy of energy share × import dependence × (0.5 + 0.5 × supplier concentration score) × benchmark stress',
        methodology_version: METHODOLOGY_VERSION, as_of: stressAsOf, energy_year: st.year, ...(st.reason ? { reason: st.reason } : {}), parts: st.parts,
      },
      stress_history: history,
      exposures: exp,
      mineral_exposures: ref.iso3 === 'USA' ? usMinerals : [],
      autonomy: autonomy.get(ref.iso3) ?? [],
      supplier_concentration: exp.filter((e) => e.supplier_hhi !== null).map((e) => ({ commodity: e.commodity, hhi: e.supplier_hhi as number, year: e.suppliers_year ?? EI_TRADE_YEAR, basis: e.suppliers_basis ?? `import suppliers (EI trade movements ${EI_TRADE_YEAR})` })),
      production: (production.get(ref.iso3) ?? []).sort((a, b) => a.rank - b.rank),
      russian_gas_import_share: russian.get(ref.iso3) ?? [],
      reserves,
      updated_at: maxDate(years),
      url: `/v1/countries/${ref.iso3}`,
    };
  });
}

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;

/** Month-end stress readings as CSV: one row per id and month, fixed columns. */
function historyCsv(rows: readonly (readonly [string, readonly StressHistoryPoint[]])[]): string {
  const lines = ['id,date,index,band,coverage'];
  for (const [id, history] of rows) for (const h of history) lines.push(`${id},${h.date},${h.index ?? ''},${h.band ?? ''},${h.coverage}`);
  return `${lines.join('\r\n')}\r\n`;
}
export function maxDate(dates: readonly (string | null | undefined)[]): string | null {
  return dates.filter((d): d is string => !!d).sort().at(-1) ?? null;
}
export function unique<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}
export const repoPath = (...p: string[]) => join(import.meta.dirname, '..', ...p);

/** A page of the previous build, renamed to this one: its build id and build time, as written by the site. */
function renameBuild(text: string, prev: { build: string; generated_at: string }, build: string, generatedAt: string): string {
  return text.replaceAll(prev.build, build).replaceAll(prev.generated_at, generatedAt).replaceAll(dateTime(prev.generated_at), dateTime(generatedAt));
}
