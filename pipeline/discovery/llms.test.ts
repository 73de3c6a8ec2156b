import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../contract/api.ts';
import { TOOLS } from '../../contract/tools.ts';
import { shapeOf } from '../../contract/json-schema.ts';
import { llmsTxt } from './llms.ts';

const BASE = 'https://chokepoint.example';
const txt = llmsTxt({ baseUrl: BASE });
const lines = txt.split('\n');

describe('/llms.txt', () => {
  it('follows the llms.txt layout: H1, then a blockquote summary, then H2 sections', () => {
    expect(lines[0]).toBe('# Chokepoint');
    expect(lines.find((l) => l.trim() !== '' && !l.startsWith('# '))!.startsWith('> ')).toBe(true);
    expect(lines.filter((l) => l.startsWith('# '))).toHaveLength(1);
    for (const h of ['## API routes', '## MCP server', '## Licence and attribution', '## Rate limits and caching', '## Errors', '## Optional'])
      expect(lines).toContain(h);
  });

  it('lists every route with method, path, summary, every parameter and an example URL', () => {
    for (const r of ROUTES) {
      const entry = lines.find((l) => l.startsWith(`- [${r.method.toUpperCase()} ${r.path}](`));
      expect(entry, r.path).toBeTruthy();
      expect(entry).toContain(r.summary);
      expect(txt).toContain(`${BASE}${r.example}`);
      for (const name of [...Object.keys(shapeOf(r.query)), ...Object.keys(shapeOf(r.params)), ...Object.keys(shapeOf(r.body))])
        expect(txt).toContain(`\`${name}\` (`);
    }
  });

  it('names the MCP endpoint and every tool', () => {
    expect(txt).toContain(`${BASE}/mcp`);
    for (const t of TOOLS) expect(txt).toContain(`- \`${t.name}\`(`);
  });

  it('states the licence, the attribution rule, the rate limits and the error format', () => {
    for (const w of [
      'CC-BY-4.0',
      'link back',
      '60 requests per minute',
      '10 per minute',
      'RateLimit-Policy',
      'Retry-After',
      'RFC 9457',
      'application/problem+json',
    ])
      expect(txt).toContain(w);
  });
});
