/**
 * The site's data, read at build time from the build folder being written (its path comes from
 * pipeline/site-stage.ts through Vite's `define`). Types come from the contract.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Meta } from '../../../contract/common.ts';
import type { CommodityListEntry, CommoditySheet } from '../../../contract/commodities.ts';
import type { CountryIndexEntry, CountryProfile } from '../../../contract/countries.ts';
import type { Briefing, BriefingLang, Event, Scenario } from '../../../contract/content.ts';
import type { Reserve, ReserveIndexFile, ReserveSeries } from '../../../contract/reserves.ts';
import type { BacktestResult } from '../../../contract/stress.ts';
import type { SourceStatus } from '../../../contract/manifest.ts';

export const site = __CHOKEPOINT_SITE__;

export interface Envelope<T> {
  data: T;
  meta: Meta;
}

const cache = new Map<string, unknown>();
function read<T>(path: string): T {
  let v = cache.get(path);
  if (v === undefined) {
    v = JSON.parse(readFileSync(join(site.buildDir, path), 'utf8'));
    cache.set(path, v);
  }
  return v as T;
}
export const readText = (path: string): string => readFileSync(join(site.buildDir, path), 'utf8');

export const commodities = () => read<Envelope<CommodityListEntry[]>>('v1/commodities.json');
export const sheet = (slug: string) => read<Envelope<CommoditySheet>>(`v1/commodities/${slug}.json`);
export const countries = () => read<Envelope<CountryIndexEntry[]>>('data/countries.json');
export const country = (iso3: string) => read<Envelope<CountryProfile>>(`v1/countries/${iso3}.json`);
export const reserves = () => read<ReserveIndexFile>('data/reserves.json');
export const reserve = (code: string, iso2: string) => read<Envelope<Reserve>>(`v1/reserves/${code}/${iso2}.json`);
export const reserveSeries = (code: string, iso2: string) => read<Envelope<ReserveSeries>>(`data/reserves/${code}/${iso2}.json`);
export const backtest = () => read<Envelope<BacktestResult>>('data/stress/backtest.json');
export const scenarios = () => read<Envelope<Scenario[]>>('v1/scenarios.json');
export const events = () => read<Envelope<Event[]>>('data/events.json');
export const briefings = (lang: BriefingLang) => read<Envelope<Briefing[]>>(`data/briefings/${lang}.json`);
export const openapi = () => read<OpenApiDoc>('openapi.json');
export const sources = (): SourceStatus[] => site.sources;

export const commodityName = (slug: string): string => commodities().data.find((c) => c.slug === slug)?.name ?? slug;
export const countryName = (iso3: string): string => countries().data.find((c) => c.iso3 === iso3)?.name ?? iso3;
export const hasCountry = (iso3: string): boolean => countries().data.some((c) => c.iso3 === iso3);

export interface OpenApiParam {
  name?: string;
  in?: string;
  required?: boolean;
  description?: string;
  schema?: { type?: string; enum?: string[]; default?: unknown; minimum?: number; maximum?: number; format?: string };
  example?: unknown;
  $ref?: string;
}
export interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: OpenApiParam[];
  requestBody?: { content?: Record<string, { example?: unknown; schema?: unknown }> };
  responses?: Record<string, { description?: string }>;
}
export interface OpenApiDoc {
  info: { title: string; version: string; description?: string; summary?: string };
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, OpenApiOperation | OpenApiParam[]>>;
  components?: { parameters?: Record<string, OpenApiParam> };
}

/** Relative URL of a reserve page. */
export const reservePage = (code: string, iso2: string) => `/reserves/${code}/${iso2}/`;
export const commodityPage = (slug: string) => `/commodities/${slug}/`;
export const countryPage = (iso3: string) => `/countries/${iso3}/`;
