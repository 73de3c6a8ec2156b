/**
 * The Energy Institute editions in the build, oldest first. The newest loaded one is the current
 * edition of the energy balances (country profiles, production shares, concentration); a history
 * reads, for each month, the edition that was out then (known from the end of its data year plus
 * EI's lag, 172 days: the 2024 edition on 20 June 2024). The bilateral trade matrices exist only in
 * the 2024 edition's mirror, so inter-area trade stays on it (data year 2023).
 */
import type { SourceId } from '../../contract/sources.ts';
import type { Db } from '../db.ts';

export interface EiEdition {
  source: SourceId;
  table: 'ei_energy' | 'ei_energy_2026';
  /** The sheet of a country's whole energy use: primary energy consumption until 2024, total energy supply (TES) from 2026. */
  primarySheet: string;
}

export const EI_EDITIONS: readonly EiEdition[] = [
  { source: 'ei-statistical-review-2024', table: 'ei_energy', primarySheet: 'Primary energy cons - EJ' },
  { source: 'ei-statistical-review-2026', table: 'ei_energy_2026', primarySheet: 'Total Energy Supply (TES) -EJ' },
];

/** The edition whose bilateral trade matrices the build reads (the 2026 mirror has none). */
export const EI_TRADE_SOURCE = 'ei-statistical-review-2024' satisfies SourceId;

/** Whether a catalogue or table source id names an EI edition. */
export const isEiSource = (source: string): boolean => EI_EDITIONS.some((e) => e.source === source);

/** The edition a source id names (the 2024 one for an unknown id). */
export const eiEdition = (source: string): EiEdition => EI_EDITIONS.find((e) => e.source === source) ?? (EI_EDITIONS[0] as EiEdition);

/** The editions whose table has rows in this build, oldest first, each with its newest data year. */
export async function loadedEiEditions(db: Db): Promise<(EiEdition & { dataYear: number })[]> {
  const out: (EiEdition & { dataYear: number })[] = [];
  for (const e of EI_EDITIONS) {
    const r = await db.one<{ y: number | null }>(`SELECT max(year) AS y FROM ${e.table}`);
    if (r?.y) out.push({ ...e, dataYear: r.y });
  }
  return out;
}

/** The current edition: the newest loaded (the 2024 one when none is). */
export async function currentEiEdition(db: Db): Promise<EiEdition> {
  return (await loadedEiEditions(db)).at(-1) ?? (EI_EDITIONS[0] as EiEdition);
}

/**
 * SQL (a subquery) of the loaded editions' energy rows with each data year as first published: from
 * the oldest edition that has it, so a history sees the figure that was out then rather than a later
 * revision. Adds `source` and `edition_year` (the edition's newest year, which dates its release).
 */
export function eiFirstPublishedSql(editions: readonly (EiEdition & { dataYear: number })[]): string {
  if (editions.length === 0) return `(SELECT *, NULL::VARCHAR AS source, NULL::INTEGER AS edition_year FROM ei_energy WHERE false)`;
  return `(${editions
    .map(
      (e, i) => `SELECT *, '${e.source}' AS source, ${e.dataYear} AS edition_year FROM ${e.table}${i > 0 ? ` WHERE year > ${editions[i - 1]!.dataYear}` : ''}`,
    )
    .join(' UNION ALL ')})`;
}
