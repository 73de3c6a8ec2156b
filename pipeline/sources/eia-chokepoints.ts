/**
 * EIA World Oil Transit Chokepoints, Table 1: million barrels a day of crude oil and petroleum
 * liquids through each chokepoint, per year (multi-vintage scrape; 2017 missing).
 */
import type { Db } from '../db.ts';
import { readCsvText, requireColumns, requireFile, requireRows } from './support.ts';
import { SourceError, type SourceAdapter, mirrorOnly } from './types.ts';

const ID = 'eia-chokepoints' as const;
const FILE = 'eia_chokepoints_table1_oil_mbd.csv';
const PAGE = 'https://www.eia.gov/international/content/analysis/special_topics/World_Oil_Transit_Chokepoints/';

/** EIA's chokepoint names, to our chokepoint ids (shared with PortWatch's). */
export const EIA_CHOKEPOINT_IDS: Record<string, string> = {
  'Strait of Hormuz': 'hormuz',
  'Strait of Malacca': 'malacca',
  'Suez Canal and SUMED Pipeline': 'suez',
  'Bab el-Mandeb': 'bab_el_mandeb',
  'Danish Straits': 'danish',
  'Turkish Straits (Dardanelles)': 'turkish',
  'Panama Canal': 'panama',
  'Cape of Good Hope': 'cape',
};

export const eiaChokepointsSource: SourceAdapter = {
  id: ID,
  publisher: 'U.S. Energy Information Administration (EIA)',
  dataset: 'World Oil Transit Chokepoints, Table 1: oil volumes by chokepoint (million b/d)',
  url: PAGE,
  licence: 'Public domain (US government)',
  redistribution: 'open',
  files: [{ path: FILE, url: PAGE }],
  tables: ['eia_chokepoint_oil'],

  async load(db: Db, dir: string): Promise<void> {
    const file = requireFile(this, dir, FILE);
    await requireColumns(this, file, ['periodo_original', 'chokepoint', 'value']);
    try {
      // A period is a calendar year ('2024') or a half ('1H2025'): the year and whether it is whole.
      await db.run(`
        CREATE OR REPLACE TABLE eia_chokepoint_oil AS
        SELECT CASE ${Object.entries(EIA_CHOKEPOINT_IDS)
          .map(([k, v]) => `WHEN trim(chokepoint) = '${k.replace(/'/g, "''")}' THEN '${v}'`)
          .join(' ')} END AS chokepoint,
               trim(chokepoint) AS name, trim(periodo_original) AS period,
               CAST(right(trim(periodo_original), 4) AS INTEGER) AS year,
               NOT starts_with(trim(periodo_original), '1H') AS full_year,
               CAST(trim(value) AS DOUBLE) AS mbd
        FROM ${readCsvText(file)} WHERE nullif(trim(value), '') IS NOT NULL
        ORDER BY chokepoint, period`);
    } catch (e) {
      throw new SourceError(ID, `cannot read volumes: ${(e as Error).message}`);
    }
    await requireRows(this, db, 'eia_chokepoint_oil');
    const unknown = await db.all<{ name: string }>(`SELECT DISTINCT name FROM eia_chokepoint_oil WHERE chokepoint IS NULL`);
    if (unknown.length) throw new SourceError(ID, `unknown chokepoint ${unknown.map((u) => u.name).join(', ')}`);
  },

  ...mirrorOnly(ID, `no download endpoint: EIA publishes Table 1 only as an HTML table in an analysis page (${PAGE}), not in its API`),
};
