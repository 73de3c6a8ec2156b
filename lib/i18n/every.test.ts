import { describe, expect, it } from 'vitest';
import { rebuildEvery } from './every.ts';

describe('lib/i18n/every.ts', () => {
  it('says the interval in whole hours, minutes or seconds, in each language; nothing without a schedule', () => {
    expect(rebuildEvery(undefined)).toBe('every 15 minutes');
    expect(rebuildEvery(3_600_000)).toBe('every hour');
    expect(rebuildEvery(2 * 3_600_000, 'fr')).toBe('toutes les 2 heures');
    expect(rebuildEvery(3_600_000, 'de')).toBe('jede Stunde');
    expect(rebuildEvery(15 * 60_000, 'es')).toBe('cada 15 minutos');
    expect(rebuildEvery(90_000)).toBe('every 90 seconds');
    expect(rebuildEvery(90 * 60_000, 'de')).toBe('alle 90 Minuten');
    expect(rebuildEvery(null, 'fr')).toBeNull();
  });
});
