import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { MCP_STATELESS_VERSION, toolDescriptors } from '../../contract/tools.ts';
import { MCP_SHORT_DESCRIPTION, REGISTRY_SERVER_SCHEMA, registryServerJson, serverCard } from './well-known.ts';

/**
 * server.json, the MCP registry's description of the service, is committed at the root of the
 * repository for the public address the README documents (https://chokepoint.example); it is
 * generated from the same definitions as the server card. Regenerate it after a change with
 * `UPDATE_DOCS=1 npx vitest run pipeline/discovery/registry.test.ts`.
 */
const BASE = 'https://chokepoint.example';
const file = new URL('../../server.json', import.meta.url);

describe('the MCP registry server.json and the server card: one definition', async () => {
  const { version } = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  const generated = `${JSON.stringify(registryServerJson({ baseUrl: BASE, version }), null, 2)}\n`;
  if (process.env.UPDATE_DOCS) await writeFile(file, generated);

  it('the committed server.json is the generated one (regenerate with UPDATE_DOCS=1)', async () => {
    expect(await readFile(file, 'utf8')).toBe(generated);
  });

  it('has the registry fields: reverse-DNS name with one slash, a description of at most 100 characters, an exact version, remote transports', () => {
    const s = JSON.parse(generated) as { $schema: string; name: string; description: string; version: string; remotes: { type: string; url: string }[] };
    expect(s.$schema).toBe(REGISTRY_SERVER_SCHEMA);
    expect(s.name).toBe('example.chokepoint/chokepoint');
    expect(s.name.split('/')).toHaveLength(2);
    expect(s.description).toBe(MCP_SHORT_DESCRIPTION);
    expect(s.description.length).toBeLessThanOrEqual(100);
    expect(s.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(s.remotes).toEqual([
      { type: 'streamable-http', url: `${BASE}/mcp` },
      { type: 'sse', url: `${BASE}/mcp` },
    ]);
    // The same name, version and endpoints as the server card of the same address.
    const card = serverCard({ baseUrl: BASE, version }) as {
      name: string;
      version: string;
      remotes: { type: string; url: string; supportedProtocolVersions: string[] }[];
    };
    expect(card.name).toBe(s.name);
    expect(card.version).toBe(s.version);
    expect(card.remotes.map(({ type, url }) => ({ type, url }))).toEqual(s.remotes);
    expect(card.remotes[0]!.supportedProtocolVersions[0]).toBe(MCP_STATELESS_VERSION);
    expect(card.remotes[1]!.supportedProtocolVersions).not.toContain(MCP_STATELESS_VERSION);
  });

  it('sizes an agent can afford: tools/list ≤ 40,000 bytes, the server card ≤ 64 KiB', () => {
    const list = Buffer.byteLength(JSON.stringify({ tools: toolDescriptors() }));
    const card = Buffer.byteLength(JSON.stringify(serverCard({ baseUrl: BASE, version })));
    console.log(`tools/list ${list} bytes, server card ${card} bytes`);
    expect(list).toBeLessThanOrEqual(40_000);
    expect(card).toBeLessThanOrEqual(64 * 1024);
  });
});
