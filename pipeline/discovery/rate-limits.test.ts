import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../contract/api.ts';
import { buildSettings, readConfig } from '../../lib/config.ts';
import { llmsTxt } from './llms.ts';
import { buildOpenApi } from './openapi.ts';
import { serverCard } from './well-known.ts';

/** The discovery files state the rate limits the server is configured with (RATE_LIMIT_DATA, RATE_LIMIT_ASK), 0 as "off". */
const BASE = 'https://chokepoint.example';
type Doc = {
  info: { description: string };
  paths: Record<
    string,
    Record<string, { description: string; responses: Record<string, { headers?: Record<string, unknown> }>; 'x-rate-limit-policy'?: string }>
  >;
  components: {
    headers: Record<string, { description: string; example?: string }>;
    responses: { TooManyRequests: { content: Record<string, { example: { detail: string } }> } };
  };
};
const openapi = (rateLimits: { data: number; ask: number }) => buildOpenApi({ baseUrl: BASE, version: '0.1.0', rateLimits }) as unknown as Doc;
const card = (rateLimits: { data: number; ask: number }) =>
  serverCard({ baseUrl: BASE, version: '0.1.0', rateLimits }) as { description: string; _meta: { rateLimit: unknown } };
const dataRoute = ROUTES.find((r) => r.policy === 'data')!;
const askRoute = ROUTES.find((r) => r.policy === 'ask')!;

describe('published rate limits', () => {
  it('follow the configured quotas', () => {
    const limits = buildSettings(readConfig({ RATE_LIMIT_DATA: '120', RATE_LIMIT_ASK: '5' })).rateLimits;
    const doc = openapi(limits);
    expect(doc.info.description).toContain('120/minute (policy `data`)');
    expect(doc.info.description).toContain('POST /v1/ask 5/minute (policy `ask`)');
    expect(doc.paths[dataRoute.path]![dataRoute.method]!.description).toContain('Rate limit: policy "data", 120 requests per 60 s per client IP.');
    expect(doc.paths[askRoute.path]![askRoute.method]!.description).toContain('Rate limit: policy "ask", 5 requests per 60 s per client IP.');
    expect(doc.components.headers['RateLimit-Policy']!.example).toBe('"data";q=120;w=60');
    expect(doc.components.headers['RateLimit-Policy']!.description).toContain('`"ask";q=5;w=60` on /v1/ask');
    expect(doc.paths['/mcp']!.post!.description).toContain('(120/minute per client IP)');
    const txt = llmsTxt({ baseUrl: BASE, rateLimits: limits });
    expect(txt).toContain('MCP tool calls 120 requests per minute (policy `data`); POST /v1/ask 5 per minute (policy `ask`).');
    expect(txt).toContain('`RateLimit-Policy: "data";q=120;w=60`');
    expect(card(limits).description).toContain('(120 per minute per client IP)');
    expect(card(limits)._meta.rateLimit).toEqual({ policy: 'data', quota: 120, windowSeconds: 60 });
  });

  it('say a limit set to 0 is off, never "0/minute"', () => {
    const off = { data: 0, ask: 0 };
    const doc = openapi(off);
    const txt = llmsTxt({ baseUrl: BASE, rateLimits: off });
    const c = card(off);
    for (const text of [JSON.stringify(doc), txt, JSON.stringify(c)]) {
      expect(text).not.toMatch(/\b0 ?(\/minute|requests per|per minute)/);
      expect(text).not.toContain('q=0');
    }
    expect(doc.info.description).toContain('not rate limited on this server (policy `data` off)');
    expect(doc.info.description).not.toContain('announced in `RateLimit`');
    const op = doc.paths[dataRoute.path]![dataRoute.method]!;
    expect(op.description).toContain('Rate limit: none (policy "data" is off on this server).');
    expect(Object.keys(op.responses['200']!.headers!)).not.toContain('RateLimit');
    expect(op['x-rate-limit-policy']).toBeUndefined();
    expect(doc.paths['/mcp']!.post!.description).toContain('are not rate limited on this server');
    expect(txt).toContain('No RateLimit headers are sent');
    expect(c.description).toContain('are not rate limited on this server');
    expect(c._meta.rateLimit).toEqual({ policy: 'data', enabled: false });

    // One policy off, the other on.
    const half = openapi({ data: 60, ask: 0 });
    expect(half.info.description).toContain('60/minute (policy `data`), POST /v1/ask not rate limited on this server (policy `ask` off)');
    expect(half.paths[askRoute.path]![askRoute.method]!.description).toContain('policy "ask" is off on this server');
    expect(half.components.headers['RateLimit-Policy']!.description).toContain('The ask policy is off on this server.');
  });

  it('keep 60 and 10 when the build is given none', () => {
    const doc = buildOpenApi({ baseUrl: BASE, version: '0.1.0' }) as unknown as Doc;
    expect(doc.info.description).toContain('60/minute (policy `data`), POST /v1/ask 10/minute (policy `ask`)');
    expect(llmsTxt({ baseUrl: BASE })).toContain('60 requests per minute (policy `data`); POST /v1/ask 10 per minute');
  });
});
