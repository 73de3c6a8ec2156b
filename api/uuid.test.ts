import { describe, expect, it } from 'vitest';
import { uuidV4 } from './uuid.ts';

describe('uuidV4 (request ids of the Node server)', () => {
  it('makes RFC 9562 version 4 UUIDs, none repeated, across several batches of random bytes', () => {
    const ids = Array.from({ length: 2000 }, () => uuidV4());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('uses every hex digit in every random position (its bytes are not stuck)', () => {
    const ids = Array.from({ length: 4000 }, () => uuidV4());
    for (const at of [0, 7, 9, 15, 20, 24, 35]) expect(new Set(ids.map((id) => id[at])).size).toBe(16);
    // The variant digit takes four values, 8 to b.
    expect(new Set(ids.map((id) => id[19])).size).toBe(4);
  });
});
