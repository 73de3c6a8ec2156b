/**
 * IMF PortWatch daily chokepoint transits (AIS), two mirror files of different vintages: the
 * four-chokepoint pull (Suez, Bab el-Mandeb, Malacca, Hormuz; to 2026-08) and the ArcGIS CSV of six
 * (adds Gibraltar, Dover, Taiwan Strait; to 2025-11). Where both cover a chokepoint the newer pull
 * wins: PortWatch revises recent days.
 */
import type { Db } from '../db.ts';
import { readCsvText, requireColumns, requireFile, requireRows } from './support.ts';
import { SourceError, type SourceAdapter, mirrorOnly } from './types.ts';

const ID = 'imf-portwatch-chokepoints' as const;
const FOUR = 'portwatch_daily_4cp_incl_hormuz_2019-2026-08.csv';
const SIX = 'portwatch_daily_chokepoints_6cp_2019-2025-11.csv';
const SERVICE = 'https://services9.arcgis.com/weJ1QsnbMYJlCHdG/arcgis/rest/services/Daily_Chokepoints_Data/FeatureServer/0';

/** PortWatch port ids and the four-chokepoint file's names, to our chokepoint ids. */
export const PORTWATCH_IDS: Record<string, string> = {
  chokepoint1: 'suez',
  chokepoint4: 'bab_el_mandeb',
  chokepoint5: 'malacca',
  chokepoint6: 'hormuz',
  chokepoint8: 'gibraltar',
  chokepoint9: 'dover',
  chokepoint11: 'taiwan',
};

const idSql = (expr: string) =>
  `CASE ${Object.entries(PORTWATCH_IDS)
    .map(([k, v]) => `WHEN ${expr} = '${k}' THEN '${v}'`)
    .join(' ')} ELSE ${expr} END`;

export const imfPortwatchSource: SourceAdapter = {
  id: ID,
  publisher: 'International Monetary Fund, PortWatch (with the University of Oxford)',
  dataset: 'Daily chokepoint transit calls by vessel type (satellite AIS)',
  url: 'https://portwatch.imf.org/',
  licence: 'IMF terms of use (https://www.imf.org/external/terms.htm); attribution "IMF PortWatch"; no open licence',
  redistribution: 'derived-only',
  files: [
    { path: FOUR, url: `${SERVICE}/query` },
    { path: SIX, url: `${SERVICE}/query` },
  ],
  tables: ['portwatch_transits'],

  async load(db: Db, dir: string): Promise<void> {
    const four = requireFile(this, dir, FOUR);
    const six = requireFile(this, dir, SIX);
    await requireColumns(this, four, ['date', 'chokepoint', 'n_total', 'n_tanker', 'n_cargo']);
    await requireColumns(this, six, ['date', 'portid', 'n_total', 'n_tanker', 'n_cargo']);
    try {
      await db.run(`
        CREATE OR REPLACE TABLE portwatch_transits AS
        WITH newer AS (
          SELECT CAST(trim(date) AS DATE) AS date, ${idSql('trim(chokepoint)')} AS chokepoint,
                 CAST(n_total AS INTEGER) AS n_total, CAST(n_tanker AS INTEGER) AS n_tanker, CAST(n_cargo AS INTEGER) AS n_cargo, '${FOUR}' AS file
          FROM ${readCsvText(four)}),
        older AS (
          -- '2019/01/01 00:00:00+00': the day is the first ten characters.
          SELECT CAST(replace(left(trim(date), 10), '/', '-') AS DATE) AS date, ${idSql('trim(portid)')} AS chokepoint,
                 CAST(n_total AS INTEGER), CAST(n_tanker AS INTEGER), CAST(n_cargo AS INTEGER), '${SIX}'
          FROM ${readCsvText(six)})
        SELECT * FROM newer
        UNION ALL
        SELECT * FROM older o WHERE NOT EXISTS (SELECT 1 FROM newer n WHERE n.chokepoint = o.chokepoint AND n.date = o.date)
        ORDER BY chokepoint, date`);
    } catch (e) {
      throw new SourceError(ID, `cannot read transits: ${(e as Error).message}`);
    }
    await requireRows(this, db, 'portwatch_transits');
    const unknown = await db.all<{ chokepoint: string }>(
      `SELECT DISTINCT chokepoint FROM portwatch_transits WHERE chokepoint NOT IN (${Object.values(PORTWATCH_IDS)
        .map((v) => `'${v}'`)
        .join(', ')})`,
    );
    if (unknown.length) throw new SourceError(ID, `unknown chokepoint ${unknown.map((u) => u.chokepoint).join(', ')}`);
  },

  // The ArcGIS FeatureServer answers JSON pages of 2,000 features; the mirror files are two
  // differently shaped pulls of it. Paging it into those layouts is not written yet.
  ...mirrorOnly(ID, `no download implemented: page ${SERVICE}/query (JSON, 2,000 features a page) into the mirror layout by hand`),
};
