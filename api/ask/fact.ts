import type { z } from 'zod';
import type { Answer, DerivedFigure } from '../../contract/api.ts';
import { eventText, type Event } from '../../contract/content.ts';
import type { Lang } from '../../contract/languages.ts';

export type AnswerData = z.infer<typeof Answer>;
/** A figure of an answer computed from cited values: the arithmetic and the citations it uses. */
export type Derived = z.infer<typeof DerivedFigure>;

/** A derived figure, citing the records (by id) whose values its arithmetic uses. */
export const derived = (label: Derived['label'], value: number, unit: string, arithmetic: string, facts: readonly Fact[]): Derived => ({
  label,
  value,
  unit,
  arithmetic,
  citations: [...new Set(facts.map((f) => f.id))],
});

/** One retrieved record: what a grounded answer cites and what the model is shown. */
export interface Fact {
  id: string;
  type: 'commodity' | 'reserve' | 'country' | 'scenario' | 'event' | 'briefing';
  title: string;
  url: string;
  /** The figures of the record as the record writes them. */
  quote: string;
}

/**
 * An event as an answer in `lang` cites it: its title in that language, and the address of
 * GET /v1/events for its day in that language, whose record holds the quoted title as written.
 */
export function eventFact(e: Event, lang: Lang, fields: readonly ('category' | 'effect')[]): Fact {
  const { title } = eventText(e, lang);
  const own = fields.map((f) => `${f}: ${e[f]}; `).join('');
  return {
    id: e.id,
    type: 'event',
    title,
    url: `/v1/events?since=${e.date}&until=${e.date}${lang === 'en' ? '' : `&lang=${lang}`}`,
    quote: `date: ${e.date}; ${own}title: ${title}`,
  };
}
