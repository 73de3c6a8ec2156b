import { describe, expect, it } from 'vitest';
import { EVENT_CATEGORIES, EVENT_EFFECTS, SCENARIO_STATUSES } from '../../contract/content.ts';
import { StressBand } from '../../contract/stress.ts';
import { BAND_WORDS, CATEGORY_WORDS, EFFECT_WORDS, labels, STATUS_WORDS } from './terms.ts';

describe('lib/i18n/terms.ts', () => {
  it('English writes the enum values themselves, so an English text names what an agent filters by', () => {
    for (const [words, values] of [
      [BAND_WORDS.en, StressBand.options],
      [STATUS_WORDS.en, SCENARIO_STATUSES],
      [CATEGORY_WORDS.en, EVENT_CATEGORIES],
      [EFFECT_WORDS.en, EVENT_EFFECTS],
    ] as const)
      for (const v of values) expect((words as Record<string, string>)[v]).toBe(v);
  });
  it('labels capitalise the first letter in the language and keep the rest', () => {
    expect(labels(STATUS_WORDS.fr, 'fr').monitoring).toBe('Sous surveillance');
    expect(labels(BAND_WORDS.fr, 'fr').high).toBe('Élevée');
    expect(labels(STATUS_WORDS.de, 'de').monitoring).toBe('Unter Beobachtung');
  });
});
