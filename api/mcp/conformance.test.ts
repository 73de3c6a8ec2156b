import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { packageAssets } from '../../edge/assets.ts';
import { bundleWorker } from '../../edge/bundle.ts';
import { startLocalEdge, type LocalEdge } from '../../edge/local.ts';
import { startMcpTestServer, type McpTestServer } from './test-server.ts';

/**
 * The official conformance suite (@modelcontextprotocol/conformance, its active server scenarios)
 * against the Node server and against the Worker in workerd, as its CLI runs in CI: exit status 0
 * with the committed baseline (a scenario failing outside it, or passing inside it, is status 1).
 * The baseline may hold only scenarios that call the suite's own fixtures, and each must fail for
 * that reason: the message names the fixture (a tool, prompt or resource of the suite).
 */

const EXPECTED = join(import.meta.dirname, 'conformance-expected-failures.yml');
const CLI = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');
const run = promisify(execFile);

/**
 * Why a baseline scenario may fail: it reaches one of the suite's fixtures, or subscribes to one
 * (no subscriptions here); on the Worker, a scenario that needs a session (none there).
 */
const FIXTURE = /unknown (?:tool|prompt) 'test_\w+'|unknown resource 'test:\/\/[^']+'/;
const NO_SUBSCRIPTIONS = new Set(['resources-subscribe', 'resources-unsubscribe']);
const NO_SESSION = 'server-sse-multiple-streams-session';

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

const distDir = inject('distDir');
let work: string;
let edge: LocalEdge;
let node: McpTestServer;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'chokepoint-mcp-conformance-'));
  await packageAssets(join(distDir, 'current'), join(work, 'assets'));
  await bundleWorker(join(work, 'worker.js'));
  [edge, node] = await Promise.all([
    startLocalEdge({ script: join(work, 'worker.js'), assets: join(work, 'assets'), vars: { RATE_LIMIT_DATA: '0', RATE_LIMIT_ASK: '0' } }),
    // Each scenario opens its own session and leaves it open: room for the 30 of one run.
    startMcpTestServer({ MCP_MAX_SESSIONS_PER_IP: '64' }),
  ]);
}, 180_000);

afterAll(async () => {
  await edge?.dispose();
  await node?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** The suite's CLI against `url`: its exit status, its output and every check it recorded, by scenario. */
async function conformance(url: string, baseline: string, out: string): Promise<{ status: number; output: string; scenarios: Map<string, Check[]> }> {
  let status = 0;
  let output: string;
  try {
    const r = await run(process.execPath, [CLI, 'server', '--url', url, '--expected-failures', baseline, '-o', out], { timeout: 240_000, maxBuffer: 16 << 20 });
    output = r.stdout + r.stderr;
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    status = typeof e.code === 'number' ? e.code : -1;
    output = `${e.stdout ?? ''}${e.stderr ?? ''}`;
  }
  const scenarios = new Map<string, Check[]>();
  for (const dir of await readdir(out)) {
    const name = /^server-(.+)-\d{4}-\d\d-\d\dT/.exec(dir)?.[1];
    if (name) scenarios.set(name, JSON.parse(await readFile(join(out, dir, 'checks.json'), 'utf8')) as Check[]);
  }
  return { status, output, scenarios };
}

const expected = async () => parse(await readFile(EXPECTED, 'utf8')) as { server: string[]; worker: string[] };

describe.each(['Node', 'Worker'])('the official conformance suite against the %s', (where) => {
  it('passes every active server scenario but those that call the suite’s own fixtures, which fail for that reason', async () => {
    const url = `${where === 'Node' ? node.url : edge.url}/mcp`;
    const { server, worker } = await expected();
    // The Worker's run: the committed list and its own entries (the scenarios that need a session).
    let file = EXPECTED;
    if (where === 'Worker') await writeFile((file = join(work, 'worker-expected-failures.yml')), stringify({ server: [...server, ...worker] }));
    const { status, output, scenarios } = await conformance(url, file, join(work, where));
    expect(status, output.slice(-3000)).toBe(0);
    const baseline = new Set(where === 'Worker' ? [...server, ...worker] : server);
    expect(scenarios.size, output.slice(-3000)).toBeGreaterThanOrEqual(30);
    for (const [name, checks] of scenarios) {
      const failures = checks.filter((c) => c.status === 'FAILURE');
      if (!baseline.has(name)) {
        expect(failures, name).toEqual([]);
        expect(
          checks.some((c) => c.status === 'SUCCESS'),
          name,
        ).toBe(true);
        continue;
      }
      if (worker.includes(name) && where === 'Worker') {
        expect(
          checks.map((c) => `${c.id} ${c.status}`),
          name,
        ).toEqual([`${NO_SESSION} WARNING`]);
        continue;
      }
      expect(failures.length, name).toBeGreaterThan(0);
      for (const f of failures) expect(f.errorMessage, name).toMatch(NO_SUBSCRIPTIONS.has(name) ? /Method not found/ : FIXTURE);
    }
    for (const name of baseline) expect(scenarios.has(name), `${name} was not run`).toBe(true);
  }, 300_000);
});
