import { join } from 'node:path';
import type { Db } from '../db.ts';
import { readCsvText, requireColumns, requireFile, requireRows, writeCsv } from './support.ts';
import { SourceError, type SourceAdapter, type SourceKeys, todayOf } from './types.ts';

const ID = 'the-de-gas-consumption' as const;
const FILE = 'de_gas_consumption_daily.csv';
const COLUMNS = ['date', 'consumption_gwh', 'slp_gwh', 'rlm_gwh', 'status', 'source'];
/**
 * THE's keyless XML export (manual: https://api.tradinghub.eu/api/dataexport/manual/de); startDate and
 * endDate are yyyy-mm-dd. It replaced datenservice.tradinghub.eu/XmlInterface/getXML.ashx (dd-mm-yyyy).
 */
const ENDPOINT = 'https://api.tradinghub.eu/api/dataexport/xmlexport/AggregatedConsumptionData';
const SLP_FIELDS = ['HGasSLPsyn', 'HGasSLPana', 'LGasSLPsyn', 'LGasSLPana'];
const RLM_FIELDS = ['HGasRLMmT', 'LGasRLMmT', 'HGasRLMoT', 'LGasRLMoT'];
/** The mirror starts here (two months before the THE market area replaced NCG and GASPOOL). */
const FIRST_DAY = '2021-08-01';
const CHUNK_DAYS = 366;

export const theGasConsumptionSource: SourceAdapter = {
  id: ID,
  publisher: 'Trading Hub Europe GmbH (THE)',
  dataset: 'Aggregated consumption data (SLP and RLM exit points, German market area, daily)',
  url: 'https://www.tradinghub.eu/en-gb/Publications/Transparency/Aggregated-consumption-data',
  licence: 'Published freely by THE without a stated licence (mirror copy CC0)',
  redistribution: 'derived-only',
  tables: ['de_gas_consumption'],
  files: [{ path: FILE, url: `${ENDPOINT}?startDate=2021-08-01&endDate=2022-08-01` }],

  async load(db: Db, dir: string): Promise<void> {
    const file = requireFile(this, dir, FILE);
    await requireColumns(this, file, ['date', 'consumption_gwh', 'slp_gwh', 'rlm_gwh', 'status']);
    try {
      // RLM (metered industry, power plants) is reported a day late: on the newest preliminary days THE has only
      // SLP, and the file writes rlm_gwh = 0.000 with consumption_gwh = SLP alone. Zero RLM is never real for
      // Germany (it is ~60-80 % of demand), so rlm_gwh is NULL there, and consumption_gwh is NULL too: an SLP-only
      // total would read as a 70-80 % collapse in demand. slp_gwh stays, it is complete.
      await db.run(`
        CREATE OR REPLACE TABLE de_gas_consumption AS
        WITH raw AS (
          SELECT CAST(date AS DATE) AS date,
                 CAST(NULLIF(trim(consumption_gwh), '') AS DOUBLE) AS consumption_gwh,
                 CAST(NULLIF(trim(slp_gwh), '') AS DOUBLE) AS slp_gwh,
                 CAST(NULLIF(trim(rlm_gwh), '') AS DOUBLE) AS rlm_gwh,
                 lower(trim(status)) AS status
          FROM ${readCsvText(file)}
        ),
        flagged AS (
          SELECT *, rlm_gwh IS NULL OR (rlm_gwh = 0 AND status = 'preliminary') AS rlm_pending FROM raw
        )
        SELECT date,
               CASE WHEN rlm_pending THEN NULL ELSE consumption_gwh END AS consumption_gwh,
               slp_gwh,
               CASE WHEN rlm_pending THEN NULL ELSE rlm_gwh END AS rlm_gwh,
               status
        FROM flagged
        ORDER BY date
      `);
    } catch (err) {
      throw new SourceError(ID, `cleaning failed: ${(err as Error).message}`);
    }
    const odd = await db.one<{ status: string }>(
      `SELECT status FROM de_gas_consumption WHERE status IS NULL OR status NOT IN ('final', 'corrected', 'preliminary') LIMIT 1`,
    );
    if (odd) throw new SourceError(ID, `unknown status '${odd.status}' in ${FILE}`);
    const dup = await db.one<{ date: string }>(`SELECT date FROM de_gas_consumption GROUP BY date HAVING count(*) > 1 LIMIT 1`);
    if (dup) throw new SourceError(ID, `gas day ${dup.date} appears twice in ${FILE}`);
    await requireRows(this, db, 'de_gas_consumption');
  },

  async download(dir: string, fetchImpl: typeof fetch, keys?: SourceKeys): Promise<void> {
    const byDate = new Map<string, string[]>();
    const end = todayOf(keys);
    for (let start = FIRST_DAY; start <= end; start = addDays(start, CHUNK_DAYS)) {
      const stop = minDay(addDays(start, CHUNK_DAYS - 1), end);
      const url = `${ENDPOINT}?startDate=${start}&endDate=${stop}`;
      // THE asks callers to send a meaningful User-Agent.
      const res = await fetchImpl(url, { headers: { 'user-agent': 'chokepoint-pipeline (+https://github.com/chokepoint)' } });
      if (!res.ok) throw new SourceError(ID, `download ${url} answered ${res.status}`);
      // Later chunks win, so a re-fetched day carries THE's newest status.
      for (const row of parseTheXml(await res.text())) byDate.set(row[0] as string, row);
    }
    if (byDate.size === 0) throw new SourceError(ID, 'THE returned no gas days');
    await writeCsv(
      join(dir, FILE),
      COLUMNS,
      [...byDate.keys()].sort().map((d) => byDate.get(d) as string[]),
    );
  },
};

/**
 * THE's XML → mirror rows. A root <AggregatedConsumptionData> holds one element of the same name per gas
 * day, amounts in kWh. The legacy interface put an inline XSD first and `xmlns="urn:…SqlRowSet1"` on every
 * record; the current export may start with a BOM and an XML declaration, give the root attributes, leave
 * `xmlns` off the records and write the gas day as a timestamp ('2026-01-01T00:00:00'). A record is thus
 * any such element with no other one inside it. Like the mirror's producer, an absent amount counts as 0,
 * so not-yet-reported RLM arrives as 0.000 and load() treats it the same way for downloaded and mirrored files.
 */
export function parseTheXml(xml: string): string[][] {
  if (!/<AggregatedConsumptionData[\s>]/.test(xml))
    throw new SourceError(ID, `answer is not THE's AggregatedConsumptionData XML: ${JSON.stringify(xml.slice(0, 80))}`);
  const rows: string[][] = [];
  for (const m of xml.matchAll(/<AggregatedConsumptionData(?:\s[^>]*)?>((?:(?!<AggregatedConsumptionData[\s>])[\s\S])*?)<\/AggregatedConsumptionData>/g)) {
    const body = m[1] ?? '';
    const field = (name: string): string | undefined => new RegExp(`<${name}>([^<]*)</${name}>`).exec(body)?.[1]?.trim();
    const day = field('Gasday')?.slice(0, 10);
    if (!day) continue;
    const unit = field('Unit');
    if (unit && unit.toLowerCase() !== 'kwh') throw new SourceError(ID, `unexpected unit '${unit}' for ${day} (expected kWh)`);
    const sum = (names: string[]): number => names.reduce((acc, n) => acc + Number(field(n) || 0), 0) / 1e6;
    const slp = sum(SLP_FIELDS);
    const rlm = sum(RLM_FIELDS);
    if (!Number.isFinite(slp + rlm)) throw new SourceError(ID, `non-numeric amount for ${day}`);
    rows.push([day, (slp + rlm).toFixed(3), slp.toFixed(3), rlm.toFixed(3), field('Status') ?? '', 'Trading Hub Europe AggregatedConsumptionData']);
  }
  return rows;
}

function addDays(iso: string, n: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

function minDay(a: string, b: string): string {
  return a < b ? a : b;
}
