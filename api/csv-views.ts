import type { CommoditySheet } from '../contract/commodities.ts';
import { CSV_COLUMNS, type CsvRecord, type CsvRoute, flattenRecord } from '../contract/csv.ts';
import type { TimeSeries } from '../contract/reserves.ts';
import { recordsToCsv } from '../lib/csv.ts';

/**
 * A route's CSV answer: its declared columns (contract/csv.ts CSV_COLUMNS), the same whatever the
 * filter or the data, then one record per row, written by lib/csv.ts (RFC 4180, UTF-8, CRLF). A
 * field the columns do not name is left out (the briefing body); a column the record lacks is an
 * empty field.
 */
export function csvOf(route: CsvRoute, records: Iterable<CsvRecord>): string {
  const rows: Record<string, unknown>[] = [];
  for (const r of records) rows.push(flattenRecord(r));
  return recordsToCsv(CSV_COLUMNS[route], rows);
}

/** The rows of a time series: one per point, with what the points are of. */
export function timeSeriesRows(ts: TimeSeries): CsvRecord[] {
  return ts.points.map((p) => ({ commodity: ts.commodity, country: ts.country, metric: ts.metric, unit: ts.unit, date: p.date, value: p.value }));
}

/** The CSV rows of a commodity sheet: its price history, one row per point (none without a price series). */
export function priceHistoryRows(sheet: CommoditySheet): CsvRecord[] {
  const h = sheet.price_history;
  if (!h) return [];
  return h.points.map((p) => ({ slug: sheet.slug, date: p.date, value: p.value, currency: h.currency, unit: h.unit, frequency: h.frequency }));
}
