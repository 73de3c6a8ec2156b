/**
 * Address text without Node's net module (the app runs at the edge too): IPv6 parsing and
 * formatting, and the bucket an address counts against.
 */

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

/**
 * The bucket a client address counts against: an IPv4 address as it is, an IPv6 address by its
 * /64 (one subscriber usually holds a whole /64 and could otherwise rotate through it).
 */
export function rateKey(ip: string): string {
  if (!ip.includes(':')) return ip;
  const groups = ipv6Groups(ip);
  if (!groups) return ip;
  return `${formatIpv6([...groups.slice(0, 4), 0, 0, 0, 0])}/64`;
}
