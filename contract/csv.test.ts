import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ROUTES } from './api.ts';
import { CommodityListEntry } from './commodities.ts';
import { BriefingSchema, EventSchema, LocalizedEventSchema, ScenarioSchema } from './content.ts';
import { CSV_COLUMNS, flattenRecord } from './csv.ts';
import { Reserve } from './reserves.ts';

type Def = { type: string; innerType?: z.ZodType; out?: z.ZodType; shape?: Record<string, z.ZodType> };
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The dotted leaf paths of a record schema, as flattenRecord makes them (objects dotted, arrays one column). */
function leafPaths(schema: z.ZodType, prefix = ''): string[] {
  let s = schema;
  for (let d = defOf(s); ['optional', 'nullable', 'default', 'readonly'].includes(d.type) || d.type === 'pipe'; d = defOf(s)) {
    s = (d.type === 'pipe' ? d.out : d.innerType)!;
  }
  const d = defOf(s);
  if (d.type !== 'object') return [prefix];
  return Object.entries((s as z.ZodObject).shape as Record<string, z.ZodType>).flatMap(([k, v]) => leafPaths(v, prefix ? `${prefix}.${k}` : k));
}

describe('CSV columns (contract/csv.ts)', () => {
  it('every route with a CSV form declares its columns, and only those routes', () => {
    expect(Object.keys(CSV_COLUMNS).sort()).toEqual(
      ROUTES.filter((r) => r.csv)
        .map((r) => r.operationId)
        .sort(),
    );
  });

  it('list and record routes: one column per field of the record schema, none missing, none invented', () => {
    // Events: one set of columns for the English record (translations dotted) and the one in the language asked (`lang`).
    const cases: [keyof typeof CSV_COLUMNS, z.ZodType[], string[]][] = [
      ['listCommodities', [CommodityListEntry], []],
      ['getReserve', [Reserve], []],
      ['listEvents', [EventSchema, LocalizedEventSchema], []],
      ['listScenarios', [ScenarioSchema], []],
      ['listBriefings', [BriefingSchema], ['body']],
    ];
    for (const [route, schemas, left] of cases) {
      expect([...CSV_COLUMNS[route]].sort(), route).toEqual([...new Set(schemas.flatMap((x) => leafPaths(x)))].filter((p) => !left.includes(p)).sort());
    }
  });

  it('flattens nested objects to dotted keys and arrays to one field', () => {
    expect(flattenRecord({ a: 1, b: { c: null, d: { e: 'x' } }, f: ['de', 'fr'], g: [{ h: 1 }, { h: 2 }], i: null })).toEqual({
      a: 1,
      'b.c': null,
      'b.d.e': 'x',
      f: 'de; fr',
      g: '{"h":1}; {"h":2}',
      i: null,
    });
  });
});
