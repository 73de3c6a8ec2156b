import { createServer } from 'node:http';
import { mkdtemp, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Db } from '../db.ts';
import { COUNTRY_ALIASES } from './country-aliases.ts';
import { countryCodesSource } from './country-codes.ts';
import { readCsvRecords, recording, replayFetch } from '../../test/publisher-recordings.ts';
import { eiStatisticalReviewSource } from './ei-statistical-review.ts';
import { eurostatGasImportsSource } from './eurostat-gas-imports.ts';
import { SourceError } from './types.ts';
import { usgsMcsSource } from './usgs-mcs.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const mirror = (id: string) => join(process.env.SOURCES_DIR ?? resolve(repoRoot, '../shared/sources'), id);

const HEADER =
  'ISO3166-1-Alpha-2,ISO3166-1-Alpha-3,M49,CLDR display name,official_name_en,official_name_fr,UNTERM Spanish Short,UNTERM English Short,Region Name,Sub-region Name,is_independent';
const FIXTURE = [
  HEADER,
  'NA,NAM,516,Namibia,Namibia,Namibie,Namibia,Namibia,Africa,Sub-Saharan Africa,Yes',
  'AF,AFG,4,Afghanistan,Afghanistan,Afghanistan,Afganistán (el),Afghanistan,Asia,Southern Asia,Yes',
  'BS,BHS,44,Bahamas,Bahamas,Bahamas,Bahamas (las),Bahamas (the),Americas,Latin America and the Caribbean,Yes',
  'HK,HKG,344,Hong Kong,"China, Hong Kong Special Administrative Region",Chine,,,Asia,Eastern Asia,Part of CN',
  ',,,Nowhere,Nowhere,,,,,,',
].join('\n');

async function fixtureDir(csv = FIXTURE): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cc-'));
  await writeFile(join(dir, 'country-codes.csv'), csv + '\n');
  return dir;
}

describe('country-codes adapter', () => {
  let db: Db;
  beforeAll(async () => (db = await Db.open()));
  afterAll(() => db.close());

  it('keeps NA as Namibia, pads M49, skips rows without alpha-3 and adds aliases', async () => {
    await countryCodesSource.load(db, await fixtureDir());
    const rows = await db.all(`SELECT * FROM country_codes ORDER BY iso3`);
    expect(rows.map((r) => r.iso3)).toEqual(['AFG', 'BHS', 'HKG', 'NAM']);
    expect(rows[3]).toEqual({
      iso2: 'NA',
      iso3: 'NAM',
      m49: '516',
      name_en: 'Namibia',
      official_name_en: 'Namibia',
      official_name_fr: 'Namibie',
      name_es: 'Namibia',
      region: 'Africa',
      subregion: 'Sub-Saharan Africa',
      is_independent: true,
    });
    expect(rows[0]!.m49).toBe('004');
    expect(rows[2]!.is_independent).toBe(false);
    const lookup = async (name: string) => (await db.one<{ iso3: string }>(`SELECT iso3 FROM country_names WHERE name = ?`, [name]))?.iso3;
    expect(await lookup('na')).toBe('NAM');
    expect(await lookup('bahamas (the)')).toBe('BHS');
    expect(await lookup('bahamas')).toBe('BHS');
    expect(await lookup('china hong kong sar')).toBe('HKG'); // alias
    expect(await lookup('dr congo')).toBe('COD'); // alias, even without a COD row in the file
    expect(await lookup('nowhere')).toBeUndefined();
  });

  it('throws SourceError for a missing file or a header without the ISO columns', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'cc-'));
    await expect(countryCodesSource.load(db, empty)).rejects.toBeInstanceOf(SourceError);
    await expect(countryCodesSource.load(db, await fixtureDir('name,code\nNamibia,NA'))).rejects.toBeInstanceOf(SourceError);
    await expect(countryCodesSource.load(db, await fixtureDir(HEADER))).rejects.toBeInstanceOf(SourceError);
  });

  it('loads the real file: 249 codes, one iso3 per name', async () => {
    await countryCodesSource.load(db, mirror(countryCodesSource.id));
    expect(await db.one(`SELECT count(*)::INTEGER AS n FROM country_codes`)).toEqual({ n: 249 });
    expect(await db.one(`SELECT iso2, m49, name_en FROM country_codes WHERE iso3 = 'NAM'`)).toEqual({ iso2: 'NA', m49: '516', name_en: 'Namibia' });
    expect(await db.one(`SELECT count(*)::INTEGER AS n FROM (SELECT name FROM country_names GROUP BY name HAVING count(DISTINCT iso3) > 1)`)).toEqual({ n: 0 });
    expect(await db.one(`SELECT count(*)::INTEGER AS n FROM (SELECT name FROM country_names GROUP BY name HAVING count(*) > 1)`)).toEqual({ n: 0 });
    // Every alias points at a real ISO code (Kosovo's user-assigned XKX is the one exception).
    const iso3s = new Set((await db.all<{ iso3: string }>(`SELECT iso3 FROM country_codes`)).map((r) => r.iso3));
    expect(Object.entries(COUNTRY_ALIASES).filter(([, iso]) => !iso3s.has(iso))).toEqual([['kosovo', 'XKX']]);
    for (const [name, iso3] of [
      ['russian federation', 'RUS'],
      ['us', 'USA'],
      ['türkiye', 'TUR'],
      ['viet nam', 'VNM'],
    ] as const) {
      expect(await db.one(`SELECT iso3 FROM country_names WHERE name = ?`, [name])).toEqual({ iso3 });
    }
  });

  it('maps every non-aggregate country of EI, USGS and Eurostat to an iso3', async () => {
    const all = await Db.open();
    try {
      for (const a of [countryCodesSource, eiStatisticalReviewSource, usgsMcsSource, eurostatGasImportsSource]) {
        await a.load(all, mirror(a.id));
      }
      const unmatched = await all.all<{ src: string; name: string }>(`
        SELECT DISTINCT src, name FROM (
          SELECT 'ei_energy' AS src, country AS name FROM ei_energy WHERE NOT is_aggregate
          UNION ALL SELECT 'ei_mine_production', country FROM ei_mine_production WHERE NOT is_aggregate
          UNION ALL SELECT 'ei_mineral_reserves', country FROM ei_mineral_reserves WHERE NOT is_aggregate
          UNION ALL SELECT 'ei_trade.exporter', exporter FROM ei_trade WHERE NOT exporter_is_aggregate
          UNION ALL SELECT 'ei_trade.importer', importer FROM ei_trade WHERE NOT importer_is_aggregate
          UNION ALL SELECT 'usgs_world', country FROM usgs_world WHERE NOT is_aggregate
          -- 'China, Germany, and Russia' is one joint share, not a country.
          UNION ALL SELECT 'usgs_us', country FROM usgs_us WHERE section = 'Import Sources' AND NOT is_aggregate AND country NOT LIKE '%, and %'
          UNION ALL SELECT 'eurostat_gas_imports', geo FROM eurostat_gas_imports WHERE NOT is_aggregate
        ) s
        WHERE lower(trim(name)) NOT IN (SELECT name FROM country_names)
        ORDER BY src, name`);
      expect(unmatched, `unmatched: ${unmatched.map((u) => `${u.src}: ${u.name}`).join('; ')}`).toEqual([]);
    } finally {
      all.close();
    }
  });

  it('downloads the CSV from the publisher address and loads it', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(req.url ?? '');
      res.writeHead(req.url === '/datasets/country-codes/main/data/country-codes.csv' ? 200 : 404);
      res.end(req.url?.endsWith('country-codes.csv') ? FIXTURE : '');
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const fetchImpl: typeof fetch = (input, init) => fetch(String(input).replace(/^https:\/\/[^/]+/, base), init);
    try {
      const dir = await mkdtemp(join(tmpdir(), 'cc-dl-'));
      await countryCodesSource.download(dir, fetchImpl);
      await countryCodesSource.load(db, dir);
      expect(seen).toEqual(['/datasets/country-codes/main/data/country-codes.csv']);
      expect(await db.one(`SELECT count(*)::INTEGER AS n FROM country_codes`)).toEqual({ n: 4 });
    } finally {
      server.close();
    }
  });

  it('downloads the recorded current file (2026-05-15) and reads it: 249 codes, Türkiye under both names', async () => {
    const publisher = replayFetch([
      {
        url: /^https:\/\/raw\.githubusercontent\.com\/datasets\/country-codes\/main\/data\/country-codes\.csv$/,
        body: recording('country-codes/country-codes.csv'),
      },
    ]);
    const dir = await mkdtemp(join(tmpdir(), 'cc-rec-'));
    await countryCodesSource.download(dir, publisher.fetch);
    expect(publisher.asked).toEqual([countryCodesSource.files[0]!.url]);
    await countryCodesSource.load(db, dir);
    expect(await db.one(`SELECT count(*)::INTEGER AS n FROM country_codes`)).toEqual({ n: 249 });
    expect(await db.one(`SELECT name_en FROM country_codes WHERE iso3 = 'TUR'`)).toEqual({ name_en: 'Türkiye' });
    for (const name of ['türkiye', 'turkey']) expect(await db.one(`SELECT iso3 FROM country_names WHERE name = ?`, [name])).toEqual({ iso3: 'TUR' });
    // The recording is the file the mirror holds: the same codes and names, row for row.
    const ours = readCsvRecords(join(dir, 'country-codes.csv'));
    expect(ours).toHaveLength(249);
    expect(ours).toEqual(readCsvRecords(join(mirror(countryCodesSource.id), 'country-codes.csv')));
  });
});
