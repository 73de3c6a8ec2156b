import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Briefing, Scenario } from '../contract/content.ts';
import { loadCatalogue } from '../pipeline/catalogue.ts';
import { BuildWriter } from '../pipeline/publish.ts';
import { publishSearchIndex } from '../pipeline/search/stage.ts';
import { DATA_DIR, tempDir } from './support.ts';
import type { LoadedBuild } from '../api/build.ts';
import { SEARCH_INDEX, SEARCH_VECTORS, type IndexFile } from '../lib/search/format.ts';
import { embeddingsOf, readConfig } from '../lib/config.ts';
import { rank, searchState, queryVector } from '../api/search/engine.ts';
import { expandQuery } from '../lib/search/lexicon.ts';
import { isStopWord, words } from '../lib/search/text.ts';

/**
 * The OpenAI-compatible embeddings path against a local server answering the embeddings format
 * deterministically: 64 dimensions, each word hashed into one, with a few synonyms folded together
 * so that a paraphrase lands near its document, as a real model would.
 */
const SYNONYMS: Record<string, string> = { chokepoint: 'strait', persian: 'hormuz', tankers: 'shipping', bottled: 'closure' };
function embed(text: string): number[] {
  const v = new Array<number>(64).fill(0);
  for (const w0 of words(text).filter((x) => !isStopWord(x))) {
    const w = SYNONYMS[w0] ?? w0;
    let h = 2166136261;
    for (const ch of w) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
    v[(h >>> 0) % 64]! += 1;
  }
  return v;
}

let server: Server;
let base: string;
const requests: { auth: string | undefined; model: string; inputs: number }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const { model, input } = JSON.parse(body) as { model: string; input: string[] };
      requests.push({ auth: req.headers.authorization, model, inputs: input.length });
      if (req.url !== '/v1/embeddings') return void res.writeHead(404).end();
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ object: 'list', model, data: input.map((t, index) => ({ object: 'embedding', index, embedding: embed(t) })) }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function remoteBuild(env: Record<string, string>): Promise<LoadedBuild> {
  const current = join(inject('distDir'), 'current');
  const read = async <T>(p: string) => (JSON.parse(await readFile(join(current, p), 'utf8')) as { data: T }).data;
  const briefings = (await Promise.all(['en', 'fr', 'de', 'es'].map((l) => read<Briefing[]>(`data/briefings/${l}.json`)))).flat();
  const scenarios = await read<Scenario[]>('v1/scenarios.json');
  const writer = new BuildWriter(await tempDir('search-remote'));
  await publishSearchIndex(writer, {
    briefings,
    scenarios,
    catalogue: await loadCatalogue(DATA_DIR),
    dataDir: DATA_DIR,
    embeddings: embeddingsOf(readConfig(env)),
  });
  const files = new Map<string, { body: Uint8Array; etag: string; contentType: string }>();
  for (const [path, f] of Object.entries(writer.files))
    files.set(path, { body: await readFile(join(writer.dir, path)), etag: '"x"', contentType: f.content_type });
  return { files } as unknown as LoadedBuild;
}

describe('OpenAI-compatible embeddings', () => {
  it('embeds the documents through the endpoint at build time', async () => {
    const env = { EMBEDDINGS_BASE_URL: base, EMBEDDINGS_API_KEY: 'sk-test', EMBEDDINGS_MODEL: 'test-embed' };
    const b = await remoteBuild(env);
    const file = JSON.parse(new TextDecoder().decode(b.files.get(SEARCH_INDEX)!.body)) as IndexFile;
    expect(file.embedder).toEqual({ kind: 'remote', model: 'test-embed', dims: 64 });
    expect(b.files.has(SEARCH_VECTORS)).toBe(false);
    expect(requests.every((r) => r.auth === 'Bearer sk-test' && r.model === 'test-embed')).toBe(true);
    expect(requests.reduce((n, r) => n + r.inputs, 0)).toBe(file.documents);

    // Queries are embedded by the same endpoint: a paraphrase with no keyword in common finds its target.
    const s = searchState(b);
    const q = 'tankers bottled up at the Persian chokepoint';
    const x = expandQuery(s.lexicon, q);
    const cfg = embeddingsOf(readConfig(env));
    const before = requests.length;
    const qv = await queryVector(s, q, x, cfg);
    expect(qv).toHaveLength(64);
    expect(requests.length).toBe(before + 1);
    expect(rank(s, { q, limit: 3 }, x, qv, 'bm25').map((h) => h.id)).not.toContain('hormuz-closure');
    expect(rank(s, { q, limit: 3 }, x, qv).map((h) => h.id)).toContain('hormuz-closure');
    // A repeated query is not sent again.
    await queryVector(s, q, x, cfg);
    expect(requests.length).toBe(before + 1);

    // The endpoint down or slow: BM25 alone for that query, no error.
    const down = { ...cfg!, baseUrl: 'http://127.0.0.1:9', timeoutMs: 300 };
    const nv = await queryVector(s, 'cobalt quotas', expandQuery(s.lexicon, 'cobalt quotas'), down);
    expect(nv).toBeNull();
    expect(rank(s, { q: 'cobalt quotas', limit: 3 }, expandQuery(s.lexicon, 'cobalt quotas'), nv).map((h) => h.id)).toContain('drc-cobalt-export-curbs');
  });

  it('falls back to the local vectors when the endpoint fails at build time', async () => {
    const b = await remoteBuild({ EMBEDDINGS_BASE_URL: `${base}/missing` });
    const file = JSON.parse(new TextDecoder().decode(b.files.get(SEARCH_INDEX)!.body)) as IndexFile;
    expect(file.embedder.kind).toBe('local');
    expect(b.files.has(SEARCH_VECTORS)).toBe(true);
  });
});
