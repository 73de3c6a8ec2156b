import type { SourceId } from '../../contract/sources.ts';
import type { Db } from '../db.ts';

/** One file of a source, as it sits in the mirror folder, and where its publisher serves it. */
export interface SourceFile {
  /** Path relative to the source's folder in SOURCES_DIR, e.g. 'brent-daily.csv'. */
  readonly path: string;
  /** The publisher's own address for this data (what `--download` fetches). */
  readonly url: string;
}

/**
 * What a download needs beyond the fetch: API keys of the publishers that require one (EIA_API_KEY,
 * AGSI_API_KEY in lib/config.ts), the configured address of a file that changes with each edition
 * (WORLDBANK_CMO_URL), and where to say which address was used.
 */
export interface SourceKeys {
  eia?: string | undefined;
  agsi?: string | undefined;
  /** The World Bank CMO-Historical-Data-Monthly.xlsx address, instead of the one the commodity-markets page links. */
  worldbankCmoUrl?: string | undefined;
  /** The Energy Institute's current workbook address, instead of the one its downloads page links. */
  eiWorkbookUrl?: string | undefined;
  /** One line per notable step of a download (the edition address found); the build's log. */
  log?: ((line: string) => void) | undefined;
  /** The build's calendar date (YYYY-MM-DD): the "today" of freshness checks and of date windows asked for. */
  today?: string | undefined;
}

/** The build's calendar date, or the machine's when a download runs outside a build. */
export const todayOf = (keys: SourceKeys = {}): string => keys.today ?? new Date().toISOString().slice(0, 10);

/** How much of a source we may republish: open data in full, or only indicators derived from it. */
export type Redistribution = 'open' | 'derived-only';

export interface SourceAdapter {
  /** Folder name under SOURCES_DIR, e.g. 'eia-oil-prices'. */
  readonly id: SourceId;
  readonly publisher: string;
  readonly dataset: string;
  /** The publisher's landing page for the dataset (shown in meta.sources). */
  readonly url: string;
  /** Licence as the publisher states it, e.g. 'CC-BY-4.0', 'Public domain (US government)'. */
  readonly licence: string;
  readonly redistribution: Redistribution;
  readonly files: readonly SourceFile[];
  /** The clean tables load() creates (and nothing else). */
  readonly tables: readonly string[];
  /**
   * Read the files from `dir` (a folder laid out like the mirror), clean the documented quirks
   * and create `tables`. Throws SourceError when a file is missing or not what we expect.
   */
  load(db: Db, dir: string): Promise<void>;
  /**
   * Fetch the data from the publisher into `dir`, in the mirror's layout (converting the
   * publisher's format where it differs). `fetchImpl` is injected so tests can serve fixtures;
   * `keys` carries the API keys of the publishers that require one (a missing key is a SourceError).
   */
  download(dir: string, fetchImpl: typeof fetch, keys?: SourceKeys): Promise<void>;
  /**
   * Why the source cannot be fetched (a closed edition, a table published only as HTML): a live
   * build reads it from the embedded mirror, as a mirror build does, instead of failing on it at
   * every build. Its download() refuses with this reason.
   */
  readonly mirrorOnly?: string;
}

/** A source file that is missing, unreadable or not in the shape its adapter expects. */
export class SourceError extends Error {
  readonly sourceId: string;
  constructor(sourceId: string, message: string) {
    super(`${sourceId}: ${message}`);
    this.sourceId = sourceId;
    this.name = 'SourceError';
  }
}

/** The `mirrorOnly` reason of a source that cannot be fetched, and the download() that refuses with it. */
export function mirrorOnly(id: string, why: string): Pick<SourceAdapter, 'mirrorOnly' | 'download'> {
  return {
    mirrorOnly: why,
    download: () => Promise.reject(new SourceError(id, why)),
  };
}
