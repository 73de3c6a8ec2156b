/**
 * Past bulk packages (docs/bulk.md): /vintages/index.json, /vintages/<build id>/<file> and
 * /vintages/<YYYY-MM-DD>/<file> (a redirect to the newest vintage of that day). They live beside
 * the builds in DIST_DIR, on disk, and are streamed from it: a vintage never changes, so its files
 * are cached for a year; only names the bulk contract lists are served, so no path escapes.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { AppContext, AppHono, AppMiddleware } from './env.ts';
import { BULK_RESOURCES, VINTAGE_INDEX, VINTAGES_DIR, DataPackage, VintageIndex } from '../contract/bulk.ts';
import { DATA_CACHE_CONTROL, JSON_TYPE } from '../contract/http.ts';
import { etagOf, matches } from './headers.ts';
import { ApiError } from './problem.ts';

/** A vintage never changes once written. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const ID = /^\d{8}T\d{6}Z-[0-9a-f]{8}(-\d+)?$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const TYPES: Record<string, string> = { parquet: 'application/vnd.apache.parquet', csv: 'text/csv; charset=utf-8', json: JSON_TYPE };
export const VINTAGE_FILES: ReadonlySet<string> = new Set(['datapackage.json', ...BULK_RESOURCES.flatMap((r) => [`${r.name}.parquet`, `${r.name}.csv`])]);

export class DiskVintages {
  readonly distDir: string;
  constructor(distDir: string) {
    this.distDir = distDir;
  }

  async index(): Promise<VintageIndex | null> {
    try {
      return VintageIndex.parse(JSON.parse(await readFile(join(this.distDir, VINTAGE_INDEX), 'utf8')));
    } catch {
      return null;
    }
  }

  /** The file's path, size and ETag (the sha256 its datapackage.json records), or null. */
  async file(id: string, name: string): Promise<{ path: string; size: number; etag: string; contentType: string } | null> {
    const dir = join(this.distDir, VINTAGES_DIR, id);
    const path = join(dir, name);
    const st = await stat(path).catch(() => null);
    if (!st?.isFile()) return null;
    const contentType = TYPES[name.split('.').pop() as string] as string;
    if (name === 'datapackage.json') return { path, size: st.size, etag: etagOf(await readFile(path)), contentType };
    const pkg = DataPackage.safeParse(JSON.parse(await readFile(join(dir, 'datapackage.json'), 'utf8').catch(() => '{}')));
    const hash = pkg.success ? pkg.data.resources.find((r) => r.path === name)?.hash.replace(/^sha256:/, '') : undefined;
    return { path, size: st.size, etag: `"${hash ? hash.slice(0, 32) : `${st.size.toString(16)}-${st.mtimeMs.toString(16)}`}"`, contentType };
  }
}

export function mountVintages(app: AppHono, x: { store: DiskVintages; common: () => Record<string, string>; limit: AppMiddleware }) {
  const headersOf = (c: AppContext, extra: Record<string, string>) => ({
    ...x.common(),
    ...c.get('limitHeaders'),
    ...extra,
  });

  app.get(`/${VINTAGE_INDEX}`, x.limit, async (c) => {
    const index = await x.store.index();
    if (!index) throw new ApiError(404, 'no vintage has been published yet');
    const body = new TextEncoder().encode(JSON.stringify(index));
    const etag = etagOf(body);
    const headers = headersOf(c, { 'content-type': JSON_TYPE, etag, 'cache-control': DATA_CACHE_CONTROL });
    if (matches(c.req.header('if-none-match'), etag)) return new Response(null, { status: 304, headers });
    return new Response(body, { status: 200, headers });
  });

  app.get(`/${VINTAGES_DIR}/:ref/:file`, x.limit, async (c) => {
    const { ref, file } = c.req.param();
    if (!VINTAGE_FILES.has(file))
      throw new ApiError(
        404,
        `a vintage holds datapackage.json and the bulk tables (${[...VINTAGE_FILES].slice(1, 5).join(', ')}, …); not '${file.slice(0, 80)}'`,
      );
    if (DAY.test(ref)) {
      const newest = (await x.store.index())?.vintages.find((v) => v.date === ref);
      if (!newest) throw new ApiError(404, `no vintage was published on ${ref}; the list is at /${VINTAGE_INDEX}`);
      return new Response(null, {
        status: 307,
        headers: headersOf(c, { location: `/${VINTAGES_DIR}/${newest.id}/${file}`, 'cache-control': 'public, max-age=60' }),
      });
    }
    if (!ID.test(ref))
      throw new ApiError(404, `'${ref.slice(0, 80)}' is neither a vintage id (a build id such as 20261123T202240Z-361b0678) nor a date (YYYY-MM-DD)`);
    const f = await x.store.file(ref, file);
    if (!f) throw new ApiError(404, `vintage ${ref} is not kept (see the retention rule in /${VINTAGE_INDEX})`);
    const headers = headersOf(c, { 'content-type': f.contentType, etag: f.etag, 'content-length': String(f.size), 'cache-control': IMMUTABLE });
    if (matches(c.req.header('if-none-match'), f.etag)) return new Response(null, { status: 304, headers });
    if (c.req.method === 'HEAD') return new Response(null, { status: 200, headers });
    return new Response(Readable.toWeb(createReadStream(f.path)) as ReadableStream, { status: 200, headers });
  });
}
