import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { Db } from '../db.ts';
import { aggregateSql, stripFootnoteSql } from './country-aliases.ts';
import { readCsvText, requireColumns, requireFile, requireRows, writeCsv } from './support.ts';
import { editionAddress, type EditionListing } from './edition.ts';
import { SourceError, type SourceAdapter, type SourceKeys } from './types.ts';

const F = {
  energy: 'ei_energy_country_year.csv',
  production: 'ei_minerals_mine_production.csv',
  reserves: 'ei_minerals_reserves.csv',
  prices: 'ei_mineral_prices.csv',
  trade: 'ei_trade_movements_2023.csv',
} as const;

const XLSX_URL = 'https://www.energyinst.org/__data/assets/excel_doc/0020/1540550/EI-Stats-Review-All-Data.xlsx';
/** The 2026 edition's workbook (data year 2025), at the address EI serves it from (../shared/publishers/RECORDINGS.md). */
const XLSX_2026_URL = 'https://www.energyinst.org/__data/assets/file/0008/1827620/EI-Stats-Review-ALL-data.xlsx';
/**
 * The workbook's address changes with each edition (2024 `excel_doc/0020/1540550/…All-Data.xlsx`,
 * 2026 `file/0008/1827620/…ALL-data.xlsx`), so it is read from the page where EI lists the
 * downloads, unless the operator configured one (EI_WORKBOOK_URL).
 */
export const EI_LISTING: EditionListing = {
  page: 'https://www.energyinst.org/statistical-review/resources-and-data-downloads',
  link: /(?:https?:\/\/www\.energyinst\.org)?\/__data\/assets\/(?:excel_doc|file)\/\d+\/\d+\/EI-Stats-Review-All-Data\.xlsx/i,
  known: XLSX_2026_URL,
};
/** The 2026 mirror's files: the long conversion of the year sheets (no bilateral trade file). */
const F2026 = { energy: 'ei2026_country_year_long.csv' } as const;

/** Plain decimal number (EI writes no thousands separators); anything else is a flag such as 'n/a'. */
const num = (col: string) => `TRY_CAST(CASE WHEN regexp_full_match(trim(${col}), '-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?') THEN trim(${col}) END AS DOUBLE)`;

/** Short key per mineral sheet ('Natural Graphite P-R' -> 'graphite'), so later SQL need not know EI's titles. */
const mineralSql = (sheet: string) => `CASE
  WHEN lower(${sheet}) LIKE '%graphite%' THEN 'graphite'
  WHEN lower(${sheet}) LIKE '%rare earth%' THEN 'rare_earths'
  WHEN lower(${sheet}) LIKE '%platinum group%' THEN 'pgm'
  ELSE regexp_replace(lower(trim(regexp_replace(${sheet}, '\\s*P-R\\s*$', ''))), '[^a-z0-9]+', '_', 'g') END`;

const country = (col: string) => stripFootnoteSql(col);

export const eiStatisticalReviewSource: SourceAdapter = {
  id: 'ei-statistical-review-2024',
  publisher: 'Energy Institute',
  dataset: 'Statistical Review of World Energy 2024 (73rd edition, data year 2023)',
  url: 'https://www.energyinst.org/statistical-review',
  licence: '© Energy Institute 2024, free to access, no open licence',
  redistribution: 'derived-only',
  files: Object.values(F).map((path) => ({ path, url: XLSX_URL })),
  tables: ['ei_energy', 'ei_mine_production', 'ei_mineral_reserves', 'ei_mineral_prices', 'ei_trade'],

  async load(db: Db, dir: string): Promise<void> {
    const file = (path: string) => requireFile(this, dir, path);
    const energy = file(F.energy);
    const production = file(F.production);
    const reserves = file(F.reserves);
    const prices = file(F.prices);
    const trade = file(F.trade);
    await requireColumns(this, energy, ['sheet', 'unit', 'section', 'country', 'year', 'value']);
    await requireColumns(this, production, ['sheet', 'unit', 'country', 'year', 'value']);
    await requireColumns(this, reserves, ['sheet', 'unit', 'reserves_as_of', 'country', 'value']);
    await requireColumns(this, prices, ['Year']);
    await requireColumns(this, trade, ['sheet', 'unit', 'flow', 'exporter', 'importer', 'value']);

    // Units carry footnote markers too ('Thousand tonnes1', 'Exajoules (input-equivalent)*').
    await db.run(`
      CREATE OR REPLACE TABLE ei_energy AS
      SELECT trim(sheet) AS sheet, ${stripFootnoteSql('unit')} AS unit, nullif(trim(section), '') AS section,
             c AS country, ${aggregateSql('c')} AS is_aggregate, CAST(year AS INTEGER) AS year, v AS value
      FROM (SELECT *, ${country('country')} AS c, ${num('value')} AS v FROM ${readCsvText(energy)})
      WHERE v IS NOT NULL`);

    await db.run(`
      CREATE OR REPLACE TABLE ei_mine_production AS
      SELECT ${mineralSql('sheet')} AS mineral, trim(sheet) AS sheet, ${stripFootnoteSql('unit')} AS unit,
             c AS country, ${aggregateSql('c')} AS is_aggregate, CAST(year AS INTEGER) AS year, v AS value
      FROM (SELECT *, ${country('country')} AS c, ${num('value')} AS v FROM ${readCsvText(production)})
      WHERE v IS NOT NULL`);

    await db.run(`
      CREATE OR REPLACE TABLE ei_mineral_reserves AS
      SELECT ${mineralSql('sheet')} AS mineral, trim(sheet) AS sheet, ${stripFootnoteSql('unit')} AS unit,
             trim(reserves_as_of) AS as_of, c AS country, ${aggregateSql('c')} AS is_aggregate, v AS value
      FROM (SELECT *, ${country('country')} AS c, ${num('value')} AS v FROM ${readCsvText(reserves)})
      WHERE v IS NOT NULL`);

    // One column per series with a footnote digit glued on; per SOURCES.md the Cells columns are
    // US$/kWh and every other column thousand US$ per tonne.
    await db.run(`
      CREATE OR REPLACE TABLE ei_mineral_prices AS
      SELECT s AS series, CASE WHEN s ILIKE '%cells' THEN 'US$/kWh' ELSE 'thousand US$/t' END AS unit,
             CAST(trim("Year") AS INTEGER) AS year, v AS value
      FROM (
        SELECT "Year", ${stripFootnoteSql('series')} AS s, ${num('raw')} AS v
        FROM (UNPIVOT (SELECT * FROM ${readCsvText(prices)}) ON COLUMNS(* EXCLUDE ("Year")) INTO NAME series VALUE raw)
      )
      WHERE v IS NOT NULL AND regexp_full_match(trim("Year"), '[0-9]{4}')`);

    // Matrix totals are dropped (they duplicate the cells); regional rows stay but are flagged.
    await db.run(`
      CREATE OR REPLACE TABLE ei_trade AS
      SELECT trim(sheet) AS sheet, ${stripFootnoteSql('unit')} AS unit, trim(flow) AS flow,
             e AS exporter, ${aggregateSql('e')} AS exporter_is_aggregate,
             i AS importer, ${aggregateSql('i')} AS importer_is_aggregate, v AS value
      FROM (SELECT *, ${country('exporter')} AS e, ${country('importer')} AS i, ${num('value')} AS v FROM ${readCsvText(trade)})
      WHERE v IS NOT NULL AND v <> 0
        AND lower(e) NOT IN ('total', 'total imports', 'total exports')
        AND lower(i) NOT IN ('total', 'total imports', 'total exports')`);

    for (const t of this.tables) await requireRows(this, db, t);
  },

  async download(dir: string, fetchImpl: typeof fetch): Promise<void> {
    const res = await fetchImpl(XLSX_URL, { headers: { 'user-agent': 'chokepoint-pipeline' } });
    if (!res.ok) throw new SourceError(this.id, `download ${XLSX_URL} answered ${res.status}`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    await convertWorkbook(wb, dir);
  },
};

/**
 * The 2026 edition (75th, data year 2025): the current edition of the energy balances (production,
 * consumption, total energy supply, LNG). Its mirror holds no bilateral trade matrices, so the
 * inter-area trade stays from the 2024 edition (EI_TRADE_SOURCE in pipeline/steps/ei-editions.ts).
 */
export const eiStatisticalReview2026Source: SourceAdapter = {
  id: 'ei-statistical-review-2026',
  publisher: 'Energy Institute',
  dataset: 'Statistical Review of World Energy 2026 (75th edition, data year 2025)',
  url: 'https://www.energyinst.org/statistical-review',
  licence: '© Energy Institute 2026, free to access, no open licence',
  redistribution: 'derived-only',
  files: [{ path: F2026.energy, url: XLSX_2026_URL }],
  tables: ['ei_energy_2026'],

  async load(db: Db, dir: string): Promise<void> {
    const energy = requireFile(this, dir, F2026.energy);
    await requireColumns(this, energy, ['sheet', 'unit', 'section', 'country', 'year', 'value']);
    // The same sheets as the 2024 mirror holds, under the same cleaning as ei_energy.
    await db.run(
      `CREATE OR REPLACE TABLE ei_energy_2026 AS
      SELECT trim(sheet) AS sheet, ${stripFootnoteSql('unit')} AS unit, nullif(trim(section), '') AS section,
             c AS country, ${aggregateSql('c')} AS is_aggregate, CAST(year AS INTEGER) AS year, v AS value
      FROM (SELECT *, ${country('country')} AS c, ${num('value')} AS v FROM ${readCsvText(energy)})
      WHERE v IS NOT NULL AND trim(sheet) IN (${[...ENERGY_SHEETS].map(() => '?').join(', ')})`,
      [...ENERGY_SHEETS],
    );
    await requireRows(this, db, 'ei_energy_2026');
  },

  async download(dir: string, fetchImpl: typeof fetch, keys: SourceKeys = {}): Promise<void> {
    const url = await editionAddress(this.id, EI_LISTING, fetchImpl, keys, keys.eiWorkbookUrl);
    const res = await fetchImpl(url, { headers: { 'user-agent': 'chokepoint-pipeline' } });
    if (!res.ok) throw new SourceError(this.id, `download ${url} answered ${res.status}`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    await convertWorkbook(wb, dir, F2026);
  },
};

// ---------------------------------------------------------------------------------------------
// xlsx -> mirror CSVs. Layout as EI publishes it: a title block, then a header row whose first cell
// is the unit and whose next cells are years (the latest year repeats for growth/share columns,
// which we do not keep); country rows below; notes at the bottom. Mineral sheets ('… P-R') add a
// reserves column headed 'At end of YYYY'. Gas trade sheets are matrices with importers in rows
// (first header cell 'To') and exporters in columns.
// ---------------------------------------------------------------------------------------------

type Cell = string | number | null;

function cellValue(v: ExcelJS.CellValue): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number' || typeof v === 'string') return v;
  if (typeof v === 'object' && 'result' in v) return cellValue(v.result as ExcelJS.CellValue);
  if (typeof v === 'object' && 'richText' in v) return v.richText.map((t) => t.text).join('');
  return null;
}

function sheetRows(ws: ExcelJS.Worksheet): Cell[][] {
  const rows: Cell[][] = [];
  ws.eachRow({ includeEmpty: true }, (row, n) => {
    const cells: Cell[] = [];
    row.eachCell({ includeEmpty: true }, (cell, c) => (cells[c - 1] = cellValue(cell.value)));
    rows[n - 1] = Array.from(cells, (x) => x ?? null);
  });
  return Array.from(rows, (r) => r ?? []);
}

const text = (c: Cell | undefined) => (c === null || c === undefined ? '' : String(c).trim());
const isYear = (c: Cell | undefined) => typeof c === 'number' && Number.isInteger(c) && c > 1900 && c < 2100;
const isNote = (label: string) => /^(source|note|\*|\^|#|†|excludes|includes|less than|w\b)/i.test(label);

/** Value and flag as the mirror writes them: numbers as-is, any other text ('n/a') as flag. */
const valueFlag = (c: Cell | undefined): [Cell, string] | null => (typeof c === 'number' ? [c, ''] : text(c) ? ['', text(c)] : null);

interface YearTable {
  unit: string;
  years: Map<number, number>;
  reserves: { col: number; asOf: string } | null;
  rows: { label: string; section: string; cells: Cell[] }[];
}

function yearTable(rows: Cell[][]): YearTable | null {
  const h = rows.findIndex((r) => r.filter(isYear).length >= 2);
  if (h < 0) return null;
  const header = rows[h]!;
  const years = new Map<number, number>();
  for (let c = 1; c < header.length; c++) {
    const y = header[c];
    if (!isYear(y)) {
      if (years.size > 0) break;
      continue;
    }
    if (years.has(y as number)) break; // growth/share columns repeat the latest year
    years.set(y as number, c);
  }
  let reserves: YearTable['reserves'] = null;
  for (const r of [header, rows[h - 1] ?? []]) {
    const c = r.findIndex((x) => /^at end of \d{4}/i.test(text(x)));
    if (c > 0) reserves = { col: c, asOf: text(r[c]) };
  }
  const out: YearTable['rows'] = [];
  let section = '';
  for (const r of rows.slice(h + 1)) {
    const label = text(r[0]);
    if (!label) continue;
    if (isNote(label)) break;
    const hasData = r.slice(1).some((x) => text(x) !== '');
    if (!hasData) {
      if (/^(imports|exports)$/i.test(label)) section = label;
      continue;
    }
    out.push({ label, section, cells: r });
  }
  return { unit: text(header[0]), years, reserves, rows: out };
}

/**
 * The bilateral trade sheets and how each is laid out, by sheet name (the year in the name changes with
 * the edition: 'Coal trade movements 2023', 'Gas trade 2025 - LNG'). Gas matrices have importers in rows
 * (first header cell 'To') and exporters in columns; the oil and coal inter-area matrices the other way
 * round (a 'From' row under a header of destinations), the oil sheet holding a crude and a product block.
 */
const TRADE_SHEETS: { name: RegExp; layout: 'importer-rows' | 'exporter-rows'; flow: (blockLabel: string) => string | null }[] = [
  { name: /^Gas trade( \d{4})? - pipeline$/i, layout: 'importer-rows', flow: () => 'natural gas (pipeline)' },
  { name: /^Gas trade( \d{4})? - LNG$/i, layout: 'importer-rows', flow: () => 'natural gas (LNG)' },
  {
    name: /^Oil - Inter-area movements$/i,
    layout: 'exporter-rows',
    flow: (b) => (/^crude/i.test(b) ? 'crude oil' : /^product/i.test(b) ? 'oil products' : null),
  },
  { name: /^Coal trade movements \d{4}$/i, layout: 'exporter-rows', flow: () => 'coal' },
];

/** Rows [sheet, unit, flow, exporter, importer, value, flag] of an importer-rows (gas) matrix. */
function importerRows(name: string, flow: string | null, rows: Cell[][]): Cell[][] {
  const h = rows.findIndex((r) => /^to\b/i.test(text(r[0])));
  if (h < 0 || !flow) return [];
  const above = rows[h - 1] ?? [];
  const exporters = rows[h]!.map((c, i) =>
    `${text(above[i])} ${text(c)}`
      .replace(/^from\s+/i, '')
      .replace(/\s+/g, ' ')
      .trim(),
  );
  const unit =
    rows
      .slice(0, h)
      .map((r) => text(r[0]))
      .find((t) => /metres|bcm/i.test(t)) ?? 'Billion cubic metres';
  const out: Cell[][] = [];
  for (const r of rows.slice(h + 1)) {
    const importer = text(r[0]);
    if (!importer) continue;
    if (isNote(importer)) break;
    for (let c = 1; c < exporters.length; c++) {
      const vf = valueFlag(r[c]);
      if (exporters[c] && vf) out.push([name, unit, flow, exporters[c]!, importer, ...vf]);
    }
  }
  return out;
}

/**
 * Rows of an exporter-rows (oil, coal) matrix: the first row with a label and three or more destination
 * names is the header; a label-only row ('Product (million tonnes)') opens another block on the same
 * columns. The unit is the header's label, or the text in its parentheses ('Crude (million tonnes)').
 */
function exporterRows(name: string, flowOf: (label: string) => string | null, rows: Cell[][]): Cell[][] {
  const h = rows.findIndex((r) => text(r[0]) !== '' && r.slice(1).filter((c) => typeof c === 'string' && c.trim() !== '').length >= 3);
  if (h < 0) return [];
  const importers = rows[h]!.map(text);
  const unitOf = (label: string) => {
    const u = /\(([^)]+)\)/.exec(label)?.[1] ?? label;
    return u.charAt(0).toUpperCase() + u.slice(1);
  };
  let flow = flowOf(text(rows[h]![0]));
  let unit = unitOf(text(rows[h]![0]));
  const out: Cell[][] = [];
  for (const r of rows.slice(h + 1)) {
    const label = text(r[0]);
    if (!label || /^from$/i.test(label)) continue;
    if (isNote(label)) break;
    if (!r.slice(1).some((c) => text(c) !== '')) {
      flow = flowOf(label);
      unit = unitOf(label);
      continue;
    }
    if (!flow) continue;
    for (let c = 1; c < importers.length; c++) {
      const vf = valueFlag(r[c]);
      if (importers[c] && vf) out.push([name, unit, flow, label, importers[c]!, ...vf]);
    }
  }
  return out;
}

/** Convert the workbook into `dir`, writing the files `files` names (the 2024 mirror's five by default). */
export async function convertWorkbook(wb: ExcelJS.Workbook, dir: string, files: Partial<Record<keyof typeof F, string>> = F): Promise<void> {
  const energy: Cell[][] = [];
  const production: Cell[][] = [];
  const reserves: Cell[][] = [];
  const trade: Cell[][] = [];
  let prices: { header: string[]; rows: Cell[][] } | null = null;

  for (const ws of wb.worksheets) {
    const name = ws.name.trim();
    const rows = sheetRows(ws);
    const tradeSheet = TRADE_SHEETS.find((t) => t.name.test(name));
    if (tradeSheet) {
      trade.push(...(tradeSheet.layout === 'importer-rows' ? importerRows(name, tradeSheet.flow(''), rows) : exporterRows(name, tradeSheet.flow, rows)));
      continue;
    }
    if (!prices && /price/i.test(name)) {
      const h = rows.findIndex((r) => /^year$/i.test(text(r[0])) && r.slice(1).some((x) => /cobalt|lithium/i.test(text(x))));
      if (h >= 0) {
        const header = rows[h]!.map(text);
        const width = header.findLastIndex((x) => x !== '') + 1;
        prices = {
          header: header.slice(0, width),
          rows: rows
            .slice(h + 1)
            .filter((r) => isYear(r[0]))
            .map((r) => header.slice(0, width).map((_, i) => r[i] ?? '')),
        };
        continue;
      }
    }
    const table = yearTable(rows);
    if (!table) continue;
    // Mineral sheets: 'Cobalt P-R', and in 2026 also 'PGM', 'Tin', … titled '…: Production and Reserves'.
    const mineral = /\bP-R$/.test(name) || /production and reserves/i.test(text(rows[0]?.[0]));
    if (!mineral && !ENERGY_SHEETS.has(name)) continue;
    for (const row of table.rows) {
      for (const [year, col] of table.years) {
        const vf = valueFlag(row.cells[col]);
        if (!vf) continue;
        if (mineral) production.push([name, table.unit, row.label, year, ...vf]);
        else energy.push([name, table.unit, row.section, row.label, year, ...vf]);
      }
      const vf = table.reserves ? valueFlag(row.cells[table.reserves.col]) : null;
      if (mineral && table.reserves && vf) reserves.push([name, table.unit, table.reserves.asOf, row.label, ...vf]);
    }
  }
  if (energy.length === 0) throw new SourceError(eiStatisticalReviewSource.id, 'workbook has none of the expected energy sheets');
  for (const flow of ['crude oil', 'oil products', 'coal', 'natural gas (pipeline)', 'natural gas (LNG)']) {
    if (!trade.some((t) => t[2] === flow)) throw new SourceError(eiStatisticalReviewSource.id, `workbook has no ${flow} trade matrix`);
  }
  const out: Record<keyof typeof F, [string[], Cell[][]]> = {
    energy: [['sheet', 'unit', 'section', 'country', 'year', 'value', 'flag'], energy],
    production: [['sheet', 'unit', 'country', 'year', 'value', 'flag'], production],
    reserves: [['sheet', 'unit', 'reserves_as_of', 'country', 'value', 'flag'], reserves],
    prices: [prices?.header ?? ['Year'], prices?.rows ?? []],
    trade: [['sheet', 'unit', 'flow', 'exporter', 'importer', 'value', 'flag'], trade],
  };
  for (const [key, [header, rows]] of Object.entries(out) as [keyof typeof F, [string[], Cell[][]]][]) {
    const path = files[key];
    if (path) await writeCsv(join(dir, path), header, rows);
  }
}

/** The per-country year sheets the mirror keeps (SOURCES.md §1); from the 2026 edition EI reports total energy supply in place of primary energy consumption. */
export const ENERGY_SHEETS: ReadonlySet<string> = new Set([
  'Primary energy cons - EJ',
  'Total Energy Supply (TES) -EJ',
  'Oil Production - barrels',
  'Oil Production - tonnes',
  'Oil Consumption - barrels',
  'Oil Consumption - Tonnes',
  'Oil Consumption - EJ',
  'Crude+cond production - barrels',
  'NGLs production - barrels',
  'Gas Production - Bcm',
  'Gas Production - EJ',
  'Gas Consumption - Bcm',
  'Gas Consumption - EJ',
  'Coal Production - mt',
  'Coal Production - EJ',
  'Coal Consumption - EJ',
  'Nuclear Consumption - EJ',
  'Hydro Consumption - EJ',
  'Renewables Consumption -EJ',
  'Oil - Proved reserves history',
  'Gas - Proved reserves history',
  'Gas - LNG imports bcm',
  'Gas - LNG exports bcm',
  'Oil refinery - capacity',
  'Oil refinery - throughput',
  'Coal - Trade movements',
]);
