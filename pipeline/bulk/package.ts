/**
 * Writes the bulk package: each resource of contract/bulk.ts as a DuckDB table with the declared
 * column types, copied out as Parquet and CSV, and datapackage.json describing both. The
 * fingerprint hashes the figures (the CSVs, revisions left out), so two builds with the same
 * figures have the same fingerprint whatever their build ids.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BULK_DIR, BULK_RESOURCES, type BulkResource, DataPackage, type FieldType } from '../../contract/bulk.ts';
import { LICENSE, LICENSE_URL, attributionText } from '../../contract/common.ts';
import { formulaSafeSql } from '../../lib/csv.ts';
import { type Db, sqlString } from '../db.ts';
import type { BuildWriter } from '../publish.ts';
import type { Row } from './tables.ts';

const DUCK: Record<FieldType, string> = { string: 'VARCHAR', number: 'DOUBLE', integer: 'BIGINT', boolean: 'BOOLEAN', date: 'DATE' };
const table = (r: BulkResource) => `bulk_${r.name}`;

/** Load rows into a typed table (through NDJSON, which DuckDB reads with the declared columns). */
export async function loadBulkTable(db: Db, r: BulkResource, rows: readonly Row[], dir: string): Promise<void> {
  const file = join(dir, `${r.name}.ndjson`);
  await writeFile(file, rows.map((row) => JSON.stringify(Object.fromEntries(r.fields.map((f) => [f.name, row[f.name] ?? null])))).join('\n'));
  const columns = `{${r.fields.map((f) => `${sqlString(f.name)}: ${sqlString(DUCK[f.type])}`).join(', ')}}`;
  await db.run(`CREATE OR REPLACE TABLE ${table(r)} (${r.fields.map((f) => `"${f.name}" ${DUCK[f.type]}`).join(', ')})`);
  if (rows.length) await db.run(`INSERT INTO ${table(r)} SELECT * FROM read_json(${sqlString(file)}, format = 'newline_delimited', columns = ${columns})`);
}

export interface SourceInfo {
  id: string;
  title: string;
  url: string;
  license: string;
}

export interface PackageResult {
  fingerprint: string;
  files: number;
  bytes: number;
  rows: Record<string, number>;
}

/**
 * Write every resource's Parquet and CSV and the datapackage.json under bulk/ of the build. The
 * tables must already be loaded (loadBulkTable), revisions included.
 */
export async function writeBulkPackage(
  db: Db,
  writer: BuildWriter,
  x: { build: string; generatedAt: string; baseUrl: string; methodologyVersion: string; version: string; sources: readonly SourceInfo[] },
): Promise<PackageResult> {
  const tmp = await mkdtemp(join(tmpdir(), 'chokepoint-bulk-'));
  try {
    const resources: DataPackage['resources'] = [];
    const figures = createHash('sha256');
    const rows: Record<string, number> = {};
    let bytes = 0;
    // The profile wants at least one source when the key is there: revisions are Chokepoint's own.
    const sourcesOf = (r: BulkResource) => {
      const list = r.sources
        .map((id) => x.sources.find((s) => s.id === id))
        .filter((s): s is SourceInfo => !!s)
        .map((s) => ({ title: s.title, path: s.url }));
      return list.length ? { sources: list } : {};
    };
    for (const r of BULK_RESOURCES) {
      const order = r.primaryKey.map((k) => `"${k}"`).join(', ');
      const n = (await db.one<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${table(r)}`))?.n ?? 0;
      rows[r.name] = n;
      for (const format of ['parquet', 'csv'] as const) {
        const file = join(tmp, `${r.name}.${format}`);
        // The CSV in lib/csv.ts's dialect (RFC 4180, CRLF), written by DuckDB from the same typed table as the Parquet.
        const options = format === 'parquet' ? 'FORMAT parquet, COMPRESSION zstd' : "FORMAT csv, HEADER true, DATEFORMAT '%Y-%m-%d', NEW_LINE '\\r\\n'";
        // Text cells a spreadsheet would run as a formula get a ' in front in the CSV (lib/csv.ts), as in the API's CSVs; the Parquet keeps the text as it is.
        const columns =
          format === 'csv' ? r.fields.map((f) => (f.type === 'string' ? `${formulaSafeSql(`"${f.name}"`)} AS "${f.name}"` : `"${f.name}"`)).join(', ') : '*';
        await db.run(`COPY (SELECT ${columns} FROM ${table(r)} ORDER BY ${order}) TO ${sqlString(file)} (${options})`);
        const body = await readFile(file);
        const path = `${BULK_DIR}/${r.name}.${format}`;
        await writer.raw(path, body, format === 'parquet' ? 'application/vnd.apache.parquet' : 'text/csv; charset=utf-8');
        if (format === 'csv' && r.name !== 'revisions') figures.update(`${r.name}\n`).update(body);
        bytes += body.length;
        resources.push({
          profile: 'tabular-data-resource',
          name: `${r.name}-${format}`,
          title: `${r.title} (${format === 'parquet' ? 'Parquet' : 'CSV'})`,
          description: r.description,
          path: `${r.name}.${format}`,
          format,
          mediatype: format === 'parquet' ? 'application/vnd.apache.parquet' : 'text/csv',
          ...(format === 'csv' ? { encoding: 'utf-8' } : {}),
          bytes: body.length,
          hash: `sha256:${createHash('sha256').update(body).digest('hex')}`,
          rows: n,
          schema: { fields: r.fields.map((f) => ({ ...f })), primaryKey: [...r.primaryKey] },
          ...sourcesOf(r),
        });
      }
    }
    const fingerprint = figures.digest('hex').slice(0, 16);
    const pkg: DataPackage = {
      profile: 'tabular-data-package',
      name: 'chokepoint',
      id: `${x.baseUrl}/bulk/datapackage.json#${x.build}`,
      title: 'Chokepoint: supply stress for raw materials and energy',
      description: `Every table Chokepoint publishes, from build ${x.build}. Derived-only sources (IMF, Energy Institute, GIE AGSI+) contribute indicators and the figures they use, not their full tables: download those from the publisher.`,
      version: x.version,
      created: x.generatedAt,
      homepage: `${x.baseUrl}/`,
      licenses: [{ name: LICENSE, path: LICENSE_URL, title: 'Creative Commons Attribution 4.0' }],
      contributors: [{ title: 'Chokepoint', role: 'publisher', path: `${x.baseUrl}/` }],
      sources: x.sources.map((s) => ({ title: s.title, path: s.url, licenses: [{ name: s.license }] })),
      keywords: ['commodities', 'energy', 'critical minerals', 'supply chain', 'stress index'],
      chokepoint: { build: x.build, methodology_version: x.methodologyVersion, attribution: attributionText(x.baseUrl), fingerprint },
      resources,
    };
    await writer.raw(`${BULK_DIR}/datapackage.json`, JSON.stringify(DataPackage.parse(pkg), null, 2), 'application/json; charset=utf-8');
    return { fingerprint, files: resources.length + 1, bytes, rows };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
