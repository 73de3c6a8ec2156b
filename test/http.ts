import { request } from 'node:http';
import { createServer } from 'node:net';
import { expect, inject } from 'vitest';
import { readConfig } from '../lib/config.ts';
import { startServer, type RunningServer } from '../api/server.ts';
import { createLogger, parseLogLevel, type Logger } from '../lib/log.ts';

/** The servers tests start log nothing unless LOG_LEVEL is set. */
export function testLogger(): Logger {
  return createLogger({ name: 'api', level: process.env.LOG_LEVEL ? parseLogLevel(process.env.LOG_LEVEL) : 'silent' });
}

/**
 * Start the real server on a free loopback port over the shared test build; `logger` takes its log
 * (a test capturing lines passes its own). The fast path is on unless FAST_PATH says otherwise.
 */
export async function startTestServer(env: Record<string, string> = {}, logger: Logger = testLogger()): Promise<RunningServer & { url: string }> {
  const running = await startServer(
    readConfig({
      DIST_DIR: inject('distDir'),
      PORT: '0',
      HOST: '127.0.0.1',
      RATE_LIMIT_DATA: '0',
      RATE_LIMIT_ASK: '0',
      RATE_LIMIT_BULK_MB: '0',
      // `FAST_PATH=off npm test` runs every HTTP test against the app alone (api/fast-path.ts).
      ...(process.env.FAST_PATH ? { FAST_PATH: process.env.FAST_PATH } : {}),
      ...env,
    }),
    true,
    {},
    logger,
  );
  return { ...running, url: `http://127.0.0.1:${running.port}` };
}

/** A loopback port free at the time of asking (for servers started as child processes). */
export async function freePort(): Promise<number> {
  return new Promise((r, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => r(port));
    });
  });
}

export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** An RFC 9457 problem with CORS, as every refusal is answered; its parsed body. */
export function expectProblem(r: RawReply, status: number): Record<string, unknown> {
  expect(r.status, r.body).toBe(status);
  expect(r.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  expect(r.headers['access-control-allow-origin']).toBe('*');
  const body = JSON.parse(r.body) as Record<string, unknown>;
  expect(body).toMatchObject({ status, type: expect.any(String), title: expect.any(String), detail: expect.any(String) });
  return body;
}

/** One request on a fresh socket from a chosen loopback address (fetch cannot pick its source). */
export function sendFrom(
  port: number,
  method: string,
  path: string,
  opts: { from?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method, path, localAddress: opts.from ?? '127.0.0.1', agent: false, headers: opts.headers, timeout: 10_000 },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(opts.body);
  });
}
