/**
 * Address text without Node's net module (the app runs at the edge too), on ipaddr.js (pure
 * JavaScript): parsing, the canonical form of a client address and the bucket it counts against.
 */
import ipaddr from 'ipaddr.js';

export type Ip = ipaddr.IPv4 | ipaddr.IPv6;

/** A dotted quad in the one notation every stack agrees on (ipaddr.js alone also reads 127.1, 0x7f.0.0.1, 0177.0.0.1). */
const DOTTED_QUAD = /^(?:0|[1-9]\d{0,2})(?:\.(?:0|[1-9]\d{0,2})){3}$/;
/** ::ffff:0:0/96, the IPv4-mapped addresses. */
const MAPPED = ipaddr.IPv6.parse('::ffff:0:0');

/** ipaddr.js throws on what it cannot read; the cheap checks above keep that off the path of valid addresses. */
function attempt<T>(parse: () => T): T | null {
  try {
    return parse();
  } catch {
    return null;
  }
}

/**
 * An address in standard notation, or null: a dotted quad, or IPv6 hex groups (a dotted quad only
 * as the last 32 bits, an optional zone id, which is dropped). Exactly what node:net's isIP() accepts.
 */
export function parseIp(text: string): Ip | null {
  if (!text.includes(':')) return DOTTED_QUAD.test(text) ? attempt(() => ipaddr.IPv4.parse(text)) : null;
  // The zone id (fe80::1%eth0) names an interface of the host that saw the address, not the address.
  const pct = text.indexOf('%');
  if (pct >= 0 && !/^%[0-9a-z.:-]+$/i.test(text.slice(pct))) return null;
  const bare = pct < 0 ? text : text.slice(0, pct);
  if (bare.includes('.') && !DOTTED_QUAD.test(bare.slice(bare.lastIndexOf(':') + 1))) return null;
  // ipaddr.js reads the deprecated IPv4-compatible ::a.b.c.d as IPv4-mapped ::ffff:a.b.c.d: spelt so that it stays itself.
  const v6 = /^::\d+\.\d+\.\d+\.\d+$/.test(bare) ? `::0:${bare.slice(2)}` : bare;
  return attempt(() => ipaddr.IPv6.parse(v6));
}

/**
 * A syntactically valid IP in canonical form (IPv4-mapped IPv6 becomes IPv4, IPv6 loses its zone
 * id), or null. Never trust a header value this rejects.
 */
export function canonicalIp(value: string | undefined): Ip | null {
  if (!value) return null;
  const v = value.trim();
  if (v.length > 64) return null;
  const ip = parseIp(v);
  // IPv4-mapped (::ffff:a.b.c.d): the same client as a.b.c.d.
  return ip instanceof ipaddr.IPv6 && ip.match(MAPPED, 96) ? ip.toIPv4Address() : ip;
}

/** canonicalIp() as text: a dotted quad, or RFC 5952 IPv6 (lower case, no leading zeros, the longest run of zero groups as ::). */
export function normalizeIp(value: string | undefined): string | null {
  return canonicalIp(value)?.toString() ?? null;
}

/**
 * The bucket a client address counts against: an IPv4 address as it is, an IPv6 address by its
 * /64 (one subscriber usually holds a whole /64 and could otherwise rotate through it). Anything
 * else (already a /64 key, 'unknown') is its own bucket.
 */
export function rateKey(ip: string): string {
  if (!ip.includes(':')) return ip;
  const v6 = parseIp(ip);
  if (!(v6 instanceof ipaddr.IPv6)) return ip;
  return `${new ipaddr.IPv6([...v6.parts.slice(0, 4), 0, 0, 0, 0]).toRFC5952String()}/64`;
}

/**
 * A client address as logs may keep it: an IPv4 address by its /24, an IPv6 address by its /48
 * (enough to tell networks apart, not to name a subscriber). Anything else ('unknown') as it is.
 */
export function logPrefix(ip: string): string {
  const a = parseIp(ip);
  if (!a) return ip === 'unknown' ? ip : 'invalid';
  if (a instanceof ipaddr.IPv4) return `${a.octets.slice(0, 3).join('.')}.0/24`;
  return `${new ipaddr.IPv6([...a.parts.slice(0, 3), 0, 0, 0, 0, 0]).toRFC5952String()}/48`;
}
