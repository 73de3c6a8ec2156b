import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from '../db.ts';
import { aggregateSql } from './country-aliases.ts';
import { readCsvText, requireColumns, requireFile, requireRows } from './support.ts';
import { SourceError, type SourceAdapter } from './types.ts';

const FILE = 'MCS2026_Commodities_Data.csv';
const ITEM = 'https://www.sciencebase.gov/catalog/item/69837e43b66b01367d7ec7c7';

const COLUMNS = ['MCS chapter', 'Section', 'Commodity', 'Country', 'Statistics', 'Statistics_detail', 'Unit', 'Year', 'Value', 'Is critical mineral 2025'];

/** A number as USGS prints it: digits with thousands separators, optional decimals. */
const NUMBER = `[0-9][0-9,]*(\\.[0-9]+)?`;
const toNum = (expr: string) => `TRY_CAST(replace(${expr}, ',', '') AS DOUBLE)`;

/**
 * The rows `where` selects, with the printed value parsed. Codes keep their text in value_code so
 * that 'W' (withheld) stays visible instead of becoming a gap. '—' is USGS for zero, '<x' is below
 * x, '>x' above x, 'a–b' / 'a - b' a range, 'E' (net import reliance) a net exporter.
 */
function parsed(file: string, where: string): string {
  return `
    WITH raw AS (
      SELECT trim("MCS chapter") AS chapter, trim(Commodity) AS commodity,
             trim(regexp_replace(trim(Section), ':$', '')) AS section, trim(Country) AS country,
             trim(Statistics) AS statistic, trim(Statistics_detail) AS detail, trim(Unit) AS unit,
             trim(Year) AS year, trim(Value) AS v, trim("Is critical mineral 2025") = 'Yes' AS is_critical
      FROM ${readCsvText(file)}
      WHERE (${where}) AND nullif(trim(Value), '') IS NOT NULL
    ),
    parsed AS (
      SELECT *,
        CASE WHEN regexp_full_match(v, '${NUMBER}') THEN ${toNum('v')} END AS value,
        regexp_extract(v, '^(${NUMBER})\\s*[–-]\\s*(${NUMBER})$', 1) AS lo,
        regexp_extract(v, '^(${NUMBER})\\s*[–-]\\s*(${NUMBER})$', 3) AS hi,
        regexp_extract(v, '^([<>])\\s*(${NUMBER})$', 1) AS op,
        regexp_extract(v, '^([<>])\\s*(${NUMBER})$', 2) AS bound
      FROM raw
    )
    SELECT chapter, commodity, section, country, ${aggregateSql('country')} AS is_aggregate,
           country = 'World total' AS is_world_total, statistic, detail, unit, year, value,
           CASE WHEN value IS NULL THEN v END AS value_code,
           CASE WHEN lo <> '' THEN ${toNum('lo')} WHEN op = '>' THEN ${toNum('bound')}
                WHEN op = '<' OR v = '—' THEN 0 END AS value_low,
           CASE WHEN hi <> '' THEN ${toNum('hi')} WHEN op = '<' THEN ${toNum('bound')}
                WHEN v = '—' THEN 0 END AS value_high,
           is_critical
    FROM parsed`;
}

export const usgsMcsSource: SourceAdapter = {
  id: 'usgs-mcs-2026',
  publisher: 'U.S. Geological Survey',
  dataset: 'Mineral Commodity Summaries 2026 Data Release (doi:10.5066/P1WKQ63T)',
  url: ITEM,
  licence: 'CC0-1.0 / public domain',
  redistribution: 'open',
  files: [{ path: FILE, url: `${ITEM}?format=json` }],
  tables: ['usgs_world', 'usgs_us'],

  async load(db: Db, dir: string): Promise<void> {
    const file = requireFile(this, dir, FILE);
    await requireColumns(this, file, COLUMNS);
    await db.run(`CREATE OR REPLACE TABLE usgs_world AS ${parsed(file, "trim(Section) LIKE 'World%'")}`);
    // The United States' own tables: net import reliance (salient statistics) and import sources 2021–24.
    await db.run(`CREATE OR REPLACE TABLE usgs_us AS ${parsed(file, "trim(Statistics) = 'Net import reliance' OR trim(Section) = 'Import Sources'")}`);
    await requireRows(this, db, 'usgs_world');
    await requireRows(this, db, 'usgs_us');
  },

  async download(dir: string, fetchImpl: typeof fetch): Promise<void> {
    // The file's own address carries a storage hash that changes per version, so ask the
    // ScienceBase item which file URL is current.
    const meta = await fetchImpl(this.files[0]!.url);
    if (!meta.ok) throw new SourceError(this.id, `download ${this.files[0]!.url} answered ${meta.status}`);
    const item = (await meta.json()) as { files?: { name?: string; url?: string; downloadUri?: string }[] };
    const entry = item.files?.find((f) => f.name === FILE);
    const url = entry?.url ?? entry?.downloadUri;
    if (!url) throw new SourceError(this.id, `ScienceBase item lists no ${FILE}`);
    const res = await fetchImpl(url);
    if (!res.ok) throw new SourceError(this.id, `download ${url} answered ${res.status}`);
    const body = new Uint8Array(await res.arrayBuffer());
    // USGS publishes Windows-1252 ('—', '–', '’'); the mirror (and DuckDB) want UTF-8.
    let textBody: string;
    try {
      textBody = new TextDecoder('utf-8', { fatal: true }).decode(body);
    } catch {
      textBody = decodeWindows1252(body);
    }
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, FILE), textBody);
  },
};

/** Bytes 0x80–0x9F of Windows-1252; every other byte is its own code point. */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d,
  0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

/** Node 20's TextDecoder('windows-1252') decodes as Latin-1 (0x97 becomes U+0097, not '—'), so map by hand. */
export function decodeWindows1252(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += String.fromCharCode(b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80]! : b);
  return out;
}
