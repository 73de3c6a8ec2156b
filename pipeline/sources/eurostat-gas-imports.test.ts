import { createServer } from 'node:http';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Db } from '../db.ts';
import { eurostatGasImportsSource } from './eurostat-gas-imports.ts';
import { SourceError } from './types.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const mirror = join(process.env.SOURCES_DIR ?? resolve(repoRoot, '../shared/sources'), eurostatGasImportsSource.id);
const FILE = 'eurostat_nrg_ti_gas_russia_total_2011_2020.csv';
const TJ = 'Terajoule (gross calorific value - GCV)';

const FIXTURE = [
  'siec,partner,unit,geo,year,value,flag',
  `Natural gas,Russia,${TJ},European Union - 27 countries (from 2020),2020,4000.5,`,
  `Natural gas,Russia,${TJ},Euro area - 19 countries  (from 2015),2020,3000,`,
  `Natural gas,Russia,${TJ},European Union - 28 countries (2013-2020),2020,,:`,
  `Natural gas,Russia,${TJ},Germany (until 1990 former territory of the FRG),2020,2045449.486,`,
  `Natural gas,Total,${TJ},Kosovo (under United Nations Security Council Resolution 1244/99),2019,0,`,
  `Liquefied natural gas,Russia,${TJ},Liechtenstein,2011,,:`,
].join('\n');

async function fixtureDir(csv = FIXTURE): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'estat-'));
  await writeFile(join(dir, FILE), csv + '\n');
  return dir;
}

describe('eurostat-gas-imports-by-partner adapter', () => {
  let db: Db;
  beforeAll(async () => (db = await Db.open()));
  afterAll(() => db.close());

  it('cleans labels, flags aggregates and drops ":" cells', async () => {
    await eurostatGasImportsSource.load(db, await fixtureDir());
    expect(await db.all(`SELECT geo, is_aggregate, partner, year, value FROM eurostat_gas_imports ORDER BY geo`)).toEqual([
      { geo: 'Euro area - 19 countries', is_aggregate: true, partner: 'Russia', year: 2020, value: 3000 },
      { geo: 'European Union - 27 countries', is_aggregate: true, partner: 'Russia', year: 2020, value: 4000.5 },
      { geo: 'Germany', is_aggregate: false, partner: 'Russia', year: 2020, value: 2045449.486 },
      { geo: 'Kosovo', is_aggregate: false, partner: 'Total', year: 2019, value: 0 },
    ]);
    expect(await db.one(`SELECT siec, unit FROM eurostat_gas_imports WHERE geo = 'Germany'`)).toEqual({ siec: 'Natural gas', unit: TJ });
  });

  it('throws SourceError for a missing file, a bad header or only ":" cells', async () => {
    await expect(eurostatGasImportsSource.load(db, await mkdtemp(join(tmpdir(), 'estat-')))).rejects.toBeInstanceOf(SourceError);
    await expect(eurostatGasImportsSource.load(db, await fixtureDir('geo,time,value\nDE,2020,1'))).rejects.toBeInstanceOf(SourceError);
    await expect(
      eurostatGasImportsSource.load(
        db,
        await fixtureDir(
          FIXTURE.split('\n')
            .filter((l, i) => i === 0 || l.endsWith(':'))
            .join('\n'),
        ),
      ),
    ).rejects.toBeInstanceOf(SourceError);
  });

  it('loads the real extract (2011–2020, 58 ":" cells dropped)', async () => {
    await eurostatGasImportsSource.load(db, mirror);
    expect(await db.one(`SELECT count(*)::INTEGER AS n, min(year) AS a, max(year) AS b FROM eurostat_gas_imports`)).toEqual({ n: 1702, a: 2011, b: 2020 });
    expect(
      await db.one(`SELECT value FROM eurostat_gas_imports WHERE geo = 'Germany' AND siec = 'Natural gas' AND partner = 'Russia' AND year = 2020`),
    ).toEqual({ value: 2045449.486 });
    expect(await db.one(`SELECT value FROM eurostat_gas_imports WHERE geo = 'Germany' AND siec = 'Natural gas' AND partner = 'Total' AND year = 2020`)).toEqual(
      { value: 3092272.826 },
    );
    const aggregates = await db.all<{ geo: string }>(`SELECT DISTINCT geo FROM eurostat_gas_imports WHERE is_aggregate ORDER BY geo`);
    expect(aggregates.map((r) => r.geo)).toEqual(['Euro area - 19 countries', 'European Union - 27 countries', 'European Union - 28 countries']);
  });

  it('downloads SDMX-CSV with labels and converts it to the mirror layout', async () => {
    const sdmx = [
      'STRUCTURE,STRUCTURE_ID,STRUCTURE_NAME,freq,siec,partner,unit,geo,TIME_PERIOD,OBS_VALUE,OBS_FLAG,CONF_STATUS',
      `dataflow,ESTAT:NRG_TI_GAS(1.0),Imports of natural gas,A: Annual,G3000: Natural gas,RU: Russia,TJ_GCV: ${TJ},DE: Germany,2022,1200.5,,`,
      `dataflow,ESTAT:NRG_TI_GAS(1.0),Imports of natural gas,A: Annual,G3200: Liquefied natural gas,TOTAL: Total,TJ_GCV: ${TJ},"EU27_2020: European Union - 27 countries (from 2020)",2023,99,p: provisional,`,
      `dataflow,ESTAT:NRG_TI_GAS(1.0),Imports of natural gas,A: Annual,G3000: Natural gas,RU: Russia,TJ_GCV: ${TJ},LI: Liechtenstein,2023,,,`,
    ].join('\r\n');
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(req.url ?? '');
      const ok = req.url?.startsWith('/eurostat/api/dissemination/sdmx/3.0/data/dataflow/ESTAT/nrg_ti_gas/1.0/');
      res.writeHead(ok ? 200 : 404, { 'content-type': 'text/csv' });
      res.end(ok ? sdmx : '');
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const fetchImpl: typeof fetch = (input, init) => fetch(String(input).replace(/^https:\/\/[^/]+/, base), init);
    try {
      const dir = await mkdtemp(join(tmpdir(), 'estat-dl-'));
      await eurostatGasImportsSource.download(dir, fetchImpl);
      expect(seen).toHaveLength(1);
      expect(await readdir(dir)).toEqual([FILE]);
      await eurostatGasImportsSource.load(db, dir);
      expect(await db.all(`SELECT siec, partner, unit, geo, is_aggregate, year, value FROM eurostat_gas_imports ORDER BY year`)).toEqual([
        { siec: 'Natural gas', partner: 'Russia', unit: TJ, geo: 'Germany', is_aggregate: false, year: 2022, value: 1200.5 },
        { siec: 'Liquefied natural gas', partner: 'Total', unit: TJ, geo: 'European Union - 27 countries', is_aggregate: true, year: 2023, value: 99 },
      ]);
    } finally {
      server.close();
    }
  });
});
