/**
 * How old a figure's series is, in words, for the notes on figures and charts (docs/freshness.md).
 * "Today" is the build clock: pages are rebuilt every REBUILD_EVERY (15 minutes by default) and carry their build time.
 */
import type { Meta, SourceRef } from '../../../contract/common.ts';
import { ageText } from '../../../contract/freshness.ts';
import { site } from './data';
import { date } from '../../../lib/format.ts';
import { LOCALES, type Lang } from '../i18n/lang';
import { t } from '../i18n/messages';

export const today = site.today;

const DAY = 86_400_000;
const RTF = new Map<Lang, Intl.RelativeTimeFormat>();

/**
 * How long ago `d` was, counted from the build date, with the thresholds of contract/freshness.ts
 * ageText (English is that function's text); empty for a date the build will reject at validation anyway.
 */
export function age(d: string, lang: Lang = 'en'): string {
  try {
    if (lang === 'en') return ageText(d, today);
    const days = Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${d.slice(0, 10)}T00:00:00Z`)) / DAY);
    if (!Number.isFinite(days)) return '';
    let f = RTF.get(lang);
    if (!f) RTF.set(lang, (f = new Intl.RelativeTimeFormat(LOCALES[lang], { numeric: 'auto' })));
    if (days <= 0) return f.format(0, 'day');
    if (days < 14) return f.format(-days, 'day');
    if (days < 60) return f.format(-Math.round(days / 7), 'week');
    const months = Math.round(days / 30.44);
    if (months < 24) return f.format(-months, 'month');
    return f.format(-Math.round(days / 365.25), 'year');
  } catch {
    return '';
  }
}

export interface AgeNote {
  source: string;
  freshness: 'late' | 'stale';
  text: string;
}

type Dated = Pick<SourceRef, 'id' | 'data_as_of' | 'freshness' | 'expected_next'>;

/** The note for a late or stale series: "EIA weekly data ends 27 Feb 2026, 9 months ago (stale: …)"; null otherwise. */
export function ageNote(s: Dated, lang: Lang = 'en'): AgeNote | null {
  if ((s.freshness !== 'late' && s.freshness !== 'stale') || !s.data_as_of) return null;
  const m = t(lang).freshness;
  const label = m.sourceData[s.id] ?? s.id;
  const text = m.note(label, date(s.data_as_of, lang), age(s.data_as_of, lang), m.word[s.freshness], s.expected_next ? date(s.expected_next, lang) : null);
  return { source: s.id, freshness: s.freshness, text };
}

/** The notes of a payload's late or stale sources, optionally only those in `ids`. */
export function ageNotes(meta: Pick<Meta, 'sources'>, ids: readonly string[] | undefined, lang: Lang = 'en'): AgeNote[] {
  return meta.sources
    .filter((s) => !ids || ids.includes(s.id))
    .map((s) => ageNote(s, lang))
    .filter((n): n is AgeNote => n !== null);
}

/** What a page shows, for its footer: the meta of each payload behind it (or the build's source statuses). */
export interface Behind {
  /** The payload's own date (meta.as_of): for editorial content, its newest item. */
  as_of?: string | null;
  sources: readonly Pick<SourceRef, 'id' | 'data_as_of'>[];
}

/**
 * The date of a page's data: the newest observation behind what it shows, and each source's own
 * newest (newest first), so a page that mixes a current source with a stale one says both.
 */
export function dataDates(behind: readonly Behind[]): { newest: string | null; bySource: { id: string; data_as_of: string }[] } {
  const by = new Map<string, string>();
  for (const b of behind) for (const s of b.sources) if (s.data_as_of && (by.get(s.id) ?? '') < s.data_as_of) by.set(s.id, s.data_as_of);
  const bySource = [...by].map(([id, data_as_of]) => ({ id, data_as_of })).sort((a, b) => b.data_as_of.localeCompare(a.data_as_of) || a.id.localeCompare(b.id));
  const newest = [...behind.map((b) => b.as_of ?? ''), bySource[0]?.data_as_of ?? ''].reduce((a, b) => (b > a ? b : a), '');
  return { newest: newest || null, bySource };
}
