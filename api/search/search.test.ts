import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchHit, SearchResponse } from '../../contract/api.ts';
import { startTestServer } from '../../test/http.ts';
import { THRESHOLD } from './engine.ts';

/** /v1/search over real HTTP on the shared real-data test build. */
let api: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  api = await startTestServer();
});
afterAll(() => api.close());

const search = async (query: string) => {
  const res = await fetch(`${api.url}/v1/search?${query}`);
  expect(res.status, query).toBe(200);
  return SearchResponse.parse(await res.json()).data;
};
const q = (s: string, extra = '') => `q=${encodeURIComponent(s)}${extra}`;

describe('GET /v1/search', () => {
  it.each([
    ['en', 'cobalt export quotas', 'drc-cobalt-export-curbs'],
    ['fr', 'pénurie de cuivre au Chili', 'andean-copper-disruption'],
    ['de', 'Straße von Hormus', 'hormuz-closure'],
    ['es', 'escasez de trigo', 'black-sea-grain-disruption'],
  ])('finds the right documents in %s', async (lang, text, scenario) => {
    const hits = await search(q(text));
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.slice(0, 3).map((h) => h.id)).toContain(scenario);
    const top = hits.find((h) => h.id === scenario)!;
    expect(top.lang).toBe(lang);
    expect(top.url).toBe(`/v1/scenarios#${scenario}`);
    expect(top.highlights.length).toBeGreaterThan(0);
    for (const h of hits) {
      expect(h.score).toBeGreaterThanOrEqual(THRESHOLD);
      expect(h.score).toBeLessThanOrEqual(1);
      expect(h.title.length).toBeGreaterThan(0);
      // Highlights are in order, inside the snippet, each on a word.
      let end = 0;
      for (const [a, b] of h.highlights as [number, number][]) {
        expect(a).toBeGreaterThanOrEqual(end);
        expect(b).toBeGreaterThan(a);
        expect(b).toBeLessThanOrEqual(h.snippet.length);
        expect(h.snippet.slice(a, b)).toMatch(/^[\p{L}\p{N}][^\s]*$/u);
        end = b;
      }
    }
    // Scores are in order, one hit per document (no two language versions of one scenario).
    expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
    expect(new Set(hits.map((h) => `${h.type}:${h.id.replace(/-(en|fr|de|es)$/, '')}`)).size).toBe(hits.length);
  });

  it('finds a paraphrase that shares no keyword with its target', async () => {
    const hits = await search(q('tankers bottled up at the Persian chokepoint'));
    expect(hits.slice(0, 3).map((h) => h.id)).toContain('hormuz-closure');
  });

  it('addresses briefing hits in their language list', async () => {
    // The storage briefing ranks near the top (the weekly digest, which also covers storage, may lead).
    const hits = await search(q('stockage de gaz', '&type=briefing&lang=fr'));
    const storage = hits.slice(0, 3).find((h) => h.id === '2026-08-20-eu-gas-storage-winter-2026-fr');
    expect(storage?.url).toBe('/v1/briefings?lang=fr&limit=50#2026-08-20-eu-gas-storage-winter-2026-fr');
    for (const hit of hits) {
      const list = (await (await fetch(`${api.url}${hit.url.split('#')[0]}`)).json()) as { data: { id: string }[] };
      expect(list.data.map((b) => b.id)).toContain(hit.id);
    }
  });

  it('filters by type and language', async () => {
    const briefings = await search(q('gas', '&type=briefing&limit=50'));
    expect(briefings.length).toBeGreaterThan(0);
    expect(briefings.every((h) => h.type === 'briefing')).toBe(true);
    const scenarios = await search(q('gas', '&type=scenario&lang=de&limit=50'));
    expect(scenarios.length).toBeGreaterThan(0);
    expect(scenarios.every((h) => h.type === 'scenario' && h.lang === 'de')).toBe(true);
    const es = await search(q('gas', '&lang=es&limit=50'));
    expect(new Set(es.map((h) => h.lang))).toEqual(new Set(['es']));
    // With a language, every version is a separate document: more than one hit per scenario id is impossible within one language.
    expect(new Set(es.map((h) => `${h.type}:${h.id}`)).size).toBe(es.length);
  });

  it('honours limit and answers nothing for words it does not know', async () => {
    expect((await search(q('gas', '&limit=2'))).length).toBe(2);
    expect(await search(q('xyzzyqwv'))).toEqual([]);
  });

  it('documents the threshold it applies', () => {
    expect(SearchHit.shape.score.description).toContain(`under ${THRESHOLD} `);
  });

  it('answers no hit at all to a query the corpus has nothing on', async () => {
    for (const text of ['football world cup results', 'best pizza recipe', 'recette de la tarte tatin', 'Wetter morgen in Berlin', 'horóscopo de hoy'])
      expect(await search(q(text)), text).toEqual([]);
  });

  it('corrects misspelt words, in the right language', async () => {
    const hits = await search(q('cobolt congo'));
    expect(hits.slice(0, 2).map((h) => h.id)).toContain('drc-cobalt-export-curbs');
    // The English version: a misspelt word does not make the query Spanish.
    expect(hits.find((h) => h.id === 'drc-cobalt-export-curbs')!.lang).toBe('en');
    expect((await search(q('fertilser prices'))).slice(0, 3).map((h) => h.id)).toContain('2026-06-10-fertiliser-gulf-shock-en');
  });

  it('splits German compounds', async () => {
    const hits = await search(q('Kupferpreis Rekord'));
    expect(hits.slice(0, 2).map((h) => h.id)).toContain('2026-06-15-copper-supply-shortfall-de');
    // The words marked in the snippet hold a part of the compound (`Kupfermarkt`, `Preise`).
    const top = hits.find((h) => h.id === '2026-06-15-copper-supply-shortfall-de')!;
    const marked = top.highlights.map(([a, b]) => top.snippet.slice(a, b).toLowerCase());
    expect(marked.length).toBeGreaterThan(0);
    for (const w of marked) expect(w).toMatch(/kupfer|preis|rekord/);
  });

  it('answers snippets as plain text: markup in a query is a word like any other, entities are decoded', async () => {
    const hits = await search(q('<script>cobalt</script>'));
    expect(hits.length).toBeGreaterThan(0);
    for (const h of hits) expect(h.snippet).not.toMatch(/&(#\d+|[a-z]+);|<\/?mark>/);
    expect((await search(q("Congo's cobalt"))).some((h) => h.snippet.includes("'"))).toBe(true);
  });

  it('rejects bad parameters', async () => {
    for (const bad of ['', 'q=', `q=${'x'.repeat(201)}`, 'q=gas&type=event', 'q=gas&lang=it', 'q=gas&limit=51', 'q=gas&sort=date']) {
      const res = await fetch(`${api.url}/v1/search?${bad}`);
      expect(res.status, bad).toBe(400);
    }
  });
});
