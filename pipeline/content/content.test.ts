/**
 * The real editorial content under data/ loads with zero problems, against the catalogue's slugs,
 * the ISO 3166-1 alpha-3 list of the source mirror and a FigureLookup read from the mirror.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { BRIEFING_LANGS, EVENT_CATEGORIES, EVENT_EFFECTS, EVENT_KINDS } from '../../contract/content.ts';
import { TEST_SLUGS } from './fixtures.ts';
import { ContentError, loadContent, type Content } from './load.ts';
import { mirrorLookup, readCsv, sourcesDir } from '../../test/mirror-lookup.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const dataDir = path.join(repoRoot, 'data');
const sources = sourcesDir(repoRoot);

function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

let content: Content;

beforeAll(async () => {
  const countries = new Set(
    readCsv(path.join(sources, 'country-codes', 'country-codes.csv'))
      .map((r) => r['ISO3166-1-Alpha-3'] ?? '')
      .filter((c) => /^[A-Z]{3}$/.test(c)),
  );
  try {
    content = await loadContent({ dataDir, commodities: new Set(TEST_SLUGS), countries, figures: mirrorLookup(sources) });
  } catch (e) {
    // Show the friendly problem list rather than a bare stack.
    if (e instanceof ContentError) throw new Error(e.message);
    throw e;
  }
});

describe('data/ content', () => {
  it('has at least 60 events using every category, newest first', () => {
    expect(content.events.length).toBeGreaterThanOrEqual(60);
    expect(new Set(content.events.map((e) => e.category))).toEqual(new Set(EVENT_CATEGORIES));
    const dates = content.events.map((e) => e.date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(dates.every((d) => d >= '2020-01-01' && d <= '2026-08-20')).toBe(true);
    expect(content.events.every((e) => e.source_url.startsWith('https://'))).toBe(true);
  });

  it('gives every event a direction and a life: ended_on only on lasting events, never in the future', () => {
    expect(new Set(content.events.map((e) => e.effect))).toEqual(new Set(EVENT_EFFECTS));
    expect(new Set(content.events.map((e) => e.kind))).toEqual(new Set(EVENT_KINDS));
    const today = new Date().toISOString().slice(0, 10);
    for (const e of content.events) {
      if (e.ended_on === undefined) continue;
      expect(e.kind, e.id).toBe('lasting');
      expect(e.ended_on >= e.date && e.ended_on <= today, e.id).toBe(true);
    }
    // Releases, suspensions, reopenings and supply laws lower stress (the audit found them tagged as raising it).
    const effect = new Map(content.events.map((e) => [e.id, e.effect]));
    for (const id of [
      '2022-07-22-black-sea-grain-initiative',
      '2024-05-23-eu-critical-raw-materials-act',
      '2025-11-07-china-suspends-october-export-controls',
      '2025-11-09-china-suspends-gallium-germanium-antimony-ban-to-us',
      '2026-03-11-iea-400-million-barrel-release',
    ]) {
      expect(effect.get(id), id).toBe('easing');
    }
  });

  it('has at least 15 scenarios, sorted by id, each history ending in its current status', () => {
    expect(content.scenarios.length).toBeGreaterThanOrEqual(15);
    const ids = content.scenarios.map((s) => s.id);
    expect(ids).toEqual([...ids].sort());
    for (const s of content.scenarios) {
      expect(s.status_history.at(-1)?.status).toBe(s.status);
      expect(s.updated_at <= '2026-08-20').toBe(true);
    }
  });

  it('has at least 10 briefings in each language, the same topics in all four, newest first', () => {
    const keys = new Map<string, string[]>();
    for (const lang of BRIEFING_LANGS) {
      const mine = content.briefings.filter((b) => b.lang === lang);
      expect(mine.length, lang).toBeGreaterThanOrEqual(10);
      const dates = mine.map((b) => b.published_at);
      expect(dates).toEqual([...dates].sort().reverse());
      keys.set(lang, mine.map((b) => b.translation_key).sort());
    }
    for (const lang of BRIEFING_LANGS) expect(keys.get(lang)).toEqual(keys.get('en'));
  });

  it('keeps briefings between 200 and 400 words, dated 2025–2026 up to the newest data, fully resolved', () => {
    for (const b of content.briefings) {
      const n = words(b.body);
      expect(n, `${b.id}: ${n} words`).toBeGreaterThanOrEqual(200);
      expect(n, `${b.id}: ${n} words`).toBeLessThanOrEqual(400);
      expect(b.published_at >= '2025-01-01' && b.published_at <= '2026-08-20', b.id).toBe(true);
      expect(`${b.summary}\n${b.body}`).not.toMatch(/\{\{|\}\}/);
    }
  });

  it('types no figure by hand: outside directives, briefings hold no percentages, prices or large numbers', () => {
    for (const lang of BRIEFING_LANGS) {
      const dir = path.join(dataDir, 'briefings', lang);
      for (const file of readdirSync(dir).filter((f) => f.endsWith('.md'))) {
        const text = readFileSync(path.join(dir, file), 'utf8').replace(/\{\{[^{}]*\}\}/g, '');
        const body = text.slice(text.indexOf('---', 3) + 3);
        const typed = body.match(/\d[\d.,\s]*\s?(%|\$|€|US\$|TWh|bbl|barrels?|tonnes?|t\b)|(\$|€)\s?\d/g) ?? [];
        expect(typed, `${lang}/${file}`).toEqual([]);
        // Any other number must be a year or a day of the month.
        for (const n of body.match(/\d+(?:[.,]\d+)?/g) ?? []) {
          expect(/^(19|20)\d\d$/.test(n) || (/^\d{1,2}$/.test(n) && Number(n) <= 31), `${lang}/${file}: ${n}`).toBe(true);
        }
      }
    }
  });
});
