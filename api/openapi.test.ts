import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../contract/api.ts';
import { startTestServer } from '../test/http.ts';

// ajv-formats is CommonJS: its default import is the plugin function itself.
const addFormats = ajvFormats as unknown as typeof ajvFormats.default;

let api: Awaited<ReturnType<typeof startTestServer>>;
let doc: { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
// Formats (date, date-time, uri, email…) are checked, not ignored: ajv-formats.
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

beforeAll(async () => {
  api = await startTestServer();
  doc = (await (await fetch(`${api.url}/openapi.json`)).json()) as typeof doc;
  ajv.addSchema(doc, 'openapi.json');
});
afterAll(() => api.close());

const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

function validate(path: string, method: string, status: string, type: string, body: unknown) {
  // A response may be a $ref to components/responses: follow it to the object that holds content.
  let base = `#/paths/${pointer(path, method, 'responses', status)}`;
  const response = doc.paths[path]![method]!.responses[status] as { $ref?: string } | undefined;
  expect(response, `${path} documents ${status}`).toBeDefined();
  if (response?.$ref) base = response.$ref;
  const ref = `openapi.json${base}/${pointer('content', type, 'schema')}`;
  const ok = ajv.validate({ $ref: ref }, body);
  expect(ok, `${method.toUpperCase()} ${path} ${status}: ${ajv.errorsText(ajv.errors, { separator: '\n' })}`).toBe(true);
}

/** Real responses, validated against the published OpenAPI document (not the zod schemas it came from). */
describe('responses match /openapi.json', () => {
  const extra: Record<string, string[]> = {
    '/v1/commodities': ['/v1/commodities?group=energy'],
    '/v1/reserves': ['/v1/reserves?commodity=oil&country=us'],
    '/v1/reserves/timeseries': ['/v1/reserves/timeseries?commodity=oil&country=us&from=2024-01-01&frequency=monthly'],
    '/v1/countries/{iso}': ['/v1/countries/USA', '/v1/countries/CHN', '/v1/countries/COD'],
    '/v1/commodities/{slug}': ['/v1/commodities/energy.oil', '/v1/commodities/metals.germanium', '/v1/commodities/agri.wheat'],
    '/v1/events': ['/v1/events?since=2020-01-01&limit=500'],
  };
  for (const r of ROUTES) {
    it(`${r.method.toUpperCase()} ${r.path}`, async () => {
      for (const url of [r.example, ...(extra[r.path] ?? [])]) {
        const res =
          r.method === 'post'
            ? await fetch(`${api.url}${url}`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ q: 'How full is gas storage in Germany?' }),
              })
            : await fetch(`${api.url}${url}`);
        expect(res.status, url).toBe(200);
        validate(r.path, r.method, '200', 'application/json', await res.json());
      }
    });
  }

  it('error bodies match the Problem schema documented for each status', async () => {
    const cases: [string, string, string][] = [
      ['/v1/events?limit=0', '/v1/events', '400'],
      ['/v1/commodities/metals.nope', '/v1/commodities/{slug}', '404'],
      ['/v1/countries/ZZZ', '/v1/countries/{iso}', '404'],
    ];
    for (const [url, path, status] of cases) {
      const res = await fetch(`${api.url}${url}`);
      expect(String(res.status)).toBe(status);
      validate(path, 'get', status, 'application/problem+json', await res.json());
    }
    const notAcceptable = await fetch(`${api.url}/v1/commodities`, { headers: { accept: 'application/xml' } });
    expect(notAcceptable.status).toBe(406);
    validate('/v1/commodities', 'get', '406', 'application/problem+json', await notAcceptable.json());
  });

  it('documents every route the app serves', () => {
    for (const r of ROUTES) expect(doc.paths[r.path]?.[r.method], r.path).toBeDefined();
  });
});
