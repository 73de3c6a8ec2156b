import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../contract/api.ts';
import { startTestServer } from '../test/http.ts';
import { ENTRY_OVERHEAD_BYTES, ResponseMemo, entryBytes } from './memo.ts';
import { request } from 'node:http';

let api: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  api = await startTestServer();
});
afterAll(() => api.close());

/** Raw HTTP, so that paths reach the server exactly as written (fetch would normalise them). */
function raw(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: api.port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), text }));
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const hostile = [
  '..%2F..%2Fpackage.json',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '%00',
  'a%00b',
  '%FF%FE',
  '%E0%A4%A',
  "'; DROP TABLE x;--",
  '<script>alert(1)</script>',
  'x'.repeat(5000),
  '%F0%9F%92%A9',
  '__proto__',
  'constructor',
  '-1',
  '1e309',
  'NaN',
  '[]',
  '{}',
];

describe('one error shape on every route, never a 5xx', () => {
  for (const r of ROUTES) {
    it(`${r.method.toUpperCase()} ${r.path}`, async () => {
      const paths: string[] = [];
      const params = [
        'commodity',
        'country',
        'from',
        'to',
        'since',
        'until',
        'limit',
        'q',
        'lang',
        'group',
        'status',
        'category',
        'metric',
        'frequency',
        'format',
        'type',
        'bogus',
      ];
      for (const h of hostile) {
        // Values already percent-encoded go as written; the others are encoded as a client would.
        const v = h.includes('%') ? h : encodeURIComponent(h);
        const base = r.path.replace('{iso}', v).replace('{slug}', v);
        paths.push(base);
        for (const p of params) paths.push(`${r.path.replace('{iso}', 'DEU').replace('{slug}', 'energy.gas')}?${p}=${v}`);
      }
      for (const path of paths) {
        const res =
          r.method === 'get'
            ? await raw('GET', path)
            : await raw('POST', path, JSON.stringify({ q: decodeURIComponentSafe(hostile[0]!) }), { 'content-type': 'application/json' });
        expect(res.status, path).toBeLessThan(500);
        if (res.status >= 400) {
          expect(res.type, path).toBe('application/problem+json; charset=utf-8');
          const body = JSON.parse(res.text) as { type: string; status: number; detail: string };
          expect(body.status, path).toBe(res.status);
          expect(body.detail, path).not.toMatch(/at .*\.ts:\d+/);
        }
      }
    });
  }

  it('never serves files outside the build', async () => {
    for (const path of [
      '/openapi.json/../../package.json',
      '/.well-known/../../../etc/passwd',
      '/.well-known/%2e%2e/manifest.json',
      '/feeds/..%2f..%2fpackage.json',
      '/llms.txt%00.json',
      '/manifest.json',
      '/data/events.json',
    ]) {
      const res = await raw('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.text, path).not.toMatch(/"dependencies"|root:x:0/);
    }
  });

  it('survives hostile bodies on /v1/ask', async () => {
    const bodies = ['', 'null', '"q"', '{"q": null}', '{"q": 42}', '{"q": ["a"]}', '{"__proto__": {"q": "x"}}', '\u0000', '{"q": "\\uD800"}', '{'.repeat(3000)];
    for (const body of bodies) {
      const res = await raw('POST', '/v1/ask', body, { 'content-type': 'application/json' });
      expect([400, 413], body.slice(0, 30)).toContain(res.status);
    }
    const health = await raw('GET', '/healthz');
    expect(health.status).toBe(200);
  });
});

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

describe('ResponseMemo', () => {
  const entry = (n: number) => ({ body: new Uint8Array(n), etag: `"${n}"`, contentType: 'json' });
  it('evicts the least recently used entries beyond a byte budget that counts keys and bodies', () => {
    const one = entryBytes('a', entry(40));
    expect(one).toBe(ENTRY_OVERHEAD_BYTES + 2 * (1 + 4 + 4) + 40);
    const m = new ResponseMemo(2 * one + 10, one + 1);
    m.set('a', entry(40));
    m.set('b', entry(40));
    m.get('a');
    m.set('c', entry(40));
    expect(m.get('b')).toBeUndefined();
    expect(m.get('a')?.etag).toBe('"40"');
    expect(m.size).toMatchObject({ entries: 2, bytes: 2 * one });
    m.set('huge', entry(61));
    expect(m.get('huge')).toBeUndefined();
    // a long key counts: 10,000 characters of key are 20,000 bytes, beyond the entry cap here
    m.set('k'.repeat(10_000), entry(1));
    expect(m.size.entries).toBe(2);
  });
});
