import type { LoadedBuild } from '../../api/build.ts';

/** Reading the expected figures straight from the build's files, independently of the answerer. */

const decoder = new TextDecoder();
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
export function file(b: LoadedBuild, path: string): Json {
  const f = b.files.get(path);
  if (!f) throw new Error(`the build has no ${path}`);
  return (JSON.parse(decoder.decode(f.body)) as { data: Json }).data;
}

/** An expected figure: the value in the record (`raw`, what the citation must quote) and as the answer shows it. */
export interface Figure {
  raw: number;
  shown: number;
}
const same = (v: number): Figure => ({ raw: v, shown: v });
const pct = (v: number): Figure => ({ raw: v, shown: v * 100 });

const lastOnOrBefore = (points: { date: string; value: number }[], date: string) => points.filter((p) => p.date <= date).at(-1);

export const reserve =
  (code: string, iso2: string, field: 'fill_pct' | 'volume' | 'coverage_days') =>
  (b: LoadedBuild): Figure => {
    const r = file(b, `v1/reserves/${code}/${iso2}.json`);
    return same(field === 'volume' ? r.volume.value : r[field]);
  };
export const reserveAt =
  (code: string, iso2: string, metric: 'fill_pct' | 'volume', date: string) =>
  (b: LoadedBuild): Figure => {
    const s = file(b, `data/reserves/${code}/${iso2}.json`);
    const p = lastOnOrBefore(s.metrics[metric].points, date);
    if (!p) throw new Error(`no ${metric} point on or before ${date}`);
    return same(p.value);
  };
export const price =
  (slug: string) =>
  (b: LoadedBuild): Figure =>
    same(file(b, 'v1/commodities.json').find((c: Json) => c.slug === slug).price.value);
export const priceAt =
  (slug: string, date: string) =>
  (b: LoadedBuild): Figure => {
    const p = lastOnOrBefore(file(b, `v1/commodities/${slug}.json`).price_history.points, date);
    if (!p) throw new Error(`no price of ${slug} on or before ${date}`);
    return same(p.value);
  };
export const stress =
  (slug: string) =>
  (b: LoadedBuild): Figure =>
    same(file(b, 'v1/commodities.json').find((c: Json) => c.slug === slug).stress_index);
export const countryStress =
  (iso3: string) =>
  (b: LoadedBuild): Figure =>
    same(file(b, `v1/countries/${iso3}.json`).stress_index);
export const topProducerShare =
  (slug: string) =>
  (b: LoadedBuild): Figure =>
    pct(file(b, `v1/commodities/${slug}.json`).producers.entries[0].share);
export const producerShare =
  (slug: string, iso3: string) =>
  (b: LoadedBuild): Figure =>
    pct(file(b, `v1/commodities/${slug}.json`).producers.entries.find((e: Json) => e.iso3 === iso3).share);
export const hhi =
  (slug: string) =>
  (b: LoadedBuild): Figure =>
    same(file(b, `v1/commodities/${slug}.json`).concentration.hhi);
export const autonomy =
  (iso3: string, slug: string) =>
  (b: LoadedBuild): Figure =>
    pct(file(b, `v1/countries/${iso3}.json`).autonomy.find((a: Json) => a.commodity === slug).ratio);
export const importDependence =
  (iso3: string, slug: string) =>
  (b: LoadedBuild): Figure =>
    pct(file(b, `v1/countries/${iso3}.json`).exposures.find((e: Json) => e.commodity === slug).import_dependence);
/** USGS net import reliance of a mineral, from the profile's mineral_exposures (the United States). */
export const netImportReliance =
  (iso3: string, slug: string) =>
  (b: LoadedBuild): Figure =>
    pct(file(b, `v1/countries/${iso3}.json`).mineral_exposures.find((e: Json) => e.commodity === slug).net_import_reliance);
/** How many scenarios have this status (the answer states the count). */
export const scenarioCount =
  (filter: { status?: string; commodity?: string }) =>
  (b: LoadedBuild): Figure =>
    same(
      file(b, 'v1/scenarios.json').filter(
        (s: Json) => (!filter.status || s.status === filter.status) && (!filter.commodity || s.commodities.includes(filter.commodity)),
      ).length,
    );

/** The newest event tagged with a commodity. */
export const newestEvent =
  (slug: string) =>
  (b: LoadedBuild): string =>
    file(b, 'data/events.json')
      .filter((e: Json) => e.commodities.includes(slug))
      .sort((a: Json, z: Json) => (a.date < z.date ? 1 : -1))[0].id;
/** A scenario with this status that has the highest probability (listed first). */
export const topScenario =
  (filter: { status?: string; commodity?: string }) =>
  (b: LoadedBuild): string => {
    const order = ['active', 'elevated', 'monitoring', 'resolved', 'dismissed'];
    return file(b, 'v1/scenarios.json')
      .filter((s: Json) => (!filter.status || s.status === filter.status) && (!filter.commodity || s.commodities.includes(filter.commodity)))
      .sort((a: Json, z: Json) => order.indexOf(a.status) - order.indexOf(z.status) || z.probability - a.probability)[0].id;
  };
