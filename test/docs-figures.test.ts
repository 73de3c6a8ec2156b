import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ASK_MAX_BODY_BYTES } from '../contract/api.ts';
import { JUMP_DEVIATIONS, MAD_SCALE } from '../contract/bounds.ts';
import { DEGRADED_AFTER_FAILED_BUILDS } from '../contract/limits.ts';
import { readConfig } from '../lib/config.ts';
import { MCP_MAX_BATCH, MCP_MAX_BODY_BYTES } from '../api/mcp/limits.ts';
import { DEFAULT_POLICY, PACING } from '../pipeline/fetch/polite.ts';

const REPO = resolve(import.meta.dirname, '..');
const doc = (path: string) => readFileSync(join(REPO, path), 'utf8').replace(/\s+/g, ' ');

/** The figures the guides quote are the code's own defaults and limits. */
describe('docs quote the code', () => {
  const c = readConfig({});

  it('docs/security.md: body limits, rate limits, connection caps and timeouts', () => {
    const text = doc('docs/security.md');
    expect(text).toContain(`\`POST /v1/ask\` (JSON, at most ${ASK_MAX_BODY_BYTES / 1024} KiB)`);
    expect(text).toContain(`\`POST /mcp\` (JSON, at most ${MCP_MAX_BODY_BYTES / 1024} KiB, at most ${MCP_MAX_BATCH} messages in a batch)`);
    expect(text).toContain(`(${c.RATE_LIMIT_DATA} requests per minute on data routes, ${c.RATE_LIMIT_ASK} on \`/v1/ask\`)`);
    expect(text).toContain(`(\`MAX_CONNECTIONS\`, ${c.MAX_CONNECTIONS})`);
    expect(text).toContain(`(\`MAX_CONNECTIONS_PER_IP\`, ${c.MAX_CONNECTIONS_PER_IP};`);
    expect(text).toContain(
      `a client has ${c.HEADERS_TIMEOUT_MS / 1000} s for its headers and ${c.REQUEST_TIMEOUT_MS / 1000} s for its whole request, idle keep-alive connections close after ${c.KEEP_ALIVE_TIMEOUT_MS / 1000} s`,
    );
  });

  it('docs/api.md: the timeouts in the 408 row', () => {
    expect(doc('docs/api.md')).toContain(
      `did not arrive within ${c.HEADERS_TIMEOUT_MS / 1000} s, or the whole request within ${c.REQUEST_TIMEOUT_MS / 1000} s`,
    );
  });

  it('README: the default address', () => {
    const text = doc('README.md');
    expect(text).toContain(`http://localhost:${c.PORT}`);
    expect(c.PUBLIC_BASE_URL).toBe(`http://localhost:${c.PORT}`);
  });
  it('docs/freshness.md and the README: the limits and pacing of live fetching, the same in the configuration and the fetcher', () => {
    expect([c.FETCH_TIMEOUT_MS, c.FETCH_DEADLINE_MS, c.FETCH_MAX_MB * 2 ** 20]).toEqual([
      DEFAULT_POLICY.timeoutMs,
      DEFAULT_POLICY.deadlineMs,
      DEFAULT_POLICY.maxBytes,
    ]);
    const text = doc('docs/freshness.md');
    expect(text).toContain(`(\`FETCH_TIMEOUT_MS\`, default ${c.FETCH_TIMEOUT_MS / 1000} s, headers and body)`);
    expect(text).toContain(`(\`FETCH_DEADLINE_MS\`, default ${c.FETCH_DEADLINE_MS / 60_000} minutes)`);
    expect(text).toContain(
      `retried up to ${DEFAULT_POLICY.retries} times, with exponential backoff (${DEFAULT_POLICY.backoffMs / 1000} s doubling, up to ${DEFAULT_POLICY.maxBackoffMs / 1000} s, half of it random)`,
    );
    expect(text).toContain(`a \`Retry-After\` longer than ${DEFAULT_POLICY.maxRetryAfterMs / 60_000} minutes`);
    expect(text).toContain(`larger than \`FETCH_MAX_MB\` (${c.FETCH_MAX_MB} MiB)`);
    expect(text).toContain(`AGSI+ at most one a second and ${PACING['agsi.gie.eu']!.perMinute} a minute`);
    expect(text).toContain(`EIA at most ${1000 / PACING['api.eia.gov']!.gapMs} a second`);
    expect(doc('README.md')).toContain(`(\`FETCH_DEADLINE_MS\`, ${c.FETCH_DEADLINE_MS / 60_000} minutes)`);
  });

  it('docs/freshness.md: the jump threshold of the value gates and the failed builds that degrade /healthz', () => {
    const text = doc('docs/freshness.md');
    expect(text).toContain(`more than ${JUMP_DEVIATIONS} robust deviations (\`JUMP_DEVIATIONS\`; ${MAD_SCALE} × the median absolute deviation)`);
    expect(text).toContain(`once the last ${DEGRADED_AFTER_FAILED_BUILDS} builds in a row have failed (\`DEGRADED_AFTER_FAILED_BUILDS\`)`);
  });
});
