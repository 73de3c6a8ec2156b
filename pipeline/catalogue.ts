import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { CommoditySlug, Iso2 } from '../contract/common.ts';
import { PRICE_SOURCES } from '../contract/sources.ts';
import { byLang } from '../contract/languages.ts';

const Langs = byLang;

const PriceRef = z.strictObject({
  source: z.enum(PRICE_SOURCES),
  series: z.string().optional(),
  benchmark: z.string(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  unit: z.string().nullable(),
  /** Required where `unit` is null: what the publisher states instead (a price never goes out with no word on its unit). */
  unit_note: z.string().min(1).optional(),
  scale: z.number().positive().optional(),
});

const EiRef = z.strictObject({ source: z.enum(['ei-statistical-review-2024', 'ei-statistical-review-2026']), sheet: z.string(), basis: z.string() });
const UsgsRef = z.strictObject({ source: z.literal('usgs-mcs-2026'), chapter: z.string(), detail: z.string(), basis: z.string().optional() });

export const CatalogueEntry = z
  .strictObject({
    slug: CommoditySlug,
    names: Langs(z.string().min(1)),
    unit: z.string(),
    aliases: Langs(z.array(z.string().min(1))),
    price: PriceRef.optional(),
    production: z.union([EiRef, UsgsRef]).optional(),
    consumption: EiRef.optional(),
    trade: z.strictObject({ sheet: z.string(), flow: z.string() }).optional(),
    reserves_in_ground: UsgsRef.optional(),
    reserves: z.array(Iso2).optional(),
    us_imports: z.strictObject({ chapter: z.string(), reliance: z.string(), sources: z.string() }).optional(),
  })
  .superRefine((entry, ctx) => {
    const needsSeries = entry.price && entry.price.source !== 'eia-henry-hub' && !entry.price.series;
    if (needsSeries) ctx.addIssue({ code: 'custom', path: ['price', 'series'], message: `${entry.price?.source} needs a series` });
    if (entry.price && (entry.price.unit === null) !== (entry.price.unit_note !== undefined))
      ctx.addIssue({ code: 'custom', path: ['price', 'unit_note'], message: 'unit_note is required where unit is null, and only there' });
  });
export type CatalogueEntry = z.infer<typeof CatalogueEntry>;

export interface Commodity extends CatalogueEntry {
  code: string;
  group: 'energy' | 'metals' | 'agri';
}

/** Read and validate data/commodities.yaml; codes must be unique across groups (SPEC §2). */
export async function loadCatalogue(dataDir: string): Promise<Commodity[]> {
  const file = join(dataDir, 'commodities.yaml');
  const parsed = z.array(CatalogueEntry).safeParse(parse(await readFile(file, 'utf8')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${file} [${i.path.join('.')}]: ${i.message}`);
    throw new Error(`invalid commodity catalogue:\n${lines.join('\n')}`);
  }
  const seen = new Map<string, string>();
  return parsed.data.map((entry) => {
    const [group, code] = entry.slug.split('.') as [Commodity['group'], string];
    const prior = seen.get(code);
    if (prior) throw new Error(`invalid commodity catalogue: code '${code}' used by ${prior} and ${entry.slug}`);
    seen.set(code, entry.slug);
    return { ...entry, group, code };
  });
}
