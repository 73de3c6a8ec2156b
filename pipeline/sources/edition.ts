/**
 * Files whose address changes with each edition (World Bank's CMO workbook): the address is read
 * from the page where the publisher lists the current file, unless the operator configured one. And
 * a downloaded file whose newest period has not advanced while the publisher's cadence
 * (data/cadence.yaml) says it should have (World Bank, IMF) is refused instead of published as fresh.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { freshnessOf, type SourceCadence } from '../../contract/freshness.ts';
import { SourceError, type SourceKeys } from './types.ts';

export interface EditionListing {
  /** The publisher's page that links the current edition's file. */
  readonly page: string;
  /** Matches the file's link in the page's HTML (an absolute or a relative href). */
  readonly link: RegExp;
  /** The address of the newest edition known when this was written, used when the page cannot be read or lists no link. */
  readonly known: string;
}

/**
 * The address to download: the configured override, else the link the listing page carries, else the
 * last known address (the page may be blocked to scripts; the freshness check below then tells whether
 * that address still serves a current edition). Says which it used through `keys.log`.
 */
export async function editionAddress(
  sourceId: string,
  listing: EditionListing,
  fetchImpl: typeof fetch,
  keys: SourceKeys = {},
  override?: string,
): Promise<string> {
  const log = keys.log ?? (() => {});
  if (override) {
    log(`${sourceId}: edition address configured: ${override}`);
    return override;
  }
  let why: string;
  try {
    const res = await fetchImpl(listing.page, { headers: { accept: 'text/html' } });
    if (res.ok) {
      const href = listing.link.exec(await res.text())?.[0];
      if (href) {
        const url = new URL(href.replaceAll('&amp;', '&'), listing.page).href;
        log(`${sourceId}: edition address found on ${listing.page}: ${url}`);
        return url;
      }
      why = 'lists no link to the file';
    } else {
      why = `answered ${res.status}`;
    }
  } catch (e) {
    why = `could not be read (${(e as Error).message})`;
  }
  log(`${sourceId}: ${listing.page} ${why}; using the last known edition address ${listing.known}`);
  return listing.known;
}

const cadenceFile = resolve(import.meta.dirname, '../../data/cadence.yaml');

/**
 * Refuse a downloaded file whose newest period (YYYY-MM-DD, YYYY-MM or YYYY) is stale by the source's
 * own cadence: an address that still answers with an old edition must not be published as fresh.
 * `today` is the build's calendar date.
 */
export function requireAdvanced(sourceId: string, url: string, newest: string, today: string): void {
  const cadence = (parse(readFileSync(cadenceFile, 'utf8')) as Record<string, SourceCadence>)[sourceId];
  if (!cadence) throw new SourceError(sourceId, `no cadence in ${cadenceFile}`);
  const asOf = /^\d{4}$/.test(newest) ? `${newest}-12-31` : /^\d{4}-\d{2}$/.test(newest) ? `${newest}-01` : newest;
  let f: ReturnType<typeof freshnessOf>;
  try {
    f = freshnessOf(cadence, asOf, today);
  } catch {
    throw new SourceError(sourceId, `${url}: newest period ${JSON.stringify(newest)} is not a date`);
  }
  if (f.freshness === 'stale') {
    throw new SourceError(
      sourceId,
      `${url} serves data up to ${newest} only; by the publisher's ${cadence.cadence} cadence a newer period was due by ${f.expected_next} (an old edition's address?)`,
    );
  }
}
