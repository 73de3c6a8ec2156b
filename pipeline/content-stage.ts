import { BRIEFING_LANGS, type Briefing, type Event, type Scenario } from '../contract/content.ts';
import type { MetaFor } from './meta.ts';
import { EDITORIAL_SOURCE } from '../contract/sources.ts';
import { BUILD_FILES } from '../contract/layout.ts';
import { defaultEventsSince, LIST_DEFAULTS } from '../contract/limits.ts';
import type { Commodity } from './catalogue.ts';
import { loadContent } from './content/load.ts';
import type { FigureLookup } from './content/figures.ts';
import type { Db } from './db.ts';
import type { CountryNames } from './names.ts';
import type { BuildWriter } from './publish.ts';

export interface ContentBundle {
  events: Event[];
  scenarios: Scenario[];
  briefings: Briefing[];
  /** Briefings left out because a source their figures need is unavailable in this build. */
  skipped: { file: string; reason: string }[];
}

const DIRECTIVE = /\{\{\s*([a-z_]+)\s+([^}]*?)\s*\}\}/g;

/** The source a figure directive reads, so a briefing can be left out when that source is missing. */
export function directiveSource(name: string, args: readonly string[], catalogue: readonly Commodity[]): string | undefined {
  const commodity = () => catalogue.find((c) => c.slug === args[0]?.toLowerCase());
  switch (name) {
    case 'price':
    case 'price_change':
      return commodity()?.price?.source;
    case 'share':
      return commodity()?.production?.source;
    case 'storage':
    case 'storage_twh':
      return 'gie-agsi-gas-storage';
    case 'spr':
      return 'eia-weekly-petroleum';
    default:
      return undefined;
  }
}

/** Sorted arrays of (date, value) for the synchronous lookups the figure resolver asks for. */
class Series {
  readonly dates: string[];
  readonly rows: Record<string, unknown>[];
  constructor(dates: string[], rows: Record<string, unknown>[]) {
    this.dates = dates;
    this.rows = rows;
  }
  /** Index of the newest row on or before `date`, or −1. */
  onOrBefore(date: string): number {
    let lo = 0;
    let hi = this.dates.length - 1;
    let best = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if ((this.dates[mid] as string) <= date) {
        best = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return best;
  }
}

async function seriesBy(db: Db, sql: string, key: string): Promise<Map<string, Series>> {
  const rows = await db.all<Record<string, unknown> & { date: string }>(sql);
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const r of rows) {
    const k = String(r[key]);
    const g = groups.get(k) ?? [];
    g.push(r);
    groups.set(k, g);
  }
  return new Map(
    [...groups].map(([k, g]) => [
      k,
      new Series(
        g.map((r) => r.date as string),
        g,
      ),
    ]),
  );
}

/** Figures for briefings, read from the same tables the published outputs come from. */
export async function figureLookup(db: Db): Promise<FigureLookup> {
  const prices = await seriesBy(
    db,
    `SELECT o.slug, strftime(o.date, '%Y-%m-%d') AS date, o.value, s.currency, s.unit FROM price_obs o JOIN price_series s USING (slug) ORDER BY o.slug, o.date`,
    'slug',
  );
  const storage = await seriesBy(
    db,
    `SELECT country, strftime(date, '%Y-%m-%d') AS date, fill_pct, gas_in_storage_twh FROM agsi_storage ORDER BY country, date`,
    'country',
  );
  const spr = await seriesBy(
    db,
    `SELECT series_id, strftime(date, '%Y-%m-%d') AS date, value FROM eia_petroleum_weekly WHERE series_id = 'WCSSTUS1' ORDER BY date`,
    'series_id',
  );
  return {
    price(slug, date) {
      const s = prices.get(slug);
      const i = s?.onOrBefore(date) ?? -1;
      const r = i >= 0 ? s!.rows[i]! : undefined;
      if (!r || r.unit === null) return undefined;
      return { value: r.value as number, currency: r.currency as string, unit: r.unit as string, date: r.date as string };
    },
    storage(country, date) {
      const s = storage.get(country);
      const i = s?.onOrBefore(date) ?? -1;
      const r = i >= 0 ? s!.rows[i]! : undefined;
      if (!r || r.gas_in_storage_twh === null) return undefined;
      return { fill_pct: r.fill_pct as number, gas_in_storage_twh: r.gas_in_storage_twh as number, date: r.date as string };
    },
    producerShare: () => undefined,
    spr(date) {
      const s = spr.get('WCSSTUS1');
      const i = s?.onOrBefore(date) ?? -1;
      const r = i >= 0 ? s!.rows[i]! : undefined;
      return r ? { value_kb: r.value as number, date: r.date as string } : undefined;
    },
  };
}

/** Load and validate data/events, data/scenarios and data/briefings, resolving briefing figures from the data. */
export async function readContent(
  db: Db,
  dataDir: string,
  catalogue: readonly Commodity[],
  names: CountryNames,
  shares: (slug: string, iso3: string) => { share_pct: number; year: number } | undefined,
  unavailable: ReadonlySet<string>,
): Promise<ContentBundle> {
  const figures = await figureLookup(db);
  return loadContent({
    dataDir,
    commodities: new Set(catalogue.map((c) => c.slug)),
    countries: names.iso3s,
    figures: { ...figures, producerShare: shares },
    skipBriefing: ({ text }) => {
      const missing = new Set<string>();
      for (const [, name, args] of text.matchAll(DIRECTIVE)) {
        const source = directiveSource(name!, args!.split(/\s+/), catalogue);
        if (source && unavailable.has(source)) missing.add(source);
      }
      return missing.size ? `its figures need ${[...missing].join(', ')}, unavailable in this build` : undefined;
    },
  });
}

/**
 * Events, scenarios and briefings as static responses: the default views and the full sets the
 * API filters. A default view is the answer the API computes for the default parameters
 * (contract/limits.ts LIST_DEFAULTS, api/queries/content.ts), `meta.query` included: the events
 * of the LIST_DEFAULTS.events.sinceDays days before the newest, at most LIST_DEFAULTS.events.limit;
 * the newest LIST_DEFAULTS.briefings.limit briefings of each language.
 */
export async function publishContent(writer: BuildWriter, content: ContentBundle, metaFor: MetaFor): Promise<void> {
  const ed = [EDITORIAL_SOURCE];
  const newestEvent = content.events[0]?.date ?? null;
  const since = defaultEventsSince(newestEvent);
  const limit = LIST_DEFAULTS.events.limit;
  const recent = content.events.filter((e) => !since || e.date >= since).slice(0, limit);
  await writer.file(BUILD_FILES.recentEvents(), {
    data: recent,
    meta: { ...metaFor(ed, recent[0]?.date ?? null, { count: recent.length }), query: { ...(since ? { since } : {}), limit } },
  });
  await writer.file(BUILD_FILES.events(), { data: content.events, meta: metaFor(ed, newestEvent, { count: content.events.length }) });
  const scenariosAsOf =
    content.scenarios
      .map((s) => s.updated_at)
      .sort()
      .at(-1) ?? null;
  await writer.file(BUILD_FILES.scenarios(), { data: content.scenarios, meta: metaFor(ed, scenariosAsOf, { count: content.scenarios.length }) });
  for (const lang of BRIEFING_LANGS) {
    const all = content.briefings.filter((b) => b.lang === lang);
    const asOf = all[0]?.published_at ?? null;
    const top = all.slice(0, LIST_DEFAULTS.briefings.limit);
    await writer.file(BUILD_FILES.latestBriefings(lang), {
      data: top,
      meta: { ...metaFor(ed, asOf, { count: top.length }), query: { lang, limit: LIST_DEFAULTS.briefings.limit } },
    });
    await writer.file(BUILD_FILES.briefings(lang), { data: all, meta: metaFor(ed, asOf, { count: all.length }) });
  }
}
