import { describe, expect, it } from 'vitest';
import {
  formatChange,
  formatMillionBarrels,
  formatPercent,
  formatPrice,
  formatShare,
  formatTwh,
  resolveFigures,
  seriesOf,
  type FigureContext,
} from './figures.ts';
import { TEST_COUNTRIES, TEST_SLUGS, fixtureFigures } from './fixtures.ts';

const NBSP = '\u00a0';
/** Intl writes French group separators as a narrow no-break space. */
const NNBSP = '\u202f';

function ctx(lang: FigureContext['lang'], notAfter?: string): FigureContext {
  return {
    lang,
    commodities: new Set(TEST_SLUGS),
    countries: new Set(TEST_COUNTRIES),
    figures: fixtureFigures,
    ...(notAfter ? { notAfter } : {}),
  };
}

describe('formatters', () => {
  it('formats a price with currency and unit per language', () => {
    const obs = { value: 67.43, currency: 'USD', unit: 'bbl' };
    expect(formatPrice(obs, 'en')).toBe('US$67.43/bbl');
    expect(formatPrice(obs, 'fr')).toBe(`67,43${NBSP}US$/bbl`);
    expect(formatPrice(obs, 'de')).toBe(`67,43${NBSP}US$/bbl`);
    expect(formatPrice(obs, 'es')).toBe(`67,43${NBSP}US$/bbl`);
  });

  it('drops decimals from 1,000 up, groups thousands per locale and strips a currency from the unit', () => {
    const obs = { value: 13543.19, currency: 'USD', unit: '$/mt' };
    expect(formatPrice(obs, 'en')).toBe('US$13,543/mt');
    expect(formatPrice(obs, 'fr')).toBe(`13${NNBSP}543${NBSP}US$/mt`);
    expect(formatPrice(obs, 'de')).toBe(`13.543${NBSP}US$/mt`);
    expect(formatPrice(obs, 'es')).toBe(`13.543${NBSP}US$/mt`);
    expect(formatPrice({ value: 12.5, currency: 'EUR', unit: 'MWh' }, 'en')).toBe('€12.50/MWh');
  });

  it('formats a signed change with one decimal', () => {
    expect(formatChange(12.43, 'en')).toBe(`+12.4${NBSP}%`);
    expect(formatChange(-3.06, 'fr')).toBe(`−3,1${NBSP}%`);
    expect(formatChange(12.43, 'de')).toBe(`+12,4${NBSP}%`);
    expect(formatChange(0, 'es')).toBe(`0,0${NBSP}%`);
  });

  it('formats storage fill, TWh, shares and SPR stocks', () => {
    expect(formatPercent(62.34, 'en')).toBe(`62.3${NBSP}%`);
    expect(formatPercent(62.34, 'de')).toBe(`62,3${NBSP}%`);
    expect(formatTwh(1023.45, 'en')).toBe(`1,023.5${NBSP}TWh`);
    expect(formatTwh(1023.45, 'de')).toBe(`1.023,5${NBSP}TWh`);
    expect(formatShare(74.19, 'en')).toBe(`74${NBSP}%`);
    expect(formatShare(4.54, 'fr')).toBe(`4,5${NBSP}%`);
    expect(formatMillionBarrels(415441, 'en')).toBe(`415.4${NBSP}million barrels`);
    expect(formatMillionBarrels(415441, 'fr')).toBe(`415,4${NBSP}millions de barils`);
    expect(formatMillionBarrels(415441, 'de')).toBe(`415,4${NBSP}Mio. Barrel`);
    expect(formatMillionBarrels(415441, 'es')).toBe(`415,4${NBSP}millones de barriles`);
  });
});

describe('resolveFigures', () => {
  it('replaces every directive with its value in each language', () => {
    const text = [
      'Brent {{price energy.oil 2026-08-20}} ({{price_change energy.oil 2026-02-27 2026-08-18}}).',
      'EU {{storage eu 2026-08-20}}, {{storage_twh EU 2026-08-20}}; DE {{storage de 2026-08-21}}.',
      'DR Congo {{share metals.cobalt COD}}; SPR {{spr 2026-03-06}}.',
    ].join('\n');
    expect(resolveFigures(text, ctx('en')).text).toBe(
      [
        `Brent US$67.43/bbl (−3.7${NBSP}%).`,
        `EU 62.3${NBSP}%, 1,023.5${NBSP}TWh; DE 50.3${NBSP}%.`,
        `DR Congo 74${NBSP}%; SPR 415.4${NBSP}million barrels.`,
      ].join('\n'),
    );
    expect(resolveFigures(text, ctx('fr')).text).toBe(
      [
        `Brent 67,43${NBSP}US$/bbl (−3,7${NBSP}%).`,
        `EU 62,3${NBSP}%, 1${NNBSP}023,5${NBSP}TWh; DE 50,3${NBSP}%.`,
        `DR Congo 74${NBSP}%; SPR 415,4${NBSP}millions de barils.`,
      ].join('\n'),
    );
    const de = resolveFigures(text, ctx('de'));
    expect(de.problems).toEqual([]);
    expect(de.text).toContain(`67,43${NBSP}US$/bbl`);
    expect(de.text).toContain(`1.023,5${NBSP}TWh`);
    const es = resolveFigures(text, ctx('es'));
    expect(es.text).toContain(`415,4${NBSP}millones de barriles`);
    expect(es.directives.map((d) => d.line)).toEqual([1, 1, 2, 2, 2, 3, 3]);
  });

  it('names the series the directives quote, once each, with the days or producers quoted', () => {
    const text = [
      'Brent {{price energy.oil 2026-08-20}} ({{price_change Energy.Oil 2026-02-27 2026-08-18}}).',
      'EU {{storage eu 2026-08-20}}, {{storage_twh EU 2026-08-20}}; DE {{storage de 2026-08-21}}.',
      'DR Congo {{share metals.cobalt COD}}, Indonesia {{share metals.cobalt idn}}; SPR {{spr 2026-03-06}}; {{price nothing.here 2026-01-01}}.',
    ].join('\n');
    const r = resolveFigures(text, ctx('en'));
    // The directive that did not resolve is a problem, and no series.
    expect(r.problems).toHaveLength(1);
    const blank = { commodity: null, area: null, countries: [], dates: [] };
    expect(seriesOf(r.directives)).toEqual([
      { ...blank, metric: 'price', commodity: 'energy.oil', dates: ['2026-02-27', '2026-08-18', '2026-08-20'] },
      { ...blank, metric: 'gas_storage', area: 'eu', dates: ['2026-08-20'] },
      { ...blank, metric: 'gas_storage', area: 'de', dates: ['2026-08-21'] },
      { ...blank, metric: 'producer_share', commodity: 'metals.cobalt', countries: ['COD', 'IDN'] },
      { ...blank, metric: 'us_spr', dates: ['2026-03-06'] },
    ]);
  });

  it('accepts slugs and codes in any case', () => {
    const r = resolveFigures('{{PRICE Energy.Oil 2026-08-18}} {{share METALS.COBALT cod}}', ctx('en'));
    expect(r.problems).toEqual([]);
    expect(r.text).toBe(`US$67.43/bbl 74${NBSP}%`);
  });

  it('reports malformed directives with their line and leaves them in place', () => {
    const text = [
      'fine line',
      '{{price energy.oil}}',
      '{{prise energy.oil 2026-08-18}}',
      '{{price energy.oil 2026-02-30}}',
      'an unclosed {{price energy.oil 2026-08-18',
      '{{storage deu 2026-08-20}}',
      '{{}}',
    ].join('\n');
    const r = resolveFigures(text, ctx('en'));
    expect(r.problems).toEqual([
      { line: 2, message: '{{price energy.oil}}: expected {{price <slug> <YYYY-MM-DD>}}, got 1 argument' },
      {
        line: 3,
        message:
          "{{prise energy.oil 2026-08-18}}: unknown directive 'prise' (did you mean price?); expected one of price, price_change, storage, storage_twh, share, spr",
      },
      { line: 4, message: "{{price energy.oil 2026-02-30}}: '2026-02-30' is not a valid date (expected YYYY-MM-DD)" },
      {
        line: 5,
        message: "malformed directive near '{{price energy.oil 2026-08-18': a directive is written {{name args}} on one line",
      },
      {
        line: 6,
        message: "{{storage deu 2026-08-20}}: 'deu' is not a storage area (expected an ISO 3166-1 alpha-2 code such as 'de', or 'eu')",
      },
      {
        line: 7,
        message: '{{}}: empty directive; expected one of price, price_change, storage, storage_twh, share, spr',
      },
    ]);
    expect(r.text.split('\n')[1]).toBe('{{price energy.oil}}');
  });

  it('reports unknown slugs and countries with a suggestion', () => {
    const r = resolveFigures('{{price metals.cobalts 2026-05-01}}\n{{share metals.cobalt CDO}}', ctx('en'));
    expect(r.problems).toEqual([
      {
        line: 1,
        message: "{{price metals.cobalts 2026-05-01}}: unknown commodity 'metals.cobalts' (did you mean metals.cobalt?)",
      },
      {
        line: 2,
        message: "{{share metals.cobalt CDO}}: unknown country 'CDO' (expected an ISO 3166-1 alpha-3 code) (did you mean COD?)",
      },
    ]);
  });

  it('reports a directive whose lookup returns nothing', () => {
    const text = [
      '{{price metals.gallium 2026-05-01}}',
      '{{price energy.oil 2020-01-01}}',
      '{{storage fr 2026-08-20}}',
      '{{share metals.cobalt CHN}}',
      '{{spr 2020-01-01}}',
    ].join('\n');
    expect(resolveFigures(text, ctx('en')).problems.map((p) => p.message)).toEqual([
      '{{price metals.gallium 2026-05-01}}: no price for metals.gallium on or before 2026-05-01',
      '{{price energy.oil 2020-01-01}}: no price for energy.oil on or before 2020-01-01',
      "{{storage fr 2026-08-20}}: no gas storage figure for 'fr' on or before 2026-08-20",
      '{{share metals.cobalt CHN}}: no production share of CHN for metals.cobalt',
      '{{spr 2020-01-01}}: no US SPR stock on or before 2020-01-01',
    ]);
  });

  it('rejects a change between two dates that resolve to the same observation, or reversed dates', () => {
    const r = resolveFigures('{{price_change metals.copper 2026-05-02 2026-05-30}}\n{{price_change energy.oil 2026-08-18 2026-02-27}}', ctx('en'));
    expect(r.problems.map((p) => p.message)).toEqual([
      '{{price_change metals.copper 2026-05-02 2026-05-30}}: both dates resolve to the same observation of metals.copper (2026-05-01); pick dates further apart',
      '{{price_change energy.oil 2026-08-18 2026-02-27}}: the first date (2026-08-18) must be before the second (2026-02-27)',
    ]);
  });

  it('refuses data dated after the publication day', () => {
    const r = resolveFigures('{{price energy.oil 2026-08-18}}', ctx('en', '2026-08-01'));
    expect(r.problems).toEqual([{ line: 1, message: "{{price energy.oil 2026-08-18}}: date 2026-08-18 is after the briefing's published_at 2026-08-01" }]);
  });
});
