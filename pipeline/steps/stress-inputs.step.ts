import { loadStressInputs } from './stress-inputs.ts';
import { step } from './values.ts';

export default step({
  name: 'stress inputs',
  inputs: ['db', 'catalogue', 'content', 'shares', 'priceTables'],
  outputs: ['stressInputs'],
  run: async ({ db, catalogue, content, shares }) => ({
    stressInputs: await loadStressInputs(
      db,
      catalogue,
      content.events,
      (slug) =>
        new Set(
          shares
            .get(slug)
            ?.producers?.entries.slice(0, 3)
            .map((e) => e.iso3) ?? [],
        ),
    ),
  }),
});
