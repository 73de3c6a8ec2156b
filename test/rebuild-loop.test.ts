import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { Health } from '../contract/health.ts';
import { freePort } from './http.ts';
import { REPO, SOURCES_DIR, tempDir } from './support.ts';

/**
 * The rebuild loop as an operator runs it: `npm run build -- --every` and `npm start` as real
 * process trees with an interval of seconds, left running for several intervals (issue 35: the
 * loop exited after its first build and `npm start` restarted it with back-off). Builds skip the
 * website (CHOKEPOINT_SITE=off) so that one takes seconds, not minutes.
 */

const running: ChildProcess[] = [];
afterEach(() => {
  for (const p of running.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
});

function run(args: string[], env: Record<string, string>): { proc: ChildProcess; log: () => string; exited: Promise<number | null> } {
  let out = '';
  const proc = spawn(process.execPath, args, {
    cwd: REPO,
    env: { ...process.env, SOURCES_DIR, CHOKEPOINT_SITE: 'off', CHOKEPOINT_SUPERVISED: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  running.push(proc);
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  return { proc, log: () => out, exited };
}

/** Waits for an event, with a generous bound (a shared machine builds slowly); no timing is asserted. */
async function waitFor<T>(check: () => T | undefined | false | Promise<T | undefined>, ms: number, what: string, log: () => string): Promise<T> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    await sleep(250);
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}; log:\n${log().slice(-3000)}`);
}

const published = (log: string) => [...log.matchAll(/published build (\S+):/g)].map((m) => m[1]!);
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
/** Direct children of a process, from /proc. */
const childrenOf = (pid: number) =>
  readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .filter((n) => {
      try {
        // Field 4 of /proc/<pid>/stat is the parent's pid (after the command in parentheses).
        return Number(readFileSync(`/proc/${n}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);

const MINUTES = 60_000;

describe('the rebuild loop', () => {
  it(
    'npm run build -- --every 2s stays up and builds again after each interval, and stops on SIGTERM',
    async () => {
      const dist = await tempDir('loop');
      const { proc, log, exited } = run([join(REPO, 'bin/build.ts'), '--every', '2s'], { DIST_DIR: dist });
      // The first build and two more, one after each of two intervals, all by the same process.
      const builds = await waitFor(
        () => {
          // The bug of issue 35: the loop exited (code 0) after its first build.
          if (proc.exitCode !== null) throw new Error(`the loop exited with ${proc.exitCode} after ${published(log()).length} build(s)`);
          return published(log()).length >= 3 && published(log());
        },
        8 * MINUTES,
        'three builds',
        log,
      );
      expect(proc.exitCode).toBe(null);
      expect(new Set(builds).size).toBe(builds.length);
      expect(log().match(/next build in 2s/g)!.length).toBeGreaterThanOrEqual(3);
      // Each is published: builds/ holds them (none is old enough to prune), current names the last.
      const folders = readdirSync(join(dist, 'builds')).filter((n) => !n.startsWith('.'));
      expect(folders).toEqual(expect.arrayContaining(builds.slice(0, 3)));
      expect(log()).not.toMatch(/build failed|⚠/);
      proc.kill('SIGTERM');
      expect(await exited).toBe(0);
    },
    10 * MINUTES,
  );

  it(
    'npm start keeps one rebuild child alive across intervals: no restart, no error line, one process tree',
    async () => {
      const dist = await tempDir('start');
      const port = await freePort();
      const start = run([join(REPO, 'bin/start.ts')], {
        DIST_DIR: dist,
        PORT: String(port),
        HOST: '127.0.0.1',
        REBUILD_EVERY: '3s',
        RATE_LIMIT_DATA: '0',
        RATE_LIMIT_ASK: '0',
      });
      const { log } = start;
      const loopPid = await waitFor(() => Number(/started rebuild loop \(pid (\d+)\)/.exec(log())?.[1]) || undefined, 8 * MINUTES, 'the rebuild loop', log);
      const before = published(log()).length;
      // Two intervals later the same child has built twice more.
      await waitFor(
        () => {
          if (/rebuild loop \(pid \d+\) died/.test(log())) throw new Error(`the rebuild loop died and was restarted:\n${log().slice(-2000)}`);
          return published(log()).length >= before + 2;
        },
        8 * MINUTES,
        'two scheduled builds',
        log,
      );
      expect(alive(loopPid)).toBe(true);
      expect(log().match(/started rebuild loop/g)).toHaveLength(1);
      expect(log()).not.toMatch(/died|"level":50|"level":60|build failed/);
      // One tree: `npm start` with its two children, the server and the rebuild loop.
      const kids = childrenOf(start.proc.pid!);
      expect(kids).toHaveLength(2);
      expect(kids).toContain(loopPid);
      // /healthz says how much disk dist/ takes and how many builds it holds (measured in the background).
      const health = await waitFor(
        async () => {
          const res = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null);
          const h = res?.ok ? Health.parse(await res.json()) : null;
          return h?.disk ? h.disk : undefined;
        },
        2 * MINUTES,
        'a disk measurement in /healthz',
        log,
      );
      expect(health.dist_bytes).toBeGreaterThan(1_000_000);
      expect(health.builds).toBeGreaterThanOrEqual(1);
      start.proc.kill('SIGTERM');
      expect(await start.exited).toBe(0);
      expect(alive(loopPid)).toBe(false);
    },
    12 * MINUTES,
  );
});
