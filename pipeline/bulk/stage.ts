/**
 * The bulk stage of a build: tables → DuckDB → revisions against the newest vintage → Parquet,
 * CSV and datapackage.json under bulk/. Whether the build becomes a vintage is decided here (its
 * figures differ from the newest vintage's) and done after it publishes (publishVintage).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BULK_RESOURCES, VINTAGES_DIR, type Vintage } from '../../contract/bulk.ts';
import type { Db } from '../db.ts';
import type { BuildWriter } from '../publish.ts';
import { type PackageResult, type SourceInfo, loadBulkTable, writeBulkPackage } from './package.ts';
import { type BulkInputs, bulkRows } from './tables.ts';
import { computeRevisions, readVintageIndex } from './vintages.ts';

export interface BulkStageResult extends PackageResult {
  /** Revisions against the newest vintage. */
  revisions: number;
  /** The vintage this build is, if its figures changed (publish it once the build is live). */
  vintage: Vintage | null;
}

export async function bulkStage(
  db: Db,
  writer: BuildWriter,
  outDir: string,
  inputs: BulkInputs,
  x: {
    build: string;
    generatedAt: string;
    baseUrl: string;
    methodologyVersion: string;
    version: string;
    sources: readonly (SourceInfo & { sha256: string | null; data_as_of: string | null })[];
  },
): Promise<BulkStageResult> {
  const rows = await bulkRows(inputs);
  const tmp = await mkdtemp(join(tmpdir(), 'chokepoint-bulk-rows-'));
  try {
    for (const r of BULK_RESOURCES) await loadBulkTable(db, r, rows[r.name] ?? [], tmp);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  const previous = (await readVintageIndex(outDir)).vintages[0] ?? null;
  const revisions = await computeRevisions(db, outDir, previous, x.build);
  const pkg = await writeBulkPackage(db, writer, x);
  const vintage: Vintage | null =
    previous?.fingerprint === pkg.fingerprint
      ? null
      : {
          id: x.build,
          date: x.generatedAt.slice(0, 10),
          generated_at: x.generatedAt,
          methodology_version: x.methodologyVersion,
          fingerprint: pkg.fingerprint,
          sources: x.sources.map((s) => ({ id: s.id, sha256: s.sha256, data_as_of: s.data_as_of })),
          revisions,
          url: `/${VINTAGES_DIR}/${x.build}/datapackage.json`,
        };
  return { ...pkg, revisions, vintage };
}
