import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { date, dateLong, dateTime, month, monthLong, num, numUpTo, pct, pctUpTo, qty, share, signed, signedPct } from './format.ts';

/** The English formatting as it was before the helpers took a language: the pipeline and the API print with it. */
const legacy = {
  num: (x: number, digits: number) =>
    new Intl.NumberFormat('en-GB', { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(x).replace(/^-/, '−'),
  date: (d: string) => {
    const [y, m, day] = d.slice(0, 10).split('-');
    return `${Number(day)} ${['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][Number(m) - 1]} ${y}`;
  },
};

const isoDay = fc.date({ min: new Date('1990-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));

describe('lib/format.ts', () => {
  it('English stays what it was, with and without the language argument', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), fc.integer({ min: 0, max: 3 }), (x, d) => {
        expect(num(x, d)).toBe(legacy.num(x, d));
        expect(num(x, d, 'en')).toBe(legacy.num(x, d));
        expect(pct(x, d)).toBe(`${legacy.num(x, d)} %`);
      }),
    );
    fc.assert(
      fc.property(isoDay, (d) => {
        expect(date(d)).toBe(legacy.date(d));
        expect(date(d, 'en')).toBe(legacy.date(d));
      }),
    );
    expect(month('2026-08-31')).toBe('Aug 2026');
    expect(dateTime('2026-11-22T04:12:09Z')).toBe('22 Nov 2026, 04:12 UTC');
    expect(qty(415441)).toBe('415,441');
    expect(share(0.7234)).toBe('72.3 %');
    expect(signed(-3.25, 1)).toBe('−3.3');
    expect(num(null)).toBe('—');
    expect(signedPct(12.34)).toBe('+12.3 %');
    expect(signedPct(-4, 1, 'fr')).toBe('−4,0\u202f%');
  });

  it('French, German and Spanish follow their locale: decimal comma, their grouping, their month names', () => {
    expect(num(1234.5, 1, 'de')).toBe('1.234,5');
    expect(num(1234.5, 1, 'fr')).toBe('1\u202f234,5');
    expect(num(12345, 0, 'es')).toBe('12.345');
    expect(num(-2.5, 1, 'de')).toBe('−2,5');
    expect(pct(72.34, 1, 'fr')).toBe('72,3\u202f%');
    expect(pct(72.34, 1, 'de')).toBe('72,3\u00a0%');
    expect(share(0.5, 0, 'es')).toBe('50\u00a0%');
    expect(signed(4.2, 1, 'fr')).toBe('+4,2');
    expect(date('2026-08-20', 'fr')).toBe('20 août 2026');
    expect(date('2026-08-20', 'de')).toBe('20. Aug. 2026');
    expect(date('2026-08-20', 'es')).toBe('20 ago 2026');
    expect(month('2026-03-31', 'de')).toBe('März 2026');
    expect(month('2026-03', 'es')).toBe('marzo de 2026');
    expect(monthLong('2026-03-31', 'en')).toBe('March 2026');
    expect(dateTime('2026-11-22T04:12:09Z', 'de')).toBe('22. Nov. 2026, 04:12 UTC');
  });

  it('sentences (ask, MCP) write at most the digits they need, with the same signs, spaces and dates as the pages', () => {
    expect(numUpTo(50.25)).toBe('50.25');
    expect(numUpTo(50.2, 2)).toBe('50.2');
    expect(numUpTo(1234.5, 2, 'fr')).toBe('1\u202f234,5');
    expect(numUpTo(-3.14159, 2, 'de')).toBe('−3,14');
    expect(numUpTo(null)).toBe('—');
    expect(pctUpTo(50.25)).toBe('50.25 %');
    expect(pctUpTo(90, 2, 'fr')).toBe('90\u202f%');
    expect(pctUpTo(50.25, 1, 'es')).toBe('50,3\u00a0%');
    // The same number in a table and in a sentence differ only in the trailing zeros.
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.constantFrom('en', 'fr', 'de', 'es'), (x, lang) => {
        const table = num(x, 2, lang);
        expect(numUpTo(x, 2, lang)).toBe(table.replace(/0+$/, '').replace(lang === 'en' ? /\.$/ : /,$/, ''));
      }),
    );
    expect(dateLong('2026-08-20')).toBe('20 August 2026');
    expect(dateLong('2026-11-01', 'fr')).toBe('1er novembre 2026');
    expect(dateLong('2026-11-11', 'fr')).toBe('11 novembre 2026');
    expect(dateLong('2026-08-20', 'de')).toBe('20. August 2026');
    expect(dateLong('2026-08-20', 'es')).toBe('20 de agosto de 2026');
    expect(dateLong('not a date')).toBe('not a date');
  });
});
