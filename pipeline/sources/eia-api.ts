/**
 * EIA API v2, shared by the three EIA adapters. The data routes (`/petroleum/pri/spt/data/`) send
 * `total` and every `value` as strings ("25.78"); the `/seriesid/` route sends them as numbers and adds
 * `description`/`id` (RECORDINGS.md). At most 5,000 rows come per call: past that EIA answers the first
 * 5,000 with `response.warnings: [{warning: "incomplete return", …}]`, so every query pages by offset
 * until `total` rows have arrived. Retries, timeouts and pacing belong to the fetch the build hands in.
 */
import { SourceError, type SourceKeys } from './types.ts';

export const EIA_API = 'https://api.eia.gov/v2';
const PAGE = 5000;

/** The EIA API v2 key (EIA_API_KEY) from the download's keys; the API refuses anonymous requests. */
export function eiaApiKey(sourceId: string, keys: SourceKeys = {}): string {
  const key = keys.eia;
  if (!key) throw new SourceError(sourceId, 'EIA_API_KEY is not set (EIA API v2 needs a free key: https://www.eia.gov/opendata/register.php)');
  return key;
}

/** One data point of an EIA API v2 answer; `value` as EIA sent it (numeric string, number, or null when not reported). */
export interface EiaPoint {
  period: string;
  value?: string | number | null;
  series?: string;
  'series-description'?: string;
  units?: string;
}

/** One answer's points, its announced total and its warnings; a SourceError when it is not an EIA v2 answer. */
export function readEiaPage(sourceId: string, body: unknown, shown: string): { rows: EiaPoint[]; total: number; warnings: string[] } {
  const response = (body as { response?: { total?: unknown; data?: unknown; warnings?: unknown } } | null)?.response;
  if (!response || !Array.isArray(response.data)) {
    const error = (body as { error?: unknown } | null)?.error;
    throw new SourceError(sourceId, `${shown}: no response.data in the answer${error ? ` (${JSON.stringify(error).slice(0, 200)})` : ''}`);
  }
  const total = Number(response.total);
  if (!Number.isInteger(total) || total < 0) throw new SourceError(sourceId, `${shown}: response.total ${JSON.stringify(response.total)} is not a count`);
  const rows = (response.data as EiaPoint[]).filter((p) => typeof p?.period === 'string');
  for (const p of rows) {
    const v = p.value;
    if (!(v === null || v === undefined || typeof v === 'number' || (typeof v === 'string' && (v.trim() === '' || Number.isFinite(Number(v)))))) {
      throw new SourceError(sourceId, `${shown}: value ${JSON.stringify(v)} for ${p.period} is not a number`);
    }
  }
  const warnings = Array.isArray(response.warnings) ? response.warnings.map((w) => JSON.stringify(w)) : [];
  return { rows, total, warnings };
}

/** Every page of one EIA API v2 query (offset/length paging against response.total); the key never appears in messages. */
export async function fetchEiaPages(
  sourceId: string,
  fetchImpl: typeof fetch,
  key: string,
  route: string,
  params: Record<string, string>,
): Promise<EiaPoint[]> {
  const out: EiaPoint[] = [];
  for (;;) {
    const query = new URLSearchParams({ ...params, offset: String(out.length), length: String(PAGE) });
    const shown = `${EIA_API}${route}?${query}`; // without the key: error messages end up in logs
    query.set('api_key', key);
    const res = await fetchImpl(`${EIA_API}${route}?${query}`, { headers: { 'user-agent': 'chokepoint-pipeline' } });
    if (!res.ok) throw new SourceError(sourceId, `download ${shown} answered ${res.status}`);
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      throw new SourceError(sourceId, `download ${shown}: the answer is not JSON`);
    }
    const page = readEiaPage(sourceId, body, `download ${shown}`);
    out.push(...page.rows);
    // Advance by what arrived, not by PAGE: "incomplete return" means more pages, not an end.
    if (out.length >= page.total) break;
    if (page.rows.length === 0) {
      throw new SourceError(
        sourceId,
        `download ${shown}: ${out.length} of ${page.total} rows arrived, then none${page.warnings.length ? ` (EIA warned ${page.warnings.join('; ')})` : ''}`,
      );
    }
  }
  return out;
}

/**
 * All rows of one EIA API v2 series under a data route, oldest first, as [period, value] with value as
 * EIA sent it. No rows at all is an error: every series asked for has history.
 */
export async function fetchEiaSeries(
  sourceId: string,
  fetchImpl: typeof fetch,
  key: string,
  route: string,
  series: string,
  frequency: string,
): Promise<[string, unknown][]> {
  const rows = await fetchEiaPages(sourceId, fetchImpl, key, `/${route}/data/`, {
    frequency,
    'data[0]': 'value',
    'facets[series][]': series,
    'sort[0][column]': 'period',
    'sort[0][direction]': 'asc',
  });
  if (rows.length === 0) throw new SourceError(sourceId, `EIA API ${route} ${series} ${frequency}: no rows`);
  return rows.map((r) => [r.period, r.value]);
}
