import { createHash } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { recording } from './publisher-recordings.ts';

/**
 * A stand-in for the publishers: a local HTTP server (127.0.0.1, a free port) that replays the
 * real answers recorded in ../shared/publishers/ (RECORDINGS.md), with the validators a
 * publisher's file server sends, and plays the faults a live publisher plays: a hang, a 429 with
 * Retry-After, a 5xx, a truncated body, an empty 200. The pipeline reaches it through
 * PUBLISHER_URL_<SOURCE_ID> (LiveOptions.publisherUrls).
 */

export { recording };

/** What the server answers to one request. */
export type Play =
  /** A recorded file, with an ETag (its sha256) and a Last-Modified; answered 304 to a matching conditional request. */
  | { kind: 'file'; body: Buffer; contentType: string; lastModified?: string }
  | { kind: 'json'; value: unknown }
  | { kind: 'status'; status: number; headers?: Record<string, string> }
  /** Headers sent, the body never: the request hangs until the client gives up. */
  | { kind: 'hang' }
  /** The headers announce the whole body, half of it is sent, then the connection is cut. */
  | { kind: 'truncate'; body: Buffer }
  | { kind: 'empty' };

/** One request as the server saw it (the query's keys removed). */
export interface Seen {
  path: string;
  query: string;
  ifNoneMatch: string | null;
  ifModifiedSince: string | null;
  status: number | null;
}

/** Picks the play for a request; `n` is how many times this path was asked before. */
export type Router = (req: { path: string; query: URLSearchParams; n: number }) => Play;

export interface ReplayServer {
  origin: string;
  seen: Seen[];
  route: Router;
  close(): Promise<void>;
}

const etagOf = (body: Buffer) => `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`;

function answer(play: Play, req: IncomingMessage, res: ServerResponse): number | null {
  switch (play.kind) {
    case 'file': {
      const etag = etagOf(play.body);
      const lastModified = play.lastModified ?? 'Tue, 02 Jun 2026 08:00:00 GMT';
      const notModified =
        req.headers['if-none-match'] === etag ||
        (!req.headers['if-none-match'] && req.headers['if-modified-since'] && Date.parse(req.headers['if-modified-since']) >= Date.parse(lastModified));
      if (notModified) {
        res.writeHead(304, { etag, 'last-modified': lastModified }).end();
        return 304;
      }
      res.writeHead(200, { 'content-type': play.contentType, 'content-length': play.body.length, etag, 'last-modified': lastModified }).end(play.body);
      return 200;
    }
    case 'json': {
      const body = JSON.stringify(play.value);
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      return 200;
    }
    case 'status':
      res.writeHead(play.status, { 'content-type': 'text/plain', ...play.headers }).end(`${play.status}\n`);
      return play.status;
    case 'hang':
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.flushHeaders();
      return null;
    case 'truncate':
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': play.body.length });
      res.write(play.body.subarray(0, Math.floor(play.body.length / 2)), () => res.destroy());
      return 200;
    case 'empty':
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 0 }).end();
      return 200;
  }
}

/** Start the server; `route` may be replaced between builds (server.route = …) to change what it plays. */
export async function replayServer(route: Router): Promise<ReplayServer> {
  const counts = new Map<string, number>();
  const state: ReplayServer = {
    origin: '',
    seen: [],
    route,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://replay');
    for (const k of ['api_key', 'key']) url.searchParams.delete(k);
    const n = counts.get(url.pathname) ?? 0;
    counts.set(url.pathname, n + 1);
    const status = answer(state.route({ path: url.pathname, query: url.searchParams, n }), req, res);
    state.seen.push({
      path: url.pathname,
      query: url.searchParams.toString(),
      ifNoneMatch: (req.headers['if-none-match'] as string | undefined) ?? null,
      ifModifiedSince: (req.headers['if-modified-since'] as string | undefined) ?? null,
      status,
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

// No recording of the ScienceBase item JSON exists (RECORDINGS.md, "Not found"): this is its
// documented shape (https://www.sciencebase.gov/catalog/item/69837e43b66b01367d7ec7c7?format=json:
// `files[]` with `name` and `url`), pointing at the file address three repositories recorded.
export const USGS_ITEM = {
  id: '69837e43b66b01367d7ec7c7',
  title: 'Mineral Commodity Summaries 2026 Data Release - Commodity Salient U.S. and World Statistics',
  files: [
    {
      name: 'MCS2026_Commodities_Data.csv',
      contentType: 'text/csv',
      url: 'https://www.sciencebase.gov/catalog/file/get/69837e43b66b01367d7ec7c7?name=MCS2026_Commodities_Data.csv',
    },
  ],
};

/** The World Bank's CMO workbook as posted on 2026-06-02 (monthly data to 2026-05). */
export const CMO_WORKBOOK = 'worldbank-pink-sheet/CMO-Historical-Data-Monthly.2026-06-02.xlsx';
/** The Energy Institute's 2026 workbook (75th edition, data year 2025). */
export const EI_WORKBOOK_2026 = 'ei-statistical-review/EI-Stats-Review-ALL-data.2026.xlsx';

const csv = (body: Buffer): Play => ({ kind: 'file', body, contentType: 'text/csv' });
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** A workbook at any path ending in `file`; every other path (the page that lists it) 404. */
const workbookAt =
  (file: string, body: Buffer, lastModified: string): Router =>
  ({ path }) =>
    path.endsWith(file) ? { kind: 'file', body, contentType: XLSX, lastModified } : { kind: 'status', status: 404 };

/**
 * The recorded answers of the publishers whose adapters read them today, by source id (each
 * source gets its own server, so a router needs no knowledge of the others' paths).
 */
export function recordedPlays(): Partial<Record<string, Router>> {
  const countryCodes = recording('country-codes/country-codes.csv');
  const usgs = recording('usgs-mcs-2026/MCS2026_Commodities_Data.csv');
  const cmo = recording(CMO_WORKBOOK);
  const ei2026 = recording(EI_WORKBOOK_2026);
  return {
    'country-codes': () => csv(countryCodes),
    // The listing pages that link each edition's workbook (World Bank's commodity-markets page, EI's
    // downloads page) are not recorded: they answer 404, as a page blocked to scripts does, and the
    // adapter falls back to the last known address.
    'ei-statistical-review-2026': workbookAt('/EI-Stats-Review-ALL-data.xlsx', ei2026, 'Wed, 15 Jul 2026 09:00:00 GMT'),
    'worldbank-pink-sheet': workbookAt('/CMO-Historical-Data-Monthly.xlsx', cmo, 'Tue, 02 Jun 2026 08:00:00 GMT'),
    'usgs-mcs-2026': ({ path }) => (path.startsWith('/catalog/item/') ? { kind: 'json', value: USGS_ITEM } : csv(usgs)),
  };
}

/** Not one of the recordings: the publisher's stand-in answers 404. */
export const notRecorded: Router = () => ({ kind: 'status', status: 404 });

/** One stand-in per source id, each playing `plays[id]` (404 where none is given). */
export async function replayPublishers(ids: readonly string[], plays: Partial<Record<string, Router>>): Promise<Record<string, ReplayServer>> {
  const servers: Record<string, ReplayServer> = {};
  for (const id of ids) servers[id] = await replayServer(plays[id] ?? notRecorded);
  return servers;
}

/** PUBLISHER_URL_* of the stand-ins, by source id (LiveOptions.publisherUrls). */
export const originsOf = (servers: Record<string, ReplayServer>) => Object.fromEntries(Object.entries(servers).map(([id, s]) => [id, s.origin]));
