import { loadBacktest, runBacktest } from './backtest.ts';
import { step } from './values.ts';

export default step({
  name: 'backtest',
  inputs: ['opts', 'db', 'sheets'],
  outputs: ['backtest'],
  run: async ({ opts, db, sheets }) => ({
    backtest: runBacktest(
      await loadBacktest(opts.dataDir),
      new Map(sheets.map((sh) => [sh.slug, sh.stress_history])),
      await db.all<{ month: string; value: number }>(`SELECT strftime(date, '%Y-%m') AS month, value FROM gscpi ORDER BY date`),
    ),
  }),
  detail: ({ backtest: b }) =>
    `${b.crises.filter((c) => c.hit).length} of ${b.crises.length} crises flagged, ${b.calm_flagged} of ${b.calm_months} calm months flagged`,
});
