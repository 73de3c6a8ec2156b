import type { z } from 'zod';
import type { Answer } from '../../contract/api.ts';

export type AnswerData = z.infer<typeof Answer>;

/** One retrieved record: what a grounded answer cites and what the model is shown. */
export interface Fact {
  id: string;
  type: 'commodity' | 'reserve' | 'country' | 'scenario' | 'event' | 'briefing';
  title: string;
  url: string;
  /** The figures of the record as the record writes them. */
  quote: string;
}
