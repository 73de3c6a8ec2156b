import { rm } from 'node:fs/promises';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SOURCE_IDS } from '../contract/sources.ts';
import type { SourceStatus } from '../contract/manifest.ts';
import { runBuild } from '../pipeline/build.ts';
import { DATA_DIR, NO_SITE, SOURCES_DIR, testEffects } from '../test/support.ts';
import { originsOf, recordedPlays, replayPublishers } from '../test/publishers.ts';

/**
 * A live build against the publishers' stand-ins (test/publishers.ts: one local server per
 * source, replaying the recorded answers in ../shared/publishers/ where the adapters read them,
 * 404 for the others). After a mirror build (the snapshots a running service has), one forced
 * live build (every source asked, no validators) and one scheduled build 8 days later (only what
 * is due, conditionally: the weekly country codes answered 304, the yearly USGS file not asked). The site stage is skipped: it does not depend on how sources arrive.
 */
export async function benchLive(): Promise<string> {
  const servers = await replayPublishers(SOURCE_IDS, recordedPlays());
  const out = mkdtempSync(join(tmpdir(), 'chokepoint-bench-live-'));
  const now = new Date();
  const options = (force: boolean) => ({
    sourcesDir: SOURCES_DIR,
    dataDir: DATA_DIR,
    outDir: out,
    baseUrl: 'https://chokepoint.test',
    site: NO_SITE,
    download: true,
    sourceKeys: { eia: 'BENCH', agsi: 'BENCH' },
    live: { force, publisherUrls: originsOf(servers) },
  });
  try {
    await runBuild({ ...options(false), download: false }, testEffects(now));
    const rows: string[] = [];
    for (const [label, force, at] of [
      ['forced (`--download --force`)', true, now],
      ['scheduled, 8 days later', false, new Date(now.getTime() + 8 * 86_400_000)],
    ] as const) {
      const started = performance.now();
      const fx = { ...testEffects(at), fetch: globalThis.fetch };
      const r = await runBuild(options(force), fx);
      const ms = performance.now() - started;
      // The build's own line for the fetch stage: "✓ fetch from the publishers   0.61s  …".
      const fetchS = fx.lines.map((l) => /✓ fetch from the publishers\s+([\d.]+)s/.exec(l)?.[1]).find(Boolean) ?? '?';
      // A source without a fetch record is read from the mirror only (its adapter's mirrorOnly: an earlier edition, or a source not fetched yet).
      const fetched = r.sources.filter((s): s is SourceStatus & { fetch: NonNullable<SourceStatus['fetch']> } => s.fetch !== undefined);
      const mirrorOnly = r.sources.filter((s) => s.fetch === undefined).map((s) => s.id);
      const asked = fetched.filter((s) => s.fetch.requests > 0);
      const requests = fetched.reduce((n, s) => n + s.fetch.requests, 0);
      const bytes = fetched.reduce((n, s) => n + s.fetch.bytes, 0);
      const per = fetched.map(({ id, fetch: f }) => `${id} ${f.outcome} ${f.requests}/${f.not_modified}/${(f.bytes / 1024).toFixed(0)}`).join('; ');
      const rest = mirrorOnly.length ? `; read from the mirror only (docs/freshness.md): ${mirrorOnly.join(', ')}` : '';
      rows.push(`| ${label} | ${(ms / 1000).toFixed(2)} s | ${fetchS} s | ${requests} | ${asked.length} | ${(bytes / 1024).toFixed(0)} KB | ${per}${rest} |`);
    }
    return [
      '## Live build against the publishers’ stand-ins (recorded answers, `npm run bench -- live`)\n',
      'One local server per source replays ../shared/publishers/ where the adapter asks for what was recorded (country codes, USGS MCS 2026, the World Bank’s June 2026 workbook, refused after June as an old edition; the EI 2026 workbook), 404 elsewhere (those sources fail and keep their snapshot); site stage skipped. Per source: outcome, requests / of them 304 / KB received.\n',
      '| build | wall time | of it fetching | requests | sources asked | bytes | per source |\n|---|---|---|---|---|---|---|',
      ...rows,
    ].join('\n');
  } finally {
    for (const s of Object.values(servers)) await s.close();
    await rm(out, { recursive: true, force: true });
  }
}
