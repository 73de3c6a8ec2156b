import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { StressHistoryPoint } from '../contract/stress.ts';
import { csvField, formulaSafe, recordsToCsv, stressHistoryCsv, toCsv } from './csv.ts';

describe('lib/csv.ts', () => {
  it('writes RFC 4180: CRLF after every record, quotes only where needed', () => {
    expect(
      toCsv(
        ['a', 'b,c'],
        [
          ['x', 'y"z'],
          ['line\nbreak', 'cr\r'],
          ['', null],
        ],
      ),
    ).toBe('a,"b,c"\r\nx,"y""z"\r\n"line\nbreak","cr\r"\r\n,\r\n');
    expect(toCsv(['only'], [])).toBe('only\r\n');
    expect(toCsv([], [])).toBe('\r\n');
  });

  it('writes values as JSON would show them, null and undefined as empty fields', () => {
    expect([0.1, 1e21, 1e-7, -0, 100, 1 / 3].map(csvField)).toEqual(['0.1', '1e+21', '1e-7', '0', '100', '0.3333333333333333']);
    expect([null, undefined, Number.NaN, Infinity, true, false, 'é', ' lead'].map(csvField)).toEqual(['', '', '', '', 'true', 'false', 'é', ' lead']);
    // Formulas (OWASP): text starting with = + - @ tab or CR gets a ' in front; numbers, and text that is a plain number, do not.
    expect(['=1+1', '+cmd', '-2+3', '@SUM(A1)', '\tx', '\rx', '=a,b'].map(csvField)).toEqual([
      "'=1+1",
      "'+cmd",
      "'-2+3",
      "'@SUM(A1)",
      "'\tx",
      `"'\rx"`,
      `"'=a,b"`,
    ]);
    expect([-12.5, '-12.5', '+3', '-1e-7', 'a=b', "'quoted"].map(csvField)).toEqual(['-12.5', '-12.5', '+3', '-1e-7', 'a=b', "'quoted"]);
  });

  it('keeps the caller’s column order, pads a short row and refuses a long one', () => {
    expect(recordsToCsv(['b', 'a'], [{ a: 1, b: 2, c: 3 }, { a: 4 }])).toBe('b,a\r\n2,1\r\n,4\r\n');
    expect(toCsv(['a', 'b', 'c'], [['x']])).toBe('a,b,c\r\nx,,\r\n');
    expect(() => toCsv(['a'], [['x', 'y']])).toThrow(RangeError);
  });

  it('reads back through a real parser to the same fields (csv-parse), formulas neutralised', () => {
    const field = fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.constantFrom('"', ',', '\r\n', '\n', '\r', '""', ' , '));
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }).chain((n) => fc.array(fc.array(field, { minLength: n, maxLength: n }), { minLength: 1, maxLength: 6 })),
        ([header, ...rows]) => {
          const text = toCsv(header!, rows);
          expect(text.endsWith('\r\n')).toBe(true);
          expect(parse(text, { relax_column_count: false })).toEqual([header!, ...rows].map((r) => r.map(formulaSafe)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('writes the stress history files as the build always has', () => {
    const h = (date: string, index: number | null, band: StressHistoryPoint['band'], coverage: number): StressHistoryPoint => ({ date, index, band, coverage });
    const rows: [string, StressHistoryPoint[]][] = [
      ['energy.gas', [h('2022-01-31', 61.5, 'high', 1), h('2022-02-28', null, null, 0.25)]],
      ['DEU', [h('2022-01-31', 12, 'low', 0.875)]],
    ];
    // the build's own writer before it moved here (pipeline/build.ts historyCsv)
    const lines = ['id,date,index,band,coverage'];
    for (const [id, history] of rows) for (const x of history) lines.push(`${id},${x.date},${x.index ?? ''},${x.band ?? ''},${x.coverage}`);
    expect(stressHistoryCsv(rows)).toBe(`${lines.join('\r\n')}\r\n`);
  });
});
