// One build in its own process, so peak memory (maxRSS) is the build's alone; prints a JSON line.
import { runBuild } from '../pipeline/build.ts';
import { readPipelineEnv } from '../pipeline/config.ts';
import { defaultEffects, silentLogger } from '../pipeline/effects.ts';

const env = readPipelineEnv();
const started = performance.now();
const r = await runBuild({ sourcesDir: env.SOURCES_DIR, dataDir: env.DATA_DIR, outDir: env.DIST_DIR, baseUrl: env.PUBLIC_BASE_URL }, defaultEffects(silentLogger));
console.log(
  JSON.stringify({
    ms: Math.round(performance.now() - started),
    maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    files: r.files,
    statuses: [...new Set(r.sources.map((s) => s.status))],
  }),
);
