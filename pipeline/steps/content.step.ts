import { readContent } from '../content-stage.ts';
import { step } from './values.ts';

/** Events, scenarios and briefings from data/; a briefing whose figures cannot be had is left out. */
export default step({
  name: 'editorial content',
  // Briefings quote prices: the price tables are read for their figures.
  inputs: ['db', 'opts', 'catalogue', 'names', 'shares', 'statuses', 'priceTables'],
  outputs: ['content', 'contentOmitted'],
  run: async ({ db, opts, catalogue, names, shares, statuses }) => {
    const shareOf = (slug: string, iso3: string) => {
      const t = shares.get(slug)?.producers;
      const e = t?.entries.find((x) => x.iso3 === iso3);
      return t && e ? { share_pct: e.share * 100, year: t.year } : undefined;
    };
    const unavailable = new Set(statuses.filter((s) => s.status === 'unavailable').map((s) => s.id));
    const content = await readContent(db, opts.dataDir, catalogue, names, shareOf, unavailable);
    return { content, contentOmitted: content.skipped.map((s) => ({ output: `briefing ${s.file}`, reason: s.reason })) };
  },
  detail: ({ content: c }) => `${c.events.length} events, ${c.scenarios.length} scenarios, ${c.briefings.length} briefings`,
});
