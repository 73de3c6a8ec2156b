import { TABLE_SCHEMAS } from '../../contract/tables.ts';

export { TABLE_SCHEMAS, type ColumnOf, type TableName } from '../../contract/tables.ts';

const NUMERIC = new Set(['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'HUGEINT', 'DOUBLE', 'FLOAT', 'DECIMAL']);

/** Types are compared by family: an adapter may produce BIGINT where INTEGER is declared. */
export function sameTypeFamily(declared: string, actual: string): boolean {
  const a = actual.replace(/\(.*\)$/, '');
  return declared === a || (NUMERIC.has(declared) && NUMERIC.has(a));
}

export function createTableSql(table: string): string {
  const cols = TABLE_SCHEMAS[table];
  if (!cols) throw new Error(`no declared schema for table ${table}`);
  return `CREATE OR REPLACE TABLE ${table} (${Object.entries(cols)
    .map(([c, t]) => `${c} ${t}`)
    .join(', ')})`;
}
