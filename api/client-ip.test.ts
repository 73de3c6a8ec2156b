import { request as httpRequest } from 'node:http';
import { isIP } from 'node:net';
import fc from 'fast-check';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientIp, normalizeIp, parseTrustProxy, trustedBy, type TrustProxy } from './client-ip.ts';
import { rateKey } from './rate-limit.ts';

/** clientIp against a fake node-server environment: the socket peer is `peer`. */
async function ipOf(trust: TrustProxy, peer: string | undefined, headers: Record<string, string> = {}): Promise<string> {
  const app = new Hono();
  app.get('/', (c) => c.text(clientIp(c, trust)));
  const res = await app.request('/', { headers }, { incoming: { socket: { remoteAddress: peer } } });
  return res.text();
}

describe('parseTrustProxy', () => {
  it('reads the documented forms', () => {
    expect(parseTrustProxy(undefined)).toEqual({ kind: 'none' });
    expect(parseTrustProxy('')).toEqual({ kind: 'none' });
    expect(parseTrustProxy('false')).toEqual({ kind: 'none' });
    expect(parseTrustProxy('0')).toEqual({ kind: 'none' });
    expect(parseTrustProxy('2', '10.0.0.0/8')).toMatchObject({ kind: 'hops', hops: 2, source: '10.0.0.0/8' });
    expect(() => parseTrustProxy('2')).toThrow(/a hop count needs TRUSTED_PROXIES/);
    expect(() => parseTrustProxy('1', '10.0.0.0/33')).toThrow(/invalid TRUSTED_PROXIES/);
    expect(parseTrustProxy('header:CF-Connecting-IP')).toEqual({ kind: 'header', name: 'cf-connecting-ip' });
    const list = parseTrustProxy('127.0.0.1, 10.0.0.0/8, fd00::/8, loopback');
    expect(list.kind).toBe('list');
  });

  it('matches addresses against the trusted ranges', () => {
    const { trusted } = parseTrustProxy('127.0.0.1, 10.0.0.0/8, fd00::/8, linklocal') as { trusted: Parameters<typeof trustedBy>[0] };
    for (const ip of ['127.0.0.1', '10.255.0.1', 'fd12::1', '::ffff:10.1.2.3', '169.254.1.1', 'fe80::1%eth0']) expect(trustedBy(trusted, ip), ip).toBe(true);
    for (const ip of ['127.0.0.2', '11.0.0.1', 'fe00::1', '2001:db8::1', 'unknown', 'garbage']) expect(trustedBy(trusted, ip), ip).toBe(false);
    // an IPv6 range that holds the IPv4-mapped addresses holds IPv4 ones (as node:net's BlockList has it)
    const all = parseTrustProxy('::/0') as { trusted: Parameters<typeof trustedBy>[0] };
    expect(trustedBy(all.trusted, '203.0.113.5')).toBe(true);
    const v6 = parseTrustProxy('2001:db8::/32') as { trusted: Parameters<typeof trustedBy>[0] };
    expect(trustedBy(v6.trusted, '203.0.113.5')).toBe(false);
  });

  it.each(['true', 'yes', '10.0.0.0/33', '::/129', '300.1.1.1', 'header:', 'header:bad name', '1.2.3.4/x', ',', '-1', '99'])(
    'refuses %j with a clear error',
    (v) => {
      expect(() => parseTrustProxy(v)).toThrow(/invalid TRUST_PROXY/);
    },
  );
});

describe('normalizeIp', () => {
  it('accepts only syntactically valid addresses, in canonical form', () => {
    expect(normalizeIp('::ffff:127.0.0.2')).toBe('127.0.0.2');
    expect(normalizeIp('::FFFF:7f00:2')).toBe('127.0.0.2');
    expect(normalizeIp(' 2001:DB8:0:0:0:0:0:1 ')).toBe('2001:db8::1');
    expect(normalizeIp('fe80::1%eth0')).toBe('fe80::1');
    expect(normalizeIp('203.0.113.9')).toBe('203.0.113.9');
    for (const bad of ['', 'unknown', '1.2.3', '1.2.3.4:80', '1.2.3.4, 5.6.7.8', '<script>', 'x'.repeat(100), '999.1.1.1']) expect(normalizeIp(bad)).toBeNull();
    // notations ipaddr.js reads but no address header should carry
    for (const bad of ['127.1', '0x7f.0.0.1', '0177.0.0.1', '010.0.0.1', '::ffff:0x7f.0.0.1', '::ffff:1.2.3', '1::2::3', '00001::', 'fe80::1%', 'fe80::1%a b'])
      expect(normalizeIp(bad)).toBeNull();
    // the deprecated IPv4-compatible form is not IPv4-mapped (ipaddr.js alone reads it as mapped)
    expect(normalizeIp('::1.2.3.4')).toBe('::102:304');
    expect(normalizeIp('FE80::1%en-1.2')).toBe('fe80::1');
  });

  /** IPv6 text in every notation: groups with or without leading zeros in either case, one run compressed, a dotted tail, a zone id. */
  const ipv6Text = fc
    .record({
      groups: fc.array(fc.oneof(fc.constant(0), fc.constant(0xffff), fc.integer({ min: 0, max: 0xffff })), { minLength: 8, maxLength: 8 }),
      run: fc.option(fc.tuple(fc.nat(7), fc.integer({ min: 1, max: 8 }))),
      pad: fc.boolean(),
      upper: fc.boolean(),
      dotted: fc.boolean(),
      zone: fc.option(fc.constantFrom('%eth0', '%1', '%en-1')),
    })
    .map(({ groups, run, pad, upper, dotted, zone }) => {
      const text = groups.map((g) => g.toString(16).padStart(pad ? 4 : 1, '0'));
      if (dotted) text.splice(6, 2, `${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`);
      let s = text.join(':');
      if (run) {
        const parts = s.split(':');
        const [at, len] = [Math.min(run[0], parts.length - 1), run[1]];
        s = `${parts.slice(0, at).join(':')}::${parts.slice(at + len).join(':')}`;
      }
      return (upper ? s.toUpperCase() : s) + (zone ?? '');
    });
  const ipv4Text = fc
    .tuple(fc.nat(300), fc.nat(255), fc.nat(255), fc.nat(255), fc.boolean())
    .map(([a, b, c, d, zero]) => `${zero ? '0' : ''}${a}.${b}.${c}.${d}`);

  it('agrees with node:net on what is an address, and with the URL standard on how IPv6 is written', () => {
    fc.assert(
      fc.property(fc.oneof(ipv6Text, ipv4Text, fc.string({ maxLength: 20 })), (s) => {
        const n = normalizeIp(s);
        expect(n !== null, s).toBe(isIP(s.trim()) !== 0);
        if (n === null || isIP(n) === 4) return;
        // WHATWG URL serialises IPv6 as RFC 5952 does (it refuses zone ids; IPv4-mapped ones we write as IPv4)
        expect(n).toBe(new URL(`http://[${s.trim().replace(/%.*$/, '')}]/`).hostname.slice(1, -1));
      }),
      { numRuns: 5000 },
    );
  });

  it('buckets IPv6 by /64 and IPv4 by address', () => {
    expect(rateKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(rateKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(rateKey('203.0.113.9')).toBe('203.0.113.9');
    expect(rateKey('2001:db8:1:2::/64')).toBe('2001:db8:1:2::/64');
    expect(rateKey('unknown')).toBe('unknown');
  });
});

describe('clientIp', () => {
  it('uses the socket address only by default, whatever X-Forwarded-For says', async () => {
    const none = parseTrustProxy(undefined);
    expect(await ipOf(none, '198.51.100.7', { 'x-forwarded-for': '1.1.1.1' })).toBe('198.51.100.7');
    expect(await ipOf(none, '::ffff:198.51.100.7', { 'x-real-ip': '1.1.1.1' })).toBe('198.51.100.7');
    expect(await ipOf(none, undefined)).toBe('unknown');
  });

  it('counts N hops from the right for a number, only from a trusted proxy', async () => {
    const one = parseTrustProxy('1', '10.0.0.0/8');
    const two = parseTrustProxy('2', '10.0.0.0/8');
    // a peer that is not one of the proxies: its own address, whatever it wrote
    expect(await ipOf(one, '198.51.100.7', { 'x-forwarded-for': '203.0.113.5' })).toBe('198.51.100.7');
    // the second hop must itself be a trusted proxy to vouch for the entry to its left
    expect(await ipOf(two, '10.0.0.1', { 'x-forwarded-for': '6.6.6.6, 203.0.113.5' })).toBe('203.0.113.5');
    expect(await ipOf(one, '10.0.0.1', { 'x-forwarded-for': '6.6.6.6, 203.0.113.5' })).toBe('203.0.113.5');
    expect(await ipOf(two, '10.0.0.1', { 'x-forwarded-for': '6.6.6.6, 203.0.113.5, 10.0.0.2' })).toBe('203.0.113.5');
    // a chain shorter than N: the leftmost address there is
    expect(await ipOf(two, '10.0.0.1', { 'x-forwarded-for': '203.0.113.5' })).toBe('203.0.113.5');
    expect(await ipOf(one, '10.0.0.1')).toBe('10.0.0.1');
    // an invalid entry stops the walk at the nearest valid hop
    expect(await ipOf(one, '10.0.0.1', { 'x-forwarded-for': 'not-an-ip' })).toBe('10.0.0.1');
    expect(await ipOf(two, '10.0.0.1', { 'x-forwarded-for': '203.0.113.5, bogus' })).toBe('10.0.0.1');
  });

  it('walks a list of trusted proxies only when the socket peer is one of them', async () => {
    const list = parseTrustProxy('127.0.0.1,10.0.0.0/8,fd00::/8');
    expect(await ipOf(list, '10.1.2.3', { 'x-forwarded-for': '6.6.6.6, 203.0.113.5, 10.9.9.9' })).toBe('203.0.113.5');
    expect(await ipOf(list, 'fd00::1', { 'x-forwarded-for': '2001:db8::5' })).toBe('2001:db8::5');
    expect(await ipOf(list, '::ffff:127.0.0.1', { 'x-forwarded-for': '203.0.113.5' })).toBe('203.0.113.5');
    // an untrusted peer: its own address, the header ignored
    expect(await ipOf(list, '198.51.100.7', { 'x-forwarded-for': '203.0.113.5' })).toBe('198.51.100.7');
    // all trusted: the leftmost
    expect(await ipOf(list, '10.0.0.1', { 'x-forwarded-for': '10.0.0.3, 10.0.0.2' })).toBe('10.0.0.3');
    // garbage stops the walk at the last trusted hop
    expect(await ipOf(list, '10.0.0.1', { 'x-forwarded-for': '203.0.113.5, garbage' })).toBe('10.0.0.1');
  });

  it('reads the named header when it holds a valid IP', async () => {
    const h = parseTrustProxy('header:CF-Connecting-IP');
    expect(await ipOf(h, '10.0.0.1', { 'cf-connecting-ip': '203.0.113.5' })).toBe('203.0.113.5');
    expect(await ipOf(h, '10.0.0.1', { 'cf-connecting-ip': '2001:DB8::5' })).toBe('2001:db8::5');
    expect(await ipOf(h, '10.0.0.1', { 'cf-connecting-ip': 'garbage' })).toBe('10.0.0.1');
    expect(await ipOf(h, '10.0.0.1', { 'x-forwarded-for': '203.0.113.5' })).toBe('10.0.0.1');
    // with TRUSTED_PROXIES, only those peers' header counts
    const gated = parseTrustProxy('header:CF-Connecting-IP', '10.0.0.0/8');
    expect(await ipOf(gated, '10.0.0.1', { 'cf-connecting-ip': '203.0.113.5' })).toBe('203.0.113.5');
    expect(await ipOf(gated, '198.51.100.7', { 'cf-connecting-ip': '203.0.113.5' })).toBe('198.51.100.7');
  });
});

describe('on a real socket', () => {
  let server: ServerType;
  let port = 0;
  beforeAll(async () => {
    const app = new Hono();
    app.get('/', (c) => c.text(clientIp(c, { kind: 'none' })));
    await new Promise<void>((r) => {
      // '::' is dual-stack: IPv4 peers arrive as ::ffff:a.b.c.d
      server = serve({ fetch: app.fetch, port: 0, hostname: '::' }, (info) => {
        port = info.port;
        r();
      });
    });
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('normalises an IPv4-mapped peer to IPv4', async () => {
    const body = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path: '/', localAddress: '127.0.0.2', agent: false, headers: { 'x-forwarded-for': '1.1.1.1' } },
        (res) => {
          let b = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (b += d));
          res.on('end', () => resolve(b));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(body).toBe('127.0.0.2');
  });
});
