import { describe, expect, it } from 'vitest';
import { sitemapXml } from './sitemap.ts';

describe('sitemap.xml', () => {
  const xml = sitemapXml('https://c.example', [
    'en/index.html',
    'fr/index.html',
    'de/index.html',
    'es/index.html',
    'en/briefings/a-en/index.html',
    'fr/briefings/a-fr/index.html',
    'fr/404.html',
    '404.html',
    'en/embed/commodities/energy.oil/price/index.html',
  ]);

  it('lists every page of every language, with its versions in the others and English as x-default', () => {
    const urls = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(urls).toEqual([
      'https://c.example/en/',
      'https://c.example/fr/',
      'https://c.example/de/',
      'https://c.example/es/',
      'https://c.example/en/briefings/a-en/',
      'https://c.example/fr/briefings/a-fr/',
    ]);
    const home = xml.slice(xml.indexOf('<loc>https://c.example/de/</loc>'), xml.indexOf('</url>', xml.indexOf('<loc>https://c.example/de/</loc>')));
    for (const l of ['en', 'fr', 'de', 'es']) expect(home).toContain(`<xhtml:link rel="alternate" hreflang="${l}" href="https://c.example/${l}/"/>`);
    expect(home).toContain('hreflang="x-default" href="https://c.example/en/"');
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"')).toBe(true);
  });

  it('leaves out the 404 pages and the embeddable charts; a page in one language has no alternates', () => {
    expect(xml).not.toContain('404');
    expect(xml).not.toContain('embed');
    const one = sitemapXml('https://c.example', ['fr/only/index.html']);
    expect(one).toContain('<loc>https://c.example/fr/only/</loc>');
    expect(one).not.toContain('xhtml:link');
  });
});
