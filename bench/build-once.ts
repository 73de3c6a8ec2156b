// One build in its own process, so peak memory (maxRSS) is the build's alone; prints a JSON line.
import { runBuild } from '../pipeline/build.ts';
import { buildSettings, readConfig } from '../lib/config.ts';
import { type Logger, defaultEffects } from '../pipeline/effects.ts';

const config = readConfig();
// The bulk stage's own line ("✓ bulk package  0.43s  27 files, 3871 KB, …"): its time and size.
let bulk = { seconds: NaN, kb: NaN };
const log: Logger = {
  info: (m) => {
    const b = /✓ bulk package\s+([\d.]+)s\s+\d+ files, (\d+) KB/.exec(m);
    if (b) bulk = { seconds: Number(b[1]), kb: Number(b[2]) };
  },
  warn: () => {},
};
const started = performance.now();
const r = await runBuild(buildSettings(config), defaultEffects(log));
console.log(
  JSON.stringify({
    ms: Math.round(performance.now() - started),
    maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    files: r.files,
    statuses: [...new Set(r.sources.map((s) => s.status))],
    bulk,
  }),
);
