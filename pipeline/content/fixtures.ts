/**
 * Test support for the content tests: the commodity slugs of the catalogue, a small FigureLookup
 * fixture with made-up values (tests only; never published), and a helper that writes a data
 * folder into a temporary directory.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FigureLookup, PriceObservation, StorageObservation } from './figures.ts';

/** The commodity slugs decided by the catalogue (the loader receives them; this is a test copy). */
export const TEST_SLUGS: readonly string[] = [
  'energy.oil',
  'energy.wti',
  'energy.gas',
  'energy.lng',
  'energy.usgas',
  'energy.coal',
  'energy.uranium',
  'metals.copper',
  'metals.nickel',
  'metals.cobalt',
  'metals.lithium',
  'metals.aluminium',
  'metals.zinc',
  'metals.tin',
  'metals.lead',
  'metals.ironore',
  'metals.graphite',
  'metals.rareearths',
  'metals.gallium',
  'metals.germanium',
  'metals.antimony',
  'metals.tungsten',
  'metals.manganese',
  'metals.platinum',
  'metals.palladium',
  'metals.silver',
  'metals.gold',
  'metals.vanadium',
  'metals.chromium',
  'agri.wheat',
  'agri.maize',
  'agri.rice',
  'agri.soybeans',
  'agri.urea',
  'agri.potash',
  'agri.phosphate',
];

/** A few ISO3 codes, enough for the fixtures. */
export const TEST_COUNTRIES: readonly string[] = ['CHN', 'COD', 'DEU', 'IDN', 'IRN', 'QAT', 'RUS', 'SAU', 'UKR', 'USA'];

function newest<T extends { date: string }>(series: readonly T[], date: string): T | undefined {
  return series
    .filter((o) => o.date <= date)
    .sort((a, b) => a.date.localeCompare(b.date))
    .pop();
}

const PRICES: Record<string, PriceObservation[]> = {
  'energy.oil': [
    { date: '2026-02-27', value: 70, currency: 'USD', unit: 'bbl' },
    { date: '2026-03-02', value: 77, currency: 'USD', unit: 'bbl' },
    { date: '2026-08-18', value: 67.43, currency: 'USD', unit: 'bbl' },
  ],
  'metals.copper': [
    { date: '2026-04-01', value: 12000, currency: 'USD', unit: '$/mt' },
    { date: '2026-05-01', value: 13543.19, currency: 'USD', unit: '$/mt' },
  ],
};

const STORAGE: Record<string, StorageObservation[]> = {
  eu: [
    { date: '2026-08-19', fill_pct: 61.8, gas_in_storage_twh: 698.4 },
    { date: '2026-08-20', fill_pct: 62.34, gas_in_storage_twh: 1023.45 },
  ],
  de: [{ date: '2026-08-20', fill_pct: 50.25, gas_in_storage_twh: 123.8547 }],
};

/** A FigureLookup over made-up values: oil, copper, EU and DE storage, cobalt/COD, one SPR week. */
export const fixtureFigures: FigureLookup = {
  price: (slug, date) => newest(PRICES[slug] ?? [], date),
  storage: (country, date) => newest(STORAGE[country] ?? [], date),
  producerShare: (slug, iso3) =>
    slug === 'metals.cobalt' && iso3 === 'COD'
      ? { share_pct: 74.19, year: 2025 }
      : slug === 'metals.cobalt' && iso3 === 'IDN'
        ? { share_pct: 4.54, year: 2025 }
        : undefined,
  spr: (date) => (date >= '2026-02-27' ? { value_kb: 415441, date: '2026-02-27' } : undefined),
};

/** Write `files` (path relative to the data folder → text) under a new temporary 'data' folder. */
export async function writeDataDir(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'chokepoint-content-'));
  const dataDir = path.join(root, 'data');
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(dataDir, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  await mkdir(dataDir, { recursive: true });
  return dataDir;
}
