import { cadenceFor } from '../freshness.ts';
import { countryProfiles } from './profiles.ts';
import { step } from './values.ts';

export default step({
  name: 'country profiles and history',
  inputs: ['db', 'catalogue', 'sheets', 'shares', 'readings', 'names', 'today', 'cadences'],
  outputs: ['profiles'],
  run: async ({ db, catalogue, sheets, shares, readings, names, today, cadences }) => ({
    profiles: await countryProfiles(db, catalogue, sheets, shares, readings, names, {
      today,
      eiLagDays: cadenceFor(cadences, 'ei-statistical-review-2024').lag_days,
    }),
  }),
  detail: ({ profiles }) => `${profiles.length} countries`,
});
