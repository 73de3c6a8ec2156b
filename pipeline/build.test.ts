import { existsSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CommodityListResponse, CommoditySheetResponse } from '../contract/commodities.ts';
import { CountryProfileResponse } from '../contract/countries.ts';
import { BuildManifest } from '../contract/manifest.ts';
import { ReserveResponse } from '../contract/reserves.ts';
import { BacktestResult } from '../contract/stress.ts';
import { DATA_DIR, NO_SITE, SOURCES_DIR, readCsv, readJson, tempDir, testEffects } from '../test/support.ts';
import { buildSettings, readConfig } from '../lib/config.ts';
import { runBuild, type BuildResult } from './build.ts';
import { EXAMPLE_COMMODITIES, EXAMPLE_COUNTRIES, fillBlocks, methodologyBlocks } from './methodology-doc.ts';
import { METHODOLOGY_VERSION } from '../contract/common.ts';

// These builds never serve pages: the site stage (Astro, ~15 s) runs once, in the shared test build.

/** The real-data build: every figure pinned here is recomputed straight from the publisher's file. */
describe('build from the real sources', () => {
  let out: string;
  let result: BuildResult;
  const cur = (p: string) => join(out, 'current', p);

  beforeAll(async () => {
    out = await tempDir('build');
    result = await runBuild({ sourcesDir: SOURCES_DIR, dataDir: DATA_DIR, outDir: out, baseUrl: 'https://chokepoint.test', site: NO_SITE }, testEffects());
  });

  it('publishes every source fresh and switches current to the new build', () => {
    expect(result.sources.map((s) => [s.id, s.status])).toEqual(result.sources.map((s) => [s.id, 'fresh']));
    expect(readlinkSync(join(out, 'current'))).toBe(join('builds', result.build));
  });

  it("serves Germany's gas storage fill on the newest gas day exactly as GIE AGSI+ publishes it", () => {
    const rows = readCsv(join(SOURCES_DIR, 'gie-agsi-gas-storage/agsi_de_eu_daily_2020_2026.csv')).filter((r) => r.code === 'DE');
    const newest = rows.sort((a, b) => a.date!.localeCompare(b.date!)).at(-1)!;
    const body = ReserveResponse.parse(readJson(cur('v1/reserves/gas/de.json')));
    expect(body.data.as_of).toBe(newest.date);
    expect(body.data.fill_pct).toBe(Number(newest.fill_pct));
    expect(body.data.volume.value).toBeCloseTo(Number(newest.gas_in_storage_twh), 2);
    expect(body.meta.sources.map((s) => s.id)).toContain('gie-agsi-gas-storage');
  });

  it("serves Brent's newest daily spot exactly as EIA publishes it", () => {
    const rows = readCsv(join(SOURCES_DIR, 'eia-oil-prices/brent-daily.csv'));
    const newest = rows.sort((a, b) => a.Date!.localeCompare(b.Date!)).at(-1)!;
    const list = CommodityListResponse.parse(readJson(cur('v1/commodities.json')));
    const oil = list.data.find((c) => c.slug === 'energy.oil')!;
    expect(oil.price).toMatchObject({ value: Number(newest.Price), as_of: newest.Date, currency: 'USD', unit: 'bbl', frequency: 'daily' });
  });

  it("names cobalt's top producer and its share exactly as USGS does", () => {
    const rows = readCsv(join(SOURCES_DIR, 'usgs-mcs-2026/MCS2026_Commodities_Data.csv')).filter(
      (r) => r['MCS chapter'] === 'COBALT' && r.Year === '2025' && r.Section!.startsWith('World'),
    );
    const num = (s: string) => Number(s.replace(/,/g, ''));
    const producers = rows.filter((r) => r.Statistics_detail === 'Mine production' && !['World total', 'Other countries'].includes(r.Country!));
    const top = producers.sort((a, b) => num(b.Value!) - num(a.Value!))[0]!;
    const world = num(rows.find((r) => r.Country === 'World total' && r.Statistics_detail === 'Mine production: rounded')!.Value!);
    const sheet = CommoditySheetResponse.parse(readJson(cur('v1/commodities/metals.cobalt.json')));
    expect(top.Country).toBe('Congo (Kinshasa)');
    expect(sheet.data.producers!.entries[0]).toMatchObject({ iso3: 'COD', value: num(top.Value!) });
    // Shares are published to 4 decimals (docs/api.md, Precision).
    expect(sheet.data.producers!.entries[0]!.share).toBe(Math.round((num(top.Value!) / world) * 1e4) / 1e4);
    expect(sheet.data.producers!.year).toBe(2025);
  });

  it("serves the US SPR's newest week exactly as EIA's WCSSTUS1", () => {
    const rows = readCsv(join(SOURCES_DIR, 'eia-weekly-petroleum/eia-wpsr-us-weekly.csv')).filter((r) => r.id === 'WCSSTUS1');
    const newest = rows.sort((a, b) => a.period!.localeCompare(b.period!)).at(-1)!;
    const body = ReserveResponse.parse(readJson(cur('v1/reserves/oil/us.json')));
    expect(body.data).toMatchObject({ as_of: newest.period, volume: { value: Number(newest.value), unit: 'thousand barrels' } });
  });

  it("computes Germany's gas self-sufficiency as EI production over consumption, from the current (2026) edition", () => {
    const rows = readCsv(join(SOURCES_DIR, 'ei-statistical-review-2026/ei2026_country_year_long.csv')).filter(
      (r) => r.country === 'Germany' && r.year === '2025',
    );
    const prod = Number(rows.find((r) => r.sheet === 'Gas Production - Bcm')!.value);
    const cons = Number(rows.find((r) => r.sheet === 'Gas Consumption - Bcm')!.value);
    const profile = CountryProfileResponse.parse(readJson(cur('v1/countries/DEU.json')));
    const gas = profile.data.autonomy.find((a) => a.commodity === 'energy.gas')!;
    expect(gas.ratio).toBeCloseTo(prod / cons, 4);
    expect(gas).toMatchObject({ production: prod, consumption: cons, year: 2025, source: 'ei-statistical-review-2026' });
  });

  it('lets anyone recompute a stress index from the published components', () => {
    for (const slug of ['energy.gas', 'energy.oil', 'metals.cobalt', 'metals.gallium']) {
      const { stress } = CommoditySheetResponse.parse(readJson(cur(`v1/commodities/${slug}.json`))).data;
      const available = stress.components.filter((c) => c.available);
      // Fixed weights summing to 1: a missing component counts 0, nothing is rescaled.
      expect(
        stress.components.reduce((s, c) => s + c.weight, 0),
        slug,
      ).toBeCloseTo(1, 9);
      const sum = available.reduce((s, c) => s + 100 * c.weight * c.freshness_factor * (c.score ?? 0), 0);
      // 3.1.0: supply lost on a route with no detour reads on its own scale (the physical floor).
      const dis = available.find((c) => c.key === 'disruption');
      const floor = dis ? 75 * dis.freshness_factor * Math.min(1, Math.max(0, Number(dis.inputs.share_lost) / 0.07)) : null;
      if (floor === null) expect(stress.physical_floor, slug).toBeNull();
      // share_lost is published to 4 decimals: the floor recomputed from it agrees to 0.05 points.
      else expect(stress.physical_floor!, slug).toBeCloseTo(floor, 1);
      if (stress.index !== null) expect(stress.index, slug).toBeCloseTo(Math.max(sum, floor ?? 0), 0);
      expect(stress.coverage, slug).toBeCloseTo(
        available.reduce((s, c) => s + c.weight * c.freshness_factor, 0),
        3,
      );
      expect(stress.weights_rescaled, slug).toBe(false);
    }
  });

  it('dates each reading by its newest market input, and drops an input too old for that date', () => {
    const oil = CommoditySheetResponse.parse(readJson(cur('v1/commodities/energy.oil.json'))).data;
    const brent = readCsv(join(SOURCES_DIR, 'eia-oil-prices/brent-daily.csv'))
      .map((r) => r.Date!)
      .sort()
      .at(-1);
    expect(oil.stress.as_of).toBe(brent);
    // The SPR series ends in February 2026: months past its due date at the Brent date, so left out.
    expect(oil.stress.components.find((c) => c.key === 'reserves')).toMatchObject({ available: false, input_freshness: 'expired' });
    expect(oil.stress.components.find((c) => c.key === 'reserves')!.reason).toMatch(/too old/);
    // Concentration is structural risk now, published apart; oil's is never zero (the exporter stage counts).
    expect(oil.stress.components.map((c) => c.key)).toEqual(['price', 'reserves', 'disruption']);
    expect(oil.structural_risk).toMatchObject({ governance_weighted: false });
    expect(oil.structural_risk!.index).toBeGreaterThan(10);
    expect(oil.stress_history[0]).toMatchObject({ date: '2015-01-31' });
    expect(oil.stress_history.at(-1)!.date <= oil.stress.as_of).toBe(true);
  });

  it('publishes no current band without market data (gallium, germanium, antimony, tungsten, graphite), and structural risk where production is tabulated', () => {
    for (const slug of ['metals.gallium', 'metals.germanium', 'metals.antimony', 'metals.tungsten', 'metals.graphite']) {
      const s = CommoditySheetResponse.parse(readJson(cur(`v1/commodities/${slug}.json`))).data;
      expect(s, slug).toMatchObject({ stress_index: null, stress_band: null });
      expect(
        s.stress_history.every((p) => p.band === null),
        slug,
      ).toBe(true);
    }
    const ga = CommoditySheetResponse.parse(readJson(cur('v1/commodities/metals.gallium.json'))).data;
    expect(ga.stress.reason).toMatch(/no market data/);
    expect(ga.structural_risk).toMatchObject({ concentration: 'highly concentrated', top_supplier: 'CHN' });
  });

  it('measures the Hormuz closure from PortWatch transits: oil, LNG and urea read it without an editorial event', () => {
    const sheet = (slug: string) => CommoditySheetResponse.parse(readJson(cur(`v1/commodities/${slug}.json`))).data;
    const oil = sheet('energy.oil');
    const hormuz = oil.chokepoints.find((c) => c.chokepoint === 'hormuz')!;
    expect(hormuz).toMatchObject({ vessels: 'tanker', exposure_source: 'eia-chokepoints', as_of: '2026-08-16' });
    expect(hormuz.level_vs_normal!).toBeLessThan(0.1);
    expect(oil.stress.components.find((c) => c.key === 'disruption')).toMatchObject({ available: true, score: 1, contribution: 30 });
    // From March to August 2026, every month-end and the current reading (PortWatch runs to 16 August), whatever the price:
    // the physical floor (3.1.0), and a monthly price no longer ends the reading while the routes are measured.
    for (const slug of ['energy.oil', 'energy.lng', 'agri.urea']) {
      const s = sheet(slug);
      const closed = s.stress_history.filter((p) => p.date >= '2026-03-01');
      expect(
        closed.map((p) => p.date.slice(0, 7)),
        slug,
      ).toEqual(['2026-03', '2026-04', '2026-05', '2026-06', '2026-07']);
      for (const p of closed) expect(['high', 'severe'], `${slug} ${p.date}`).toContain(p.band);
      expect(s.stress.as_of >= '2026-08-16', slug).toBe(true);
      expect(s.stress.band, slug).toBe('severe');
      expect(s.stress.physical_floor, slug).toBe(75);
    }
    // Before the closure the route was open.
    expect(oil.stress_history.find((p) => p.date === '2026-02-28')!.band).toBe('low');
  });

  it("divides LNG exporters by EI's 'Total LNG exports' row (2026 edition, 2025)", () => {
    const rows = readCsv(join(SOURCES_DIR, 'ei-statistical-review-2026/ei2026_country_year_long.csv')).filter(
      (r) => r.sheet === 'Gas - LNG exports bcm' && r.year === '2025',
    );
    const world = Number(rows.find((r) => r.country === 'Total LNG exports')!.value);
    // The 2026 edition's LNG sheet writes ' US' (the loader trims labels).
    const us = Number(rows.find((r) => r.country?.trim() === 'US')!.value);
    const lng = CommoditySheetResponse.parse(readJson(cur('v1/commodities/energy.lng.json'))).data;
    const top = lng.producers!.entries[0]!;
    expect(top.iso3).toBe('USA');
    expect(top.share).toBe(Math.round((us / world) * 1e4) / 1e4);
    expect(lng.producers!.world_total).toBe(world);
    expect(lng.producers).toMatchObject({ year: 2025, source: 'ei-statistical-review-2026' });
  });

  it("gives Türkiye its pipeline gas suppliers (EI's 'Rest of Europe'), and counts no pipeline gas at Hormuz", () => {
    const tur = CountryProfileResponse.parse(readJson(cur('v1/countries/TUR.json'))).data;
    const gas = tur.exposures.find((e) => e.commodity === 'energy.gas')!;
    expect(gas.suppliers_basis).toMatch(/'Rest of Europe' aggregate/);
    expect(gas.suppliers.map((s) => s.iso3)).toEqual(expect.arrayContaining(['RUS', 'AZE', 'NOR']));
    const part = tur.stress.parts.find((p) => p.commodity === 'energy.gas')!;
    expect(part.suppliers_at_risk.find((s) => s.iso3 === 'IRN')).toBeUndefined();
  });

  it('weighs a country by its energy mix: negligible coal does not stress Qatar, and UK gas comes mostly from Norway', () => {
    const qat = CountryProfileResponse.parse(readJson(cur('v1/countries/QAT.json'))).data;
    const coal = qat.stress.parts.find((p) => p.commodity === 'energy.coal')!;
    expect(coal.material).toBe(false);
    expect(coal.contribution).toBe(0);
    expect(qat.stress_index).toBe(0);
    const gbr = CountryProfileResponse.parse(readJson(cur('v1/countries/GBR.json'))).data;
    const gas = gbr.exposures.find((e) => e.commodity === 'energy.gas')!;
    // EI gives the UK's pipeline imports only inside 'Rest of Europe': Norway now appears, with the basis said.
    expect(gas.suppliers.find((s) => s.iso3 === 'NOR')!.share).toBeGreaterThan(0.1);
    expect(gas.suppliers_basis).toMatch(/Rest of Europe/);
    expect(gbr.stress_history.length).toBeGreaterThan(100);
  });

  it("gives the United States' mineral import reliance and sources exactly as USGS prints them, outside its energy index", () => {
    const rows = readCsv(join(SOURCES_DIR, 'usgs-mcs-2026/MCS2026_Commodities_Data.csv')).filter((r) => r['MCS chapter'] === 'COBALT');
    const nir = rows.find((r) => r.Statistics === 'Net import reliance' && r.Year === '2025')!;
    const norway = rows.find((r) => r.Section === 'Import Sources' && r.Country === 'Norway')!;
    const usa = CountryProfileResponse.parse(readJson(cur('v1/countries/USA.json'))).data;
    const cobalt = usa.mineral_exposures.find((m) => m.commodity === 'metals.cobalt')!;
    expect(cobalt.net_import_reliance).toBe(Number(nir.Value) / 100);
    expect(cobalt.suppliers.find((s) => s.iso3 === 'NOR')!.value).toBe(Number(norway.Value));
    expect(usa.mineral_exposures.find((m) => m.commodity === 'metals.ironore')).toMatchObject({
      net_import_reliance_printed: 'E',
      net_import_reliance: 0,
      points: 0,
    });
    expect(usa.stress_index).toBeCloseTo(
      usa.stress.parts.reduce((s, p) => s + p.contribution, 0),
      1,
    );
    const deu = CountryProfileResponse.parse(readJson(cur('v1/countries/DEU.json'))).data;
    expect(deu.mineral_exposures).toEqual([]);
  });

  it('measures silver, platinum and palladium shocks in gold, and does not score gold’s own monetary price', () => {
    for (const slug of ['metals.silver', 'metals.platinum', 'metals.palladium']) {
      const price = CommoditySheetResponse.parse(readJson(cur(`v1/commodities/${slug}.json`))).data.stress.components.find((c) => c.key === 'price')!;
      expect(price.inputs.measured_against, slug).toBe('metals.gold');
    }
    const gold = CommoditySheetResponse.parse(readJson(cur('v1/commodities/metals.gold.json'))).data;
    expect(gold.price).not.toBeNull();
    expect(gold.stress.components.find((c) => c.key === 'price')).toMatchObject({ available: false, reason: expect.stringMatching(/monetary/) });
  });

  it('publishes the backtest of the windows committed before 3.0.0, with its rates and intervals (the 90 % target is reported, not asserted)', () => {
    const data = BacktestResult.parse(readJson(cur('data/stress/backtest.json')).data);
    expect([data.crises.length, data.calm.length]).toEqual([34, 57]);
    const hits = data.crises.filter((c) => c.hit).length;
    expect(data.hit_rate).toBe(Math.round((hits / 34) * 1e4) / 1e4);
    expect(data.hit_rate_ci[0]).toBeLessThan(data.hit_rate);
    expect(data.hit_rate_ci[1]).toBeGreaterThan(data.hit_rate);
    expect(data.false_alarm_rate).toBe(Math.round((data.calm_flagged / data.calm_months) * 1e4) / 1e4);
    // A crisis window with no index at all is a miss.
    for (const c of data.crises) if (c.scored === 0) expect(c.hit).toBe(false);
    expect(data.gscpi!.months).toBeGreaterThan(100);
    const csv = readFileSync(cur('data/stress/commodities.csv'), 'utf8');
    expect(csv.split('\r\n')[0]).toBe('id,date,index,band,coverage');
    expect(csv).toContain('energy.gas,2022-02-28,');
  });

  it('docs/methodology.md quotes this build: its worked examples and backtest table are generated from it', () => {
    const sheets = EXAMPLE_COMMODITIES.map((slug) => CommoditySheetResponse.parse(readJson(cur(`v1/commodities/${slug}.json`))).data);
    const profiles = EXAMPLE_COUNTRIES.map((iso) => CountryProfileResponse.parse(readJson(cur(`v1/countries/${iso}.json`))).data);
    const backtest = readJson(cur('data/stress/backtest.json')).data;
    const path = join(import.meta.dirname, '..', 'docs', 'methodology.md');
    const doc = readFileSync(path, 'utf8');
    const filled = fillBlocks(doc, methodologyBlocks(sheets, profiles, backtest));
    if (process.env.UPDATE_DOCS) {
      writeFileSync(path, filled);
      return;
    }
    expect(doc).toContain('<!-- generated:backtest -->');
    expect(doc).toContain(`**Methodology version ${METHODOLOGY_VERSION}**`);
    expect(filled === doc, 'docs/methodology.md is out of date: run UPDATE_DOCS=1 npx vitest run pipeline/build.test.ts').toBe(true);
  });

  it('writes a manifest whose hashes match the files, with every source provenance', () => {
    const manifest = BuildManifest.parse(readJson(cur('manifest.json')));
    expect(manifest.build).toBe(result.build);
    expect(Object.keys(manifest.files).length).toBe(result.files);
    for (const [path, f] of Object.entries(manifest.files)) {
      const bytes = readFileSync(cur(path));
      expect(createHash('sha256').update(bytes).digest('hex'), path).toBe(f.sha256);
    }
    for (const s of manifest.sources) expect(s.sha256 && s.retrieved_at && s.files.length > 0, s.id).toBeTruthy();
  });

  it('puts the licence, the backlink and the sources in every response', () => {
    const manifest = BuildManifest.parse(readJson(cur('manifest.json')));
    const v1 = Object.keys(manifest.files).filter((p) => p.startsWith('v1/'));
    expect(v1.length).toBeGreaterThan(150);
    for (const p of v1) {
      const { meta } = readJson(cur(p));
      expect(meta.license, p).toBe('CC-BY-4.0');
      expect(meta.attribution, p).toContain('https://chokepoint.test/');
      expect(meta.build, p).toBe(result.build);
      expect(meta.sources.length, p).toBeGreaterThan(0);
    }
  });

  it('writes the weekly data digest in every language; a week with no new reading says so and names the newest', () => {
    const rows = readCsv(join(SOURCES_DIR, 'gie-agsi-gas-storage/agsi_de_eu_daily_2020_2026.csv')).filter((r) => r.scope === 'EU');
    const newest = rows
      .map((r) => r.date)
      .sort()
      .at(-1)!;
    for (const lang of ['en', 'fr', 'de', 'es']) {
      const digest = readJson(cur(`v1/briefings/${lang}.json`)).data[0];
      expect(digest).toMatchObject({ id: `weekly-digest-2026-w47-${lang}`, published_at: '2026-11-22', lang });
    }
    // The mirror's series end months before 2026-11-22: no change of that week to list (pipeline/steps/digest.test.ts has the weeks with news).
    const en = readJson(cur('v1/briefings/en.json')).data[0].body as string;
    expect(en).toMatch(/## Prices\n\nNo price in the published data has a new observation this week; the newest is from \d{4}-\d{2}-\d{2}\./);
    expect(en).toContain(`No new gas storage reading this week; the newest is from ${newest}.`);
  });

  it('does not reload a source whose files did not change', async () => {
    const again = await runBuild(
      { sourcesDir: SOURCES_DIR, dataDir: DATA_DIR, outDir: out, baseUrl: 'https://chokepoint.test', site: NO_SITE },
      testEffects(new Date('2026-11-22T00:15:00Z')),
    );
    expect(new Set(again.sources.map((s) => s.status))).toEqual(new Set(['unchanged']));
    expect(again.build).not.toBe(result.build);
    expect(existsSync(join(out, 'builds', result.build))).toBe(true);
    expect(readlinkSync(join(out, 'current'))).toBe(join('builds', again.build));
  });

  it('states the rebuild interval the operator set (REBUILD_EVERY) in openapi.json and llms.txt, 15 minutes when unset', async () => {
    const texts = () => [JSON.parse(readFileSync(cur('openapi.json'), 'utf8')).info.description as string, readFileSync(cur('llms.txt'), 'utf8')];
    for (const t of texts()) expect(t).toContain('The data is rebuilt every 15 minutes.');
    const { rebuildEveryMs } = buildSettings(readConfig({ REBUILD_EVERY: '1h' }));
    await runBuild(
      { sourcesDir: SOURCES_DIR, dataDir: DATA_DIR, outDir: out, baseUrl: 'https://chokepoint.test', site: NO_SITE, rebuildEveryMs },
      testEffects(new Date('2026-11-22T01:00:00Z')),
    );
    for (const t of texts()) {
      expect(t).toContain('The data is rebuilt every hour.');
      expect(t).not.toMatch(/15 minutes/);
    }
  });
});
