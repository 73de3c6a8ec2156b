import { existsSync, readFileSync } from 'node:fs';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import AjvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { BULK_RESOURCES, DataPackage, VintageIndex } from '../../contract/bulk.ts';
import { DATA_DIR, NO_SITE, SOURCES_DIR, readJson, tempDir, testEffects } from '../../test/support.ts';
import { runBuild, type BuildResult } from '../build.ts';
import { Db, sqlString } from '../db.ts';
import { RETENTION_TEXT, retained } from './vintages.ts';

// A CommonJS module whose class is its default export: TypeScript sees the namespace.
const Ajv = AjvDraft04 as unknown as typeof AjvDraft04.default;
// ajv-formats is CommonJS: its default import is the plugin function itself.
const addFormats = ajvFormats as unknown as typeof ajvFormats.default;

const DUCK = { string: 'VARCHAR', number: 'DOUBLE', integer: 'BIGINT', boolean: 'BOOLEAN', date: 'DATE' } as const;

/** Three real builds into one DIST_DIR: the first, one with the same sources, one after a publisher revised a price. */
describe('bulk package and vintages', () => {
  let out: string;
  let mirror: string;
  const builds: BuildResult[] = [];
  const build = async (minutes: number) => {
    const r = await runBuild(
      { sourcesDir: mirror, dataDir: DATA_DIR, outDir: out, baseUrl: 'https://chokepoint.test', site: NO_SITE },
      testEffects(new Date(Date.parse('2026-11-22T00:00:00Z') + minutes * 60_000)),
    );
    builds.push(r);
    return r;
  };
  const index = () => VintageIndex.parse(readJson(join(out, 'vintages/index.json')));

  beforeAll(async () => {
    out = await tempDir('bulk');
    mirror = await tempDir('bulk-mirror');
    await cp(SOURCES_DIR, mirror, { recursive: true });
    await build(0);
  }, 300_000);

  it('describes itself in a datapackage.json valid against the Tabular Data Package profile', async () => {
    const pkg = readJson(join(out, 'current/bulk/datapackage.json'));
    const profile = JSON.parse(await readFile(join(import.meta.dirname, 'profiles/tabular-data-package.json'), 'utf8'));
    // Formats (date, uri, email…) are checked, not ignored: ajv-formats.
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv as never);
    const validate = ajv.compile(profile);
    expect(validate(pkg), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const parsed = DataPackage.parse(pkg);
    expect(parsed.licenses[0]!.name).toBe('CC-BY-4.0');
    expect(parsed.chokepoint.attribution).toContain('https://chokepoint.test/');
    expect(parsed.resources.map((r) => r.name)).toEqual(BULK_RESOURCES.flatMap((r) => [`${r.name}-parquet`, `${r.name}-csv`]));
  });

  it('writes every resource it names, with the declared columns, types and row counts (read back with DuckDB)', async () => {
    const pkg = DataPackage.parse(readJson(join(out, 'current/bulk/datapackage.json')));
    const db = await Db.open();
    try {
      for (const r of pkg.resources) {
        const file = join(out, 'current/bulk', r.path);
        expect(existsSync(file), r.path).toBe(true);
        const read =
          r.format === 'parquet'
            ? `read_parquet(${sqlString(file)})`
            : `read_csv(${sqlString(file)}, header = true, columns = {${r.schema.fields.map((f) => `${sqlString(f.name)}: ${sqlString(DUCK[f.type])}`).join(', ')}})`;
        const cols = await db.all<{ column_name: string; column_type: string }>(`DESCRIBE SELECT * FROM ${read}`);
        expect(
          cols.map((c) => [c.column_name, c.column_type]),
          r.path,
        ).toEqual(r.schema.fields.map((f) => [f.name, DUCK[f.type]]));
        expect((await db.one<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${read}`))?.n, r.path).toBe(r.rows);
        const key = r.schema.primaryKey.map((k) => `"${k}"`).join(', ');
        expect(
          (await db.one<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM (SELECT ${key} FROM ${read} GROUP BY ALL HAVING count(*) > 1)`))?.n,
          `${r.path}: duplicate keys`,
        ).toBe(0);
        expect(r.bytes).toBe(readFileSync(file).length);
      }
      // Figures equal the API's: Germany's index and Brent's newest price.
      const deu = readJson(join(out, 'current/v1/countries/DEU.json')).data;
      expect(await db.one(`SELECT stress_index FROM read_parquet(${sqlString(join(out, 'current/bulk/countries.parquet'))}) WHERE iso3 = 'DEU'`)).toEqual({
        stress_index: deu.stress_index,
      });
      const oil = readJson(join(out, 'current/v1/commodities/energy.oil.json')).data;
      const last = await db.one<{ date: string; value: number }>(
        `SELECT strftime(date, '%Y-%m-%d') AS date, value FROM read_parquet(${sqlString(join(out, 'current/bulk/prices.parquet'))}) WHERE slug = 'energy.oil' ORDER BY date DESC LIMIT 1`,
      );
      expect(last).toEqual({ date: oil.price.as_of, value: oil.price.value });
      // Derived-only publishers' full tables stay out: no IMF price series, no EI volumes.
      expect(
        await db.one(
          `SELECT count(*)::INTEGER AS n FROM read_parquet(${sqlString(join(out, 'current/bulk/prices.parquet'))}) WHERE source IN ('imf-commodity-prices', 'ei-statistical-review-2024')`,
        ),
      ).toEqual({ n: 0 });
      expect(
        await db.one(
          `SELECT count(*)::INTEGER AS n FROM read_parquet(${sqlString(join(out, 'current/bulk/producers.parquet'))}) WHERE source = 'ei-statistical-review-2024' AND value IS NOT NULL`,
        ),
      ).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });

  it('keeps the first build as a vintage, and adds none when a rebuild changes no figure', async () => {
    expect(index().vintages.map((v) => v.id)).toEqual([builds[0]!.build]);
    expect(index().retention).toBe(RETENTION_TEXT);
    await build(15);
    expect(builds[1]!.build).not.toBe(builds[0]!.build);
    expect(index().vintages.map((v) => v.id)).toEqual([builds[0]!.build]);
  }, 120_000);

  it('adds a vintage and a revisions row when a publisher revises a figure, and the old vintage stays as it was', async () => {
    const first = builds[0]!.build;
    const before = readFileSync(join(out, 'vintages', first, 'prices.csv'));
    const file = join(mirror, 'eia-oil-prices/brent-daily.csv');
    await writeFile(file, (await readFile(file, 'utf8')).replace('1987-05-21,18.45', '1987-05-21,18.55'));
    const third = await build(30);
    const vintages = index().vintages;
    expect(vintages.map((v) => v.id)).toEqual([third.build, first]);
    expect(vintages[0]!.revisions).toBeGreaterThanOrEqual(1);
    expect(vintages[0]!.sources.find((s) => s.id === 'eia-oil-prices')!.sha256).not.toBe(vintages[1]!.sources.find((s) => s.id === 'eia-oil-prices')!.sha256);
    const db = await Db.open();
    try {
      const rows = await db.all(
        `SELECT series, strftime(date, '%Y-%m-%d') AS date, old_value, new_value, previous_vintage, vintage FROM read_parquet(${sqlString(join(out, 'current/bulk/revisions.parquet'))}) WHERE series = 'prices/energy.oil'`,
      );
      expect(rows).toEqual([
        { series: 'prices/energy.oil', date: '1987-05-21', old_value: 18.45, new_value: 18.55, previous_vintage: first, vintage: third.build },
      ]);
    } finally {
      db.close();
    }
    expect(readFileSync(join(out, 'vintages', first, 'prices.csv'))).toEqual(before);
    expect(readFileSync(join(out, 'vintages', third.build, 'prices.csv'), 'utf8')).toContain('energy.oil,1987-05-21,18.55');
  }, 120_000);

  it('thins vintages by the published rule: all of the last 7 days, then one a day, then one a week', () => {
    const v = (id: string, at: string) => ({
      id,
      date: at.slice(0, 10),
      generated_at: at,
      methodology_version: '2.1.0',
      fingerprint: id,
      sources: [],
      revisions: 0,
      url: '',
    });
    const list = [
      v('a', '2026-11-22T10:00:00Z'),
      v('b', '2026-11-22T09:00:00Z'), // both recent: kept
      v('c', '2026-11-01T12:00:00Z'),
      v('d', '2026-11-01T08:00:00Z'), // same day, older than 7 days: newest kept
      v('e', '2026-06-03T00:00:00Z'),
      v('f', '2026-06-02T00:00:00Z'),
      v('g', '2026-05-26T00:00:00Z'), // past 90 days: one per ISO week
    ];
    expect([...retained(list, new Date('2026-11-23T00:00:00Z'))]).toEqual(['a', 'b', 'c', 'e', 'g']);
  });
});
