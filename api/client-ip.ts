import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import ipaddr from 'ipaddr.js';
import { canonicalIp, type Ip, normalizeIp } from './ip-text.ts';

export { normalizeIp };

/** Proxy addresses and CIDRs, parsed once at start-up (an address alone is its /32 or /128). */
export type TrustedProxies = [Ip, number][];

/**
 * Who the client is, for rate limiting (SPEC §7). By default the socket peer address and nothing
 * else: a header the client wrote never decides its bucket unless TRUST_PROXY says which hops
 * (or which header) to believe.
 */
export type TrustProxy =
  /** Unset, '' or 'false': the socket address only. */
  | { kind: 'none' }
  /**
   * A number N with TRUSTED_PROXIES: only when the socket peer is a trusted proxy, X-Forwarded-For
   * walked from the right at most N hops, each hop but the last one trusted too.
   */
  | { kind: 'hops'; hops: number; trusted: TrustedProxies; source: string }
  /** A list of proxy addresses/CIDRs: walk X-Forwarded-For from the right while the hops are trusted. */
  | { kind: 'list'; trusted: TrustedProxies; source: string }
  /** 'header:<Name>': that header's value when it is a valid IP (and, with TRUSTED_PROXIES, the peer is one of them), else the socket address. */
  | { kind: 'header'; name: string; trusted?: TrustedProxies; source?: string };

/** Named ranges accepted in a TRUST_PROXY list (the names Express's proxy-addr uses). */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** An RFC 9110 field name (token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Used when there is no socket (app.request() in tests, a destroyed socket): everyone shares it. */
export const UNKNOWN_CLIENT = 'unknown';

function invalid(value: string, why: string): Error {
  return new Error(
    `invalid TRUST_PROXY=${JSON.stringify(value)}: ${why}. Accepted: unset or 'false' (socket address only), ` +
      `a number of trusted hops ('1') together with TRUSTED_PROXIES, a comma-separated list of proxy addresses or CIDRs ('127.0.0.1,10.0.0.0/8', ` +
      `also 'loopback', 'linklocal', 'uniquelocal'), or 'header:<Name>' ('header:CF-Connecting-IP')`,
  );
}

/** A comma-separated list of addresses, CIDRs and named ranges (throws on a bad entry). */
function parseList(raw: string, what: (why: string) => Error): { trusted: TrustedProxies; source: string } {
  const trusted: TrustedProxies = [];
  const entries = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (entries.length === 0) throw what('the list is empty');
  for (const entry of entries) {
    const named = NAMED_RANGES[entry.toLowerCase()];
    for (const item of named ?? [entry]) addEntry(trusted, item, what);
  }
  return { trusted, source: entries.join(',') };
}

/**
 * Parse TRUST_PROXY (and TRUSTED_PROXIES) once at start-up; a value that is not one of the
 * documented forms throws. A hop count is accepted only together with the list of proxy
 * addresses it applies to: a count alone would let any client that reaches the server directly
 * name its own address in X-Forwarded-For.
 */
export function parseTrustProxy(value: string | undefined, trustedProxies?: string): TrustProxy {
  const raw = (value ?? '').trim();
  const proxiesRaw = (trustedProxies ?? '').trim();
  const proxies = proxiesRaw ? parseList(proxiesRaw, (why) => invalidProxies(proxiesRaw, why)) : undefined;
  if (raw === '' || raw.toLowerCase() === 'false') return { kind: 'none' };
  if (raw.toLowerCase() === 'true')
    throw invalid(
      raw,
      "'true' would trust any X-Forwarded-For a client sends; give the number of proxies in front of the API with TRUSTED_PROXIES, or the list of proxy addresses instead",
    );
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 32) throw invalid(raw, 'more than 32 hops is not a plausible proxy chain');
    if (hops === 0) return { kind: 'none' };
    if (!proxies)
      throw invalid(
        raw,
        'a hop count needs TRUSTED_PROXIES, the addresses or CIDRs of those proxies (e.g. TRUSTED_PROXIES=10.0.0.0/8): without it any client could write its own X-Forwarded-For',
      );
    return { kind: 'hops', hops, ...proxies };
  }
  if (/^header:/i.test(raw)) {
    const name = raw.slice('header:'.length).trim();
    if (!HEADER_NAME.test(name)) throw invalid(raw, 'the header name after header: is missing or not a valid field name');
    return proxies ? { kind: 'header', name: name.toLowerCase(), ...proxies } : { kind: 'header', name: name.toLowerCase() };
  }
  const list = parseList(proxiesRaw ? `${raw},${proxiesRaw}` : raw, (why) => invalid(raw, why));
  return { kind: 'list', ...list };
}

function invalidProxies(value: string, why: string): Error {
  return new Error(
    `invalid TRUSTED_PROXIES=${JSON.stringify(value)}: ${why}. Accepted: a comma-separated list of proxy addresses or CIDRs ('10.0.0.0/8,192.0.2.7'), also 'loopback', 'linklocal', 'uniquelocal'`,
  );
}

/** The whole IPv4-mapped range, ::ffff:0:0/96, as IPv6. */
const MAPPED = ipaddr.IPv6.parse('::ffff:0:0');
const ANY_IPV4: [Ip, number] = [ipaddr.IPv4.parse('0.0.0.0'), 0];

function addEntry(list: TrustedProxies, entry: string, fail: (why: string) => Error): void {
  const slash = entry.indexOf('/');
  const addr = canonicalIp(slash < 0 ? entry : entry.slice(0, slash));
  if (!addr) throw fail(`${JSON.stringify(entry)} is not an IP address, a CIDR or a named range`);
  const max = addr.kind() === 'ipv4' ? 32 : 128;
  const bitsText = slash < 0 ? String(max) : entry.slice(slash + 1);
  const bits = /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : NaN;
  if (!(bits >= 0 && bits <= max)) throw fail(`${JSON.stringify(entry)} has a prefix length outside 0–${max}`);
  list.push([addr, bits]);
  // An IPv6 range holding every IPv4-mapped address (::/0, ::/64) holds every IPv4 address, as in node:net's BlockList.
  if (addr instanceof ipaddr.IPv6 && bits <= 96 && MAPPED.match(addr, bits)) list.push(ANY_IPV4);
}

/** Is `ip` (any valid text form) one of the trusted proxies? False for anything that is not an address. */
export function trustedBy(list: TrustedProxies, ip: string): boolean {
  const addr = ip === UNKNOWN_CLIENT ? null : canonicalIp(ip);
  return addr !== null && ipaddr.subnetMatch(addr, { trusted: list }, 'other') === 'trusted';
}

/** The socket peer address, normalised; UNKNOWN_CLIENT when there is no Node socket behind the context. */
export function socketIp(c: Context): string {
  try {
    return normalizeIp(getConnInfo(c).remote.address) ?? UNKNOWN_CLIENT;
  } catch {
    return UNKNOWN_CLIENT;
  }
}

/** X-Forwarded-For entries, left to right (several header lines arrive joined with ', '). */
function forwardedFor(header: (name: string) => string | undefined): string[] {
  const xff = header('x-forwarded-for');
  if (!xff) return [];
  return xff.split(',').map((s) => s.trim());
}

/**
 * The client address under the TRUST_PROXY policy. Walking X-Forwarded-For from the right, the
 * first entry that is not a valid IP stops the walk and the nearest valid hop to its right is
 * the answer, so a forged value can never name a bucket of the client's choosing beyond what the
 * trusted proxies themselves appended.
 */
export function clientIp(c: Context, trust: TrustProxy): string {
  return clientIpOf(socketIp(c), (name) => c.req.header(name), trust);
}

/**
 * clientIp() from its parts: the normalised socket peer (or UNKNOWN_CLIENT) and a reader of the
 * request's headers by lower-case name (the Node listener has no Hono context).
 */
export function clientIpOf(peer: string, header: (name: string) => string | undefined, trust: TrustProxy): string {
  switch (trust.kind) {
    case 'none':
      return peer;
    case 'header': {
      if (trust.trusted && !trustedBy(trust.trusted, peer)) return peer;
      const v = normalizeIp(header(trust.name.toLowerCase()));
      return v ?? peer;
    }
    case 'hops': {
      if (!trustedBy(trust.trusted, peer)) return peer;
      const chain = forwardedFor(header);
      let answer = peer;
      for (let i = 1; i <= trust.hops && chain.length - i >= 0; i++) {
        const next = normalizeIp(chain[chain.length - i]);
        if (!next) break;
        answer = next;
        // A hop that is not one of our proxies may have written everything to its left.
        if (i < trust.hops && !trustedBy(trust.trusted, next)) break;
      }
      return answer;
    }
    case 'list': {
      if (!trustedBy(trust.trusted, peer)) return peer;
      const chain = forwardedFor(header);
      let answer = peer;
      for (let i = chain.length - 1; i >= 0; i--) {
        const next = normalizeIp(chain[i]);
        if (!next) break;
        answer = next;
        if (!trustedBy(trust.trusted, next)) break;
      }
      return answer;
    }
  }
}

/** Human description of the policy, for the start-up log. */
export function describeTrustProxy(trust: TrustProxy): string {
  switch (trust.kind) {
    case 'none':
      return 'client IP = socket address (X-Forwarded-For ignored)';
    case 'hops':
      return `client IP = up to ${trust.hops} hop(s) from the right of X-Forwarded-For, only from the trusted proxies ${trust.source}`;
    case 'list':
      return `client IP = X-Forwarded-For walked from the right through the trusted proxies ${trust.source}`;
    case 'header':
      return `client IP = the ${trust.name} header when it holds a valid IP${trust.source ? ` and the peer is one of ${trust.source}` : ''}, else the socket address`;
  }
}
