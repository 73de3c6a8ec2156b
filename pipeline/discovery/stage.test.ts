import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Briefing, Event } from '../../contract/content.ts';
import { BuildWriter } from '../publish.ts';
import { DISCOVERY_FILES, publishDiscovery } from './stage.ts';

const briefings: Briefing[] = [
  {
    id: 'b-en',
    lang: 'en',
    translation_key: 'b',
    title: 'Gas & storage',
    summary: 'S',
    body: 'B',
    published_at: '2026-01-05',
    commodities: ['energy.gas'],
    countries: ['DEU'],
    series: [],
  },
  {
    id: 'b-fr',
    lang: 'fr',
    translation_key: 'b',
    title: 'Gaz & stockage',
    summary: 'S',
    body: 'B',
    published_at: '2026-01-06',
    commodities: ['energy.gas'],
    countries: ['DEU'],
    series: [],
  },
];
const events: Event[] = [
  {
    id: '2026-01-02-x',
    date: '2026-01-02',
    category: 'policy',
    title: 'T',
    summary: 'S',
    translations: { fr: { title: 'T fr', summary: 'S fr' }, de: { title: 'T de', summary: 'S de' }, es: { title: 'T es', summary: 'S es' } },
    commodities: ['energy.gas'],
    countries: ['DEU'],
    source_url: 'https://example.org/x',
    source_name: 'Example',
    effect: 'tightening',
    kind: 'one-off',
  },
];

describe('publishDiscovery', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('writes the contract, the discovery files, llms.txt and the feeds with their content types', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'chokepoint-discovery-'));
    dirs.push(dir);
    const writer = new BuildWriter(dir);
    const now = new Date('2026-01-10T12:00:00Z');
    await publishDiscovery(writer, {
      baseUrl: 'https://chokepoint.example/',
      version: '0.1.0',
      now,
      briefings,
      events,
      securityContact: 'mailto:sec@example.org',
    });

    // The compressed copies are written in the background: wait for them, so none lands after the clean-up.
    await writer.encoded();
    expect(
      Object.keys(writer.files)
        .filter((k) => !/\.(?:br|gz)$/.test(k))
        .sort(),
    ).toEqual(Object.keys(DISCOVERY_FILES).sort());
    for (const [path, type] of Object.entries(DISCOVERY_FILES)) expect(writer.files[path]!.content_type, path).toBe(type);
    expect(writer.files['openapi.json']!.content_type).toMatch(/^application\/json/);
    expect(writer.files['.well-known/api-catalog']!.content_type).toMatch(/^application\/linkset\+json/);
    expect(writer.files['.well-known/security.txt']!.content_type).toBe('text/plain; charset=utf-8');
    expect(writer.files['llms.txt']!.content_type).toBe('text/markdown; charset=utf-8');
    for (const l of ['en', 'fr', 'de', 'es']) expect(writer.files[`feeds/briefings-${l}.atom`]!.content_type).toBe('application/atom+xml; charset=utf-8');
    expect(writer.files['feeds/events.atom']!.content_type).toBe('application/atom+xml; charset=utf-8');
    expect(writer.files['.well-known/mcp.json']!.sha256).toBe(writer.files['.well-known/mcp/server-card']!.sha256);

    const openapi = JSON.parse(await readFile(join(dir, 'openapi.json'), 'utf8'));
    expect(openapi.servers[0].url).toBe('https://chokepoint.example');
    JSON.parse(await readFile(join(dir, '.well-known/api-catalog'), 'utf8'));
    const security = await readFile(join(dir, '.well-known/security.txt'), 'utf8');
    expect(security).toContain('Contact: mailto:sec@example.org');
    expect(security).toContain('Expires: 2026-07-09T12:00:00.000Z');
    const fr = await readFile(join(dir, 'feeds/briefings-fr.atom'), 'utf8');
    expect(fr).toContain('Gaz &amp; stockage');
    expect(fr).not.toContain('Gas &amp; storage');
    expect(fr).toContain('<updated>2026-01-06T00:00:00Z</updated>');
    const es = await readFile(join(dir, 'feeds/briefings-es.atom'), 'utf8');
    expect(es).toContain('<updated>2026-01-10T12:00:00Z</updated>');
  });
});
