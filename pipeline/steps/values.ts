import type { CommoditySheet } from '../../contract/commodities.ts';
import type { Briefing } from '../../contract/content.ts';
import type { CountryProfile } from '../../contract/countries.ts';
import type { SourceStatus } from '../../contract/manifest.ts';
import type { BacktestResult } from '../../contract/stress.ts';
import type { EmbeddingsConfig } from '../../lib/search/remote.ts';
import type { bulkStage } from '../bulk/stage.ts';
import type { Commodity } from '../catalogue.ts';
import type { ContentBundle } from '../content-stage.ts';
import { stepOf } from '../dag.ts';
import type { RateLimitQuotas } from '../discovery/openapi.ts';
import type { Db } from '../db.ts';
import type { Effects } from '../effects.ts';
import type { LiveOptions } from '../fetch/sources.ts';
import type { SourceCadence } from '../freshness.ts';
import type { MetaFor } from '../meta.ts';
import type { CountryNames } from '../names.ts';
import type { BuildPaths, BuildWriter } from '../publish.ts';
import type { publishSearchIndex } from '../search/stage.ts';
import type { SiteSwitches } from '../site-stage.ts';
import type { SnapshotPlan } from '../snapshots.ts';
import type { SourceAdapter, SourceKeys } from '../sources/types.ts';
import type { PreviousBuild, cachedStage } from '../stage-cache.ts';
import type { latestPrices, PriceTables, priceAnomalies } from './prices.ts';
import type { ReserveReading } from './reserves.ts';
import type { Shares } from './sheets.ts';
import type { loadStressInputs } from './stress-inputs.ts';

export interface BuildOptions {
  sourcesDir: string;
  dataDir: string;
  outDir: string;
  baseUrl: string;
  /** The server's rate limits (RATE_LIMIT_DATA, RATE_LIMIT_ASK; 0 = off), stated by the discovery files like baseUrl; default 60 and 10. */
  rateLimits?: RateLimitQuotas;
  /** How often the data is rebuilt (REBUILD_EVERY, `--every`), stated by the site and the discovery files; default 15 minutes, null for no schedule. */
  rebuildEveryMs?: number | null;
  /** Fetch the sources from their publishers, each when due on its cadence (DATA_SOURCE=live, `--download`), instead of reading sourcesDir. */
  download?: boolean;
  /** How live fetching runs: `--force`, timeouts and deadlines, PUBLISHER_URL_* (pipeline/fetch/sources.ts). */
  live?: LiveOptions;
  /** API keys of the publishers that require one for `download` (EIA_API_KEY, AGSI_API_KEY). */
  sourceKeys?: SourceKeys;
  /** The embeddings endpoint of the search index (EMBEDDINGS_*); absent or null: the local word vectors. */
  embeddings?: EmbeddingsConfig | null;
  /** How the website stage runs (CHOKEPOINT_SITE=off: skip; SITE_LOG). */
  site?: SiteSwitches;
  /** `Contact:` of security.txt (SECURITY_CONTACT); default mailto:security@chokepoint.example. */
  securityContact?: readonly string[];
  sources?: readonly SourceAdapter[];
  /** How long to wait for another build of the same outDir to finish (default 0: refuse at once). */
  lockWaitMs?: number;
}

/** An output left out of the build, and why (manifest `omitted`). */
export interface Omission {
  output: string;
  reason: string;
}

/** What the site step made: reused from the live build, made now, or nothing (switched off or left out). */
export type SiteOutcome = Awaited<ReturnType<typeof cachedStage<unknown>>> | { reused: false; result: null; distrusted: null };

/**
 * Every value the build makes, by name: the graph's nodes. The first group is given when the
 * build starts; each of the others is an output of exactly one step of BUILD_STEPS
 * (pipeline/build.ts), declared in pipeline/steps/<name>.step.ts.
 */
export interface BuildValues {
  opts: BuildOptions;
  fx: Effects;
  db: Db;
  generatedAt: Date;
  today: string;
  paths: BuildPaths;
  plan: SnapshotPlan;
  /** Input key of each cached stage, for the manifest. */
  stages: Record<string, string>;
  version: string;

  catalogue: Commodity[];
  cadences: Record<string, SourceCadence>;
  statuses: SourceStatus[];
  sourcesOmitted: Omission[];
  buildId: string;
  writer: BuildWriter;
  metaFor: MetaFor;
  priceTables: PriceTables;
  latest: Awaited<ReturnType<typeof latestPrices>>;
  anomalies: Awaited<ReturnType<typeof priceAnomalies>>;
  names: CountryNames;
  shares: Shares;
  readings: Map<string, ReserveReading>;
  reservesOmitted: Omission[];
  content: ContentBundle;
  contentOmitted: Omission[];
  stressInputs: Awaited<ReturnType<typeof loadStressInputs>>;
  sheets: CommoditySheet[];
  /** Files written, by count: the steps that write declare it as their output, so the site can wait for them. */
  commodityFiles: number;
  backtest: BacktestResult;
  stressFiles: number;
  briefings: Briefing[];
  reserveFiles: number;
  profiles: CountryProfile[];
  countryFiles: number;
  contentFiles: number;
  bulk: Awaited<ReturnType<typeof bulkStage>>;
  live: PreviousBuild | null;
  search: Awaited<ReturnType<typeof cachedStage<Awaited<ReturnType<typeof publishSearchIndex>>>>>;
  discoveryFiles: number;
  site: SiteOutcome;
  siteOmitted: Omission[];
}

/** The values the build starts from (the rest come from BUILD_STEPS). */
export const GIVEN = ['opts', 'fx', 'db', 'generatedAt', 'today', 'paths', 'plan', 'stages', 'version'] as const satisfies readonly (keyof BuildValues)[];

type OmissionKey = { [K in keyof BuildValues]: BuildValues[K] extends Omission[] ? K : never }[keyof BuildValues];

/**
 * The outputs that hold omissions: the manifest's `omitted` collects them, in build order. The
 * compiler checks the list: a new output of type Omission[] fails to compile until it is here.
 */
export const OMISSIONS = { sourcesOmitted: true, reservesOmitted: true, contentOmitted: true, siteOmitted: true } as const satisfies Record<OmissionKey, true>;

export const isOmissions = (k: keyof BuildValues): k is OmissionKey => k in OMISSIONS;

/** Declare a step of the build: pipeline/steps/<name>.step.ts each export one. */
export const step = stepOf<BuildValues>();
