import { describe, expect, it } from 'vitest';
import { SOURCE_IDS } from '../../contract/sources.ts';
import { ADAPTERS, SOURCES } from './registry.ts';

describe('the source registry', () => {
  it('files every adapter under its own id, and reads every source of the contract in its order', () => {
    for (const [id, adapter] of Object.entries(ADAPTERS)) expect(adapter.id).toBe(id);
    expect(SOURCES.map((s) => s.id)).toEqual([...SOURCE_IDS]);
  });
});
