import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandQuery, makeLexicon } from '../../lib/search/lexicon.ts';
import { Corrector, SPELL_CANDIDATES_PER_QUERY, SPELL_WORDS_PER_QUERY, osa, spellBudget } from '../../lib/search/spell.ts';
import { Splitter, oramaTokenizer, plainText, snippet, snippetHtml, stem, terms } from '../../lib/search/text.ts';
import { decodeVectors, encodeVectors, textVector, wordVector } from '../../lib/search/vectors.ts';
import { loadCatalogue } from '../catalogue.ts';
import { DATA_DIR } from '../../test/support.ts';
import { distil, sifWeight } from './distil.ts';
import { buildLexicon, readLexiconYaml } from './lexicon.ts';

describe('distillation of the wink word vectors', () => {
  it('keeps the wanted words with the vectors of the wink file (unit length) and their frequency rank', () => {
    const d = distil({ wanted: new Set(['shortage', 'copper', 'notaword']) });
    expect(d.dims).toBe(100);
    expect(d.size).toBeGreaterThan(300_000);
    const byWord = new Map(d.words.map((w) => [w.word, w]));
    expect([...byWord.keys()].sort()).toEqual(['copper', 'shortage']);
    // Values from the file: "shortage":[-0.10117,1.1339,0.21254,…,-0.26431,<l2 norm 5.50319871>,<rank 5641>]
    const s = byWord.get('shortage')!;
    expect(s.rank).toBe(5641);
    expect([s.vector[0]! * 5.50319871, s.vector[1]! * 5.50319871, s.vector[2]! * 5.50319871, s.vector[99]! * 5.50319871].map((x) => +x.toFixed(4))).toEqual([
      -0.1012, 1.1339, 0.2125, -0.2643,
    ]);
    const c = byWord.get('copper')!;
    expect(c.rank).toBe(4840);
    expect(+(c.vector[1]! * 6.37412054).toFixed(4)).toBe(1.5054);
  });

  it('reads entries across chunk boundaries and escaped keys (fixture in the wink format)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wink-'));
    const file = join(dir, 'w.json');
    const vec = (x: number, rank: number) => `[${[x, 0, 0].join(',')},${Math.abs(x)},${rank}]`;
    writeFileSync(
      file,
      `{"precision":8,"dimensions":3,"words":["the","\\"","café","zeta"],"vectors":{"the":${vec(1, 0)},"\\"":${vec(2, 1)},"café":${vec(-3, 2)},"zeta":${vec(4, 3)}},"unkVector":[0,0,0]}`,
    );
    for (const chunkBytes of [7, 13, 64, 4096]) {
      const d = distil({ file, chunkBytes, wanted: new Set(['cafe', 'zeta', '"']) });
      expect(d.words.map((w) => [w.word, w.rank, w.vector[0]])).toEqual([
        ['"', 1, 1],
        ['cafe', 2, -1],
        ['zeta', 3, 1],
      ]);
    }
    expect(distil({ file, wanted: new Set(), top: 1 }).words.map((w) => w.word)).toEqual(['the']);
  });

  it('weights frequent words down (smooth inverse frequency)', () => {
    expect(sifWeight(0, 341_479)).toBeLessThan(0.05);
    expect(sifWeight(5000, 341_479)).toBeGreaterThan(0.9);
  });

  it('round-trips the vector table through its binary form, at any byte offset', () => {
    const vectors = [new Float32Array([0.6, 0.8, 0]), new Float32Array([0, -1, 0])];
    const bytes = encodeVectors({ dims: 3, source: 'test', words: ['a', 'b'], vectors, weights: [0.5, 1], mean: new Float32Array([0.1, 0, 0]) });
    const shifted = Buffer.concat([Buffer.alloc(5), Buffer.from(bytes)]).subarray(5);
    const t = decodeVectors(shifted);
    expect(t.words).toEqual(['a', 'b']);
    expect(Array.from(wordVector(t, 'a')!).map((x) => +x.toFixed(2))).toEqual([0.6, 0.8, 0]);
    expect(Array.from(t.weights)).toEqual([0.5, 1]);
    expect(t.mean[0]).toBeCloseTo(0.1);
    expect(t.common).toBe('subtract');
    expect(textVector(t, [{ word: 'zz', weight: 1 }])).toBeNull();
  });

  it('projects the common component out of text vectors when the table says so', () => {
    const vectors = [new Float32Array([0.6, 0.8, 0]), new Float32Array([0, 0.6, 0.8])];
    const bytes = encodeVectors({ dims: 3, source: 'test', words: ['a', 'b'], vectors, weights: [1, 1], mean: new Float32Array([0, 1, 0]), common: 'project' });
    const t = decodeVectors(bytes);
    expect(t.common).toBe('project');
    // "a" without its component along (0, 1, 0): (1, 0, 0).
    expect(Array.from(textVector(t, [{ word: 'a', weight: 1 }])!).map((x) => +x.toFixed(2))).toEqual([1, 0, 0]);
  });
});

describe('query expansion', async () => {
  const lexicon = makeLexicon(
    buildLexicon(await readLexiconYaml(DATA_DIR), await loadCatalogue(DATA_DIR), {
      iso3s: new Set(['DEU', 'CHL']),
      namesOf3: (iso3) =>
        iso3 === 'DEU' ? { en: 'Germany', fr: 'Allemagne', de: 'Deutschland', es: 'Alemania' } : { en: 'Chile', fr: 'Chili', de: 'Chile', es: 'Chile' },
    }),
  );
  const words = (q: string) => expandQuery(lexicon, q).items.map((i) => i.word);

  it('brings French, German and Spanish words into English, inflected forms included', () => {
    expect(words('pénuries de cuivre au Chili')).toEqual(['shortage', 'copper', 'chile']);
    expect(words('Lieferengpässe in Deutschland')).toEqual(['shortage', 'supply', 'germany']);
    expect(words('escasez de trigo')).toEqual(['shortage', 'wheat']);
    expect(expandQuery(lexicon, 'pénurie de cuivre').lang).toBe('fr');
    expect(expandQuery(lexicon, 'escasez de trigo en el mar Negro').lang).toBe('es');
  });

  it('matches phrases before words', () => {
    expect(words('céréales de la mer Noire')).toEqual(expect.arrayContaining(['grain', 'black', 'sea']));
    expect(words('céréales de la mer Noire')).not.toContain('noire');
    expect(words('terres rares')).toContain('rare');
  });

  it('keeps English words and adds their concept words', () => {
    const x = expandQuery(lexicon, 'scarcity of gas');
    expect(x.items.map((i) => i.word)).toEqual(expect.arrayContaining(['scarcity', 'shortage', 'gas']));
    expect(x.lang).toBe('en');
  });
});

describe('text', () => {
  it('stems the same inflections the same way in every language', () => {
    expect(stem('supplies')).toBe(stem('supply'));
    expect(stem('réserves'.normalize('NFKD').replace(/\p{M}/gu, ''))).toBe(stem('reserve'));
    expect(terms('Die Preise der Reserven')).toEqual([stem('preis'), stem('reserve')]);
  });

  it('stems French and Spanish adjectives with their nouns', () => {
    expect(stem('chinoises')).toBe(stem('chinois'));
    expect(stem('europeas')).toBe(stem('europeos'));
    expect(stem('cobalto')).toBe(stem('cobalt'));
    expect(stem('cargoes')).toBe(stem('cargo'));
  });

  it('tokenises for Orama with whole-word tokens', () => {
    expect(oramaTokenizer().tokenize('Gas, gasoline and GAS')).toEqual(['gas_', 'gasolin_']);
  });

  it('splits compounds into words of its dictionary, on both sides', () => {
    const sp = new Splitter(['kupfer', 'preis', 'gas', 'speicher', 'stand', 'rekord', 'niveau', 'export', 'quot'].map(stem));
    expect(sp.split('kupferpreis')).toEqual(['kupfer', 'preis']);
    expect(sp.split('gasspeicherstanden')).toEqual(['gas', 'speicher', 'standen']);
    expect(sp.split('exportquoten')).toEqual(['export', 'quoten']);
    expect(sp.split('kupfer')).toBeNull();
    expect(sp.split('rekordhalter')).toBeNull();
    expect(oramaTokenizer(sp).tokenize('Kupferpreise auf Rekordniveau')).toEqual(
      ['kupferpreis_', 'kupf_', 'preis_', 'rekordniveau_', 'rekord_', 'niveau_'].map((t) => (t === 'kupf_' ? `${stem('kupfer')}_` : t)),
    );
  });

  it('corrects misspellings, counting a swap of two letters as one edit', () => {
    expect(osa('drougth', 'drought', 1)).toBe(1);
    expect(osa('cobolt', 'cobalt', 2)).toBe(1);
    expect(osa('cobolt', 'basalt', 2)).toBe(-1);
    const c = new Corrector(
      new Map([
        ['cobalt', 10],
        ['cobalto', 2],
        ['fertiliser', 5],
        ['detient', 3],
        ['drought', 1],
      ]),
    );
    expect(c.correct('cobolt')).toEqual({ word: 'cobalt', edits: 1 });
    expect(c.correct('fertilser')).toEqual({ word: 'fertiliser', edits: 1 });
    expect(c.correct('drougth')).toEqual({ word: 'drought', edits: 1 });
    // Never the first letter, never a short word, and only what `accept` lets through.
    expect(c.correct('retient')).toBeNull();
    expect(c.correct('cob')).toBeNull();
    expect(c.correct('cobolt', 1, (w) => w !== 'cobalt')).toBeNull();
    // Within reach of the longest word (10 letters) by its edits, and not past it.
    expect(c.correct('fertiliserr')).toEqual({ word: 'fertiliser', edits: 1 });
    expect(c.correct('fertiliserss')).toEqual({ word: 'fertiliser', edits: 2 });
    expect(c.candidates('fertilisersss')).toEqual([]);
    // The first two letters swapped.
    expect(c.correct('ocbalt')).toEqual({ word: 'cobalt', edits: 1 });
  });

  it('spends at most a fixed budget per query: past it a word stays as typed', () => {
    const vocabulary = new Map<string, number>([['cobalt', 10]]);
    // 2,000 words of 6 letters starting with c: what one correction of `cobolt` compares.
    for (let i = 0; i < 2_000; i++)
      vocabulary.set(
        `c${i
          .toString(36)
          .padStart(5, 'x')
          .replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!)}`,
        1,
      );
    const c = new Corrector(vocabulary);
    const budget = spellBudget();
    expect(c.correct('cobolt', 1, undefined, budget)).toEqual({ word: 'cobalt', edits: 1 });
    expect(budget.words).toBe(SPELL_WORDS_PER_QUERY - 1);
    expect(budget.candidates).toBeLessThan(SPELL_CANDIDATES_PER_QUERY);
    expect(budget.candidates).toBeGreaterThanOrEqual(SPELL_CANDIDATES_PER_QUERY - 2_100);
    // A word already corrected for another query costs nothing.
    const spent = { ...budget };
    c.correct('cobolt', 1, undefined, budget);
    expect(budget).toEqual(spent);
    // No words left: not corrected.
    expect(c.correct('cobalr', 1, undefined, { words: 0, candidates: SPELL_CANDIDATES_PER_QUERY })).toBeNull();
    // Too few candidates left for this word: not corrected, and nothing more for this query.
    const poor = { words: 5, candidates: 100 };
    expect(c.correct('cobalq', 1, undefined, poor)).toBeNull();
    expect(poor.candidates).toBe(0);
    // Without a budget (the build's own uses), as before.
    expect(c.correct('cobalq')).toEqual({ word: 'cobalt', edits: 1 });
  });

  it('answers the best passage as plain text with the matched words as offsets', () => {
    const s = snippet('Nothing here. Cobalt <b>exports</b> & "quotas" from DR Congo\'s mines.', new Set(terms('cobalt quota')));
    expect(s.text).toBe('Cobalt <b>exports</b> & "quotas" from DR Congo\'s mines.');
    expect(s.highlights.map(([a, b]) => s.text.slice(a, b))).toEqual(['Cobalt', 'quotas']);
    expect(snippetHtml(s)).toBe('<mark>Cobalt</mark> &lt;b&gt;exports&lt;/b&gt; &amp; &quot;<mark>quotas</mark>&quot; from DR Congo&#39;s mines.');
  });

  it('keeps a heading a sentence of its own: the snippet never runs it into the paragraph below', () => {
    // The cobalt briefing's heading and its first paragraph (data/briefings/en/2026-02-16-cobalt-quota-regime.md).
    const text = plainText('## From glut to managed scarcity\n\nA year ago cobalt was in deep surplus.\n\n## Why? ##\nQuotas.');
    expect(text).toBe('From glut to managed scarcity. A year ago cobalt was in deep surplus. Why? Quotas.');
    expect(snippet(text, new Set(terms('scarcity'))).text).toBe(text);
  });

  it('cuts long passages around the first match', () => {
    const long = `${'word '.repeat(80)}the cobalt quota ${'tail '.repeat(80)}`;
    const s = snippet(long, new Set(['cobalt']));
    expect(s.text.startsWith('… ')).toBe(true);
    expect(s.highlights.map(([a, b]) => s.text.slice(a, b))).toEqual(['cobalt']);
    expect(s.text.length).toBeLessThan(330);
  });
});
