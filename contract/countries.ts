import { z } from 'zod';
import type { Lang } from './languages.ts';
import { CommoditySlug, DateString, Iso2, Iso3, envelope } from './common.ts';
import { Names } from './commodities.ts';
import { RouteLoss, StressBand, StressHistoryPoint } from './stress.ts';

/**
 * Country names where the usual form differs from CLDR's (Intl.DisplayNames gives "Congo -
 * Kinshasa"): used by the build's names (pipeline/names.ts) and by the answers of /v1/ask.
 */
export const COUNTRY_NAME_OVERRIDES: Readonly<Record<string, Readonly<Record<Lang, string>>>> = {
  COD: { en: 'DR Congo', fr: 'RD Congo', de: 'DR Kongo', es: 'RD del Congo' },
  COG: { en: 'Republic of the Congo', fr: 'République du Congo', de: 'Republik Kongo', es: 'República del Congo' },
};

const Supplier = z.strictObject({ iso3: Iso3.nullable(), name: z.string(), value: z.number(), share: z.number().min(0).max(1) });

export const Exposure = z
  .strictObject({
    commodity: CommoditySlug,
    year: z.number().int(),
    unit: z.string(),
    production: z.number().nullable().describe('Null where the publisher lists no production for the country'),
    production_listed: z
      .boolean()
      .describe(
        'False when EI lists no production figure for the country (small producers sit in regional "Other" rows): production is then counted as 0 in import_dependence',
      ),
    consumption: z.number().nullable(),
    import_dependence: z.number().min(0).max(1).nullable().describe('clip(1 − production / consumption, 0, 1)'),
    energy_share: z
      .number()
      .min(0)
      .nullable()
      .describe("The fuel's share of the country's primary energy consumption (EI, exajoules), the weight of this exposure"),
    suppliers: z.array(Supplier).describe('Main suppliers (recorded imports), largest first'),
    suppliers_year: z.number().int().nullable(),
    suppliers_unit: z.string().nullable(),
    suppliers_basis: z.string().nullable().describe('How the supplier shares were obtained (recorded imports, or an aggregate’s mix applied to the country)'),
    supplier_hhi: z.number().min(0).max(10000).nullable().describe('HHI of import suppliers (0–10,000)'),
    routes: z
      .array(
        z.strictObject({
          chokepoint: z.string(),
          name: z.string(),
          import_share: z.number().min(0).max(1).describe('Share of these imports whose route passes the chokepoint (Gulf suppliers only are routed)'),
          level_vs_normal: z.number().nullable().describe('Transits over the 28 days to stress.as_of / their seasonal normal (IMF PortWatch)'),
          loss: RouteLoss,
          counted_as_loss: z.boolean().describe('True where no other sea route exists (Hormuz); a detour (Red Sea → Cape) delays but delivers'),
        }),
      )
      .describe('Route exposure: the measured chokepoints these imports pass'),
    source: z.string(),
  })
  .describe('How much of a commodity the country must import, from whom, and through which chokepoints');

export const MineralExposure = z
  .strictObject({
    commodity: CommoditySlug,
    year: z.number().int().describe('The year of the net import reliance figure (USGS estimate for the latest year)'),
    net_import_reliance: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .describe('Net imports as a share of apparent consumption; 0 for a net exporter; the lower bound where USGS prints ">50"; null where withheld'),
    net_import_reliance_printed: z.string().describe('The figure as USGS prints it ("79", ">50", "E" for net exporter, "W" withheld)'),
    suppliers: z.array(Supplier).describe('Import sources, largest first (value = percent of imports); "Other countries" has no iso3'),
    suppliers_period: z.string().nullable().describe('The years the import-source shares cover (null when USGS lists none)'),
    supplier_hhi: z.number().min(0).max(10000).nullable().describe('HHI of the named import sources, a lower bound: "Other countries" is left out'),
    commodity_stress: z.number().nullable().describe("The commodity's stress index"),
    weight: z.number().nullable().describe('net_import_reliance × (0.5 + 0.5 × concentration score of the import sources)'),
    points: z.number().nullable().describe('weight × commodity_stress: the exposure on the 0–100 scale, comparable across minerals'),
    source: z.string(),
  })
  .describe("The United States' reliance on imports of a mineral and where they come from (USGS)");
export type MineralExposure = z.infer<typeof MineralExposure>;

export const Autonomy = z.strictObject({
  commodity: CommoditySlug,
  year: z.number().int(),
  ratio: z.number().nonnegative().describe('Self-sufficiency = production / consumption'),
  production: z.number(),
  consumption: z.number(),
  unit: z.string(),
  source: z.string(),
});

export const CountryStressPart = z.strictObject({
  commodity: CommoditySlug,
  benchmark: CommoditySlug.describe(
    'The market benchmark of this fuel for the country (gas: TTF in Europe and Africa, LNG in Asia and Oceania, Henry Hub in the Americas), for context',
  ),
  commodity_stress: z.number().nullable().describe("The benchmark's current stress, for context: not part of the country index since 3.0.0"),
  energy_share: z.number().describe("The fuel's share of primary energy"),
  material: z.boolean().describe('True when the share is at least 5 % (informative: every fuel counts in proportion since 3.0.0)'),
  import_dependence: z.number(),
  supplier_hhi: z.number().nullable(),
  concentration_score: z.number().describe('Score of the supplier HHI (0.5 where suppliers are not recorded), for context: not part of the index since 3.0.0'),
  weight: z.number().describe('energy_share × import_dependence'),
  share_at_risk: z.number().describe('Σ over suppliers of import share × loss on their route'),
  contribution: z.number().describe('Percentage points of primary energy at risk from this fuel: 100 × weight × share_at_risk'),
  suppliers_at_risk: z
    .array(
      z.strictObject({
        supplier: z.string(),
        iso3: Iso3.nullable(),
        import_share: z.number(),
        chokepoint: z.string(),
        loss: z.number().min(0).max(1),
        contribution: z.number().describe('Percentage points of primary energy'),
      }),
    )
    .describe('The (supplier, route) pairs behind the contribution, largest first'),
});

export const CountryProfile = z
  .strictObject({
    iso3: Iso3,
    iso2: z.string().regex(/^[A-Z]{2}$/),
    name: z.string(),
    names: Names,
    region: z.string().nullable(),
    subregion: z.string().nullable(),
    stress_index: z
      .number()
      .min(0)
      .max(100)
      .nullable()
      .describe('Share of primary energy supply at risk now, in percent (methodology 3.0.0); bands at 0.5, 2 and 7 % (IEA collective action)'),
    stress_band: StressBand.nullable(),
    stress: z.strictObject({
      method: z.string(),
      methodology_version: z.string(),
      as_of: DateString.nullable().describe('The newest date of the benchmark readings behind the index'),
      energy_year: z.number().int().nullable().describe('The EI data year of the energy mix and balances'),
      reason: z.string().optional().describe('Why stress_index is null'),
      parts: z.array(CountryStressPart),
    }),
    stress_history: z
      .array(StressHistoryPoint)
      .describe('The index at the end of every month from 2015-01, computed with the same code from the data published by then'),
    exposures: z.array(Exposure),
    mineral_exposures: z
      .array(MineralExposure)
      .describe(
        'Mineral import exposure, largest first, where the sources publish it (USGS net import reliance: the United States only); not part of stress_index, which weighs energy by its share of primary energy',
      ),
    autonomy: z.array(Autonomy),
    supplier_concentration: z
      .array(z.strictObject({ commodity: CommoditySlug, hhi: z.number(), year: z.number().int(), basis: z.string() }))
      .describe('HHI of import suppliers per commodity'),
    production: z
      .array(
        z.strictObject({
          commodity: CommoditySlug,
          value: z.number(),
          unit: z.string(),
          share: z.number(),
          rank: z.number().int(),
          year: z.number().int(),
          source: z.string(),
        }),
      )
      .describe("The country's share of world production, per commodity it produces"),
    russian_gas_import_share: z
      .array(z.strictObject({ year: z.number().int(), share: z.number().min(0).max(1) }))
      .describe('Share of Russia in natural gas imports (Eurostat NRG_TI_GAS, 2011–2020)'),
    reserves: z.array(z.strictObject({ commodity: z.string(), country: Iso2, fill_pct: z.number().nullable(), as_of: DateString, url: z.string() })),
    updated_at: DateString.nullable(),
    url: z.string(),
  })
  .describe('Country profile: stress, exposures, autonomy, supplier concentration, reserves');
export type CountryProfile = z.infer<typeof CountryProfile>;

export const CountryIndexEntry = z.strictObject({
  iso3: Iso3,
  iso2: z.string(),
  name: z.string(),
  stress_index: z.number().nullable(),
  stress_band: StressBand.nullable(),
  url: z.string(),
});

export const CountryProfileResponse = envelope(CountryProfile);
export type CountryIndexEntry = z.infer<typeof CountryIndexEntry>;
export const CountryIndexResponse = envelope(z.array(CountryIndexEntry));
export { Iso2 };
