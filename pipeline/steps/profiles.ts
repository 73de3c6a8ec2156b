import { METHODOLOGY_VERSION } from '../../contract/common.ts';
import type { CommoditySheet } from '../../contract/commodities.ts';
import type { CountryProfile } from '../../contract/countries.ts';
import type { Commodity } from '../catalogue.ts';
import type { Db } from '../db.ts';
import type { countryNames } from '../names.ts';
import {
  COUNTRY_DOWN,
  COUNTRY_THRESHOLDS,
  type CountryEnergy,
  type LossAt,
  countryStressAt,
  coveredCountries,
  energyExposures,
  energyInputs,
  routeExposure,
  russianGasShares,
} from './countries.ts';
import { loadTransits, routeLoss } from './disruption.ts';
import { maxDate } from './dates.ts';
import { publishedShare } from './precision.ts';
import type { ReserveReading } from './reserves.ts';
import { EI_TRADE_YEAR } from './shares.ts';
import type { Shares } from './sheets.ts';
import type { StressBand } from '../../contract/stress.ts';
import { band } from './stress.ts';
import { usMineralExposures } from './us-minerals.ts';

/** Every covered country's profile (GET /v1/countries/{iso3}): exposures, stress and its history, production, reserves. */
export async function countryProfiles(
  db: Db,
  catalogue: readonly Commodity[],
  sheets: readonly CommoditySheet[],
  shares: Shares,
  readings: Map<string, ReserveReading>,
  names: Awaited<ReturnType<typeof countryNames>>,
  x: { today: string; eiLagDays: number },
): Promise<CountryProfile[]> {
  const countries = await coveredCountries(db);
  const energy = await energyInputs(db, new Map(countries.map((c) => [c.iso3, c.region])), new Map(countries.map((c) => [c.iso3, c.subregion])));
  const { exposures, autonomy } = energyExposures(energy);
  const sheetBySlug = new Map(sheets.map((s) => [s.slug, s]));
  const months = sheets.find((s) => s.slug === 'energy.oil')?.stress_history.map((h) => h.date) ?? [];
  const russian = await russianGasShares(db);
  const transits = await loadTransits(db);
  const lossCache = new Map<string, ReturnType<LossAt>>();
  const lossAt: LossAt = (chokepoint, vessel, t) => {
    const key = `${chokepoint}|${vessel}|${t}`;
    if (!lossCache.has(key)) {
      const r = routeLoss(transits, chokepoint, vessel, t);
      lossCache.set(key, 'reason' in r ? null : { loss: r.loss, level: r.level });
    }
    return lossCache.get(key) as ReturnType<LossAt>;
  };
  // The current reading describes the newest Hormuz transit day (not the build date, past which it is unmeasured).
  const hormuz = transits.get('hormuz');
  const lastTransit = hormuz ? new Date((hormuz.first + hormuz.tanker.length - 1) * 86_400_000).toISOString().slice(0, 10) : x.today;
  const current = lastTransit < x.today ? lastTransit : x.today;
  const countryBand = (i: number | null, prev: StressBand | null) => band(i, prev, COUNTRY_THRESHOLDS, COUNTRY_DOWN);
  const usMinerals = await usMineralExposures(db, catalogue, (slug) => sheetBySlug.get(slug)?.stress_index ?? null);
  const production = new Map<string, CountryProfile['production']>();
  // From the full tables: a sheet shows the top 15 producers, a profile every commodity the country produces.
  // Benchmarks of one commodity share its table (Brent and WTI, gas and Henry Hub gas): the
  // first in the catalogue lists it, so a country's gas is not listed again as "Henry Hub gas".
  const tableOwner = new Map<string, string>();
  for (const c of catalogue) if (c.production && !tableOwner.has(JSON.stringify(c.production))) tableOwner.set(JSON.stringify(c.production), c.slug);
  const ownsTable = (slug: string) => {
    const p = catalogue.find((c) => c.slug === slug)?.production;
    return !p || tableOwner.get(JSON.stringify(p)) === slug;
  };
  for (const [slug, { producers }] of shares) {
    if (!ownsTable(slug)) continue;
    producers?.entries.forEach((e, i) => {
      const list = production.get(e.iso3) ?? [];
      list.push({
        commodity: slug,
        value: e.value,
        unit: producers.unit,
        share: publishedShare(e.share),
        rank: i + 1,
        year: producers.year,
        source: producers.source,
      });
      production.set(e.iso3, list);
    });
  }
  return countries.map((ref) => {
    const ce: CountryEnergy & { subregion: string | null } = {
      ...(energy.get(ref.iso3) ?? { iso3: ref.iso3, region: ref.region, years: new Map(), suppliers: new Map() }),
      subregion: ref.subregion,
    };
    const exp = (exposures.get(ref.iso3) ?? []).map((e) => ({
      ...e,
      routes: routeExposure(ce.suppliers.get(e.commodity), e.commodity, ref.region, ref.subregion, current, lossAt),
    }));
    let previous: StressBand | null = null;
    const history = months
      .filter((d) => d <= current)
      .map((d) => {
        const h = countryStressAt(ce, d, x.eiLagDays, lossAt);
        previous = countryBand(h.index, previous);
        return { date: d, index: h.index, band: previous, coverage: h.index === null ? 0 : 1 };
      });
    const st = countryStressAt(ce, current, x.eiLagDays, lossAt, (slug) => sheetBySlug.get(slug)?.stress_index ?? null);
    const stressAsOf = st.index === null ? null : current;
    const stBand = countryBand(st.index, [...history].reverse().find((h) => h.date < current)?.band ?? null);
    const iso2 = ref.iso2.toLowerCase();
    const reserves = [...readings.values()]
      .filter((r) => r.reserve.country === iso2)
      .map((r) => ({
        commodity: r.reserve.commodity,
        country: iso2,
        fill_pct: r.reserve.fill_pct,
        as_of: r.reserve.as_of,
        url: `/v1/reserves?commodity=${r.reserve.commodity}&country=${iso2}`,
      }));
    const years = [...exp.map((e) => `${e.year}-12-31`), ...reserves.map((r) => r.as_of), ...(production.get(ref.iso3) ?? []).map((p) => `${p.year}-12-31`)];
    return {
      iso3: ref.iso3,
      iso2: ref.iso2,
      name: names.nameOf3(ref.iso3, 'en'),
      names: names.namesOf3(ref.iso3),
      region: ref.region,
      subregion: ref.subregion,
      stress_index: st.index,
      stress_band: stBand,
      stress: {
        method:
          'Share of primary energy supply at risk (%): 100 × Σ over fuels of energy share × import dependence × Σ over suppliers of import share × transit loss at Hormuz on their route',
        methodology_version: METHODOLOGY_VERSION,
        as_of: stressAsOf,
        energy_year: st.year,
        ...(st.reason ? { reason: st.reason } : {}),
        parts: st.parts,
      },
      stress_history: history,
      // EI names suppliers its own way ("US", "UAE" beside "Russian Federation"): a supplier with a
      // code takes the country's name, as everywhere else in the service.
      exposures: exp.map((e) =>
        e.suppliers ? { ...e, suppliers: e.suppliers.map((s) => (s.iso3 && names.iso3s.has(s.iso3) ? { ...s, name: names.nameOf3(s.iso3, 'en') } : s)) } : e,
      ),
      mineral_exposures: ref.iso3 === 'USA' ? usMinerals : [],
      autonomy: autonomy.get(ref.iso3) ?? [],
      supplier_concentration: exp
        .filter((e) => e.supplier_hhi !== null)
        .map((e) => ({
          commodity: e.commodity,
          hhi: e.supplier_hhi as number,
          year: e.suppliers_year ?? EI_TRADE_YEAR,
          basis: e.suppliers_basis ?? `import suppliers (EI trade movements ${EI_TRADE_YEAR})`,
        })),
      production: (production.get(ref.iso3) ?? []).sort((a, b) => a.rank - b.rank),
      russian_gas_import_share: russian.get(ref.iso3) ?? [],
      reserves,
      updated_at: maxDate(years),
      url: `/v1/countries/${ref.iso3}`,
    };
  });
}
