import type { Db } from '../db.ts';
import { COUNTRY_ALIASES } from './country-aliases.ts';
import { downloadTo, readCsvText, requireColumns, requireFile, requireRows } from './support.ts';
import type { SourceAdapter } from './types.ts';

const FILE = 'country-codes.csv';

/** Columns that hold a spelling of the country (or its code), in order of trust when two rows claim one name. */
const NAME_COLUMNS = [
  'ISO3166-1-Alpha-3',
  'ISO3166-1-Alpha-2',
  'CLDR display name',
  'official_name_en',
  'UNTERM English Short',
  'UNTERM English Formal',
  'ISO4217-currency_country_name',
  'official_name_fr',
  'UNTERM French Short',
  'UNTERM French Formal',
  'official_name_es',
  'UNTERM Spanish Short',
  'UNTERM Spanish Formal',
  'official_name_ru',
  'UNTERM Russian Short',
  'UNTERM Russian Formal',
  'official_name_cn',
  'UNTERM Chinese Short',
  'UNTERM Chinese Formal',
  'official_name_ar',
  'UNTERM Arabic Short',
  'UNTERM Arabic Formal',
] as const;

const REQUIRED = [
  'ISO3166-1-Alpha-2',
  'ISO3166-1-Alpha-3',
  'M49',
  'CLDR display name',
  'official_name_en',
  'official_name_fr',
  'UNTERM Spanish Short',
  'Region Name',
  'Sub-region Name',
  'is_independent',
];

const q = (column: string) => `"${column.replaceAll('"', '""')}"`;

export const countryCodesSource: SourceAdapter = {
  id: 'country-codes',
  publisher: 'DataHub (datasets/country-codes), compiling ISO 3166 and UN M49',
  dataset: 'Comprehensive country codes: ISO 3166, ITU, ISO 4217 currency codes and many more',
  url: 'https://datahub.io/core/country-codes',
  licence: 'PDDL-1.0',
  redistribution: 'open',
  files: [{ path: FILE, url: 'https://raw.githubusercontent.com/datasets/country-codes/main/data/country-codes.csv' }],
  tables: ['country_codes', 'country_names'],

  async load(db: Db, dir: string): Promise<void> {
    const file = requireFile(this, dir, FILE);
    await requireColumns(this, file, REQUIRED);
    // all_varchar keeps Namibia's alpha-2 'NA' as text (DuckDB only treats '' as NULL here).
    await db.run(`CREATE OR REPLACE TEMP TABLE country_codes_raw AS SELECT * FROM ${readCsvText(file)}`);
    await db.run(`
      CREATE OR REPLACE TABLE country_codes AS
      SELECT trim("ISO3166-1-Alpha-2") AS iso2,
             trim("ISO3166-1-Alpha-3") AS iso3,
             lpad(nullif(trim(M49), ''), 3, '0') AS m49,
             trim("CLDR display name") AS name_en,
             trim(official_name_en) AS official_name_en,
             trim(official_name_fr) AS official_name_fr,
             trim("UNTERM Spanish Short") AS name_es,
             trim("Region Name") AS region,
             trim("Sub-region Name") AS subregion,
             coalesce(trim(is_independent) = 'Yes', false) AS is_independent
      FROM country_codes_raw
      WHERE nullif(trim("ISO3166-1-Alpha-3"), '') IS NOT NULL`);
    await requireRows(this, db, 'country_codes');

    // The columns other than REQUIRED are optional: a column the file lacks is skipped.
    const present = new Set(
      (await db.all<{ column_name: string }>(`SELECT column_name FROM information_schema.columns WHERE table_name = 'country_codes_raw'`)).map(
        (r) => r.column_name,
      ),
    );
    const names = NAME_COLUMNS.filter((c) => present.has(c)).map(
      (c, i) => `SELECT ${q(c)} AS raw, ${i + 1} AS prio, trim("ISO3166-1-Alpha-3") AS iso3 FROM country_codes_raw`,
    );
    const aliases = Object.entries(COUNTRY_ALIASES)
      .map(([name, iso3]) => `('${name.replaceAll("'", "''")}', 0, '${iso3}')`)
      .join(', ');
    // UNTERM writes 'Bahamas (the)' and 'State of Palestine (the) *': keep both that and the bare name.
    // A name claimed by two countries at the same trust level is ambiguous and left out.
    await db.run(`
      CREATE OR REPLACE TABLE country_names AS
      WITH src AS (
        ${names.join('\n        UNION ALL ')}
        UNION ALL SELECT * FROM (VALUES ${aliases}) AS a(raw, prio, iso3)
      ),
      variants AS (
        SELECT lower(trim(raw)) AS name, prio, iso3 FROM src
        UNION ALL
        SELECT lower(trim(regexp_replace(raw, '\\s*\\(the\\)\\s*\\*?\\s*$', ''))), prio, iso3 FROM src
      ),
      ranked AS (
        SELECT name, iso3, prio, min(prio) OVER (PARTITION BY name) AS best
        FROM variants
        WHERE name IS NOT NULL AND name <> '' AND iso3 IS NOT NULL AND iso3 <> ''
      )
      SELECT name, any_value(iso3) AS iso3
      FROM ranked WHERE prio = best
      GROUP BY name
      HAVING count(DISTINCT iso3) = 1
      ORDER BY name`);
    await db.run('DROP TABLE country_codes_raw');
    await requireRows(this, db, 'country_names');
  },

  async download(dir: string, fetchImpl: typeof fetch): Promise<void> {
    await downloadTo(this, fetchImpl, this.files[0]!.url, dir, FILE);
  },
};
