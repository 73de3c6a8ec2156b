/**
 * The site's message catalogue (site/src/i18n/): every language has every key of the English
 * one with a value of the same kind (the types check it at `npm run typecheck`, this file being
 * what brings the catalogue into the compilation), no message is empty, French sets its narrow
 * no-break spaces, and the helpers that place a page in the languages.
 */
import { describe, expect, it } from 'vitest';
import { LANGS, type Lang } from '../contract/languages.ts';
import { CHOKEPOINT_NAMES } from '../pipeline/steps/exposure.ts';
import { MESSAGES, frenchSpacing, t, type Messages } from '../site/src/i18n/messages.ts';
import { samePageIn, versionsIn } from '../site/src/i18n/lang.ts';

type Tree = { [k: string]: unknown };

/** Every leaf of a catalogue: its path, and its value (a string, or a function's result for sample arguments). */
function leaves(node: unknown, at = ''): [string, unknown][] {
  if (node && typeof node === 'object') return Object.entries(node as Tree).flatMap(([k, v]) => leaves(v, at ? `${at}.${k}` : k));
  return [[at, node]];
}
/** English names chokepoints with the data's own names (an empty table): the other languages' tables are checked against those ids below. */
const shape = (m: Messages) =>
  leaves(m)
    .filter(([k]) => !k.startsWith('chokepoint.'))
    .map(([k, v]) => `${k}:${typeof v}`);

/**
 * Sample arguments for a message function, one per parameter of its English version (the other
 * languages take the same ones; French's are wrapped, which hides their names): a String object,
 * which serves as text, as a count ("3") and as a true switch alike; a list where one is joined.
 */
const english = new Map(leaves(MESSAGES.en));
function argsFor(key: string): unknown[] {
  const f = english.get(key) as (...a: never[]) => unknown;
  const names = (/^\(?([^)=]*)\)?\s*=>/.exec(f.toString())?.[1] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  return names.map((n) => (n.startsWith('lacking') ? ['‹x›'] : new String('3')));
}
const textOf = (key: string, v: unknown) => String(typeof v === 'function' ? (v as (...a: unknown[]) => unknown)(...argsFor(key)) : v);

describe('the site catalogue', () => {
  it('has, in every language, exactly the keys of the English catalogue, each of the same kind', () => {
    for (const lang of LANGS) expect(shape(MESSAGES[lang]), lang).toEqual(shape(MESSAGES.en));
  });

  it('names every chokepoint of the data in French, German and Spanish (English uses the data’s names)', () => {
    expect(MESSAGES.en.chokepoint).toEqual({});
    for (const lang of LANGS.filter((l) => l !== 'en'))
      expect(Object.keys(MESSAGES[lang].chokepoint).sort(), lang).toEqual(Object.keys(CHOKEPOINT_NAMES).sort());
  });

  it('has no empty message, and every function message gives text for sample arguments', () => {
    for (const lang of LANGS) {
      for (const [key, v] of leaves(MESSAGES[lang])) {
        const text = textOf(key, v);
        expect(text.trim().length, `${lang} ${key}`).toBeGreaterThan(0);
        expect(text, `${lang} ${key}`).not.toMatch(/undefined|NaN|\[object/);
      }
    }
  });

  it('is translated: the other languages do not repeat the English navigation, headings and notes', () => {
    for (const lang of LANGS.filter((l) => l !== 'en')) {
      const m = t(lang);
      for (const key of ['commodities', 'countries', 'reserves', 'events', 'briefings', 'methodology'] as const)
        expect(m.nav[key], `${lang} nav.${key}`).not.toBe(t('en').nav[key]);
      expect(m.footer.tagline).not.toBe(t('en').footer.tagline);
      expect(m.search.boxPlaceholder).not.toBe(t('en').search.boxPlaceholder);
      expect(m.docs.englishOnly).not.toBe(t('en').docs.englishOnly);
      expect(m.notFound.title).not.toBe(t('en').notFound.title);
    }
  });

  it('keeps the search templates’ placeholders in every language', () => {
    for (const lang of LANGS) {
      const s = t(lang).search;
      for (const tpl of [s.resultsOne, s.resultsOther]) expect(tpl, lang).toMatch(/\{n\}.*\{q\}/);
      expect(s.noResults, lang).toContain('{q}');
    }
  });

  it('sets French punctuation with a narrow no-break space, never an ordinary one', () => {
    expect(frenchSpacing('Source : « Eurostat » ; 12 % ?')).toBe('Source\u202f: «\u202fEurostat\u202f»\u202f; 12\u202f%\u202f?');
    for (const [key, v] of leaves(MESSAGES.fr)) {
      const text = textOf(key, v);
      expect(text, key).not.toMatch(/ [:;!?%»]/);
      expect(text, key).not.toMatch(/« /);
    }
    expect(t('fr').common.source).toBe('Source\u202f:');
  });

  it('formats its numbers in the language (German decimal comma, French grouping)', () => {
    expect(t('de').freshness.overdue(1234, '1. Jan. 2026')).toBe('1.234 Tage überfällig; fällig war der 1. Jan. 2026');
    expect(t('fr').home.allCountries(1432)).toBe('Les 1\u202f432 pays');
    expect(t('en').home.allCountries(1432)).toBe('All 1,432 countries');
  });
});

describe('a page in the languages', () => {
  it('is at the same path under each prefix', () => {
    expect(samePageIn('/fr/commodities/metals.cobalt/', 'de')).toBe('/de/commodities/metals.cobalt/');
    expect(samePageIn('/en/', 'es')).toBe('/es/');
    expect(samePageIn('/en', 'fr')).toBe('/fr');
  });

  it('without a version in a language, leads that language to its fallback', () => {
    const have: Partial<Record<Lang, string>> = { en: '/en/briefings/a-en/', fr: '/fr/briefings/a-fr/' };
    expect(
      versionsIn(
        (l) => have[l],
        (l) => `/${l}/briefings/`,
      ),
    ).toEqual({
      versions: { en: '/en/briefings/a-en/', fr: '/fr/briefings/a-fr/' },
      fallbacks: { de: '/de/briefings/', es: '/es/briefings/' },
    });
  });
});
