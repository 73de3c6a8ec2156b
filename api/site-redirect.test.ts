import { describe, expect, it } from 'vitest';
import { notFoundPage, preferredLang, siteRedirect } from './site-redirect.ts';

/** A build with the English and French versions of a few pages, and one briefing in each. */
const FILES = new Set([
  'site/en/index.html',
  'site/fr/index.html',
  'site/de/index.html',
  'site/es/index.html',
  'site/en/commodities/index.html',
  'site/en/commodities/metals.cobalt/index.html',
  'site/en/docs/api/guide/index.html',
  'site/en/briefings/index.html',
  'site/fr/briefings/index.html',
  'site/fr/briefings/2026-08-20-gaz-fr/index.html',
]);
const has = (f: string) => FILES.has(f);

describe('preferredLang: the language of the service an Accept-Language header prefers', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['fr', 'fr'],
    ['de-CH, de;q=0.9, en;q=0.8', 'de'],
    ['en-US,en;q=0.9,es;q=0.8', 'en'],
    ['it-IT, it;q=0.9, es;q=0.5, fr;q=0.4', 'es'],
    ['fr;q=0.2, de;q=0.7', 'de'],
    ['pt-BR, *;q=0.5', 'en'],
    ['es;q=0, fr', 'fr'],
    ['ES', 'es'],
    ['de;q=0.5, fr;q=0.5', 'de'],
    ['garbage;;;q=x, fr;q=nope', 'fr'],
  ])('%j → %s', (header, lang) => {
    expect(preferredLang(header)).toBe(lang);
  });
});

describe('siteRedirect: old page addresses to their place under a language', () => {
  it('sends / to the preferred language, keeping the query, negotiated', () => {
    expect(siteRedirect('/', '', 'fr-FR,fr;q=0.9', has)).toEqual({ status: 302, location: '/fr/', negotiated: true });
    expect(siteRedirect('/', '?utm=x', null, has)).toEqual({ status: 302, location: '/en/?utm=x', negotiated: true });
  });

  it('sends every other old page to its English page for good, with or without its slash', () => {
    expect(siteRedirect('/commodities/', '', 'fr', has)).toEqual({ status: 301, location: '/en/commodities/', negotiated: false });
    expect(siteRedirect('/commodities/metals.cobalt', '?x=1', null, has)).toEqual({
      status: 301,
      location: '/en/commodities/metals.cobalt/?x=1',
      negotiated: false,
    });
    expect(siteRedirect('/docs/api/guide/', '', null, has)?.location).toBe('/en/docs/api/guide/');
    expect(siteRedirect('/briefings/', '', null, has)?.location).toBe('/en/briefings/');
  });

  it('sends a briefing to its own language', () => {
    expect(siteRedirect('/briefings/fr/', '', null, has)).toEqual({ status: 301, location: '/fr/briefings/', negotiated: false });
    expect(siteRedirect('/briefings/fr/2026-08-20-gaz-fr/', '', null, has)?.location).toBe('/fr/briefings/2026-08-20-gaz-fr/');
    expect(siteRedirect('/briefings/fr/2026-08-20-gaz-fr', '?a=b', null, has)?.location).toBe('/fr/briefings/2026-08-20-gaz-fr/?a=b');
  });

  it('leaves alone what is not an old page: unknown addresses, prefixed ones, files', () => {
    expect(siteRedirect('/no/such/page/', '', null, has)).toBeNull();
    expect(siteRedirect('/fr/commodities/', '', null, has)).toBeNull();
    expect(siteRedirect('/en/nothing/', '', null, has)).toBeNull();
    expect(siteRedirect('/briefings/de/unknown/', '', null, has)).toBeNull();
    expect(siteRedirect('/v1/commodities', '', null, has)).toBeNull();
  });
});

describe('notFoundPage', () => {
  it('picks the 404 page of the address’s language, then the English one', () => {
    expect(notFoundPage('/fr/nothing/')).toEqual(['site/fr/404.html', 'site/404.html']);
    expect(notFoundPage('/en/nothing/')).toEqual(['site/404.html']);
    expect(notFoundPage('/nothing/')).toEqual(['site/404.html']);
    expect(notFoundPage('/xx/nothing/')).toEqual(['site/404.html']);
  });
});
