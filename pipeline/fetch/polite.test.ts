import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReplayServer, recording, replayServer } from '../../test/publishers.ts';
import { tempDir } from '../../test/support.ts';
import { type SourceCadence } from '../../contract/freshness.ts';
import { DEFAULT_POLICY, type FetchLine, type FetchPolicy, PACING, Pacer, Pacers, politeFetch, redactUrl, retryAfterMs } from './polite.ts';
import { isDue, nextDue } from './schedule.ts';
import { SourceAnswers, readFetchState, writeFetchState } from './state.ts';

const CSV = recording('country-codes/country-codes.csv');
const FAST: FetchPolicy = { ...DEFAULT_POLICY, timeoutMs: 2_000, deadlineMs: 20_000, retries: 2, backoffMs: 1, maxBackoffMs: 5 };

let server: ReplayServer;
beforeAll(async () => {
  server = await replayServer(({ path, n }) => {
    switch (path) {
      case '/file':
        return { kind: 'file', body: CSV, contentType: 'text/csv' };
      case '/busy':
        return n === 0 ? { kind: 'status', status: 429, headers: { 'retry-after': '0' } } : { kind: 'file', body: CSV, contentType: 'text/csv' };
      case '/busy-for-an-hour':
        return { kind: 'status', status: 429, headers: { 'retry-after': '3600' } };
      case '/broken':
        return { kind: 'status', status: 500 };
      case '/gone':
        return { kind: 'status', status: 404 };
      case '/hang':
        return { kind: 'hang' };
      case '/truncated':
        return { kind: 'truncate', body: CSV };
      case '/empty':
        return { kind: 'empty' };
      default:
        return { kind: 'status', status: 404 };
    }
  });
});
afterAll(() => server.close());

function client(policy: Partial<FetchPolicy> = {}, extra: { cache?: SourceAnswers; deadline?: AbortSignal; force?: boolean } = {}) {
  const lines: FetchLine[] = [];
  const c = politeFetch({
    sourceId: 'country-codes',
    fetch: globalThis.fetch,
    policy: { ...FAST, ...policy },
    pacers: new Pacers(),
    origin: server.origin,
    cache: extra.cache,
    force: extra.force ?? false,
    signal: extra.deadline ?? new AbortController().signal,
    log: (l) => lines.push(l),
  });
  return { ...c, lines };
}

const seenOf = (path: string) => server.seen.filter((s) => s.path === path);

describe('politeFetch', () => {
  it('sends each request to PUBLISHER_URL_* with its own path and query, and logs one line without the key', async () => {
    const c = client();
    const res = await c.fetch('https://raw.githubusercontent.com/file?api_key=SECRET&x=1');
    expect(Buffer.from(await res.arrayBuffer()).equals(CSV)).toBe(true);
    expect(seenOf('/file').at(-1)!.query).toBe('x=1');
    expect(c.lines).toEqual([
      { source: 'country-codes', url: `${server.origin}/file?x=1`, status: 200, bytes: CSV.length, ms: expect.any(Number), retries: 0 },
    ]);
    expect(JSON.stringify(c.lines)).not.toContain('SECRET');
  });

  it('waits out a 429 for as long as Retry-After asks, then takes the answer', async () => {
    const c = client();
    const res = await c.fetch('https://example.org/busy');
    expect(res.status).toBe(200);
    expect((await res.text()).length).toBe(CSV.toString().length);
    expect(seenOf('/busy').map((s) => s.status)).toEqual([429, 200]);
    expect(c.stats).toMatchObject({ requests: 2, retries: 1, bytes: CSV.length });
    expect(c.lines[0]).toMatchObject({ status: 200, retries: 1 });
  });

  it('gives up on a Retry-After longer than the source may wait, without waiting it', async () => {
    const c = client();
    await expect(c.fetch('https://example.org/busy-for-an-hour')).rejects.toThrow(
      /answered 429 and asked to retry after 3600 s, past what the source may wait/,
    );
    expect(seenOf('/busy-for-an-hour')).toHaveLength(1);
  });

  it('retries a 500 a bounded number of times, then fails naming the status', async () => {
    const c = client({ retries: 2 });
    await expect(c.fetch('https://example.org/broken')).rejects.toThrow(`${server.origin}/broken answered 500 (3 attempts)`);
    expect(seenOf('/broken')).toHaveLength(3);
    expect(c.lines).toEqual([expect.objectContaining({ status: 500, retries: 2, error: expect.stringMatching(/answered 500/) })]);
  });

  it('hands a 404 to the adapter (no retry: the adapter says what it means)', async () => {
    const c = client();
    expect((await c.fetch('https://example.org/gone')).status).toBe(404);
    expect(c.stats.retries).toBe(0);
  });

  it('retries a truncated body and an empty 200 as failures, and says which', async () => {
    await expect(client({ retries: 1 }).fetch('https://example.org/truncated')).rejects.toThrow(/truncated failed: .*\(2 attempts\)/);
    expect(seenOf('/truncated')).toHaveLength(2);
    await expect(client({ retries: 1 }).fetch('https://example.org/empty')).rejects.toThrow(/empty answered 200 with an empty body \(2 attempts\)/);
  });

  it('abandons a request that hangs after its timeout, and a source at its deadline', async () => {
    await expect(client({ timeoutMs: 50, retries: 1 }).fetch('https://example.org/hang')).rejects.toThrow(/hang did not answer within 0.1 s \(2 attempts\)/);
    const deadline = AbortSignal.timeout(100);
    await expect(client({ timeoutMs: 60_000, deadlineMs: 100 }, { deadline }).fetch('https://example.org/hang')).rejects.toThrow(
      "the source's deadline of 0.1 s passed",
    );
  });

  it('refuses an answer over the size cap', async () => {
    await expect(client({ maxBytes: 1000 }).fetch('https://example.org/file')).rejects.toThrow(`is ${CSV.length} bytes, over the cap of 1000`);
  });

  it('asks again with the validators of the last answer; a 304 gives the adapter the bytes it validated', async () => {
    const dir = await tempDir('answers');
    const first = new SourceAnswers(dir, {});
    await client({}, { cache: first }).fetch('https://example.org/file');
    await writeFetchState(dir, {
      last_attempt: null,
      outcome: 'fetched',
      reason: null,
      last_success: null,
      next_due: null,
      failures: 0,
      validators: first.validators,
    });
    const state = await readFetchState(dir);
    const second = new SourceAnswers(dir, state!.validators);
    const c = client({}, { cache: second });
    const res = await c.fetch('https://example.org/file');
    expect(seenOf('/file').at(-1)).toMatchObject({ status: 304, ifNoneMatch: expect.stringMatching(/^"/), ifModifiedSince: 'Tue, 02 Jun 2026 08:00:00 GMT' });
    expect(Buffer.from(await res.arrayBuffer()).equals(CSV)).toBe(true);
    expect(c.stats).toMatchObject({ requests: 1, not_modified: 1, bytes: 0 });
    expect(c.lines[0]).toMatchObject({ status: 304, not_modified: true });
    expect(second.validators).toEqual(first.validators);
    // A forced refresh sends no validators.
    await client({}, { cache: new SourceAnswers(dir, state!.validators), force: true }).fetch('https://example.org/file');
    expect(seenOf('/file').at(-1)).toMatchObject({ status: 200, ifNoneMatch: null });
  });
});

describe('pacing', () => {
  it('keeps AGSI+ at one request a second and 60 a minute, EIA under 5 a second (on a virtual clock)', () => {
    let now = 0;
    const agsi = new Pacer(PACING['agsi.gie.eu']!, () => now);
    const starts = Array.from({ length: 130 }, () => agsi.reserve());
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(1000);
    for (let i = 60; i < starts.length; i++) expect(starts[i]! - starts[i - 60]!).toBeGreaterThanOrEqual(60_000);
    now = 10;
    const eia = new Pacer(PACING['api.eia.gov']!, () => now);
    const e = Array.from({ length: 10 }, () => eia.reserve() + now);
    expect(e.filter((t) => t < 1010).length).toBeLessThan(5);
  });

  it('shares one pace per publisher host', () => {
    const p = new Pacers(() => 0);
    expect(p.for('api.eia.gov')).toBe(p.for('api.eia.gov'));
    expect(p.for('api.eia.gov')).not.toBe(p.for('agsi.gie.eu'));
  });
});

describe('helpers', () => {
  it('reads Retry-After as seconds or a date, and removes keys from logged URLs', () => {
    expect(retryAfterMs('120')).toBe(120_000);
    expect(retryAfterMs('Tue, 02 Jun 2026 08:00:10 GMT', Date.parse('Tue, 02 Jun 2026 08:00:00 GMT'))).toBe(10_000);
    expect(retryAfterMs('soon')).toBeNull();
    expect(redactUrl('https://api.eia.gov/v2/x?api_key=K&frequency=daily')).toBe('https://api.eia.gov/v2/x?frequency=daily');
  });
});

describe('the schedule', () => {
  const c = (x: Partial<SourceCadence>): SourceCadence => ({ cadence: 'daily', lag_days: 1, status: 'active', note: 'n', ...x });
  const at = (iso: string) => new Date(iso);

  it('asks AGSI+ after 18:30 UTC on the day the next gas day can be out, then hourly while it is missing', () => {
    const agsi = c({ release_utc: '18:30' });
    expect(nextDue(agsi, '2026-06-09', false, 0, at('2026-06-10T12:00:00Z'))).toBe('2026-06-11T18:30:00.000Z');
    expect(nextDue(agsi, '2026-06-09', false, 0, at('2026-06-11T19:00:00Z'))).toBe('2026-06-11T20:00:00.000Z');
  });

  it('asks a monthly source a few days before the next month can be out, an annual one a month before', () => {
    expect(nextDue(c({ cadence: 'monthly', lag_days: 4 }), '2026-05-01', false, 0, at('2026-06-03T00:00:00Z'))).toBe('2026-06-30T00:00:00.000Z');
    expect(nextDue(c({ cadence: 'annual', lag_days: 35 }), '2025-12-31', false, 0, at('2026-02-10T00:00:00Z'))).toBe('2027-01-05T00:00:00.000Z');
  });

  it('backs off after failures, never asks a historical source again, asks an irregular one weekly', () => {
    const now = at('2026-06-10T00:00:00Z');
    expect(nextDue(c({}), '2026-06-09', true, 1, now)).toBe('2026-06-10T00:15:00.000Z');
    expect(nextDue(c({}), '2026-06-09', true, 3, now)).toBe('2026-06-10T01:00:00.000Z');
    expect(nextDue(c({}), '2026-06-09', true, 30, now)).toBe('2026-06-10T06:00:00.000Z');
    expect(nextDue(c({ status: 'historical', cadence: 'annual' }), '2023-12-31', false, 0, now)).toBeNull();
    expect(nextDue(c({ cadence: 'irregular' }), null, false, 0, now)).toBe('2026-06-17T00:00:00.000Z');
  });

  it('asks a source that is due, has no snapshot, or is forced', () => {
    const now = at('2026-06-10T00:00:00Z');
    expect(isDue({ force: false, hasSnapshot: true, nextDue: '2026-06-11T00:00:00Z', now })).toBe(false);
    expect(isDue({ force: false, hasSnapshot: true, nextDue: '2026-06-09T00:00:00Z', now })).toBe(true);
    expect(isDue({ force: false, hasSnapshot: true, nextDue: null, now })).toBe(false);
    expect(isDue({ force: true, hasSnapshot: true, nextDue: null, now })).toBe(true);
    expect(isDue({ force: false, hasSnapshot: false, nextDue: null, now })).toBe(true);
  });
});
