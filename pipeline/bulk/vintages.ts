/**
 * Vintages (docs/bulk.md): a build's bulk package is kept under vintages/<build id>/ when its
 * figures differ from the newest vintage's, listed in vintages/index.json, and thinned by a
 * published retention rule. Revisions are found in SQL by joining the new headline series with
 * the previous vintage's Parquet files.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BULK_DIR, VINTAGES_DIR, VINTAGE_INDEX, type Vintage, VintageIndex } from '../../contract/bulk.ts';
import { isoWeekId } from '../../contract/dates.ts';
import { type Db, sqlString } from '../db.ts';

export const RETENTION = { everyDays: 7, dailyDays: 90 } as const;
export const RETENTION_TEXT = `every vintage of the last ${RETENTION.everyDays} days, then the newest of each day up to ${RETENTION.dailyDays} days, then the newest of each ISO week`;

export async function readVintageIndex(outDir: string): Promise<VintageIndex> {
  try {
    return VintageIndex.parse(JSON.parse(await readFile(join(outDir, VINTAGE_INDEX), 'utf8')));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { retention: RETENTION_TEXT, vintages: [] };
    throw new Error(`${VINTAGE_INDEX} is unreadable: ${(err as Error).message}`);
  }
}

/** The headline series as (series, date, value): open prices, stress histories, the SPR series. */
const HEADLINE = (t: (name: string) => string) => `
  SELECT 'prices/' || slug AS series, date, value FROM ${t('prices')}
  UNION ALL SELECT 'stress_history/' || kind || '/' || id, date, "index" FROM ${t('stress_history')}
  UNION ALL SELECT 'reserve_series/' || commodity || '/' || country || '/' || metric, date, value FROM ${t('reserve_series')}`;

/**
 * Fill bulk_revisions: the previous vintage's revisions, plus every headline value present in both
 * vintages that changed, or that the new one no longer has. New observations are not revisions.
 */
export async function computeRevisions(db: Db, outDir: string, previous: Vintage | null, build: string): Promise<number> {
  const dir = previous ? join(outDir, VINTAGES_DIR, previous.id) : null;
  const readable = dir && ['prices', 'stress_history', 'reserve_series', 'revisions'].every((n) => existsSync(join(dir, `${n}.parquet`)));
  if (!previous || !dir || !readable) return 0;
  const old = (n: string) => `read_parquet(${sqlString(join(dir, `${n}.parquet`))})`;
  await db.run(`
    INSERT INTO bulk_revisions
    SELECT * FROM ${old('revisions')}
    UNION ALL
    SELECT o.series, o.date, o.value, n.value, ${sqlString(previous.id)}, ${sqlString(build)}
    FROM (${HEADLINE(old)}) o LEFT JOIN (${HEADLINE((n) => `bulk_${n}`)}) n ON n.series = o.series AND n.date = o.date
    WHERE o.value IS DISTINCT FROM n.value`);
  const added = await db.one<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM bulk_revisions WHERE vintage = ?`, [build]);
  return added?.n ?? 0;
}

/** Ids of the vintages the retention rule keeps (index newest first). */
export function retained(vintages: readonly Vintage[], now: Date): Set<string> {
  const keep = new Set<string>();
  const seen = new Set<string>();
  for (const v of vintages) {
    const ageDays = (now.getTime() - Date.parse(v.generated_at)) / 86_400_000;
    const bucket = ageDays <= RETENTION.everyDays ? v.id : ageDays <= RETENTION.dailyDays ? `day ${v.date}` : `week ${isoWeekId(v.date)}`;
    if (!seen.has(bucket)) keep.add(v.id);
    seen.add(bucket);
  }
  return keep;
}

/**
 * Keep the published build's bulk package as a vintage (copied, then renamed into place), put it
 * first in the index (written atomically) and delete what the retention rule no longer keeps.
 */
export async function publishVintage(outDir: string, buildDir: string, vintage: Vintage, now: Date): Promise<{ kept: number; removed: string[] }> {
  const root = join(outDir, VINTAGES_DIR);
  await mkdir(root, { recursive: true });
  const tmp = join(root, `.tmp-${vintage.id}-${process.pid}`);
  await rm(tmp, { recursive: true, force: true });
  await cp(join(buildDir, BULK_DIR), tmp, { recursive: true });
  await rm(join(root, vintage.id), { recursive: true, force: true });
  await rename(tmp, join(root, vintage.id));
  const index = await readVintageIndex(outDir);
  const all = [vintage, ...index.vintages.filter((v) => v.id !== vintage.id)];
  const keep = retained(all, now);
  const next: VintageIndex = { retention: RETENTION_TEXT, vintages: all.filter((v) => keep.has(v.id)) };
  const indexTmp = join(outDir, `${VINTAGE_INDEX}.tmp-${process.pid}`);
  await writeFile(indexTmp, JSON.stringify(VintageIndex.parse(next), null, 2));
  await rename(indexTmp, join(outDir, VINTAGE_INDEX));
  const removed = all.filter((v) => !keep.has(v.id)).map((v) => v.id);
  for (const id of removed) await rm(join(root, id), { recursive: true, force: true });
  return { kept: next.vintages.length, removed };
}
