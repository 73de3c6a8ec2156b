import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createLogger, RequestLog } from './log.ts';

/** A logger whose destination keeps what it is given, write by write. */
function capture(level: 'info' | 'warn' = 'info') {
  const writes: string[] = [];
  const logger = createLogger({ name: 'api', level, destination: { write: (s: string) => void writes.push(s) } });
  const lines = () => writes.join('').split('\n').filter(Boolean);
  return { logger, writes, lines };
}

describe('the request log', () => {
  it('writes the line pino would write for the same fields, escaped to ASCII', () => {
    const { logger, lines } = capture();
    const log = RequestLog.of(logger)!;
    const path = '/v1/x"y\\z\u0001é😀';
    const query = 'q=Kobalt&a=\ud800';
    log.write('id-1', 'GET', path, query, 200, false, 1234, 0.5, '203.0.113.0/24');
    log.write('id-2', 'HEAD', '/', undefined, null, true, 0, 12.3, 'unknown');
    log.flush();
    logger.info({ request_id: 'id-1', method: 'GET', path, query, status: 200, bytes: 1234, ms: 0.5, client: '203.0.113.0/24' }, 'request');
    const [ours, second, pinos] = lines().map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines()[0]).toMatch(/^[\x20-\x7e]+$/);
    expect({ ...ours, time: undefined }).toEqual({ ...pinos, time: undefined });
    expect(Object.keys(ours!)).toEqual(Object.keys(pinos!));
    expect(second).toMatchObject({ request_id: 'id-2', method: 'HEAD', path: '/', status: null, aborted: true, bytes: 0, ms: 12.3, client: 'unknown' });
    expect(second).not.toHaveProperty('query');
  });

  it('writes its numbers as JSON does: statuses, byte counts and times to a tenth of a millisecond', () => {
    const { logger, lines } = capture();
    const log = RequestLog.of(logger)!;
    const cases = [
      [0, 0],
      [9, 0.1],
      [10, 1],
      [99, 9.9],
      [100, 10],
      [15_893, 10.5],
      [1_048_576, 1234.5],
      [2 ** 40, 60_000],
    ] as const;
    for (const [bytes, ms] of cases) log.write('n', 'GET', '/', undefined, 304, false, bytes, ms, 'unknown');
    log.flush();
    expect(
      lines()
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .map((l) => [l.bytes, l.ms, l.status]),
    ).toEqual(cases.map(([b, m]) => [b, m, 304]));
    expect(lines()[6]).toContain('"bytes":1048576,"ms":1234.5,');
    expect(lines()[2]).toContain('"bytes":10,"ms":1,');
  });

  it('hands lines over in batches: at the latest 50 ms later, at once when 64 KiB wait, a longer line on its own', async () => {
    const { logger, writes, lines } = capture();
    const log = RequestLog.of(logger)!;
    log.write('a', 'GET', '/a', undefined, 200, false, 1, 0.1, 'unknown');
    log.write('b', 'GET', '/b', undefined, 200, false, 1, 0.1, 'unknown');
    expect(writes).toEqual([]);
    await sleep(120);
    expect(writes).toHaveLength(1);
    expect(lines()).toHaveLength(2);
    for (let i = 0; i < 400; i++) log.write(`c${i}`, 'GET', `/c/${'x'.repeat(200)}`, undefined, 200, false, 1, 0.1, 'unknown');
    expect(writes.length).toBeGreaterThan(1);
    log.write('long', 'GET', `/${'y'.repeat(80_000)}`, undefined, 200, false, 1, 0.1, 'unknown');
    log.flush();
    expect(lines()).toHaveLength(403);
    expect(JSON.parse(lines().at(-1)!)).toMatchObject({ request_id: 'long' });
  });

  it('builds nothing when info lines are off', () => {
    expect(RequestLog.of(capture('warn').logger)).toBeNull();
  });
});
