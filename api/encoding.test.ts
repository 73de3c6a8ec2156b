import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CODING_SUFFIX, COMPRESS_MIN_BYTES, UNSERVED_PREFIXES, compressible, type BuildManifest } from '../contract/manifest.ts';
import { BuildWriter } from '../pipeline/publish.ts';
import { cachedStage } from '../pipeline/stage-cache.ts';
import { startTestServer, sendFrom } from '../test/http.ts';
import { readJson, tempDir } from '../test/support.ts';
import { preferredCoding } from './negotiate.ts';

let api: Awaited<ReturnType<typeof startTestServer>>;
let manifest: BuildManifest;
const live = () => join(inject('distDir'), 'current');
beforeAll(async () => {
  api = await startTestServer();
  manifest = readJson<BuildManifest>(join(live(), 'manifest.json'));
});
afterAll(() => api.close());

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request with exactly these headers, the body as it came on the wire (fetch would decompress it). */
function send(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: api.port, method, path, headers, agent: false, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end();
  });
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const vary = (r: Reply) =>
  String(r.headers.vary ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
const DECODE = { br: brotliDecompressSync, gzip: gunzipSync } as const;

describe('the build stores compressed copies of its text files', () => {
  it('has a brotli and a gzip copy of every served text file of at least 1 KiB, each the same bytes once decompressed', async () => {
    let checked = 0;
    for (const [path, f] of Object.entries(manifest.files)) {
      // data/ and search/ are read into indexes, never sent as they are: no copies.
      const text = compressible(f.content_type) && f.bytes >= COMPRESS_MIN_BYTES && !UNSERVED_PREFIXES.some((p) => path.startsWith(p));
      if (!text) {
        expect(f.encodings, path).toBeUndefined();
        continue;
      }
      expect(Object.keys(f.encodings ?? {}).sort(), path).toEqual(['br', 'gzip']);
      const identity = await readFile(join(live(), path));
      for (const coding of ['br', 'gzip'] as const) {
        const packed = await readFile(join(live(), path + CODING_SUFFIX[coding]));
        expect(packed.length, path).toBe(f.encodings![coding]!.bytes);
        expect(sha256(packed), path).toBe(f.encodings![coding]!.sha256);
        expect(packed.length, path).toBeLessThan(identity.length);
        expect(DECODE[coding](packed).equals(identity), `${path} ${coding}`).toBe(true);
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('gives a file a copy only when it is text of at least 1 KiB, and refuses an output that takes a copy’s name', async () => {
    const w = new BuildWriter(await tempDir('encode'));
    const text = 'commodity,date,value\n'.repeat(100);
    await w.raw('a.csv', text, 'text/csv; charset=utf-8');
    await w.raw('small.json', '{"a":1}', 'application/json; charset=utf-8');
    await w.raw('image.png', Buffer.alloc(4096, 7), 'image/png');
    await w.raw('feed.atom', `<feed>${'<entry/>'.repeat(200)}</feed>`, 'application/atom+xml; charset=utf-8');
    await expect(w.raw('a.csv.gz', 'x', 'application/gzip')).rejects.toThrow(/two outputs claim a\.csv\.gz/);
    await w.encoded();
    expect(Object.keys(w.files['a.csv']!.encodings!).sort()).toEqual(['br', 'gzip']);
    expect(w.files['feed.atom']!.encodings?.br).toBeDefined();
    expect(w.files['small.json']!.encodings).toBeUndefined();
    expect(w.files['image.png']!.encodings).toBeUndefined();
    expect(brotliDecompressSync(await readFile(join(w.dir, 'a.csv.br'))).toString()).toBe(text);
  });

  it('carries the copies with a stage reused from the live build', async () => {
    const before = new BuildWriter(await tempDir('stage-before'));
    await before.raw('site/page/index.html', `<html>${'<p>gas</p>'.repeat(300)}</html>`, 'text/html; charset=utf-8');
    await before.encoded();
    const previous = { dir: before.dir, manifest: { files: before.files, stages: { site: 'k' } } as unknown as BuildManifest };
    const after = new BuildWriter(await tempDir('stage-after'));
    const r = await cachedStage({
      writer: after,
      stages: {},
      name: 'site',
      key: 'k',
      prefix: 'site/',
      previous,
      run: () => Promise.reject(new Error('not reused')),
    });
    expect(r.reused).toBe(true);
    await after.encoded();
    expect(after.files['site/page/index.html']).toEqual(before.files['site/page/index.html']);
    for (const suffix of Object.values(CODING_SUFFIX)) {
      expect(await readFile(join(after.dir, `site/page/index.html${suffix}`))).toEqual(await readFile(join(before.dir, `site/page/index.html${suffix}`)));
    }
  });
});

describe('the API sends the best copy Accept-Encoding allows', () => {
  /** Served files with copies, one or more of each kind: pages, assets, contract, feeds, bulk, guides, /v1 files. */
  const samples = () => {
    const urls: [string, string][] = [
      ['/en/', 'site/en/index.html'],
      ['/openapi.json', 'openapi.json'],
      ['/llms.txt', 'llms.txt'],
      ['/feeds/events.atom', 'feeds/events.atom'],
      ['/.well-known/api-catalog', '.well-known/api-catalog'],
      ['/docs/api.md', 'docs/api'],
      ['/bulk/prices.csv', 'bulk/prices.csv'],
      ['/v1/commodities/metals.cobalt', 'v1/commodities/metals.cobalt.json'],
    ];
    const css = Object.keys(manifest.files).find((p) => p.startsWith('site/_astro/') && p.endsWith('.css'));
    if (css) urls.push([`/${css.slice('site/'.length)}`, css]);
    return urls.filter(([, p]) => manifest.files[p]?.encodings);
  };

  it('sends br, gzip or the bytes as they are, each decompressing to the same bytes, each with its own ETag and a 304 of its own', async () => {
    const list = samples();
    expect(list.length).toBeGreaterThanOrEqual(8);
    for (const [url, path] of list) {
      const identity = await send(url);
      expect(identity.status, url).toBe(200);
      expect(identity.headers['content-encoding'], url).toBeUndefined();
      expect(sha256(identity.body), url).toBe(manifest.files[path]!.sha256);
      const etags = new Set([identity.headers.etag]);
      for (const coding of ['br', 'gzip'] as const) {
        const res = await send(url, { 'accept-encoding': coding });
        expect(res.status, url).toBe(200);
        expect(res.headers['content-encoding'], url).toBe(coding);
        expect(vary(res), url).toContain('accept-encoding');
        expect(Number(res.headers['content-length']), url).toBe(res.body.length);
        expect(DECODE[coding](res.body).equals(identity.body), `${url} ${coding}`).toBe(true);
        const etag = String(res.headers.etag);
        expect(etag, url).toMatch(/^"[0-9a-f]{32}"$/);
        etags.add(etag);
        // Revalidation: the copy's own ETag gives a 304; another copy's ETag does not.
        const again = await send(url, { 'accept-encoding': coding, 'if-none-match': etag });
        expect(again.status, `${url} ${coding}`).toBe(304);
        expect(again.headers.etag).toBe(etag);
        expect(again.body.length).toBe(0);
        expect(vary(again)).toEqual(vary(res));
        const other = await send(url, { 'accept-encoding': coding, 'if-none-match': String(identity.headers.etag) });
        expect(other.status, `${url} ${coding} with the identity ETag`).toBe(200);
        // HEAD: the headers of the GET, no body.
        const head = await send(url, { 'accept-encoding': coding }, 'HEAD');
        expect(head.status).toBe(200);
        expect(head.headers['content-encoding']).toBe(coding);
        expect(head.headers.etag).toBe(etag);
        expect(head.body.length).toBe(0);
      }
      expect(etags.size, url).toBe(3);
      const plain = await send(url, { 'if-none-match': String(identity.headers.etag) });
      expect(plain.status, url).toBe(304);
    }
  });

  it('honours q-values: q=0 refuses a coding, identity;q=0 refuses the bytes as they are', async () => {
    const cases: [string | undefined, string | undefined | 406][] = [
      [undefined, undefined],
      ['', undefined],
      ['gzip, deflate, br', 'br'],
      ['gzip, deflate', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['br;q=0.5, gzip;q=0.9', 'gzip'],
      ['x-gzip', 'gzip'],
      ['deflate', undefined],
      ['*', 'br'],
      ['*;q=0.5, br;q=0', 'gzip'],
      ['identity;q=1, br;q=0.5', undefined],
      ['identity;q=0, gzip', 'gzip'],
      ['*;q=0, identity', undefined],
      ['identity;q=0', 406],
      ['*;q=0', 406],
    ];
    for (const [header, want] of cases) {
      const res = await send('/openapi.json', header === undefined ? {} : { 'accept-encoding': header });
      if (want === 406) {
        expect(res.status, header).toBe(406);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      } else {
        expect(res.status, header).toBe(200);
        expect(res.headers['content-encoding'], header).toBe(want);
      }
    }
  });

  it('sends small files and computed answers as they are (no copies), refusing only where identity is refused', async () => {
    const small = await send('/.well-known/security.txt', { 'accept-encoding': 'br, gzip' });
    expect(manifest.files['.well-known/security.txt']!.bytes).toBeLessThan(COMPRESS_MIN_BYTES);
    expect(small.status).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary).toBeUndefined();
    const computed = await send('/v1/search?q=gas', { 'accept-encoding': 'br, gzip' });
    expect(computed.status).toBe(200);
    expect(computed.headers['content-encoding']).toBeUndefined();
    expect(vary(computed)).toEqual(['accept']);
    expect((await send('/v1/search?q=gas', { 'accept-encoding': 'br, identity;q=0' })).status).toBe(406);
  });

  it('reads Accept-Encoding by RFC 9110 §12.5.3', () => {
    const both = ['br', 'gzip'] as const;
    expect(preferredCoding(undefined, both)).toBe('identity');
    expect(preferredCoding('gzip;q=0.5', both)).toBe('gzip');
    expect(preferredCoding('GZIP, BR', both)).toBe('br');
    expect(preferredCoding('br', ['gzip'])).toBe('identity');
    expect(preferredCoding('br, identity;q=0', ['gzip'])).toBeNull();
    expect(preferredCoding('br;q=abc, gzip', both)).toBe('gzip');
    expect(preferredCoding('identity;q=0', [])).toBeNull();
    expect(preferredCoding('gzip, br', [])).toBe('identity');
  });
});

describe('a URL that is not percent-encoded UTF-8 is a 400, never a 500 or a silent replacement', () => {
  const problem = (body: string) => JSON.parse(body) as { type: string; status: number; errors: { param: string; message: string }[] };
  const cases: [method: string, path: string, param: string][] = [
    ['GET', '/v1/search?q=%FF%FE', 'q'],
    ['GET', '/v1/search?q=%', 'q'],
    ['GET', '/v1/search?q=gas%2', 'q'],
    ['GET', '/v1/search?q=%zz', 'q'],
    ['GET', '/v1/search?q=%C0%80', 'q'],
    ['GET', '/v1/search?q=%ED%A0%80', 'q'],
    ['GET', '/v1/search?q=%E2%82', 'q'],
    ['GET', '/v1/search?%FF=1', '(query)'],
    ['GET', '/v1/reserves?commodity=gas&country=%F0%9F', 'country'],
    ['GET', '/v1/commodities/%FF', '(path)'],
    ['GET', '/v1/%zz', '(path)'],
    ['GET', '/commodities/%C3%28/', '(path)'],
    ['HEAD', '/openapi.json?x=%80', 'x'],
    ['GET', '/no/such/%FE', '(path)'],
    ['POST', '/mcp?session=%FF', 'session'],
    ['POST', '/v1/ask?%', '(query)'],
  ];
  for (const [method, path, param] of cases) {
    it(`${method} ${path}`, async () => {
      const res = await sendFrom(api.port, method, path, { headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } });
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      if (method === 'HEAD') return;
      const body = problem(res.body);
      expect(body.type).toBe('/problems/invalid-parameter');
      expect(body.errors.map((e) => e.param)).toContain(param);
    });
  }

  it('accepts well-formed UTF-8, in the path and in the query', async () => {
    expect((await sendFrom(api.port, 'GET', '/v1/search?q=%C3%A9nergie+gas')).status).toBe(200);
    expect((await sendFrom(api.port, 'GET', '/v1/search?q=%E2%82%AC%F0%9F%94%A5')).status).toBe(200);
    expect((await sendFrom(api.port, 'GET', '/v1/commodities/metals%2Ecobalt')).status).toBe(200);
  });

  it('refuses exactly the byte strings that are not UTF-8 (property)', async () => {
    const bytes = fc.uint8Array({ minLength: 1, maxLength: 12 }).map((b) => b.map((x) => (x < 0x30 ? x + 0x80 : x)));
    const strict = new TextDecoder('utf-8', { fatal: true });
    await fc.assert(
      fc.asyncProperty(bytes, async (b) => {
        const encoded = [...b].map((x) => `%${x.toString(16).padStart(2, '0').toUpperCase()}`).join('');
        const res = await sendFrom(api.port, 'GET', `/v1/search?q=a${encoded}`);
        let utf8 = true;
        try {
          strict.decode(b);
        } catch {
          utf8 = false;
        }
        expect(res.status).toBeLessThan(500);
        const errors = res.status === 400 ? problem(res.body).errors : [];
        expect(
          errors.some((e) => /not UTF-8/.test(e.message)),
          encoded,
        ).toBe(!utf8);
      }),
      { numRuns: 150 },
    );
  });
});
