import fc from 'fast-check';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../contract/api.ts';
import { startTestServer } from '../test/http.ts';
import { parseAccept, preferredFormat, qualityOf, type Format } from './negotiate.ts';

let api: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  api = await startTestServer();
});
afterAll(() => api.close());

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request with exactly these headers (fetch would add Accept: *\/* and decompress). */
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

const mediaOf = (r: Reply) => String(r.headers['content-type'] ?? '').split(';')[0];
const varyOf = (r: Reply) =>
  String(r.headers.vary ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);

const GET_ROUTES = ROUTES.filter((r) => r.method === 'get');

describe('the Accept header, read one way (RFC 9110 §12.5.1)', () => {
  const both: Format[] = ['json', 'csv'];
  it('takes the highest weight; q=0 excludes; no header is JSON', () => {
    expect(preferredFormat(undefined, both)).toBe('json');
    expect(preferredFormat('', both)).toBe('json');
    expect(preferredFormat('text/csv', both)).toBe('csv');
    expect(preferredFormat('application/json, text/csv', both)).toBe('json');
    expect(preferredFormat('text/csv, application/json', both)).toBe('json');
    expect(preferredFormat('application/json;q=0.5, text/csv', both)).toBe('csv');
    expect(preferredFormat('text/csv;q=0, application/json', both)).toBe('json');
    expect(preferredFormat('text/csv;q=0', both)).toBeNull();
    expect(preferredFormat('application/json;q=0', ['json'])).toBeNull();
    expect(preferredFormat('text/csv', ['json'])).toBeNull();
  });

  it('lets the most specific range decide a type: text/csv over text/* over */*', () => {
    expect(preferredFormat('text/*;q=0.9, text/csv;q=0.1, application/json;q=0.5', both)).toBe('json');
    expect(preferredFormat('*/*;q=0.1, text/csv;q=0', both)).toBe('json');
    expect(preferredFormat('*/*, application/json;q=0', both)).toBe('csv');
    expect(preferredFormat('application/*;q=0, */*', both)).toBe('csv');
    expect(preferredFormat('text/csv;q=0.5, */*', both)).toBe('json');
    expect(preferredFormat('text/html,application/json;q=0.9,*/*;q=0.8', both)).toBe('json');
    expect(qualityOf(parseAccept('text/*;q=0.3, */*;q=0.9'), 'text/csv')).toBe(0.3);
  });

  it('compares case-insensitively and drops malformed elements', () => {
    expect(preferredFormat('TEXT/CSV', both)).toBe('csv');
    expect(preferredFormat('text/csv;Q=0, application/json', both)).toBe('json');
    expect(parseAccept('json, text/, */csv, text/csv;q=abc, text/csv;q=1.5, ;q=1, application/json;charset=utf-8;q=0.5')).toEqual([
      { type: 'application', subtype: 'json', q: 0.5 },
    ]);
    expect(preferredFormat('json', both)).toBeNull();
    expect(preferredFormat('application/problem+json', both)).toBeNull();
  });
});

describe('one negotiation per request over HTTP', () => {
  it('keeps the formats of one parameterised request apart in the memo (the issue)', async () => {
    const path = '/v1/events?since=2020-01-01&limit=3';
    const csv = await send(path, { accept: 'text/csv' });
    expect(mediaOf(csv)).toBe('text/csv');
    const json = await send(path, { accept: 'application/json, text/csv' });
    expect(mediaOf(json)).toBe('application/json');
    expect(JSON.parse(json.body.toString('utf8'))).toHaveProperty('data');
    const notCsv = await send(path, { accept: 'text/csv;q=0, application/json' });
    expect(mediaOf(notCsv)).toBe('application/json');
    expect(json.headers.etag).not.toBe(csv.headers.etag);
  });

  it('lets format= win over Accept', async () => {
    expect(mediaOf(await send('/v1/scenarios?format=csv', { accept: 'application/json' }))).toBe('text/csv');
    expect(mediaOf(await send('/v1/scenarios?format=json', { accept: 'text/csv' }))).toBe('application/json');
    // A format the route does not offer is the parser's 400, not a 406.
    expect((await send('/v1/scenarios?format=xml', { accept: 'application/xml' })).status).toBe(400);
  });

  it('sends Vary: Accept on the 200, the 304 and the 406 of every GET route', async () => {
    expect(GET_ROUTES.length).toBeGreaterThan(5);
    for (const r of GET_ROUTES) {
      const ok = await send(r.example);
      expect(ok.status, r.example).toBe(200);
      expect(varyOf(ok), r.example).toContain('accept');
      const etag = String(ok.headers.etag);
      const again = await send(r.example, { 'if-none-match': etag });
      expect(again.status, r.example).toBe(304);
      expect(varyOf(again), r.example).toEqual(varyOf(ok));
      const refused = await send(r.example, { accept: 'application/xml' });
      expect(refused.status, r.example).toBe(406);
      expect(mediaOf(refused)).toBe('application/problem+json');
      expect(varyOf(refused), r.example).toContain('accept');
      const problem = JSON.parse(refused.body.toString('utf8')) as { allowed: string[] };
      expect(problem.allowed).toEqual(r.csv ? ['application/json', 'text/csv'] : ['application/json']);
      // Compressed where the answer is a prebuilt file with copies: then Vary says so too.
      const packed = await send(r.example, { 'accept-encoding': 'br, gzip' });
      if (packed.headers['content-encoding']) expect(varyOf(packed), r.example).toEqual(['accept', 'accept-encoding']);
      if (r.csv) {
        const csv = await send(r.example, { accept: 'text/csv' });
        expect(mediaOf(csv), r.example).toBe('text/csv');
        expect(varyOf(csv), r.example).toContain('accept');
      }
    }
  });

  it('answers every request of any sequence in the format it asked for, on one server (property)', async () => {
    type Element = { range: string; valid: boolean; q: number | null; qText: string | null };
    const ranges = ['application/json', 'text/csv', 'text/*', '*/*', 'application/*', 'application/problem+json', 'application/xml'];
    const garbage = ['json', 'text', '*/csv', 'text/', '/', ''];
    const element: fc.Arbitrary<Element> = fc.oneof(
      fc.record({
        range: fc.constantFrom(...ranges).chain((r) => fc.constantFrom(r, r.toUpperCase())),
        valid: fc.constant(true),
        q: fc.option(
          fc.oneof(
            fc.constant(0),
            fc.constant(1),
            fc.integer({ min: 0, max: 1000 }).map((n) => n / 1000),
          ),
        ),
        qText: fc.constant(null),
      }),
      fc.record({ range: fc.constantFrom(...garbage), valid: fc.constant(false), q: fc.constant(null), qText: fc.constant(null) }),
      // A malformed weight drops its element, as if it were not sent.
      fc.record({ range: fc.constantFrom(...ranges), valid: fc.constant(false), q: fc.constant(null), qText: fc.constantFrom('abc', '1.5', '-1', '') }),
    );
    const requestArb = fc.record({
      // By operationId, so a counterexample reads short.
      route: fc.constantFrom(...GET_ROUTES.map((r) => r.operationId)),
      accept: fc.option(fc.array(element, { maxLength: 4 }), { nil: undefined }),
      format: fc.option(fc.constantFrom('json', 'csv', 'CSV'), { nil: undefined }),
    });
    const header = (els: Element[]) =>
      els.map((e) => (e.qText !== null ? `${e.range};q=${e.qText}` : e.q === null ? e.range : `${e.range};q=${e.q}`)).join(', ');
    /** What the request asked for, from the generated structure (not the header text). */
    const expected = (r: (typeof GET_ROUTES)[number], els: Element[] | undefined, format: string | undefined): string | 406 => {
      if (format !== undefined) return format.toLowerCase() === 'csv' ? 'text/csv' : 'application/json';
      // No header, or one with nothing in it (an empty list), is no preference: JSON.
      if (els === undefined || header(els).trim() === '') return 'application/json';
      const weight = (media: string) => {
        const [type, sub] = media.split('/');
        let best = 0;
        let q = 0;
        for (const e of els.filter((x) => x.valid)) {
          const [t, s] = e.range.toLowerCase().split('/');
          const spec = t === type && s === sub ? 3 : t === type && s === '*' ? 2 : t === '*' ? 1 : 0;
          if (spec === 0 || spec < best) continue;
          q = spec > best ? (e.q ?? 1) : Math.max(q, e.q ?? 1);
          best = spec;
        }
        return q;
      };
      const json = weight('application/json');
      const csv = r.csv ? weight('text/csv') : 0;
      if (json === 0 && csv === 0) return 406;
      return csv > json ? 'text/csv' : 'application/json';
    };
    await fc.assert(
      fc.asyncProperty(fc.array(requestArb, { minLength: 1, maxLength: 6 }), async (requests) => {
        for (const { route: id, accept, format } of requests) {
          const route = GET_ROUTES.find((r) => r.operationId === id)!;
          // `format=csv` exists only where the route has CSV (elsewhere it is a 400, not a negotiation).
          const f = route.csv ? format : format === undefined ? undefined : 'json';
          const url = f === undefined ? route.example : `${route.example}${route.example.includes('?') ? '&' : '?'}format=${f}`;
          const res = await send(url, accept === undefined ? {} : { accept: header(accept) });
          const want = expected(route, accept, f);
          const what = `${url} Accept: ${accept === undefined ? '(none)' : header(accept)}`;
          expect(varyOf(res), what).toContain('accept');
          if (want === 406) {
            expect(res.status, what).toBe(406);
            expect(mediaOf(res), what).toBe('application/problem+json');
          } else {
            expect(res.status, what).toBe(200);
            expect(mediaOf(res), what).toBe(want);
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});
