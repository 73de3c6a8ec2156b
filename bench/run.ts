import { cpus, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { benchApi, benchRateLimited } from './api.ts';
import { benchAsk } from './ask.ts';
import { benchBuild } from './build.ts';
import { benchSearch, searchReport } from './search.ts';

/** `npm run bench`: every benchmark, printed as Markdown for BENCHMARKS.md. Needs wrk (apt-get install wrk). */
const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
console.log(`# npm run bench — ${new Date().toISOString()}\n\nMachine: ${machine}\n`);
let ok = true;
const check = (cond: boolean) => {
  ok &&= cond;
  return cond ? 'met' : '**MISSED**';
};

const rows = benchBuild();
const worst = (c: string) => {
  const r = rows.filter((x) => x.case === c);
  return {
    ms: Math.max(...r.map((x) => x.ms)),
    rss: Math.max(...r.map((x) => x.maxRssMb)),
    files: r[0]!.files,
    bulkS: Math.max(...r.map((x) => x.bulk.seconds)),
    bulkKb: Math.max(...r.map((x) => x.bulk.kb)),
  };
};
console.log('## Pipeline build (3 rounds, worst of each)\n');
console.log('| case | wall time | peak RSS | files | target |\n|---|---|---|---|---|');
const full = worst('full build (no snapshots)');
const again = worst('rebuild, no source changed');
console.log(
  `| full build from the real sources | ${(full.ms / 1000).toFixed(2)} s | ${full.rss} MB | ${full.files} | < 60 s and < 1.5 GB: ${check(full.ms < 60_000 && full.rss < 1536)} |`,
);
console.log(`| rebuild, no source changed | ${(again.ms / 1000).toFixed(2)} s | ${again.rss} MB | ${again.files} | < 5 s: ${check(again.ms < 5000)} |`);
console.log(
  `\nThe bulk package stage (Parquet + CSV + datapackage.json, docs/bulk.md) of the full build: ${full.bulkS.toFixed(2)} s, ${(full.bulkKb / 1024).toFixed(1)} MB.`,
);

const dist = process.env.DIST_DIR ?? resolve(import.meta.dirname, '../dist');
const api = await benchApi(dist);
console.log('\n## API against raw node:http serving the same bytes (wrk -t2 -c50 -d10s, limits off)\n');
console.log('| route | ours req/s | raw req/s | ratio | ours p50 / p99 | target |\n|---|---|---|---|---|---|');
const targets: Record<string, number> = { static: 0.5, param: 0.4, series: 0.4 };
const labels: Record<string, string> = {
  static: 'path-addressed `/v1/commodities/metals.cobalt`',
  param: 'parameterised `/v1/events?since=…&category=policy`',
  series: 'parameterised `/v1/reserves/timeseries?…&frequency=weekly`',
};
for (const r of api.rows) {
  const ratio = r.ours.rps / r.raw.rps;
  console.log(
    `| ${labels[r.case]} | ${Math.round(r.ours.rps)} | ${Math.round(r.raw.rps)} | ${ratio.toFixed(2)} | ${r.ours.p50.toFixed(2)} / ${r.ours.p99.toFixed(2)} ms | ≥ ${targets[r.case]}× and p99 < 10 ms: ${check(ratio >= targets[r.case]! && r.ours.p99 < 10)} |`,
  );
}
console.log(
  `| parameterised, a different query on every request (memo misses): \`/v1/events?since=<varied>&limit=<varied>\` | ${Math.round(api.varied.rps)} | — | — | ${api.varied.p50.toFixed(2)} / ${api.varied.p99.toFixed(2)} ms | (reported, no target) |`,
);
console.log(
  `\nServer start to first answer: ${api.startMs} ms (target < 2 s: ${check(api.startMs < 2000)}); server RSS after the run: ${api.rssMb} MB (target < 250 MB: ${check(api.rssMb < 250)}).`,
);

const rl = await benchRateLimited(dist);
console.log('\n## A 429 against a 200 (same route, wrk -c50 -d10s)\n');
console.log('| case | req/s | p99 | non-2xx |\n|---|---|---|---|');
console.log(`| limit not reached (200) | ${Math.round(rl.ok.rps)} | ${rl.ok.p99.toFixed(2)} ms | ${rl.ok.non2xx} |`);
console.log(`| limit 1/min: all but one refused (429) | ${Math.round(rl.limited.rps)} | ${rl.limited.p99.toFixed(2)} ms | ${rl.limited.non2xx} |`);
console.log(`\nA 429 no dearer than a 200: ${check(rl.limited.rps >= rl.ok.rps * 0.95)}.`);

console.log('\n' + searchReport(await benchSearch(dist, 18795), check));

const ask = await benchAsk(dist, 10, 10, 18796);
console.log('\n## Grounded POST /v1/ask (wrk -c10 -d10s, varied questions, no model configured)\n');
console.log('| req/s | p50 | p95 | p99 | non-2xx | target |\n|---|---|---|---|---|---|');
console.log(
  `| ${Math.round(ask.rps)} | ${ask.p50.toFixed(2)} ms | ${ask.p95.toFixed(2)} ms | ${ask.p99.toFixed(2)} ms | ${ask.non2xx} | p95 < 50 ms: ${check(ask.p95 < 50)} |`,
);

console.log(`\nAll targets ${ok ? 'met' : 'NOT met'}.`);
if (!ok) process.exitCode = 1;
