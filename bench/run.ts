import { cpus, loadavg, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { API_ROUTES, UNREACHED_LIMIT, apiRoutesWanted, benchApi, benchRateLimited, median } from './api.ts';
import { benchAsk } from './ask.ts';
import { benchBuild } from './build.ts';
import { benchEdge } from './edge.ts';
import { benchLive } from './live.ts';
import { benchSearch, searchReport } from './search.ts';

/**
 * `npm run bench`: every benchmark, printed as Markdown for BENCHMARKS.md. Needs wrk (apt-get
 * install wrk). `npm run bench -- api` (or build, live, search, ask, edge) runs those sections only, on the
 * build at DIST_DIR (default dist/). BENCH_API_ROUTES=window (keys of API_ROUTES in bench/api.ts)
 * measures only those API routes, without the varied /v1/events run and the 429 comparison.
 */
const only = new Set(process.argv.slice(2));
const want = (section: 'build' | 'live' | 'api' | 'search' | 'ask' | 'edge') => only.size === 0 || only.has(section);
const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; load average at the start ${loadavg()
  .map((l) => l.toFixed(2))
  .join(', ')}`;
console.log(`# npm run bench — ${new Date().toISOString()}\n\nMachine: ${machine}\n`);
let ok = true;
const check = (cond: boolean) => {
  ok &&= cond;
  return cond ? 'met' : '**MISSED**';
};

if (want('build')) {
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
}

// A live build against the publishers' recorded answers (no target: the figures are the report).
if (want('live')) console.log('\n' + (await benchLive()) + '\n');

const dist = process.env.DIST_DIR ?? resolve(import.meta.dirname, '../dist');
if (want('api')) {
  const chosen = process.env.BENCH_API_ROUTES ? apiRoutesWanted() : undefined;
  const api = await benchApi(dist, {
    ...(chosen ? { routes: chosen } : {}),
    ...(process.env.BENCH_ROUNDS ? { rounds: Number(process.env.BENCH_ROUNDS) } : {}),
    ...(process.env.BENCH_SECONDS ? { seconds: Number(process.env.BENCH_SECONDS) } : {}),
  });
  console.log(`\n## API against raw node:http sending the same bytes and headers (wrk -t1 -c50 -d${api.seconds}s, ${api.rounds} rounds)\n`);
  console.log(
    `Each round runs wrk against our server, raw node:http (bench/raw-server.ts) answering the same bytes with every header ours sent for that path, and our server with \`FAST_PATH=off\` (every request through the Hono app), in an order that turns from round to round, a second apart. ` +
      `Rate limit on at ${Number(UNREACHED_LIMIT).toLocaleString('en')} requests per minute (every request counted, none refused), request log on (\`LOG_LEVEL=info\`, stdout to /dev/null). ` +
      'Ratio: ours ÷ raw within a round; the median over the rounds, then the lowest and highest.\n',
  );
  console.log(
    '| route | body | ours req/s | raw req/s | ratio | ours p99 (median / worst round) | app alone: ratio, p99 | server CPU per request: ours / raw / app alone (raw ÷ ours) | target |\n|---|---|---|---|---|---|---|---|---|',
  );
  const int = (n: number) => Math.round(n).toLocaleString('en');
  const spread = (xs: number[], f: (n: number) => string) => `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})`;
  for (const [key, route] of Object.entries(API_ROUTES) as [keyof typeof API_ROUTES, (typeof API_ROUTES)[keyof typeof API_ROUTES]][]) {
    const r = api.routes[key];
    if (!r) continue;
    const ratios = r.ours.map((o, i) => o.rps / r.raw[i]!.rps);
    const appRatios = r.app.map((o, i) => o.rps / r.raw[i]!.rps);
    const p99 = r.ours.map((o) => o.p99);
    const refused = r.ours.reduce((n, o) => n + o.non2xx, 0);
    const met = median(ratios) >= route.target && median(p99) < 10 && refused === 0;
    // CPU time per request (/proc): what the server spends, less moved by the machine's other load than req/s.
    const cpu = (rs: { cpuUs?: number }[]) => median(rs.map((x) => x.cpuUs ?? NaN));
    const cpuText = `${cpu(r.ours).toFixed(0)} / ${cpu(r.raw).toFixed(0)} / ${cpu(r.app).toFixed(0)} µs (${(cpu(r.raw) / cpu(r.ours)).toFixed(2)})`;
    console.log(
      `| ${route.label} \`${route.path}\` | ${(r.bytes / 1024).toFixed(1)} KB | ${spread(
        r.ours.map((o) => o.rps),
        int,
      )} | ${spread(
        r.raw.map((o) => o.rps),
        int,
      )} | **${spread(ratios, (n) => n.toFixed(2))}** | ${median(p99).toFixed(2)} / ${Math.max(...p99).toFixed(2)} ms (raw: ${median(r.raw.map((o) => o.p99)).toFixed(2)} ms) | ${median(appRatios).toFixed(2)}, ${median(r.app.map((o) => o.p99)).toFixed(1)} ms | ${cpuText} | ≥ ${route.target}× and p99 < 10 ms${refused ? ` (${refused} non-2xx!)` : ''}: ${check(met)} |`,
    );
  }
  const againstNginx = (Object.entries(API_ROUTES) as [keyof typeof API_ROUTES, (typeof API_ROUTES)[keyof typeof API_ROUTES]][]).filter(
    ([key, route]) => route.nginx !== undefined && api.routes[key],
  );
  if (againstNginx.length) {
    console.log(
      '\nAgainst nginx (bench/nginx.ts: one worker, `open_file_cache`, `sendfile`, no access log, the same file with the same headers; in the same rounds, the order turning with the others):\n',
    );
    console.log(
      "| route | ours req/s | nginx req/s | ours ÷ nginx | raw node:http ÷ nginx (a Node server's floor) | nginx p99 | server CPU per request: ours / raw / nginx | target |\n|---|---|---|---|---|---|---|---|",
    );
    for (const [key, route] of againstNginx) {
      const r = api.routes[key]!;
      const nginx = r.nginx;
      if (!nginx) {
        console.log(
          `| ${route.label} \`${route.path}\` | — | — | — | — | — | — | ≥ ${route.nginx}× nginx: **not measured** (nginx not installed: apt-get install nginx) |`,
        );
        ok = false;
        continue;
      }
      const over = (rs: { rps: number }[]) => rs.map((o, i) => o.rps / nginx[i]!.rps);
      const ratios = over(r.ours);
      const cpu = (rs: { cpuUs?: number }[]) => median(rs.map((x) => x.cpuUs ?? NaN)).toFixed(0);
      const rps = (rs: { rps: number }[]) =>
        spread(
          rs.map((o) => o.rps),
          int,
        );
      const ratio = (xs: number[]) => spread(xs, (n) => n.toFixed(2));
      console.log(
        `| ${route.label} \`${route.path}\` | ${rps(r.ours)} | ${rps(nginx)} | **${ratio(ratios)}** | ${ratio(over(r.raw))} | ${median(nginx.map((o) => o.p99)).toFixed(2)} ms | ${cpu(r.ours)} / ${cpu(r.raw)} / ${cpu(nginx)} µs | ≥ ${route.nginx}× nginx: ${check(median(ratios) >= route.nginx!)} |`,
      );
    }
  }
  if (api.varied) {
    console.log(
      `| parameterised, a different query on every request (memo misses, the app): \`/v1/events?since=<varied>&limit=<varied>\` | — | ${int(api.varied.rps)} | — | — | ${api.varied.p99.toFixed(2)} ms (p50 ${api.varied.p50.toFixed(2)} ms) | — | (reported, no target) |`,
    );
  }
  console.log(
    api.varied
      ? `\nServer start to first answer: ${api.startMs} ms (target < 2 s: ${check(api.startMs < 2000)}); server RSS, highest after any round of the routes: ${api.rssMb} MB, and after the varied queries (which fill the response memo, RESPONSE_MEMO_MB): ${api.rssAfterVariedMb} MB (target < 250 MB: ${check(Math.max(api.rssMb, api.rssAfterVariedMb) < 250)}).`
      : `\nServer start to first answer: ${api.startMs} ms; server RSS, highest after any round: ${api.rssMb} MB (routes chosen by BENCH_API_ROUTES: the start-up and RSS targets are checked on the full run).`,
  );
}
if (want('api') && !process.env.BENCH_API_ROUTES) {
  const rl = await benchRateLimited(dist);
  const a = rl.accept;
  const cpu = (us: number) => `${us.toFixed(0)} µs`;
  console.log(
    `\n## A 429 against a 200, and a 429 with a 14 KB Accept header (\`${API_ROUTES.path.path}\`, wrk -t1 -c50 -d${rl.seconds}s, ${rl.rounds} rounds, the five runs back to back in each, the order turning; the median run of each)\n`,
  );
  console.log(
    "Raw node:http (bench/raw-server.ts) answers the refusing server's 429, bytes and headers, with and without the header: what reading 13,846 more bytes costs Node's parser, which no server can skip. CPU: the server process's user + system time per request (/proc), the median round.\n",
  );
  console.log('| case | req/s | p99 | non-2xx | server CPU per request |\n|---|---|---|---|---|');
  const row = (label: string, r: typeof rl.ok, us?: number) =>
    console.log(`| ${label} | ${Math.round(r.rps)} | ${r.p99.toFixed(2)} ms | ${r.non2xx} | ${us === undefined ? '—' : cpu(us)} |`);
  row('limit not reached (200)', rl.ok);
  row('limit 1/min: all but one refused (429)', rl.limited, a.cpuUs.limited);
  row('the same 429, the request with a 14 KB `Accept`', a.limitedLong, a.cpuUs.limitedLong);
  row('raw node:http, the same 429', a.raw, a.cpuUs.raw);
  row('raw node:http, the same 429, 14 KB `Accept`', a.rawLong, a.cpuUs.rawLong);
  const list = (xs: number[]) => xs.map((r) => r.toFixed(2)).join(', ');
  console.log(
    `\n429s ÷ 200s, req/s in each round: ${list(rl.ratios)}; median ${rl.ratio.toFixed(2)}. A 429 no dearer than a 200 (median ≥ 0.95): ${check(rl.ratio >= 0.95)}.`,
  );
  console.log(
    `\nA 14 KB Accept against none, ours ÷ raw's (req/s, (ours long ÷ ours plain) ÷ (raw long ÷ raw plain)) in each round: ${list(a.ratios)}; median ${a.ratio.toFixed(2)}. A 429 with a 14 KB Accept no dearer than a plain one beyond the reading of its bytes (median ≥ 0.95): ${check(a.ratio >= 0.95)}.`,
  );
}

if (want('search')) console.log('\n' + searchReport(await benchSearch(dist, 18795), check));

if (want('ask')) {
  const ask = await benchAsk(dist, 10, 10, 18796);
  console.log('\n## Grounded POST /v1/ask (wrk -c10 -d10s, varied questions, no model configured)\n');
  console.log('| req/s | p50 | p95 | p99 | non-2xx | target |\n|---|---|---|---|---|---|');
  console.log(
    `| ${Math.round(ask.rps)} | ${ask.p50.toFixed(2)} ms | ${ask.p95.toFixed(2)} ms | ${ask.p99.toFixed(2)} ms | ${ask.non2xx} | p95 < 50 ms: ${check(ask.p95 < 50)} |`,
  );
}

console.log(
  `\nAll targets ${ok ? 'met' : 'NOT met'} (load average at the end ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}).`,
);
// The Cloudflare Worker in workerd (miniflare) beside the Node server, in the same run (docs/deploy.md).
if (want('edge')) console.log('\n' + (await benchEdge()));

if (!ok) process.exitCode = 1;
