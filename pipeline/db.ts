import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';

export type SqlParam = string | number | boolean | null;

/**
 * A thin wrapper over one DuckDB connection. Rows come back JSON-shaped:
 * DATE as 'YYYY-MM-DD', DOUBLE and INTEGER as number, BIGINT/HUGEINT as string
 * (cast counts to INTEGER in SQL when a number is wanted).
 */
export class Db {
  private readonly instance: DuckDBInstance;
  private readonly conn: DuckDBConnection;
  private constructor(instance: DuckDBInstance, conn: DuckDBConnection) {
    this.instance = instance;
    this.conn = conn;
  }

  static async open(path = ':memory:'): Promise<Db> {
    // One thread: parallel aggregates add in a varying order, so their last digits would change
    // from build to build; identical inputs must give identical outputs (and the work is small).
    const instance = await DuckDBInstance.create(path, { threads: '1' });
    const conn = await instance.connect();
    return new Db(instance, conn);
  }

  async run(sql: string, params: SqlParam[] = []): Promise<void> {
    await this.conn.run(sql, params as DuckDBValue[]);
  }

  async all<T = Record<string, unknown>>(sql: string, params: SqlParam[] = []): Promise<T[]> {
    const reader = await this.conn.runAndReadAll(sql, params as DuckDBValue[]);
    return reader.getRowObjectsJson() as unknown as T[];
  }

  async one<T = Record<string, unknown>>(sql: string, params: SqlParam[] = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }

  async tableExists(name: string): Promise<boolean> {
    const row = await this.one<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM information_schema.tables WHERE table_name = ?`, [name]);
    return (row?.n ?? 0) > 0;
  }

  close(): void {
    this.conn.closeSync();
    this.instance.closeSync();
  }
}

/** Quote a string as a SQL literal (for file paths inside read_csv, which takes no parameters). */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
