import { describe, expect, it } from 'vitest';
import { readConfig } from '../../lib/config.ts';
import { TOOLS } from '../../contract/tools.ts';
import { serverName } from '../../contract/tools.ts';
import { API_CATALOG_TYPE, apiCatalog, securityTxt, serverCard } from './well-known.ts';

const BASE = 'https://chokepoint.example';
const SPEC_TOOLS = [
  'get_reserve',
  'get_price',
  'compare_countries',
  'list_scenarios',
  'search_briefings',
  'get_country_profile',
  'list_commodities',
  'get_commodity',
  'get_reserve_timeseries',
  'list_events',
];

describe('api-catalog (RFC 9727 linkset, RFC 9264 JSON)', () => {
  const catalog = apiCatalog(BASE);

  it('is a linkset: contexts with an anchor, every relation an array of target objects with an absolute href', () => {
    expect(Object.keys(catalog)).toEqual(['linkset']);
    expect(Array.isArray(catalog.linkset)).toBe(true);
    for (const ctx of catalog.linkset) {
      expect(typeof ctx.anchor).toBe('string');
      expect(() => new URL(ctx.anchor)).not.toThrow();
      for (const [rel, targets] of Object.entries(ctx)) {
        if (rel === 'anchor') continue;
        expect(Array.isArray(targets), rel).toBe(true);
        for (const t of targets as { href: string; type?: string }[]) {
          expect(new URL(t.href).protocol).toMatch(/^https?:$/);
          if (t.type !== undefined) expect(typeof t.type).toBe('string');
        }
      }
    }
  });

  it('describes the v1 API: service-desc, service-doc, service-meta and status', () => {
    const api = catalog.linkset[0]!;
    expect(api.anchor).toBe(`${BASE}/v1/`);
    expect(api['service-desc']).toEqual([expect.objectContaining({ href: `${BASE}/openapi.json`, type: 'application/vnd.oai.openapi+json;version=3.1' })]);
    expect(api['service-doc']).toEqual([
      expect.objectContaining({ href: `${BASE}/en/docs/api/`, type: 'text/html' }),
      expect.objectContaining({ href: `${BASE}/llms.txt`, type: 'text/markdown' }),
    ]);
    expect(api['service-meta']).toEqual([expect.objectContaining({ href: 'https://creativecommons.org/licenses/by/4.0/' })]);
    expect(api.status).toEqual([expect.objectContaining({ href: `${BASE}/healthz`, type: 'application/json' })]);
  });

  it('is served as application/linkset+json with the RFC 9727 profile', () => {
    expect(API_CATALOG_TYPE).toBe('application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"');
  });
});

describe('MCP server card', () => {
  const card = JSON.parse(JSON.stringify(serverCard({ baseUrl: BASE, version: '0.1.0' }))) as {
    name: string;
    version: string;
    description: string;
    remotes: { type: string; url: string }[];
    capabilities: Record<string, unknown>;
    tools: {
      name: string;
      title: string;
      description: string;
      inputSchema: Record<string, unknown>;
      outputSchema: Record<string, unknown>;
      annotations: Record<string, unknown>;
    }[];
    _meta: { license: string; documentation: { href: string }[] };
  };

  it('lists exactly the ten tools of the SPEC, with JSON Schemas of their input and output', () => {
    expect(card.tools.map((t) => t.name).sort()).toEqual([...SPEC_TOOLS].sort());
    expect(card.tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    for (const t of card.tools) {
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.inputSchema.properties, t.name).toBeTypeOf('object');
      expect(t.outputSchema.type, t.name).toBe('object');
      expect(t.outputSchema.properties, t.name).toBeTypeOf('object');
      expect(t.description.length).toBeGreaterThan(60);
      expect(t.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    }
  });

  it('names the server, its version, the remote endpoint with both transports, capabilities and licence', () => {
    expect(card.name).toBe('example.chokepoint/chokepoint');
    expect(card.version).toBe('0.1.0');
    expect(card.description).toContain('CC-BY-4.0');
    expect(card.remotes.map((r) => r.type).sort()).toEqual(['sse', 'streamable-http']);
    for (const r of card.remotes) expect(r.url).toBe(`${BASE}/mcp`);
    expect(Object.keys(card.capabilities).sort()).toEqual(['completions', 'extensions', 'logging', 'prompts', 'resources', 'tools']);
    // MCP Apps (SEP-1865): the extension, with the MIME type of its ui:// resources.
    expect(card.capabilities.extensions).toEqual({ 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } });
    expect(card._meta.license).toBe('CC-BY-4.0');
    expect(card._meta.documentation.map((d) => d.href)).toContain(`${BASE}/llms.txt`);
  });

  it('derives a reverse-DNS name with one slash', () => {
    expect(serverName('https://api.chokepoint.org')).toBe('org.chokepoint.api/chokepoint');
    expect(serverName('http://localhost:8787')).toBe('localhost/chokepoint');
    expect(serverName('http://127.0.0.1:8787')).toBe('127.0.0.1/chokepoint');
  });
});

describe('security.txt (RFC 9116)', () => {
  const now = new Date('2026-03-01T12:00:00Z');
  const fields = (txt: string) => {
    const out: Record<string, string[]> = {};
    for (const line of txt.split('\n')) {
      if (!line || line.startsWith('#')) continue;
      const i = line.indexOf(': ');
      expect(i, line).toBeGreaterThan(0);
      (out[line.slice(0, i).toLowerCase()] ??= []).push(line.slice(i + 2));
    }
    return out;
  };

  it('has Contact, Expires (in the future, within a year), Canonical, Policy and Preferred-Languages', () => {
    const txt = securityTxt({ baseUrl: BASE, now, contact: 'mailto:security@chokepoint.example' });
    expect(txt.endsWith('\n')).toBe(true);
    const f = fields(txt);
    expect(f.contact).toEqual(['mailto:security@chokepoint.example']);
    expect(f.expires).toHaveLength(1);
    const expires = new Date(f.expires![0]!);
    expect(expires.getTime()).toBeGreaterThan(now.getTime());
    expect(expires.getTime() - now.getTime()).toBe(180 * 86_400_000);
    expect(expires.getTime() - now.getTime()).toBeLessThan(365 * 86_400_000);
    expect(f.canonical).toEqual([`${BASE}/.well-known/security.txt`]);
    expect(f.policy).toEqual([`${BASE}/en/docs/security/`]);
    expect(f['preferred-languages']).toEqual(['en, fr, de, es']);
  });

  it('takes the contacts of SECURITY_CONTACT from the configuration, and makes each one a URI', () => {
    const contact = readConfig({ SECURITY_CONTACT: 'sec@example.org, https://github.com/example/chokepoint/security/advisories/new' }).SECURITY_CONTACT;
    const f = fields(securityTxt({ baseUrl: BASE, now, contact }));
    expect(f.contact).toEqual(['mailto:sec@example.org', 'https://github.com/example/chokepoint/security/advisories/new']);
    expect(fields(securityTxt({ baseUrl: BASE, now, contact: readConfig({ SECURITY_CONTACT: '' }).SECURITY_CONTACT })).contact).toEqual([
      'mailto:security@chokepoint.example',
    ]);
    expect(fields(securityTxt({ baseUrl: BASE, now, contact: [] })).contact).toEqual(['mailto:security@chokepoint.example']);
  });
});
