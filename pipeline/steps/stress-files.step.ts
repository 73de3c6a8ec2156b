import { METHODOLOGY_VERSION } from '../../contract/common.ts';
import { CSV_TYPE } from '../../contract/http.ts';
import { BUILD_FILES, BUILD_PATHS } from '../../contract/layout.ts';
import { EDITORIAL_SOURCE } from '../../contract/sources.ts';
import { stressHistoryCsv as historyCsv } from '../../lib/csv.ts';
import { step } from './values.ts';

export default step({
  name: 'stress history files',
  inputs: ['writer', 'backtest', 'sheets', 'metaFor'],
  outputs: ['stressFiles'],
  run: async ({ writer, backtest, sheets, metaFor }) => {
    await writer.file(BUILD_FILES.backtest(), {
      data: backtest,
      meta: metaFor([EDITORIAL_SOURCE, 'nyfed-gscpi'], null, { methodology_version: METHODOLOGY_VERSION }),
    });
    await writer.raw(BUILD_PATHS.commodityStressCsv, historyCsv(sheets.map((sh) => [sh.slug, sh.stress_history])), CSV_TYPE);
    return { stressFiles: 2 };
  },
});
