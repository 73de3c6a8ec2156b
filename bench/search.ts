import { rssMb, startServer, waitFor, wrk, type WrkResult } from './api.ts';

/** Queries in the four languages (typos and off-topic ones among them); each request adds a varying limit so the per-build response memo never answers. */
const QUERIES = [
  'cobalt export ban',
  'EU gas storage winter',
  'Strait of Hormuz closure',
  'tankers bottled up at the Persian chokepoint',
  'running short of heating fuel when temperatures plunge',
  'pénurie de cuivre',
  'stockage de gaz en Europe',
  'terres rares chinoises',
  'Lieferengpass Dünger',
  'Straße von Hormus',
  'Gasspeicher Füllstand Deutschland',
  'escasez de trigo',
  'cierre del estrecho de Ormuz',
  'níquel Indonesia',
  'rare earth magnets',
  'LNG Asia Europe competition',
  'fertilser prices',
  'Kupferpreis Rekord',
  'Why are urea prices so high?',
  'football world cup results',
];
const VARIED = `
local queries = { ${QUERIES.map((q) => JSON.stringify(encodeURIComponent(q))).join(', ')} }
counter = 0
request = function()
  counter = counter + 1
  local q = queries[(counter % #queries) + 1]
  return wrk.format("GET", "/v1/search?q=" .. q .. "&limit=" .. (counter % 50 + 1))
end
`;

export interface SearchBench {
  /** wrk -c10, a different query (memo misses) on every request. */
  varied: WrkResult;
  /** RSS of the API with the search index and vectors loaded, before and after the run. */
  rssLoadedMb: number;
  rssAfterMb: number;
  startMs: number;
}

/**
 * /v1/search under load: p99 at 10 connections (target < 5 ms) and the API's RSS with the
 * index and vectors loaded (target < 250 MB). Needs wrk.
 */
export async function benchSearch(distDir: string, port = 18790): Promise<SearchBench> {
  const api = await startServer({ PORT: String(port), HOST: '127.0.0.1', DIST_DIR: distDir, RATE_LIMIT_DATA: '0', RATE_LIMIT_ASK: '0' });
  try {
    const startMs = await waitFor(`http://127.0.0.1:${port}/healthz`);
    await waitFor(`http://127.0.0.1:${port}/v1/search?q=gas`); // loads the index
    const rssLoadedMb = rssMb(api);
    wrk(`http://127.0.0.1:${port}/v1/search`, 10, 3, VARIED); // warm-up
    const varied = wrk(`http://127.0.0.1:${port}/v1/search`, 10, 10, VARIED);
    return { varied, rssLoadedMb, rssAfterMb: rssMb(api), startMs: Math.round(startMs) };
  } finally {
    api.kill();
  }
}

/** Markdown lines for `npm run bench`; `check` marks a target met or missed. */
export function searchReport(r: SearchBench, check: (ok: boolean) => string): string {
  return [
    '\n## Search (`/v1/search`, wrk -t2 -c10 -d10s, a different query and limit on every request)\n',
    '| req/s | p50 / p99 | non-2xx | RSS with index loaded / after the run | target |',
    '|---|---|---|---|---|',
    `| ${Math.round(r.varied.rps)} | ${r.varied.p50.toFixed(2)} / ${r.varied.p99.toFixed(2)} ms | ${r.varied.non2xx} | ${r.rssLoadedMb} / ${r.rssAfterMb} MB | p99 < 5 ms and RSS with index and vectors loaded < 250 MB (issue 5): ${check(r.varied.p99 < 5 && r.varied.non2xx === 0 && r.rssLoadedMb < 250)}; RSS after the run reported, V8's high-water mark |`,
  ].join('\n');
}
