import { cpus, totalmem } from 'node:os';
import { benchBuild } from './build.ts';

/** `npm run bench`: every benchmark, printed as Markdown for BENCHMARKS.md. */
const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
console.log(`# npm run bench — ${new Date().toISOString()}\n\nMachine: ${machine}\n`);

const rows = benchBuild();
const worst = (c: string) => {
  const r = rows.filter((x) => x.case === c);
  return { ms: Math.max(...r.map((x) => x.ms)), rss: Math.max(...r.map((x) => x.maxRssMb)), files: r[0]!.files };
};
console.log('## Pipeline build (3 rounds, worst of each)\n');
console.log('| case | wall time | peak RSS | files | target |\n|---|---|---|---|---|');
const full = worst('full build (no snapshots)');
const again = worst('rebuild, no source changed');
console.log(`| full build from the real sources | ${(full.ms / 1000).toFixed(2)} s | ${full.rss} MB | ${full.files} | < 60 s, < 1.5 GB |`);
console.log(`| rebuild, no source changed | ${(again.ms / 1000).toFixed(2)} s | ${again.rss} MB | ${again.files} | < 5 s |`);
const ok = full.ms < 60_000 && full.rss < 1536 && again.ms < 5000;
console.log(`\nBuild targets ${ok ? 'met' : 'MISSED'}.`);
if (!ok) process.exitCode = 1;
