import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const repo = resolve(import.meta.dirname, '..');

interface Run {
  ms: number;
  maxRssMb: number;
  files: number;
  statuses: string[];
  bulk: { seconds: number; kb: number };
}

function buildOnce(outDir: string): Run {
  const out = execFileSync(process.execPath, [join(repo, 'bench/build-once.ts')], { env: { ...process.env, DIST_DIR: outDir }, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1)!) as Run;
}

/** Full build from nothing, then rebuilds with no changed source; each in a fresh process. */
export function benchBuild(rounds = 3) {
  const rows: { case: string; ms: number; maxRssMb: number; files: number; bulk: Run['bulk'] }[] = [];
  for (let i = 0; i < rounds; i++) {
    const out = mkdtempSync(join(tmpdir(), 'chokepoint-bench-'));
    try {
      const full = buildOnce(out);
      const again = buildOnce(out);
      if (!again.statuses.every((s) => s === 'unchanged')) throw new Error(`rebuild reloaded sources: ${again.statuses}`);
      rows.push({ case: 'full build (no snapshots)', ...full }, { case: 'rebuild, no source changed', ...again });
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }
  return rows;
}
