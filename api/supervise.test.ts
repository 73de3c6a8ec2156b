import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { freePort } from '../test/http.ts';
import { SERVER_ENV, SERVER_NODE_FLAGS } from './server-process.ts';

/** `npm run serve` as a real process tree: the supervisor, the server child, a SIGKILL. */

const REPO = resolve(import.meta.dirname, '..');
const running: ChildProcess[] = [];
afterEach(() => {
  for (const p of running.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
});

function health(port: number): Promise<number> {
  return new Promise((r) => {
    const req = request({ host: '127.0.0.1', port, path: '/healthz', agent: false, timeout: 2000 }, (res) => {
      res.resume();
      res.on('end', () => r(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => r(0));
    req.end();
  });
}

async function waitFor<T>(check: () => T | undefined | Promise<T | undefined>, ms: number, what: string): Promise<T> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    await sleep(100);
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}`);
}

function serve(env: Record<string, string>): { proc: ChildProcess; log: () => string } {
  let out = '';
  const proc = spawn(process.execPath, [resolve(REPO, 'bin/serve.ts')], {
    cwd: REPO,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      DIST_DIR: inject('distDir'),
      RATE_LIMIT_DATA: '0',
      RATE_LIMIT_ASK: '0',
      CHOKEPOINT_SUPERVISED: '',
      SUPERVISE: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  running.push(proc);
  return { proc, log: () => out };
}

const childPids = (log: string) => [...log.matchAll(/started server \(pid (\d+)\)/g)].map((m) => Number(m[1]));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the supervisor of npm run serve', () => {
  it('restarts a server child killed with SIGKILL, and stops it with itself', async () => {
    const port = await freePort();
    const { proc, log } = serve({ PORT: String(port) });
    const [first] = await waitFor(() => (childPids(log()).length ? childPids(log()) : undefined), 30_000, 'the first child');
    await waitFor(async () => (await health(port)) === 200 || undefined, 30_000, 'the first child to answer');
    // The child runs the compiled server with the server's flags and environment (api/server-process.ts).
    expect(log()).toMatch(/the server runs compiled: .*\.server\/serve\.mjs/);
    const cmdline = readFileSync(`/proc/${first}/cmdline`, 'utf8').split('\0');
    expect(cmdline).toEqual(expect.arrayContaining([...SERVER_NODE_FLAGS, resolve(REPO, '.server/serve.mjs')]));
    const environ = readFileSync(`/proc/${first}/environ`, 'utf8').split('\0');
    expect(environ).toEqual(expect.arrayContaining(Object.entries(SERVER_ENV).map(([k, v]) => `${k}=${v}`)));

    process.kill(first!, 'SIGKILL');
    const second = await waitFor(() => childPids(log())[1], 30_000, 'a restarted child');
    expect(second).not.toBe(first);
    expect(log()).toMatch(new RegExp(`server \\(pid ${first}\\) died \\(signal SIGKILL\\) after [\\d.]+ s; restarting in \\d+ ms`));
    await waitFor(async () => (await health(port)) === 200 || undefined, 30_000, 'the restarted child to answer');
    expect(proc.exitCode).toBeNull();

    const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
    proc.kill('SIGTERM');
    expect(await exited).toBe(0);
    await waitFor(() => !alive(second!) || undefined, 10_000, 'the child to stop with the supervisor');
    expect(log()).toMatch(new RegExp(`server \\(pid ${second}\\) stopped`));
  }, 90_000);

  it('does not restart a server that refuses its configuration', async () => {
    const { proc, log } = serve({ PORT: 'not-a-port' });
    const code = await new Promise<number | null>((r) => proc.once('exit', (c) => r(c)));
    expect(code).toBe(78);
    expect(log()).toMatch(/PORT must be a port number/);
    expect(childPids(log())).toHaveLength(0);
  }, 30_000);

  it('a supervised child left by its supervisor (SIGKILL) shuts down instead of holding the port', async () => {
    const port = await freePort();
    const { proc, log } = serve({ PORT: String(port) });
    const [child] = await waitFor(() => (childPids(log()).length ? childPids(log()) : undefined), 30_000, 'the child');
    await waitFor(async () => (await health(port)) === 200 || undefined, 30_000, 'the child to answer');
    proc.kill('SIGKILL');
    await waitFor(() => !alive(child!) || undefined, 10_000, 'the orphan to exit');
    expect(await health(port)).toBe(0);
  }, 60_000);
});
