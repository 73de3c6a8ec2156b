/**
 * Earlier USGS Mineral Commodity Summaries data releases (2022, 2023, 2024), kept as vintages: what
 * was known of world production by country on the day each edition came out, so a history reads,
 * for each month, the shares published by then instead of today's revised figures. Their layout
 * differs from the 2026 release: one CSV per commodity (`world/mcsYYYY-<slug>_world.csv`) with a
 * column per year (`Prod_<unit>_<year>`, `Prod_<unit>_est_<year>`).
 */
import type { SourceId } from '../../contract/sources.ts';
import { type Db, sqlString } from '../db.ts';
import { aggregateSql, stripFootnoteSql } from './country-aliases.ts';
import { requireFile, requireRows } from './support.ts';
import { SourceError, type SourceAdapter, mirrorOnly } from './types.ts';

/** A year column of the production table: unit token, an optional estimate marker ('est' or, in 2022, 'Est'), the year. */
const PROD_COLUMN = '^Prod_([A-Za-z0-9]+)_(?:([Ee]st)_)?([0-9]{4})$';
const NUMBER = `[0-9][0-9,]*(\\.[0-9]+)?`;

/**
 * The world tables read: the fertilisers, metals and minerals the catalogue covers, by USGS file
 * slug. MCS 2022's release survives with 12 tables only (SOURCES.md).
 */
const SLUGS = [
  'alumi',
  'antim',
  'chrom',
  'cobal',
  'coppe',
  'feore',
  'galli',
  'germa',
  'gold',
  'graph',
  'lead',
  'lithi',
  'manga',
  'nicke',
  'nitro',
  'phosp',
  'plati',
  'potas',
  'raree',
  'silve',
  'tin',
  'tungs',
  'vanad',
  'zinc',
] as const;
const SLUGS_2022 = ['cobal', 'coppe', 'galli', 'germa', 'graph', 'lithi', 'manga', 'nicke', 'plati', 'raree', 'timin', 'tungs'] as const;

export interface UsgsVintage {
  readonly edition: 2022 | 2023 | 2024;
  readonly slugs: readonly string[];
  /** The day the edition's report and data release came out (its no-look-ahead date). */
  readonly published: string;
  readonly doi: string;
  readonly item: string;
}

/** The vintages, each its own folder of ../shared/sources. */
export const USGS_VINTAGES: readonly UsgsVintage[] = [
  { edition: 2022, slugs: SLUGS_2022, published: '2022-01-31', doi: '10.5066/P9KKMCP4', item: '6197ccbed34eb622f692ee1c' },
  { edition: 2023, slugs: SLUGS, published: '2023-01-31', doi: '10.5066/P9WCYUI6', item: '63b5f411d34e92aad3caa57f' },
  { edition: 2024, slugs: SLUGS, published: '2024-01-31', doi: '10.5066/P144BA54', item: '65a6e45fd34e5af967a46749' },
];

/** The current release's publication day (MCS 2026, posted 2026-02-06): its rows are known from then on. */
export const USGS_CURRENT_PUBLISHED = '2026-02-06';

/** The table a vintage loads into. */
export const vintageTable = (edition: number) => `usgs_world_${edition}`;

/** One commodity file's rows, unpivoted to one row per country and year, the printed value parsed (MCS 2024 writes some names with a no-break space: 'United\u00a0States1'). */
function fileSql(file: string, slug: string): string {
  return `
    WITH raw AS (SELECT * FROM read_csv(${sqlString(file)}, header = true, all_varchar = true, delim = ',', quote = '"', escape = '"', null_padding = true)),
    long AS (UNPIVOT (SELECT Country, Type, COLUMNS('${PROD_COLUMN}') FROM raw) ON COLUMNS('${PROD_COLUMN}') INTO NAME col VALUE v)
    SELECT ${sqlString(slug)} AS slug, c AS country, ${aggregateSql('c')} AS is_aggregate,
           c ILIKE 'World total%' AS is_world_total, trim(replace(Type, chr(160), ' ')) AS type,
           regexp_extract(col, '${PROD_COLUMN}', 1) AS unit,
           CAST(regexp_extract(col, '${PROD_COLUMN}', 3) AS INTEGER) AS year,
           regexp_extract(col, '${PROD_COLUMN}', 2) <> '' AS estimated,
           CASE WHEN regexp_full_match(trim(v), '${NUMBER}') THEN TRY_CAST(replace(trim(v), ',', '') AS DOUBLE) END AS value
    FROM (SELECT *, ${stripFootnoteSql("replace(Country, chr(160), ' ')")} AS c FROM long)
    WHERE nullif(trim(v), '') IS NOT NULL AND nullif(c, '') IS NOT NULL`;
}

function vintageSource(v: UsgsVintage): SourceAdapter {
  const id = `usgs-mcs-${v.edition}` as SourceId;
  const table = vintageTable(v.edition);
  const itemUrl = `https://www.sciencebase.gov/catalog/item/${v.item}`;
  return {
    id,
    publisher: 'U.S. Geological Survey',
    dataset: `Mineral Commodity Summaries ${v.edition} Data Release, world tables (doi:${v.doi}; published ${v.published}), an earlier vintage`,
    url: itemUrl,
    licence: 'Public domain (US government)',
    redistribution: 'open',
    files: v.slugs.map((slug) => ({ path: `world/mcs${v.edition}-${slug}_world.csv`, url: itemUrl })),
    tables: [table],

    async load(db: Db, dir: string): Promise<void> {
      const parts: string[] = [];
      for (const [i, f] of this.files.entries()) {
        const file = requireFile(this, dir, f.path);
        const header = await db.all<{ column_name: string }>(`DESCRIBE SELECT * FROM read_csv(${sqlString(file)}, header = true, all_varchar = true)`);
        const names = header.map((h) => h.column_name);
        if (!names.includes('Country') || !names.includes('Type')) throw new SourceError(id, `${f.path}: header lacks Country or Type`);
        // A table without a production column (reserves only) has nothing for the vintage.
        if (names.some((n) => new RegExp(PROD_COLUMN).test(n))) parts.push(fileSql(file, v.slugs[i] as string));
      }
      if (parts.length === 0) throw new SourceError(id, 'no world table has a Prod_<unit>_<year> column');
      await db.run(`CREATE OR REPLACE TABLE ${table} AS ${parts.map((p) => `SELECT * FROM (${p})`).join('\nUNION ALL\n')}`);
      await requireRows({ id }, db, table);
    },

    // A closed edition: its files will not change, and the mirror holds them; nothing to fetch.
    ...mirrorOnly(id, `a closed edition (MCS ${v.edition}, published ${v.published}): its files do not change, and the mirror holds them`),
  };
}

export const usgsMcsVintageSources: readonly SourceAdapter[] = USGS_VINTAGES.map(vintageSource);
