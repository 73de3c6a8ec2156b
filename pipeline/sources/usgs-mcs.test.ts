import { createServer } from 'node:http';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Db } from '../db.ts';
import { SourceError } from './types.ts';
import { usgsMcsSource } from './usgs-mcs.ts';
import { readCsvRecords, recording, replayFetch } from '../../test/publisher-recordings.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const mirror = join(process.env.SOURCES_DIR ?? resolve(repoRoot, '../shared/sources'), usgsMcsSource.id);
const FILE = 'MCS2026_Commodities_Data.csv';

const HEADER = 'MCS chapter,Section,Commodity,Country,Statistics,Statistics_detail,Unit,Year,Value,Notes,Is critical mineral 2025,Other notes';
const row = (country: string, value: string, section = 'World Mine Production and Reserves', year = '2025', stat = 'Production') =>
  `COBALT,${section},Cobalt,${country},${stat},Mine production,metric tons,${year},${value},,Yes,`;
const FIXTURE = [
  HEADER,
  row('"Congo (Kinshasa)"', '"230,000"'),
  row('United States', 'W'),
  row('Canada', 'NA'),
  row('Japan', '—'),
  row('Australia', '"10,000 - 15,000"'),
  row('Cuba', '"500–16,000"', 'World Mine Production and Reserves:'),
  row('Finland', '">540,000"', 'World Mine Production and Reserves', '2025', 'Reserves'),
  row('Morocco', '<1'),
  row('Russia', 'Large', 'World Mine Production and Reserves', '2025', 'Reserves'),
  row('Other countries', '"13,800"'),
  row('World total', '"310,000"'),
  row('United States', '"1,000"', 'Salient Statistics—United States', '2021'),
  row('United States', '45', 'Import Sources', '2021–24'),
].join('\n');

/** What USGS serves: Windows-1252, where the dashes are single bytes 0x96/0x97. */
const cp1252 = (s: string) => Buffer.from([...s].map((ch) => ({ '–': 0x96, '—': 0x97 })[ch] ?? ch.charCodeAt(0)));

async function fixtureDir(csv = FIXTURE): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'usgs-'));
  await writeFile(join(dir, FILE), csv + '\n');
  return dir;
}

describe('usgs-mcs-2026 adapter', () => {
  let db: Db;
  beforeAll(async () => (db = await Db.open()));
  afterAll(() => db.close());

  it('keeps world tables only, parses separators, codes, ranges and bounds', async () => {
    await usgsMcsSource.load(db, await fixtureDir());
    const rows = await db.all(`SELECT country, section, is_aggregate, is_world_total, value, value_code, value_low, value_high
                               FROM usgs_world ORDER BY country`);
    expect(rows).toEqual([
      {
        country: 'Australia',
        section: 'World Mine Production and Reserves',
        is_aggregate: false,
        is_world_total: false,
        value: null,
        value_code: '10,000 - 15,000',
        value_low: 10000,
        value_high: 15000,
      },
      {
        country: 'Canada',
        section: 'World Mine Production and Reserves',
        is_aggregate: false,
        is_world_total: false,
        value: null,
        value_code: 'NA',
        value_low: null,
        value_high: null,
      },
      {
        country: 'Congo (Kinshasa)',
        section: 'World Mine Production and Reserves',
        is_aggregate: false,
        is_world_total: false,
        value: 230000,
        value_code: null,
        value_low: null,
        value_high: null,
      },
      {
        country: 'Cuba',
        section: 'World Mine Production and Reserves',
        is_aggregate: false,
        is_world_total: false,
        value: null,
        value_code: '500–16,000',
        value_low: 500,
        value_high: 16000,
      },
      {
        country: 'Finland',
        section: 'World Mine Production and Reserves',
        is_aggregate: false,
        is_world_total: false,
        value: null,
        value_code: '>540,000',
        value_low: 540000,
        value_high: null,
      },
      {
        country: 'Japan',
        section: 'World Mine Production and Reserves',
        is_aggregate: false,
        is_world_total: false,
        value: null,
        value_code: '—',
        value_low: 0,
        value_high: 0,
      },
      {
        country: 'Morocco',
        section: 'World Mine Production and Reserves',
        is_aggregate: false,
        is_world_total: false,
        value: null,
        value_code: '<1',
        value_low: 0,
        value_high: 1,
      },
      {
        country: 'Other countries',
        section: 'World Mine Production and Reserves',
        is_aggregate: true,
        is_world_total: false,
        value: 13800,
        value_code: null,
        value_low: null,
        value_high: null,
      },
      {
        country: 'Russia',
        section: 'World Mine Production and Reserves',
        is_aggregate: false,
        is_world_total: false,
        value: null,
        value_code: 'Large',
        value_low: null,
        value_high: null,
      },
      {
        country: 'United States',
        section: 'World Mine Production and Reserves',
        is_aggregate: false,
        is_world_total: false,
        value: null,
        value_code: 'W',
        value_low: null,
        value_high: null,
      },
      {
        country: 'World total',
        section: 'World Mine Production and Reserves',
        is_aggregate: true,
        is_world_total: true,
        value: 310000,
        value_code: null,
        value_low: null,
        value_high: null,
      },
    ]);
    expect(await db.one(`SELECT chapter, commodity, statistic, detail, unit, year, is_critical FROM usgs_world WHERE country = 'World total'`)).toEqual({
      chapter: 'COBALT',
      commodity: 'Cobalt',
      statistic: 'Production',
      detail: 'Mine production',
      unit: 'metric tons',
      year: '2025',
      is_critical: true,
    });
    // The US tables go to usgs_us: import sources here (salient production rows stay out).
    expect(await db.all(`SELECT country, section, year, value FROM usgs_us`)).toEqual([
      { country: 'United States', section: 'Import Sources', year: '2021–24', value: 45 },
    ]);
  });

  it('throws SourceError for a missing file, a bad header or no world rows', async () => {
    await expect(usgsMcsSource.load(db, await mkdtemp(join(tmpdir(), 'usgs-')))).rejects.toBeInstanceOf(SourceError);
    await expect(usgsMcsSource.load(db, await fixtureDir('Chapter,Country,Value\nCOBALT,Cuba,1'))).rejects.toBeInstanceOf(SourceError);
    await expect(usgsMcsSource.load(db, await fixtureDir([HEADER, row('United States', '1', 'Import Sources')].join('\n')))).rejects.toBeInstanceOf(
      SourceError,
    );
  });

  it('loads the real MCS 2026 file', async () => {
    await usgsMcsSource.load(db, mirror);
    const top = await db.all(`SELECT country, value FROM usgs_world
      WHERE chapter = 'COBALT' AND statistic = 'Production' AND year = '2025' AND NOT is_aggregate ORDER BY value DESC NULLS LAST LIMIT 2`);
    expect(top).toEqual([
      { country: 'Congo (Kinshasa)', value: 230000 },
      { country: 'Indonesia', value: 44000 },
    ]);
    expect(
      await db.one(`SELECT value, detail FROM usgs_world WHERE chapter = 'COBALT' AND is_world_total AND statistic = 'Production' AND year = '2025'`),
    ).toEqual({ value: 310000, detail: 'Mine production: rounded' });
    expect(await db.one(`SELECT count(*)::INTEGER AS n FROM usgs_world WHERE value_code = 'W'`)).toEqual({ n: 30 });
    expect(await db.one(`SELECT count(*)::INTEGER AS n FROM usgs_world`)).toEqual({ n: 3303 });
    expect(await db.one(`SELECT count(*)::INTEGER AS n FROM usgs_world WHERE section NOT LIKE 'World%'`)).toEqual({ n: 0 });
    expect(await db.one(`SELECT value FROM usgs_us WHERE chapter = 'COBALT' AND statistic = 'Net import reliance' AND year = '2025'`)).toEqual({ value: 79 });
    expect(await db.one(`SELECT value_code, value_low FROM usgs_us WHERE chapter = 'LITHIUM' AND statistic = 'Net import reliance' AND year = '2025'`)).toEqual(
      { value_code: '>50', value_low: 50 },
    );
    // SOURCES.md: this is v1.0, with Brazil's REE reserves at 21,000,000 t (revised later).
    expect(await db.one(`SELECT value FROM usgs_world WHERE chapter = 'RARE EARTHS' AND country = 'Brazil' AND statistic = 'Reserves'`)).toEqual({
      value: 21000000,
    });
  });

  it('downloads through the ScienceBase item, converts Windows-1252 to UTF-8 and loads it', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(req.url ?? '');
      if (req.url?.startsWith('/catalog/item/69837e43b66b01367d7ec7c7')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            files: [
              { name: 'MCS2026_T7_Critical_Minerals_Salient.csv', url: 'https://www.sciencebase.gov/catalog/file/get/x?f=other' },
              { name: FILE, url: 'https://www.sciencebase.gov/catalog/file/get/69837e43b66b01367d7ec7c7?f=__disk__ab' },
            ],
          }),
        );
      } else if (req.url === '/catalog/file/get/69837e43b66b01367d7ec7c7?f=__disk__ab') {
        res.writeHead(200, { 'content-type': 'text/csv' });
        res.end(cp1252(FIXTURE));
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const fetchImpl: typeof fetch = (input, init) => fetch(String(input).replace(/^https:\/\/[^/]+/, base), init);
    try {
      const dir = await mkdtemp(join(tmpdir(), 'usgs-dl-'));
      await usgsMcsSource.download(dir, fetchImpl);
      expect(seen).toEqual(['/catalog/item/69837e43b66b01367d7ec7c7?format=json', '/catalog/file/get/69837e43b66b01367d7ec7c7?f=__disk__ab']);
      expect(await readFile(join(dir, FILE), 'utf8')).toContain('Japan,Production,Mine production,metric tons,2025,—,');
      await usgsMcsSource.load(db, dir);
      expect(await db.one(`SELECT value_code, value_low FROM usgs_world WHERE country = 'Japan'`)).toEqual({ value_code: '—', value_low: 0 });
      expect(await db.one(`SELECT value FROM usgs_world WHERE country = 'Congo (Kinshasa)'`)).toEqual({ value: 230000 });
    } finally {
      server.close();
    }
  });

  it('reads the recorded MCS 2026 CSV (Windows-1252, CRLF, 12 columns): the same 8,886 rows as the mirror', async () => {
    // No ScienceBase item JSON is recorded (RECORDINGS.md); this stands for it, shaped as ScienceBase's
    // item API documents it (files[] with name and url), pointing at the recorded file's own address.
    const fileUrl = 'https://www.sciencebase.gov/catalog/file/get/69837e43b66b01367d7ec7c7?f=__disk__d3%2Fac%2F84%2Fd3ac8466552946c5e8caa2c2c6338d9e1aff655d';
    const bytes = recording('usgs-mcs-2026/MCS2026_Commodities_Data.csv');
    expect(bytes.includes(Buffer.from([0x97]))).toBe(true); // '—' as one Windows-1252 byte
    const publisher = replayFetch([
      { url: /\/catalog\/item\/69837e43b66b01367d7ec7c7\?format=json$/, body: JSON.stringify({ files: [{ name: FILE, url: fileUrl }] }) },
      { url: new RegExp(`^${fileUrl.replace(/[.?]/g, '\\$&')}$`), body: bytes },
    ]);
    const dir = await mkdtemp(join(tmpdir(), 'usgs-rec-'));
    await usgsMcsSource.download(dir, publisher.fetch);
    const ours = readCsvRecords(join(dir, FILE));
    expect(Object.keys(ours[0]!)).toHaveLength(12);
    expect(ours).toHaveLength(8886);
    // The mirror is this file converted to UTF-8 and nothing else: every cell equal.
    expect(ours).toEqual(readCsvRecords(join(mirror, FILE)));
    await usgsMcsSource.load(db, dir);
    expect(
      await db.one(`SELECT value FROM usgs_world WHERE chapter = 'COBALT' AND country = 'Congo (Kinshasa)' AND statistic = 'Production' AND year = '2025'`),
    ).toEqual({
      value: 230000,
    });
  });
});
