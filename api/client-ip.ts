import { BlockList, isIP } from 'node:net';
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/**
 * Who the client is, for rate limiting (SPEC §7). By default the socket peer address and nothing
 * else: a header the client wrote never decides its bucket unless TRUST_PROXY says which hops
 * (or which header) to believe.
 */
export type TrustProxy =
  /** Unset, '' or 'false': the socket address only. */
  | { kind: 'none' }
  /** A number N: the address N positions from the right of X-Forwarded-For + socket address. */
  | { kind: 'hops'; hops: number }
  /** A list of proxy addresses/CIDRs: walk X-Forwarded-For from the right while the hops are trusted. */
  | { kind: 'list'; trusted: BlockList; source: string }
  /** 'header:<Name>': that header's value when it is a valid IP, else the socket address. */
  | { kind: 'header'; name: string };

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
      `a number of trusted hops ('1'), a comma-separated list of proxy addresses or CIDRs ('127.0.0.1,10.0.0.0/8', ` +
      `also 'loopback', 'linklocal', 'uniquelocal'), or 'header:<Name>' ('header:CF-Connecting-IP')`,
  );
}

/** Parse TRUST_PROXY once at start-up; a value that is not one of the documented forms throws. */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const raw = (value ?? '').trim();
  if (raw === '' || raw.toLowerCase() === 'false') return { kind: 'none' };
  if (raw.toLowerCase() === 'true') throw invalid(raw, "'true' would trust any X-Forwarded-For a client sends; give the number of proxies in front of the API instead");
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 32) throw invalid(raw, 'more than 32 hops is not a plausible proxy chain');
    return hops === 0 ? { kind: 'none' } : { kind: 'hops', hops };
  }
  if (/^header:/i.test(raw)) {
    const name = raw.slice('header:'.length).trim();
    if (!HEADER_NAME.test(name)) throw invalid(raw, 'the header name after header: is missing or not a valid field name');
    return { kind: 'header', name: name.toLowerCase() };
  }
  const trusted = new BlockList();
  const entries = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (entries.length === 0) throw invalid(raw, 'the list is empty');
  for (const entry of entries) {
    const named = NAMED_RANGES[entry.toLowerCase()];
    for (const item of named ?? [entry]) addEntry(trusted, item, raw);
  }
  return { kind: 'list', trusted, source: entries.join(',') };
}

function addEntry(list: BlockList, entry: string, raw: string): void {
  const slash = entry.indexOf('/');
  const addr = normalizeIp(slash < 0 ? entry : entry.slice(0, slash));
  if (!addr) throw invalid(raw, `${JSON.stringify(entry)} is not an IP address, a CIDR or a named range`);
  const family = isIP(addr) === 4 ? 'ipv4' : 'ipv6';
  if (slash < 0) {
    list.addAddress(addr, family);
    return;
  }
  const bitsText = entry.slice(slash + 1);
  const max = family === 'ipv4' ? 32 : 128;
  const bits = /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : NaN;
  if (!(bits >= 0 && bits <= max)) throw invalid(raw, `${JSON.stringify(entry)} has a prefix length outside 0–${max}`);
  list.addSubnet(addr, bits, family);
}

/**
 * A syntactically valid IP in canonical form (IPv4-mapped IPv6 becomes IPv4, IPv6 lower-case),
 * or null. Never trust a header value this rejects.
 */
export function normalizeIp(value: string | undefined): string | null {
  if (!value) return null;
  const v = value.trim();
  if (v.length > 64) return null;
  const version = isIP(v);
  if (version === 4) return v;
  if (version !== 6) return null;
  const groups = ipv6Groups(v);
  if (!groups) return null;
  // IPv4-mapped (::ffff:a.b.c.d): the same client as a.b.c.d.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi, lo] = [groups[6]!, groups[7]!];
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return formatIpv6(groups);
}

/** The eight 16-bit groups of an IPv6 address that isIP() accepted (zone id dropped). */
export function ipv6Groups(v: string): number[] | null {
  let s = v.toLowerCase();
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  const tail: number[] = [];
  const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (dotted) {
    const b = dotted.slice(1).map(Number);
    tail.push((b[0]! << 8) | b[1]!, (b[2]! << 8) | b[3]!);
    s = s.slice(0, dotted.index) + '0'; // placeholder group, dropped below
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  if (dotted) (halves.length === 2 ? rest : head).pop();
  const fill = 8 - head.length - rest.length - tail.length;
  if (fill < 0 || (halves.length === 1 && fill !== 0)) return null;
  const groups = [...head, ...new Array<number>(fill).fill(0), ...rest, ...tail];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/** RFC 5952 text: lower-case, no leading zeros, the longest run (≥ 2) of zero groups as ::. */
export function formatIpv6(groups: number[]): string {
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < groups.length; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < groups.length && groups[j] === 0) j++;
    if (j - i > bestLen) [bestStart, bestLen] = [i, j - i];
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

function trustedBy(list: BlockList, ip: string): boolean {
  return list.check(ip, isIP(ip) === 4 ? 'ipv4' : 'ipv6');
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
function forwardedFor(c: Context): string[] {
  const xff = c.req.header('x-forwarded-for');
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
  const peer = socketIp(c);
  switch (trust.kind) {
    case 'none':
      return peer;
    case 'header': {
      const v = normalizeIp(c.req.header(trust.name));
      return v ?? peer;
    }
    case 'hops': {
      const chain = forwardedFor(c);
      let answer = peer;
      for (let i = 1; i <= trust.hops && chain.length - i >= 0; i++) {
        const next = normalizeIp(chain[chain.length - i]);
        if (!next) break;
        answer = next;
      }
      return answer;
    }
    case 'list': {
      if (peer === UNKNOWN_CLIENT || !trustedBy(trust.trusted, peer)) return peer;
      const chain = forwardedFor(c);
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
      return `client IP = ${trust.hops} hop(s) from the right of X-Forwarded-For + socket address`;
    case 'list':
      return `client IP = X-Forwarded-For walked from the right through the trusted proxies ${trust.source}`;
    case 'header':
      return `client IP = the ${trust.name} header when it holds a valid IP, else the socket address`;
  }
}
