import { describe, expect, it } from 'vitest';
import { lookupName, matchKey, nameIndex, rankNames, suggest } from './suggest.ts';

const countries = nameIndex([
  { id: 'DEU', names: ['DEU', 'DE', 'Germany', 'Allemagne', 'Deutschland', 'Alemania', 'ger'] },
  { id: 'GBR', names: ['GBR', 'GB', 'United Kingdom', 'Royaume-Uni', 'Vereinigtes Königreich', 'Reino Unido', 'uk'] },
  { id: 'DNK', names: ['DNK', 'DK', 'Denmark', 'Danemark', 'Dänemark', 'Dinamarca'] },
  { id: 'CHN', names: ['CHN', 'CN', 'China', 'Chine'] },
  { id: 'HKG', names: ['HKG', 'HK', 'Hong Kong SAR China'] },
  { id: 'KOR', names: ['KOR', 'KR', 'South Korea', 'Corée du Sud'] },
  { id: 'PRK', names: ['PRK', 'KP', 'North Korea', 'Corée du Nord'] },
  { id: 'CIV', names: ['CIV', 'CI', 'Côte d’Ivoire'] },
  { id: 'USA', names: ['USA', 'US', 'United States', 'États-Unis'] },
  { id: 'ARE', names: ['ARE', 'AE', 'United Arab Emirates'] },
]);

describe('matchKey', () => {
  it('drops case, accents, dots and apostrophes; other punctuation is one space', () => {
    expect(matchKey('  Côte d’Ivoire ')).toBe('cote divoire');
    expect(matchKey('U.K.')).toBe('uk');
    expect(matchKey('Vereinigtes Königreich')).toBe('vereinigtes konigreich');
    expect(matchKey('Urea (nitrogen fertiliser)')).toBe('urea nitrogen fertiliser');
    expect(matchKey('Bosnia & Herzegovina')).toBe('bosnia herzegovina');
    expect(matchKey('')).toBe('');
  });
});

describe('lookupName', () => {
  it('finds a name in any of its spellings, and nothing for a near miss', () => {
    expect(lookupName(countries, 'allemagne')).toEqual(['DEU']);
    expect(lookupName(countries, 'COTE D IVOIRE')).toEqual([]);
    expect(lookupName(countries, "côte d'ivoire")).toEqual(['CIV']);
    expect(lookupName(countries, 'U.K.')).toEqual(['GBR']);
    expect(lookupName(countries, 'Germny')).toEqual([]);
  });

  it('never reads inherited properties', () => {
    for (const k of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) expect(lookupName(countries, k)).toEqual([]);
  });
});

describe('rankNames: meaning first, then spelling, at most max', () => {
  it('a prefix of a name', () => {
    expect(rankNames(countries, 'chin')[0]).toBe('CHN');
    expect(rankNames(countries, 'Deutsch')).toEqual(['DEU']);
  });

  it('the words of a name', () => {
    expect(rankNames(countries, 'korea')).toEqual(['KOR', 'PRK']);
    expect(rankNames(countries, 'arab emirates')).toEqual(['ARE']);
  });

  it('spelling, when no name means it', () => {
    expect(rankNames(countries, 'Germny')).toEqual(['DEU']);
    expect(rankNames(countries, 'Danmark')).toContain('DNK');
  });

  it('a shared word only when nothing else matched', () => {
    expect(rankNames(countries, 'united')).toEqual(['USA', 'GBR', 'ARE']);
    expect(rankNames(countries, 'kingdom of spain')).toEqual(['GBR']);
  });

  it('caps the number of suggestions', () => {
    expect(rankNames(countries, 'u', 2).length).toBeLessThanOrEqual(2);
    expect(rankNames(countries, 'xq', 5).length).toBeLessThanOrEqual(5);
    // A two-letter code one letter off every other code is close to none of them (issue 35: xx → MEX).
    expect(rankNames(countries, 'xx')).toEqual([]);
    expect(rankNames(countries, 'dx')).toEqual([]);
  });

  it('costs microseconds, whatever the text', () => {
    const inputs = ['x'.repeat(40), 'a b c d e f g h i j k l m n o p q r s t', 'QQ', 'Germny', 'z'.repeat(5000)];
    const t0 = performance.now();
    for (let i = 0; i < 2000; i++) for (const s of inputs) rankNames(countries, s);
    expect((performance.now() - t0) / (2000 * inputs.length)).toBeLessThan(0.2); // ms per ranking
  });
});

describe('suggest (the pipeline content checks) is unchanged', () => {
  it('still suggests slugs and codes', () => {
    expect(suggest('metals.cobalts', ['metals.cobalt', 'energy.gas'])).toEqual(['metals.cobalt']);
    expect(suggest('CDO', ['COD', 'DEU'])).toEqual(['COD']);
  });
});
