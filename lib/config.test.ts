import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { RedisClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { ConfigError, ConfigShape, buildSettings, embeddingsOf, environmentTable, publisherUrlVariable, readConfig, variableDocs } from './config.ts';

const REPO = join(import.meta.dirname, '..');

/** The README block between `<!-- generated:<name> -->` and `<!-- /generated -->`, replaced (as pipeline/methodology-doc.ts fillBlocks does for docs/methodology.md). */
const fillBlock = (doc: string, name: string, body: string) =>
  doc.replace(new RegExp(`<!-- generated:${name} -->[\\s\\S]*?<!-- /generated -->`), () => `<!-- generated:${name} -->\n${body}\n<!-- /generated -->`);

/** The one error readConfig throws for `env`. */
function refusal(env: Record<string, string>): ConfigError {
  try {
    readConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe('readConfig', () => {
  it('gives every default from an empty environment', () => {
    const c = readConfig({});
    expect(c).toMatchObject({
      PORT: 8787,
      HOST: '0.0.0.0',
      PUBLIC_BASE_URL: 'http://localhost:8787',
      RATE_LIMIT_DATA: 60,
      RATE_LIMIT_ASK: 10,
      RATE_LIMIT_INSTANCES: 1,
      MAX_CONNECTIONS: 4096,
      MAX_CONNECTIONS_PER_IP: 64,
      HEADERS_TIMEOUT_MS: 10_000,
      REQUEST_TIMEOUT_MS: 30_000,
      KEEP_ALIVE_TIMEOUT_MS: 5_000,
      MCP_ALLOWED_HOSTS: [],
      MCP_ALLOWED_ORIGINS: [],
      OPENAI_MODEL: 'gpt-4o-mini',
      OPENAI_TIMEOUT_MS: 10000,
      REBUILD_EVERY: { text: '15m', ms: 900_000 },
      SUPERVISE: true,
      CHOKEPOINT_SITE: true,
      SITE_LOG: 'warn',
      SECURITY_CONTACT: ['mailto:security@chokepoint.example'],
      EMBEDDINGS_MODEL: 'text-embedding-3-small',
      EMBEDDINGS_TIMEOUT_MS: 2000,
    });
    expect(c.DIST_DIR).toBe(join(REPO, 'dist'));
    expect(c.DATA_DIR).toBe(join(REPO, 'data'));
    expect(c.REDIS_URL).toBeUndefined();
    expect(c.CHOKEPOINT_SUPERVISED).toBeUndefined();
    expect(embeddingsOf(c)).toBeNull();
  });

  it('derives PUBLIC_BASE_URL from PORT (and HOST) when it is unset', () => {
    expect(readConfig({ PORT: '9000' }).PUBLIC_BASE_URL).toBe('http://localhost:9000');
    for (const HOST of ['0.0.0.0', '::', 'localhost', '127.0.0.1']) expect(readConfig({ HOST, PORT: '9000' }).PUBLIC_BASE_URL).toBe('http://localhost:9000');
    expect(readConfig({ HOST: 'api.internal', PORT: '9000' }).PUBLIC_BASE_URL).toBe('http://api.internal:9000');
    expect(readConfig({ HOST: '::1' }).PUBLIC_BASE_URL).toBe('http://[::1]:8787');
    // Set, it wins over HOST and PORT; trailing slashes go.
    expect(readConfig({ PORT: '9000', PUBLIC_BASE_URL: 'https://chokepoint.example/' }).PUBLIC_BASE_URL).toBe('https://chokepoint.example');
    // The build publishes the same address the server is reached at.
    expect(buildSettings(readConfig({ PORT: '9000' })).baseUrl).toBe('http://localhost:9000');
  });

  it('takes only http(s) URLs with a host for PUBLIC_BASE_URL, OPENAI_BASE_URL and EMBEDDINGS_BASE_URL', () => {
    for (const variable of ['PUBLIC_BASE_URL', 'OPENAI_BASE_URL', 'EMBEDDINGS_BASE_URL']) {
      for (const bad of [
        'javascript:alert(1)',
        'javascript://chokepoint.example/%0aalert(1)',
        'data:text/html,x',
        'ftp://chokepoint.example',
        'file:///etc/passwd',
        'https://',
        'chokepoint.example',
        'https://user:pw@chokepoint.example',
        'https://chokepoint.example/?x=1',
      ]) {
        const e = refusal({ [variable]: bad });
        expect(
          e.problems.map((p) => p.variable),
          `${variable}=${bad}`,
        ).toEqual([variable]);
        expect(e.message).toContain(`${variable} must be an absolute http(s) URL`);
      }
      expect(() => readConfig({ [variable]: 'http://10.0.0.7:8080/v1' })).not.toThrow();
    }
    expect(readConfig({ OPENAI_BASE_URL: 'https://llm.example/v1/' }).OPENAI_BASE_URL).toBe('https://llm.example/v1/');
  });

  it('takes only the redis:, rediss: and unix-socket URLs the redis client accepts for REDIS_URL', () => {
    const good = [
      'redis://localhost',
      'redis://localhost:6379',
      'redis://cache:6379/0',
      'rediss://user:secret@cache.example:6380/2',
      'redis://[::1]:6379',
      'unix:///run/redis/redis.sock',
      'unix:///tmp/redis.sock?db=3',
      'unix://user:pw@/tmp/redis.sock',
    ];
    for (const url of good) {
      expect(readConfig({ REDIS_URL: url }).REDIS_URL, url).toBe(url);
      // The client itself parses each accepted form.
      expect(() => RedisClient.parseURL(url), url).not.toThrow();
    }
    for (const bad of [
      'http://x',
      'https://cache:6379',
      'localhost:6379',
      'redis://',
      'redis://cache/zero',
      'redis://cache:99999',
      'unix://',
      'unix:///',
      'unix:///tmp/r.sock?db=x',
      'cache',
    ]) {
      const e = refusal({ REDIS_URL: bad });
      expect(e.problems, bad).toEqual([{ variable: 'REDIS_URL', message: expect.stringMatching(/^REDIS_URL must be redis:\/\//) }]);
    }
  });

  it('refuses a bad value with one message naming the variable', () => {
    const e = refusal({ PORT: 'not-a-port' });
    expect(e.problems).toEqual([{ variable: 'PORT', message: 'PORT must be a port number' }]);
    expect(e.message).toBe('invalid environment:\n  PORT must be a port number');
    expect(refusal({ PORT: '70000' }).message).toContain('PORT must be at most 65535');
  });

  it('lists every bad variable in the one error', () => {
    const e = refusal({
      PORT: 'x',
      RATE_LIMIT_DATA: '-1',
      REDIS_URL: 'http://x',
      OPENAI_TIMEOUT_MS: '50',
      CHOKEPOINT_SITE: 'maybe',
      REBUILD_EVERY: '0m',
      SITE_LOG: 'loud',
    });
    expect(e.problems.map((p) => p.variable).sort()).toEqual([
      'CHOKEPOINT_SITE',
      'OPENAI_TIMEOUT_MS',
      'PORT',
      'RATE_LIMIT_DATA',
      'REBUILD_EVERY',
      'REDIS_URL',
      'SITE_LOG',
    ]);
    expect(e.message.split('\n')).toHaveLength(1 + 7);
    for (const p of e.problems) expect(e.message).toContain(p.variable);
  });

  it('keeps the API rules: 0 turns a rate limit off, counts start at 1, headers time out before the request', () => {
    expect(readConfig({ RATE_LIMIT_DATA: '0', RATE_LIMIT_ASK: '0' })).toMatchObject({ RATE_LIMIT_DATA: 0, RATE_LIMIT_ASK: 0 });
    expect(buildSettings(readConfig({ RATE_LIMIT_DATA: '0', RATE_LIMIT_ASK: '25' })).rateLimits).toEqual({ data: 0, ask: 25 });
    expect(refusal({ RATE_LIMIT_DATA: '1.5' }).message).toContain('RATE_LIMIT_DATA must be a whole number of requests per minute (0 turns the limit off)');
    for (const v of ['RATE_LIMIT_INSTANCES', 'MAX_CONNECTIONS', 'MCP_MAX_SESSIONS', 'EMBEDDINGS_TIMEOUT_MS'])
      expect(refusal({ [v]: '0' }).message).toContain(`${v} must be a whole number ≥ 1`);
    expect(refusal({ HEADERS_TIMEOUT_MS: '40000' }).message).toContain('HEADERS_TIMEOUT_MS must not be larger than REQUEST_TIMEOUT_MS');
    expect(refusal({ OPENAI_TIMEOUT_MS: '60001' }).message).toContain('OPENAI_TIMEOUT_MS must be at most 60000');
    expect(readConfig({ MCP_ALLOWED_HOSTS: ' api.example , localhost:8787,, ' }).MCP_ALLOWED_HOSTS).toEqual(['api.example', 'localhost:8787']);
  });

  it('counts an empty value as unset', () => {
    const c = readConfig({ PORT: '', SUPERVISE: '', CHOKEPOINT_SUPERVISED: '', OPENAI_API_KEY: '', RATE_LIMIT_DATA: '', SECURITY_CONTACT: '' });
    expect(c).toMatchObject({ PORT: 8787, SUPERVISE: true, RATE_LIMIT_DATA: 60, SECURITY_CONTACT: ['mailto:security@chokepoint.example'] });
    expect(c.OPENAI_API_KEY).toBeUndefined();
    expect(c.CHOKEPOINT_SUPERVISED).toBeUndefined();
  });

  it('parses the switches of the entry points and the build', () => {
    expect(readConfig({ SUPERVISE: 'off', CHOKEPOINT_SUPERVISED: '1', REBUILD_EVERY: 'off', CHOKEPOINT_SITE: 'off', SITE_LOG: 'info' })).toMatchObject({
      SUPERVISE: false,
      CHOKEPOINT_SUPERVISED: true,
      REBUILD_EVERY: null,
      CHOKEPOINT_SITE: false,
      SITE_LOG: 'info',
    });
    expect(readConfig({ REBUILD_EVERY: '90s' }).REBUILD_EVERY).toEqual({ text: '90s', ms: 90_000 });
    expect(refusal({ SUPERVISE: 'no' }).problems).toEqual([{ variable: 'SUPERVISE', message: 'SUPERVISE must be on or off' }]);
    const settings = buildSettings(
      readConfig({
        EIA_API_KEY: 'k1',
        AGSI_API_KEY: 'k2',
        CHOKEPOINT_SITE: 'off',
        SECURITY_CONTACT: 'sec@example.org',
        EMBEDDINGS_BASE_URL: 'https://emb.example/v1/',
        EMBEDDINGS_MODEL: 'm',
        EMBEDDINGS_API_KEY: 'ek',
      }),
    );
    expect(settings).toMatchObject({
      sourceKeys: { eia: 'k1', agsi: 'k2' },
      site: { skip: true, logLevel: 'warn' },
      securityContact: ['sec@example.org'],
      embeddings: { baseUrl: 'https://emb.example/v1', apiKey: 'ek', model: 'm', timeoutMs: 2000 },
    });
  });

  it('stays on the embedded mirror unless DATA_SOURCE=live, and passes live fetching its limits', () => {
    const mirror = buildSettings(readConfig({}));
    expect(mirror.download).toBe(false);
    expect(mirror.live).toEqual({ policy: { timeoutMs: 60_000, deadlineMs: 600_000, maxBytes: 256 * 2 ** 20 }, publisherUrls: {} });
    const live = buildSettings(readConfig({ DATA_SOURCE: 'live', FETCH_TIMEOUT_MS: '500', FETCH_DEADLINE_MS: '2000', FETCH_MAX_MB: '8' }));
    expect(live.download).toBe(true);
    expect(live.live.policy).toEqual({ timeoutMs: 500, deadlineMs: 2000, maxBytes: 8 * 2 ** 20 });
    expect(refusal({ DATA_SOURCE: 'publishers' }).problems).toEqual([{ variable: 'DATA_SOURCE', message: 'DATA_SOURCE must be mirror or live' }]);
  });

  it('takes PUBLISHER_URL_<SOURCE_ID> as an origin for that source, and refuses an unknown source or a path', () => {
    expect(publisherUrlVariable('worldbank-pink-sheet')).toBe('PUBLISHER_URL_WORLDBANK_PINK_SHEET');
    const c = readConfig({
      PUBLISHER_URL_WORLDBANK_PINK_SHEET: 'http://127.0.0.1:8080/',
      PUBLISHER_URL_GIE_AGSI_GAS_STORAGE: 'https://proxy.example',
      PUBLISHER_URL_EIA_OIL_PRICES: '',
    });
    expect(c.PUBLISHER_URLS).toEqual({ 'worldbank-pink-sheet': 'http://127.0.0.1:8080', 'gie-agsi-gas-storage': 'https://proxy.example' });
    expect(buildSettings(c).live.publisherUrls).toBe(c.PUBLISHER_URLS);
    const bad = refusal({
      PUBLISHER_URL_WORLD_BANK: 'http://a.example',
      PUBLISHER_URL_EIA_HENRY_HUB: 'http://a.example/eia',
      PUBLISHER_URL_COUNTRY_CODES: 'ftp://a.example',
    });
    expect(bad.problems.map((p) => p.variable)).toEqual(['PUBLISHER_URL_WORLD_BANK', 'PUBLISHER_URL_EIA_HENRY_HUB', 'PUBLISHER_URL_COUNTRY_CODES']);
    expect(bad.problems[0]!.message).toMatch(/names no source \(known: PUBLISHER_URL_COUNTRY_CODES, /);
    expect(bad.problems[1]!.message).toMatch(/it has the path \/eia; requests keep their own path/);
    expect(bad.problems[2]!.message).toMatch(/scheme ftp:/);
  });

  it('joins the checks of a layer above (TRUST_PROXY, parsed by the API) to the same one error', () => {
    // As bin/serve.ts and bin/start.ts pass api/client-ip.ts parseTrustProxy (lib/ may not import it).
    const checks = [
      (e: Readonly<Record<string, string | undefined>>) => {
        if (e.TRUST_PROXY === '1' && !e.TRUSTED_PROXIES) throw new Error('invalid TRUST_PROXY="1": a hop count needs TRUSTED_PROXIES');
      },
    ];
    expect(readConfig({ TRUST_PROXY: '1', TRUSTED_PROXIES: '10.0.0.0/8' }, { checks }).TRUST_PROXY).toBe('1');
    let error: unknown;
    try {
      readConfig({ TRUST_PROXY: '1', PORT: 'x' }, { checks });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.map((p) => p.variable)).toEqual(['PORT', 'TRUST_PROXY']);
  });
});

describe('the documentation of the configuration', () => {
  it('describes every variable: its concern and meaning', () => {
    const docs = variableDocs();
    expect(docs.map(([n]) => n)).toEqual(Object.keys(ConfigShape.shape));
    for (const [name, d] of docs) {
      expect(['build', 'serve', 'both'], name).toContain(d.concern);
      expect(d.description.length, name).toBeGreaterThan(10);
    }
  });

  it('is the README table, generated from the schema (UPDATE_DOCS=1 rewrites it)', () => {
    const path = join(REPO, 'README.md');
    const doc = readFileSync(path, 'utf8');
    expect(doc).toContain('<!-- generated:environment -->');
    const filled = fillBlock(doc, 'environment', environmentTable());
    if (process.env.UPDATE_DOCS) {
      writeFileSync(path, filled);
      return;
    }
    expect(filled === doc, 'the environment table of README.md is out of date: run UPDATE_DOCS=1 npx vitest run lib/config.test.ts').toBe(true);
  });

  it('lists each variable the code names once, and no other', () => {
    const table = environmentTable();
    for (const name of Object.keys(ConfigShape.shape))
      expect(
        table.split('\n').filter((l) => l.startsWith(`| \`${name}\` |`)),
        name,
      ).toHaveLength(1);
  });
});

/** Files of a layer, tests and test support excluded. */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (/\.ts$/.test(name) && !/\.test\.ts$|test-server\.ts$/.test(name)) out.push(p);
  }
  return out;
}

describe('library code', () => {
  it('reads no environment variable: the entry points (bin/) parse the configuration and pass it down', () => {
    // Writing one for a library (Astro's telemetry) and handing the environment to a child process are not reads.
    const allowed = [/process\.env\.ASTRO_TELEMETRY_DISABLED = /, /env: opts\.env \?\? process\.env/];
    const reads: string[] = [];
    for (const layer of ['contract', 'lib', 'pipeline', 'api']) {
      for (const file of sources(join(REPO, layer))) {
        readFileSync(file, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (/process\.env|globalThis\b.*\benv\b/.test(line) && !allowed.some((a) => a.test(line)) && !/^\s*(\*|\/\/)/.test(line))
              reads.push(`${relative(REPO, file)}:${i + 1}: ${line.trim()}`);
          });
      }
    }
    // lib/config.ts itself defaults readConfig's argument to process.env (called by bin/ only).
    expect(reads.filter((r) => !r.startsWith('lib/config.ts:'))).toEqual([]);
  });
});
