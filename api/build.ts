import type { CommodityListEntry } from '../contract/commodities.ts';
import type { Briefing, Event, Scenario } from '../contract/content.ts';
import { CODING_SUFFIX, type BuildManifest, type ContentCoding, type ManifestFile } from '../contract/manifest.ts';
import type { z } from 'zod';
import type { Meta } from '../contract/common.ts';
import { LANGS } from '../contract/languages.ts';
import { BUILD_FILES, type JsonFile } from '../contract/layout.ts';
import type { ReserveSeries } from '../contract/reserves.ts';
import type { EmbeddingsConfig } from '../lib/search/remote.ts';
import { commonHeaders } from './headers.ts';
import { ColdFiles } from './cold-files.ts';
import { ResponseMemo } from './memo.ts';

/** The bytes of a file in one content coding, with their own strong ETag. */
export interface EncodedBody {
  body: Uint8Array;
  etag: string;
}

/** One published file, with everything a response needs precomputed. */
export interface StaticFile {
  body: Uint8Array;
  etag: string;
  contentType: string;
  /** The same file compressed at build time (text files of at least 1 KiB), by coding. */
  encodings?: Partial<Record<ContentCoding, EncodedBody>>;
}

/** A strong ETag from a SHA-256: its first 128 bits. Each coding of a file has its own (the hash of its bytes). */
const etagOfSha = (sha256: string) => `"${sha256.slice(0, 32)}"`;

export interface CountryEntry {
  iso3: string;
  iso2: string;
  name: string;
}

/** A build held in memory: the bytes of every file and the indexes the parameterised routes query. */
export interface LoadedBuild {
  id: string;
  manifest: BuildManifest;
  generatedAt: Date;
  lastModified: string;
  /** Headers every response from this build carries (licence and backlink, CORS, nosniff). */
  headers: Record<string, string>;
  /** Serialised parameterised answers of this build (dropped with it). */
  memo: ResponseMemo;
  /** The files held in memory; the others are in `cold`. */
  files: ReadonlyMap<string, StaticFile>;
  /** Files read from the build's folder when asked (Node: the site's pages and the bulk downloads); null: every file is in `files`. */
  cold: ColdFiles<StaticFile> | null;
  commodities: CommodityListEntry[];
  commodityMeta: Meta;
  /** slug and code → slug. */
  commodityAliases: ReadonlyMap<string, string>;
  countries: ReadonlyMap<string, CountryEntry>;
  /** lower-case alpha-2 and alpha-3 → entry. */
  countryAliases: ReadonlyMap<string, CountryEntry>;
  reserves: ReadonlyMap<string, { series: ReserveSeries; meta: Meta }>;
  events: Event[];
  eventsMeta: Meta;
  scenarios: Scenario[];
  scenariosMeta: Meta;
  briefings: ReadonlyMap<string, { items: Briefing[]; meta: Meta }>;
  /**
   * The embeddings endpoint for search queries, from the server's configuration (EMBEDDINGS_*):
   * used when the build's documents were embedded remotely. Absent or null: such a build is
   * searched by BM25 alone.
   */
  embeddings?: EmbeddingsConfig | null;
}

type Reader = (path: string) => Promise<Uint8Array>;

/** A value derived from a build, made on first use and dropped with the build (hot reload included). */
export function perBuild<T>(derive: (b: LoadedBuild) => T): (b: LoadedBuild) => T {
  const cache = new WeakMap<LoadedBuild, T>();
  return (b) => {
    if (!cache.has(b)) cache.set(b, derive(b));
    return cache.get(b) as T;
  };
}

/** Whether the build has a file at `path`, in memory or on disk. */
export const hasFile = (b: Pick<LoadedBuild, 'files' | 'cold'>, path: string): boolean => b.files.has(path) || (b.cold?.has(path) ?? false);

/** A file of the build, read from disk first when it is one of the cold ones. */
export const fileAt = async (b: Pick<LoadedBuild, 'files' | 'cold'>, path: string): Promise<StaticFile | undefined> =>
  b.files.get(path) ?? (await b.cold?.get(path));

/** The `data` of one of the build's JSON files, or null when the build has no such file. */
export function fileData<T>(b: Pick<LoadedBuild, 'files'>, path: string): T | null {
  const f = b.files.get(path);
  return f ? json<{ data: T }>(f.body).data : null;
}

const decoder = new TextDecoder();
const json = <T>(bytes: Uint8Array): T => JSON.parse(decoder.decode(bytes)) as T;

/**
 * Read a published build through `read` (the filesystem on Node, a fetch from the static store
 * on an edge runtime). Every file is loaded up front, so a request never waits on I/O and never
 * sees a half-loaded build.
 */
/** One file of the build and its compressed copies, as the manifest lists them. */
async function readStatic(read: Reader, path: string, f: ManifestFile): Promise<StaticFile> {
  const entry: StaticFile = { body: await read(path), etag: etagOfSha(f.sha256), contentType: f.content_type };
  if (f.encodings) {
    const encodings: Partial<Record<ContentCoding, EncodedBody>> = {};
    for (const [coding, e] of Object.entries(f.encodings) as [ContentCoding, { sha256: string }][]) {
      encodings[coding] = { body: await read(path + CODING_SUFFIX[coding]), etag: etagOfSha(e.sha256) };
    }
    entry.encodings = encodings;
  }
  return entry;
}

export interface LoadOptions {
  /** The budget of the build's response memo (RESPONSE_MEMO_MB). */
  memoBytes?: number;
  /** Files left on disk and read when asked (api/cold-files.ts), within `maxBytes` kept in memory. */
  cold?: { isCold(path: string): boolean; maxBytes: number };
}

export async function loadBuild(read: Reader, options: LoadOptions = {}): Promise<LoadedBuild> {
  const manifest = json<BuildManifest>(await read(BUILD_FILES.manifest().path));
  const files = new Map<string, StaticFile>();
  const coldEntries = new Map<string, ManifestFile>();
  await Promise.all(
    Object.entries(manifest.files).map(async ([path, f]) => {
      if (options.cold?.isCold(path)) coldEntries.set(path, f);
      else files.set(path, await readStatic(read, path, f));
    }),
  );
  // Typed by the file's schema in the layout; not parsed with it: the pipeline validated every file.
  const file = <S extends z.ZodType>(entry: JsonFile<S>): z.output<S> => {
    const f = files.get(entry.path);
    if (!f) throw new Error(`build ${manifest.build} lacks ${entry.path}`);
    return json<z.output<S>>(f.body);
  };
  const list = file(BUILD_FILES.commodityList());
  const commodityAliases = new Map<string, string>();
  for (const c of list.data) {
    commodityAliases.set(c.slug, c.slug);
    commodityAliases.set(c.code, c.slug);
  }
  const countryIndex = file(BUILD_FILES.countryIndex()).data;
  const countries = new Map(countryIndex.map((c) => [c.iso3, { iso3: c.iso3, iso2: c.iso2, name: c.name }]));
  const countryAliases = new Map<string, CountryEntry>();
  for (const c of countries.values()) {
    countryAliases.set(c.iso3.toLowerCase(), c);
    countryAliases.set(c.iso2.toLowerCase(), c);
  }
  const reserves = new Map<string, { series: ReserveSeries; meta: Meta }>();
  for (const r of file(BUILD_FILES.reserveIndex()).data) {
    const key = `${r.commodity}/${r.country}`;
    const { data, meta } = file(BUILD_FILES.reserveSeries(key));
    reserves.set(key, { series: data, meta });
  }
  const events = file(BUILD_FILES.events());
  const scenarios = file(BUILD_FILES.scenarios());
  const briefings = new Map<string, { items: Briefing[]; meta: Meta }>();
  for (const lang of LANGS) {
    const b = file(BUILD_FILES.briefings(lang));
    briefings.set(lang, { items: b.data, meta: b.meta });
  }
  const generatedAt = new Date(manifest.generated_at);
  return {
    id: manifest.build,
    manifest,
    generatedAt,
    lastModified: generatedAt.toUTCString(),
    headers: commonHeaders(manifest.base_url, manifest.build),
    memo: new ResponseMemo(options.memoBytes),
    cold: options.cold ? new ColdFiles(coldEntries, (path, f) => readStatic(read, path, f), options.cold.maxBytes) : null,
    files,
    commodities: list.data,
    commodityMeta: list.meta,
    commodityAliases,
    countries,
    countryAliases,
    reserves,
    events: events.data,
    eventsMeta: events.meta,
    scenarios: scenarios.data,
    scenariosMeta: scenarios.meta,
    briefings,
  };
}
