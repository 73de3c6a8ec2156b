/**
 * The CSV form of every route that has one (ROUTES[].csv), declared once: its columns, fixed
 * whatever the filter or the data (a column never comes and goes with a null or an optional
 * field), and how a record of the JSON answer becomes a row. Nested objects are dotted columns
 * (`price.value`); arrays of values are joined with '; '; arrays of objects are one JSON text
 * each, joined with '; '. The API writes these with lib/csv.ts (RFC 4180, UTF-8, CRLF).
 *
 * No comment line carries the licence: many CSV readers take it for a record. The licence and
 * the attribution travel in the `Link` header of every response (rel="license", rel="cite-as"),
 * and in the bulk package's datapackage.json.
 */

/** Rows of a route's CSV: records whose keys are (a subset of) its columns. */
export type CsvRecord = Readonly<Record<string, unknown>>;

const LANG_NAMES = ['names.en', 'names.fr', 'names.de', 'names.es'] as const;
/** The title and summary of an event or a scenario in each language besides English, dotted. */
const TRANSLATIONS = [
  'translations.fr.title',
  'translations.fr.summary',
  'translations.de.title',
  'translations.de.summary',
  'translations.es.title',
  'translations.es.summary',
] as const;
const PRICE = [
  'price.value',
  'price.currency',
  'price.unit',
  'price.unit_note',
  'price.as_of',
  'price.frequency',
  'price.benchmark',
  'price.source',
  'price.change_1y_pct',
] as const;

/** The columns of each route's CSV, by operationId. */
export const CSV_COLUMNS = {
  listCommodities: ['slug', 'code', 'group', 'name', ...LANG_NAMES, 'unit', ...PRICE, 'stress_index', 'stress_band', 'updated_at', 'url'],
  getReserve: [
    'commodity',
    'country',
    'name',
    'kind',
    'as_of',
    'fill_pct',
    'volume.value',
    'volume.unit',
    'capacity.value',
    'capacity.unit',
    'coverage_days',
    'coverage_method',
    'target.fill_pct',
    'target.date',
    'target.basis',
    'target.url',
    'seasonal_norm_pct',
    'seasonal_norm_years',
    'gap_to_norm_pct',
    'flows.injection',
    'flows.withdrawal',
    'flows.net_withdrawal',
    'flows.unit',
    'commercial_stocks.value',
    'commercial_stocks.unit',
    'status',
    'metrics',
    'first_date',
    'timeseries_url',
  ],
  /** One row per point of the series. */
  getReserveTimeseries: ['commodity', 'country', 'metric', 'unit', 'date', 'value'],
  /** The sheet's price history, one row per point (no rows for a commodity without a public price series). */
  getCommodity: ['slug', 'date', 'value', 'currency', 'unit', 'frequency'],
  listScenarios: ['id', 'title', 'summary', ...TRANSLATIONS, 'commodities', 'countries', 'probability', 'severity', 'status', 'status_history', 'updated_at'],
  /**
   * English `title` and `summary` with the translations dotted, as for scenarios; with `lang` (fr,
   * de, es) `title` and `summary` are in that language, `lang` says which and the translations are empty.
   */
  listEvents: [
    'id',
    'date',
    'category',
    'title',
    'summary',
    ...TRANSLATIONS,
    'lang',
    'commodities',
    'countries',
    'source_url',
    'source_name',
    'effect',
    'kind',
    'ended_on',
  ],
  /** Without the Markdown body (the JSON answer has it). */
  listBriefings: ['id', 'lang', 'translation_key', 'title', 'summary', 'published_at', 'commodities', 'countries', 'series'],
} as const satisfies Record<string, readonly string[]>;

export type CsvRoute = keyof typeof CSV_COLUMNS;

/** A record flattened to dotted keys: nested objects dotted, arrays of values joined with '; ', arrays of objects as JSON texts joined with '; '. */
export function flattenRecord(value: CsvRecord, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const [k, v] of Object.entries(value)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (Array.isArray(v)) out[key] = v.map((x) => (typeof x === 'object' && x !== null ? JSON.stringify(x) : String(x))).join('; ');
    else if (v !== null && typeof v === 'object') flattenRecord(v as CsvRecord, key, out);
    else out[key] = v;
  }
  return out;
}
