import type { z } from 'zod';
import type { CommodityPath, ListCommoditiesQuery } from '../../contract/api.ts';
import type { CommodityListEntry, CommoditySheet, Price } from '../../contract/commodities.ts';
import type { Meta } from '../../contract/common.ts';
import { type LoadedBuild, perBuild } from '../build.ts';
import { ExplainedError, MAX_SUGGESTIONS, resolveCommodity } from '../resolve.ts';
import { type Answer, computed, fromFile } from './answer.ts';
import { BUILD_FILES } from '../../contract/layout.ts';

export type ListCommoditiesParams = Omit<z.output<typeof ListCommoditiesQuery>, 'format'>;

/** Every tracked commodity, or those of one group. */
export function listCommodities(b: LoadedBuild, q: ListCommoditiesParams): Answer<CommodityListEntry[]> {
  if (!q.group) return { file: b.files.get(BUILD_FILES.commodityList().path)!, envelope: () => ({ data: b.commodities, meta: b.commodityMeta }) };
  const data = b.commodities.filter((x) => x.group === q.group);
  return computed(data, { ...b.commodityMeta, count: data.length });
}

/** The sheet of one commodity, by slug (or code), any case; 404 with the nearest slugs. */
export function getCommodity(b: LoadedBuild, q: z.output<typeof CommodityPath>): Answer<CommoditySheet> {
  const canonical = resolveCommodity(b, q.slug, 'slug');
  return fromFile(b.files.get(BUILD_FILES.commodity(canonical).path)!);
}

export type PriceAnswer = Price & { slug: string; code: string; name: string };

/** The latest price of one commodity (code or slug) with the commodity it belongs to; 404 when it has no public price series. */
export function getPrice(b: LoadedBuild, q: { commodity: string }): Answer<PriceAnswer> {
  const slug = resolveCommodity(b, q.commodity);
  const entry = b.commodities.find((c) => c.slug === slug)!;
  if (!entry.price) {
    const priced = b.commodities.filter((c) => c.price);
    // Suggestions: priced commodities of the same group first.
    const nearest = [...priced.filter((c) => c.group === entry.group), ...priced.filter((c) => c.group !== entry.group)].slice(0, MAX_SUGGESTIONS);
    throw new ExplainedError(
      404,
      `${entry.name} (${entry.code}) has no public price series in our sources; commodities with a price: ${priced.map((c) => c.code).join(', ')}`,
      { errors: [{ param: 'commodity', message: 'no price series' }], suggestions: nearest.map((c) => c.code) },
      {
        problem: `${entry.name} (${entry.code}) has no public price series in our sources`,
        accepted: `a commodity with a price series (${priced.length} of the ${b.commodities.length})`,
        labelled: nearest.map((c) => `${c.code} (${c.name})`),
      },
    );
  }
  // The price's own source, as the sheet gives it: its data_as_of and freshness are the series' own.
  const sheet = sheetMeta(b, slug);
  const source = entry.price.source;
  const notes = (sheet.notes ?? []).filter((n) => n.startsWith(`${source} `));
  const { count: _count, notes: _notes, ...meta } = b.commodityMeta;
  return computed(
    { ...entry.price, slug: entry.slug, code: entry.code, name: entry.name },
    { ...meta, as_of: entry.price.as_of, sources: sheet.sources.filter((x) => x.id === source), ...(notes.length ? { notes } : {}) },
  );
}

const sheetMetas = perBuild(() => new Map<string, Meta>());
/** The meta of one commodity sheet, parsed once per build. */
function sheetMeta(b: LoadedBuild, slug: string): Meta {
  const cache = sheetMetas(b);
  let meta = cache.get(slug);
  if (!meta) {
    meta = (JSON.parse(new TextDecoder().decode(b.files.get(BUILD_FILES.commodity(slug).path)!.body)) as { meta: Meta }).meta;
    cache.set(slug, meta);
  }
  return meta;
}
