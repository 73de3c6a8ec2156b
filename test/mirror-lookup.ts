/**
 * Test support: a FigureLookup read straight from the source mirror (SOURCES_DIR, by default
 * ../shared/sources beside the repository), so the content tests can check that every figure
 * directive in the briefings finds a value. The build does not use this: the integrator's lookup
 * reads the built tables, whose series choice per commodity comes from the catalogue. The mapping
 * below is this file's own best guess of that choice and is documented as such.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { FigureLookup, PriceObservation, ProducerShare, SprObservation, StorageObservation } from '../pipeline/content/figures.ts';

/** A CSV file's records (csv-parse: RFC 4180, byte-order mark dropped, blank lines skipped) keyed by the header's names. */
export function readCsv(file: string): Array<Record<string, string>> {
  const [header = [], ...body] = parse(readFileSync(file), { bom: true, skip_empty_lines: true, relax_column_count: true, relax_quotes: true }) as string[][];
  return body.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
}

/** The source mirror: SOURCES_DIR, or ../shared/sources beside the repository root. */
export function sourcesDir(repoRoot: string): string {
  return process.env.SOURCES_DIR ? path.resolve(process.env.SOURCES_DIR) : path.resolve(repoRoot, '..', 'shared', 'sources');
}

type Series = Array<{ date: string; value: number }>;

function newestOnOrBefore<T extends { date: string }>(series: readonly T[], date: string): T | undefined {
  let found: T | undefined;
  for (const o of series) {
    if (o.date <= date) found = o;
    else break;
  }
  return found;
}

interface PriceSpec {
  file: string;
  dateCol: string;
  valueCol: string;
  unit: string;
  monthly: boolean;
}

const WB = 'worldbank-pink-sheet/cmo-monthly-prices.csv';
const IMF = 'imf-commodity-prices/imf-pcps-monthly.csv';
const wb = (col: string, unit: string): PriceSpec => ({ file: WB, dateCol: 'date', valueCol: col, unit, monthly: true });
const imf = (col: string, unit: string): PriceSpec => ({ file: IMF, dateCol: 'date', valueCol: col, unit, monthly: true });

/** This file's guess of the price series behind each slug (daily EIA where it exists, else monthly). */
const PRICE_SPECS: Record<string, PriceSpec> = {
  'energy.oil': { file: 'eia-oil-prices/brent-daily.csv', dateCol: 'Date', valueCol: 'Price', unit: 'bbl', monthly: false },
  'energy.wti': { file: 'eia-oil-prices/wti-daily.csv', dateCol: 'Date', valueCol: 'Price', unit: 'bbl', monthly: false },
  'energy.usgas': { file: 'eia-henry-hub/henry-hub-daily.csv', dateCol: 'Date', valueCol: 'Price', unit: 'MMBtu', monthly: false },
  'energy.gas': wb('Natural gas, Europe', 'MMBtu'),
  'energy.lng': wb('Liquefied natural gas, Japan', 'MMBtu'),
  'energy.coal': wb('Coal, Australian', 't'),
  'energy.uranium': imf('PURAN', 'lb'),
  'metals.copper': wb('Copper', 't'),
  'metals.nickel': wb('Nickel', 't'),
  'metals.aluminium': wb('Aluminum', 't'),
  'metals.zinc': wb('Zinc', 't'),
  'metals.tin': wb('Tin', 't'),
  'metals.lead': wb('Lead', 't'),
  'metals.ironore': wb('Iron ore, cfr spot', 'dmtu'),
  'metals.gold': wb('Gold', 'troy oz'),
  'metals.silver': wb('Silver', 'troy oz'),
  'metals.platinum': wb('Platinum', 'troy oz'),
  'metals.palladium': imf('PPALLA', 'troy oz'),
  'metals.cobalt': imf('PCOBA', 't'),
  'metals.lithium': imf('NOCODE_COL90', 't'),
  'agri.wheat': wb('Wheat, US HRW', 't'),
  'agri.maize': wb('Maize', 't'),
  'agri.rice': wb('Rice, Thai 5%', 't'),
  'agri.soybeans': wb('Soybeans', 't'),
  'agri.urea': wb('Urea', 't'),
  'agri.potash': wb('Potassium chloride **', 't'),
  'agri.phosphate': wb('Phosphate rock', 't'),
};

/** USGS MCS 2026 chapter and statistic behind each slug's producer shares. */
const SHARE_SPECS: Record<string, { chapter: string; detail: RegExp }> = {
  'metals.cobalt': { chapter: 'COBALT', detail: /^Mine production/ },
  'metals.nickel': { chapter: 'NICKEL', detail: /^Mine production/ },
  'metals.lithium': { chapter: 'LITHIUM', detail: /^Mine production/ },
  'metals.copper': { chapter: 'COPPER', detail: /^Mine production/ },
  'metals.rareearths': { chapter: 'RARE EARTHS', detail: /^Mine production/ },
  'metals.graphite': { chapter: 'GRAPHITE (NATURAL)', detail: /^Mine production/ },
  'metals.gallium': { chapter: 'GALLIUM', detail: /^Primary production/ },
  'metals.tungsten': { chapter: 'TUNGSTEN', detail: /^Mine production/ },
  'metals.antimony': { chapter: 'ANTIMONY', detail: /^Mine production/ },
  'metals.manganese': { chapter: 'MANGANESE', detail: /^Mine production/ },
  'metals.platinum': { chapter: 'PLATINUM-GROUP METALS', detail: /^Mine production.*[Pp]latinum/ },
  'metals.palladium': { chapter: 'PLATINUM-GROUP METALS', detail: /^Mine production.*[Pp]alladium/ },
  'agri.potash': { chapter: 'POTASH', detail: /^Mine production/ },
  'agri.phosphate': { chapter: 'PHOSPHATE ROCK', detail: /^Mine production/ },
};

/** USGS country names that the ISO list spells differently. */
const USGS_ALIASES: Record<string, string> = {
  'Congo (Kinshasa)': 'COD',
  'Congo (Brazzaville)': 'COG',
  Burma: 'MMR',
  Russia: 'RUS',
  Turkey: 'TUR',
  Vietnam: 'VNM',
  Laos: 'LAO',
  Iran: 'IRN',
  Bolivia: 'BOL',
  'Korea, Republic of': 'KOR',
  'Korea, North': 'PRK',
  Tanzania: 'TZA',
  'United States': 'USA',
  'United Kingdom': 'GBR',
};

function num(s: string | undefined): number | undefined {
  if (s === undefined) return undefined;
  const v = Number(s.replace(/,/g, '').trim());
  return s.trim() !== '' && Number.isFinite(v) ? v : undefined;
}

/** A FigureLookup over the CSV files of the source mirror at `dir`. */
export function mirrorLookup(dir: string): FigureLookup {
  const csvCache = new Map<string, Array<Record<string, string>>>();
  const csv = (rel: string): Array<Record<string, string>> => {
    let rows = csvCache.get(rel);
    if (!rows) {
      const file = path.join(dir, rel);
      rows = existsSync(file) ? readCsv(file) : [];
      csvCache.set(rel, rows);
    }
    return rows;
  };
  const priceCache = new Map<string, Series>();
  const priceSeries = (slug: string): Series => {
    const spec = PRICE_SPECS[slug];
    if (!spec) return [];
    let s = priceCache.get(slug);
    if (!s) {
      s = csv(spec.file)
        .map((r) => {
          const raw = r[spec.dateCol] ?? '';
          return { date: spec.monthly ? `${raw}-01` : raw, value: num(r[spec.valueCol]) };
        })
        .filter((o): o is { date: string; value: number } => o.value !== undefined)
        .sort((a, b) => a.date.localeCompare(b.date));
      priceCache.set(slug, s);
    }
    return s;
  };

  const isoByName = new Map<string, string>();
  for (const r of csv('country-codes/country-codes.csv')) {
    const iso3 = r['ISO3166-1-Alpha-3'];
    if (!iso3) continue;
    for (const k of ['CLDR display name', 'official_name_en', 'UNTERM English Short']) {
      const name = r[k];
      if (name) isoByName.set(name, iso3);
    }
  }
  for (const [name, iso3] of Object.entries(USGS_ALIASES)) isoByName.set(name, iso3);

  const storageCache = new Map<string, Array<StorageObservation>>();
  const storageSeries = (country: string): StorageObservation[] => {
    let s = storageCache.get(country);
    if (!s) {
      const long = csv('gie-agsi-gas-storage/agsi_de_eu_daily_2020_2026.csv')
        .filter((r) => (r.code ?? '').toLowerCase() === country)
        .map((r) => ({ date: r.date ?? '', fill_pct: num(r.fill_pct) ?? NaN, gas_in_storage_twh: num(r.gas_in_storage_twh) ?? NaN }));
      s =
        long.length > 0
          ? long
          : csv('gie-agsi-gas-storage/agsi_country_fill_daily_2023_2026.csv')
              .filter((r) => (r.code ?? '').toLowerCase() === country)
              .map((r) => ({ date: r.date ?? '', fill_pct: num(r.fullPct) ?? NaN, gas_in_storage_twh: num(r.gasInStorageTWh) ?? NaN }));
      s = s.filter((o) => Number.isFinite(o.fill_pct)).sort((a, b) => a.date.localeCompare(b.date));
      storageCache.set(country, s);
    }
    return s;
  };

  let spr: SprObservation[] | undefined;
  const sprSeries = (): SprObservation[] => {
    if (!spr) {
      const byDate = new Map<string, number>();
      for (const r of csv('eia-weekly-petroleum/eia-us-stocks-weekly-1982-2022.csv')) {
        const v = num(r.WCSSTUS1);
        if (r.date && v !== undefined) byDate.set(r.date, v);
      }
      for (const r of csv('eia-weekly-petroleum/eia-wpsr-us-weekly.csv')) {
        const v = num(r.value);
        if (r.id === 'WCSSTUS1' && r.period && v !== undefined) byDate.set(r.period, v);
      }
      spr = [...byDate].map(([date, value_kb]) => ({ date, value_kb })).sort((a, b) => a.date.localeCompare(b.date));
    }
    return spr;
  };

  return {
    price(slug: string, date: string): PriceObservation | undefined {
      const spec = PRICE_SPECS[slug];
      const o = spec ? newestOnOrBefore(priceSeries(slug), date) : undefined;
      return spec && o ? { value: o.value, currency: 'USD', unit: spec.unit, date: o.date } : undefined;
    },
    storage(country: string, date: string): StorageObservation | undefined {
      return newestOnOrBefore(storageSeries(country.toLowerCase()), date);
    },
    producerShare(slug: string, iso3: string): ProducerShare | undefined {
      const spec = SHARE_SPECS[slug];
      if (!spec) return undefined;
      const rows = csv('usgs-mcs-2026/MCS2026_Commodities_Data.csv').filter(
        (r) => r['MCS chapter'] === spec.chapter && r.Statistics === 'Production' && spec.detail.test(r.Statistics_detail ?? ''),
      );
      const years = [...new Set(rows.map((r) => r.Year ?? ''))].filter((y) => /^\d{4}$/.test(y)).sort();
      for (const year of years.reverse()) {
        const inYear = rows.filter((r) => r.Year === year);
        const world = num(inYear.find((r) => r.Country === 'World total')?.Value);
        const mine = num(inYear.find((r) => isoByName.get(r.Country ?? '') === iso3)?.Value);
        if (world && mine !== undefined) return { share_pct: (mine / world) * 100, year: Number(year) };
      }
      return undefined;
    },
    spr(date: string): SprObservation | undefined {
      return newestOnOrBefore(sprSeries(), date);
    },
  };
}
