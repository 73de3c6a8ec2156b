import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { LICENSE, LICENSE_URL, METHODOLOGY_VERSION, type Meta, type SourceRef } from '../contract/common.ts';
import { CommodityListResponse, CommoditySheetResponse, type CommodityListEntry, type CommoditySheet } from '../contract/commodities.ts';
import { CountryIndexResponse, CountryProfileResponse, type CountryProfile } from '../contract/countries.ts';
import type { SourceStatus } from '../contract/manifest.ts';
import { ReserveIndexFile, ReserveResponse, ReserveSeriesFile } from '../contract/reserves.ts';
import { type Commodity, loadCatalogue } from './catalogue.ts';
import { type ContentBundle, publishContent, readContent } from './content-stage.ts';
import { Db } from './db.ts';
import { type Effects, timed } from './effects.ts';
import { ingestSource } from './ingest.ts';
import { countryNames } from './names.ts';
import { buildPaths, openBuild, publishBuild, discardBuild, type BuildWriter } from './publish.ts';
import { SOURCES } from './sources/registry.ts';
import type { SourceAdapter } from './sources/types.ts';
import { coveredCountries, countryStress, energyExposures, russianGasShares } from './steps/countries.ts';
import { buildPriceTables, latestPrices, priceAnomalies, priceFrequency, priceHistory } from './steps/prices.ts';
import { gasStorageReading, usOilReading, type ReserveReading } from './steps/reserves.ts';
import { EI_TRADE_YEAR, HHI_THRESHOLDS, hhi, hhiBand, shareTable, topFlows, type ShareTableData } from './steps/shares.ts';
import { band, commodityStress, eventPressure } from './steps/stress.ts';
import { weeklyDigest } from './steps/digest.ts';
import { publishDiscovery } from './discovery/stage.ts';
import { publishSearchIndex } from './search/stage.ts';
import { cachedStage, keyOf, previousBuild, treeHash } from './stage-cache.ts';
import { dateTime } from '../site/src/lib/format.ts';
import { readFile } from 'node:fs/promises';

export interface BuildOptions {
  sourcesDir: string;
  dataDir: string;
  outDir: string;
  baseUrl: string;
  download?: boolean;
  sources?: readonly SourceAdapter[];
}

export interface BuildResult {
  build: string;
  dir: string;
  files: number;
  sources: SourceStatus[];
  durationMs: number;
}

export const EDITORIAL_SOURCE = 'chokepoint-editorial';
/** docs/<page>.md published at /docs/<page>. */
export const DOC_PAGES = ['api', 'methodology', 'security', 'content'] as const;

/** One full build: ingest every source, compute the indicators, write and validate every output, publish. */
export async function runBuild(opts: BuildOptions, fx: Effects): Promise<BuildResult> {
  const started = performance.now();
  const generatedAt = fx.now();
  const db = await Db.open();
  let writer: BuildWriter | undefined;
  try {
    const catalogue = await timed(fx.log, 'catalogue', () => loadCatalogue(opts.dataDir), (c) => `${c.length} commodities`);
    const statuses: SourceStatus[] = [];
    const paths = buildPaths(opts.outDir);
    for (const adapter of opts.sources ?? SOURCES) {
      const status = await timed(fx.log, `source ${adapter.id}`, () =>
        ingestSource(db, adapter, { sourcesDir: opts.sourcesDir, snapshotsDir: paths.snapshots, download: opts.download ?? false }, fx),
        (s) => `${s.status}${s.data_as_of ? `, data to ${s.data_as_of}` : ''}`,
      );
      statuses.push(status);
    }

    const inputsHash = createHash('sha256')
      .update(statuses.map((s) => `${s.id}:${s.sha256}`).join('\n'))
      .update(METHODOLOGY_VERSION)
      .digest('hex')
      .slice(0, 8);
    const buildId = `${generatedAt.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}-${inputsHash}`;
    writer = await openBuild(opts.outDir, buildId);
    const metaFor = metaFactory({ build: buildId, generatedAt: generatedAt.toISOString(), baseUrl: opts.baseUrl, statuses });
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
    const sheets: CommoditySheet[] = [];
    await timed(fx.log, 'commodity stress and sheets', async () => {
      for (const c of catalogue) sheets.push(await commoditySheet(db, c, { latest, anomalies, shares, readings, content, today }));
    }, () => `${sheets.length} sheets`);
    for (const s of sheets) {
      await writer!.json(`v1/commodities/${s.slug}.json`, CommoditySheetResponse, {
        data: s,
        meta: metaFor(commoditySources(catalogue.find((c) => c.slug === s.slug)!, s), s.updated_at, { methodology_version: METHODOLOGY_VERSION }),
      });
    }
    const list: CommodityListEntry[] = sheets.map(toListEntry).sort((a, b) => a.slug.localeCompare(b.slug));
    await writer.json('v1/commodities.json', CommodityListResponse, {
      data: list,
      meta: metaFor(unique(sheets.flatMap((s) => commoditySources(catalogue.find((c) => c.slug === s.slug)!, s))), maxDate(sheets.flatMap((s) => [s.price?.as_of, ...s.stress.components.filter((k) => k.key !== 'events').map((k) => k.as_of)])), { count: list.length, methodology_version: METHODOLOGY_VERSION }),
    });

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
      const sources = r.reserve.commodity === 'gas' ? ['gie-agsi-gas-storage', 'ei-statistical-review-2024'] : ['eia-weekly-petroleum'];
      await writer.json(`v1/reserves/${key}.json`, ReserveResponse, { data: r.reserve, meta: metaFor(sources, r.reserve.as_of) });
      await writer.json(`data/reserves/${key}.json`, ReserveSeriesFile, { data: r.series, meta: metaFor(sources, r.reserve.as_of) });
      reserveIndex.push({ commodity: r.reserve.commodity, country: r.reserve.country, name: r.reserve.name, as_of: r.reserve.as_of, url: `/v1/reserves?commodity=${r.reserve.commodity}&country=${r.reserve.country}` });
    }
    await writer.json('data/reserves.json', ReserveIndexFile, { data: reserveIndex, meta: metaFor(['gie-agsi-gas-storage', 'eia-weekly-petroleum'], maxDate(reserveIndex.map((r) => r.as_of)), { count: reserveIndex.length }) });

    // Countries.
    const profiles = await timed(fx.log, 'country profiles', () => countryProfiles(db, sheets, shares, readings, names), (p) => `${p.length} countries`);
    for (const p of profiles) {
      await writer.json(`v1/countries/${p.iso3}.json`, CountryProfileResponse, { data: p, meta: metaFor(['ei-statistical-review-2024', 'usgs-mcs-2026', 'eurostat-gas-imports-by-partner', 'country-codes', ...(p.reserves.length ? ['gie-agsi-gas-storage'] : [])], p.updated_at, { methodology_version: METHODOLOGY_VERSION }) });
    }
    await writer.json('data/countries.json', CountryIndexResponse, {
      data: profiles.map((p) => ({ iso3: p.iso3, iso2: p.iso2, name: p.name, stress_index: p.stress_index, stress_band: p.stress_band, url: p.url })),
      meta: metaFor(['country-codes', 'ei-statistical-review-2024'], maxDate(profiles.map((p) => p.updated_at)), { count: profiles.length }),
    });

    await timed(fx.log, 'editorial outputs', () => publishContent(writer!, content, metaFor));
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
      (r) => (r.reused ? `unchanged, ${r.files} files reused` : `${r.result.documents} documents, ${r.result.embedder.kind} vectors`),
    );
    const { version } = JSON.parse(await readFile(repoPath('package.json'), 'utf8')) as { version: string };
    await timed(fx.log, 'contract and discovery files', async () => {
      await publishDiscovery(writer!, { baseUrl: opts.baseUrl, version, buildId, now: generatedAt, briefings: content.briefings, events: content.events });
      // The human guides the discovery files link to, as Markdown (the site renders them as pages).
      for (const page of DOC_PAGES) await writer!.raw(`docs/${page}`, await readFile(repoPath('docs', `${page}.md`)), 'text/markdown; charset=utf-8');
    });
    const siteKey = keyOf(
      code,
      opts.baseUrl,
      generatedAt.getUTCFullYear(),
      Object.entries(writer.payloadHashes).sort(),
      // fresh and unchanged read the same on the site: both mean the source is current.
      statuses.map((s) => [s.id, s.status === 'fresh' ? 'unchanged' : s.status, s.retrieved_at, s.data_as_of, s.stale_reason]),
      (await readFile(join(writer.dir, 'openapi.json'), 'utf8')).replaceAll(buildId, ''),
    );
    await timed(fx.log, 'site', () =>
      cachedStage({
        writer: writer!, stages, previous: live, name: 'site', prefix: 'site/', key: siteKey,
        run: async () => (await import('./site-stage.ts')).publishSite(writer!, { buildDir: writer!.dir, build: buildId, generatedAt: generatedAt.toISOString(), baseUrl: opts.baseUrl, sources: statuses }),
        // Pages name their build in the footer; everything else on them comes from the payloads.
        rewrite: (path, bytes, prev) => (/\.(html|csv|json|txt)$/.test(path) ? Buffer.from(renameBuild(bytes.toString('utf8'), prev.manifest, buildId, generatedAt.toISOString())) : bytes),
      }),
      (r) => (r.reused ? `unchanged, ${r.files} files reused` : `${r.result.pages} pages, ${r.result.files} files, ${Math.round(r.result.bytes / 1024)} KB`),
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
    return { build: buildId, dir, files, sources: statuses, durationMs: Math.round(performance.now() - started) };
  } finally {
    if (writer) await discardBuild(writer);
    db.close();
  }
}

export type MetaFor = (sources: readonly string[], asOf: string | null, extra?: Partial<Meta>) => Meta;

function metaFactory(x: { build: string; generatedAt: string; baseUrl: string; statuses: readonly SourceStatus[] }): MetaFor {
  const refs = new Map<string, SourceRef>();
  for (const s of x.statuses) {
    if (s.status === 'unavailable' || !s.retrieved_at) continue;
    refs.set(s.id, { id: s.id, publisher: s.publisher, dataset: s.dataset, url: s.url, license: s.license, retrieved_at: s.retrieved_at, stale: s.status === 'stale' });
  }
  refs.set(EDITORIAL_SOURCE, {
    id: EDITORIAL_SOURCE, publisher: 'Chokepoint', dataset: 'Editorial content: events, scenarios, briefings', url: `${x.baseUrl}/`,
    license: LICENSE, retrieved_at: x.generatedAt, stale: false,
  });
  const attribution = `Chokepoint (${x.baseUrl}/), licensed ${LICENSE}. Reuse requires attribution with a link back to ${x.baseUrl}/. Upstream sources keep their own terms (meta.sources).`;
  return (sources, asOf, extra = {}) => {
    const used = unique(sources).map((id) => refs.get(id)).filter((r): r is SourceRef => r !== undefined);
    const stale = used.filter((r) => r.stale).map((r) => `${r.id} could not be refreshed; its last good snapshot (retrieved ${r.retrieved_at}) is served`);
    return {
      as_of: asOf, generated_at: x.generatedAt, build: x.build, license: LICENSE, license_url: LICENSE_URL, attribution, sources: used,
      ...extra,
      ...(stale.length ? { notes: [...(extra.notes ?? []), ...stale] } : {}),
    };
  };
}

interface SheetContext {
  latest: Awaited<ReturnType<typeof latestPrices>>;
  anomalies: Awaited<ReturnType<typeof priceAnomalies>>;
  shares: Map<string, { producers: ShareTableData | null; consumers: ShareTableData | null; inGround: ShareTableData | null }>;
  readings: Map<string, ReserveReading>;
  content: ContentBundle;
  today: string;
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
  const topSuppliers = new Set(producers?.entries.slice(0, 3).map((e) => e.iso3) ?? []);
  const stress = commodityStress({
    slug: c.slug,
    asOf: x.today,
    anomaly: x.anomalies.get(c.slug),
    priceSource: c.price?.source ?? null,
    concentration,
    reserve: reading
      ? {
          shortfall: reading.shortfall, inputs: reading.shortfall_inputs, as_of: reading.reserve.as_of,
          source: reading.reserve.commodity === 'gas' ? 'gie-agsi-gas-storage' : 'eia-weekly-petroleum',
          label: reading.reserve.commodity === 'gas' ? 'relative shortfall of EU storage fill against its seasonal norm' : 'relative shortfall of US SPR days of net-import cover against 90 days',
        }
      : null,
    events: eventPressure(c.slug, x.content.events, topSuppliers, x.today),
  });
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
    price_history: lp && c.price ? { frequency: priceFrequency(c.price.source), currency: c.price.currency, unit: c.price.unit, points: history } : null,
    reserves: [...x.readings.keys()]
      .filter((k) => reserveCode !== null && k.startsWith(`${reserveCode}/`))
      .map((k) => k.split('/')[1] as string)
      .map((country) => ({ country, url: `/v1/reserves?commodity=${reserveCode}&country=${country}` })),
  };
}

function commoditySources(c: Commodity, s: CommoditySheet): string[] {
  return [
    ...(s.price ? [s.price.source] : []),
    ...(c.production ? [c.production.source] : []),
    ...(c.consumption ? [c.consumption.source] : []),
    ...(c.trade ? ['ei-statistical-review-2024'] : []),
    ...(s.stress.components.find((k) => k.key === 'reserves')?.source ? [s.stress.components.find((k) => k.key === 'reserves')!.source!] : []),
    EDITORIAL_SOURCE,
  ];
}

function toListEntry(s: CommoditySheet): CommodityListEntry {
  return { slug: s.slug, code: s.code, group: s.group, name: s.name, names: s.names, unit: s.unit, price: s.price, stress_index: s.stress_index, stress_band: s.stress_band, updated_at: s.updated_at, url: s.url };
}

async function countryProfiles(
  db: Db,
  sheets: readonly CommoditySheet[],
  shares: SheetContext['shares'],
  readings: Map<string, ReserveReading>,
  names: Awaited<ReturnType<typeof countryNames>>,
): Promise<CountryProfile[]> {
  const countries = await coveredCountries(db);
  const { exposures, autonomy } = await energyExposures(db);
  const russian = await russianGasShares(db);
  const stressBySlug = new Map(sheets.map((s) => [s.slug, s.stress_index]));
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
    const st = countryStress(exp, stressBySlug);
    const iso2 = ref.iso2.toLowerCase();
    const reserves = [...readings.values()].filter((r) => r.reserve.country === iso2).map((r) => ({
      commodity: r.reserve.commodity, country: iso2, fill_pct: r.reserve.fill_pct, as_of: r.reserve.as_of, url: `/v1/reserves?commodity=${r.reserve.commodity}&country=${iso2}`,
    }));
    const years = [...exp.map((e) => `${e.year}-12-31`), ...reserves.map((r) => r.as_of), ...(production.get(ref.iso3) ?? []).map((p) => `${p.year}-12-31`)];
    return {
      iso3: ref.iso3, iso2: ref.iso2, name: names.nameOf3(ref.iso3, 'en'), names: names.namesOf3(ref.iso3), region: ref.region, subregion: ref.subregion,
      stress_index: st.index, stress_band: band(st.index),
      stress: { method: 'mean over consumed energy commodities of import dependence × (0.5 + 0.5 × supplier concentration score) × commodity stress', methodology_version: METHODOLOGY_VERSION, parts: st.parts },
      exposures: exp,
      autonomy: autonomy.get(ref.iso3) ?? [],
      supplier_concentration: exp.filter((e) => e.supplier_hhi !== null).map((e) => ({ commodity: e.commodity, hhi: e.supplier_hhi as number, year: e.suppliers_year ?? EI_TRADE_YEAR, basis: 'import suppliers (EI trade movements 2023)' })),
      production: (production.get(ref.iso3) ?? []).sort((a, b) => a.rank - b.rank),
      russian_gas_import_share: russian.get(ref.iso3) ?? [],
      reserves,
      updated_at: maxDate(years),
      url: `/v1/countries/${ref.iso3}`,
    };
  });
}

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
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
