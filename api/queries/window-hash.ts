/**
 * A hash of bytes that composes: the hash of a concatenation is computed from the hashes and
 * lengths of its parts, without reading their bytes again. A time-series window
 * (api/queries/timeseries-window.ts) is the template's pieces, a few dates and a run of
 * pre-serialised points; its ETag is this hash of its exact bytes, from hashes made once per
 * build (each piece, and the prefixes of the points' bytes) and a few bytes hashed per request.
 * Same bytes, same ETag, whatever the request or the build; other bytes, another ETag (62 bits).
 *
 * Two polynomial hashes, Σ byte·B^(n−1−i) mod P, with two primes below 2³¹; products are split
 * so that every intermediate stays an exact integer in a double (< 2⁵³).
 */

const P = [2147483647, 2147483629] as const;
const B = [911382323, 972663749] as const;

function mulmod(a: number, b: number, p: number): number {
  return (((a * (b >>> 16)) % p) * 65536 + a * (b & 0xffff)) % p;
}

function powmod(base: number, exp: number, p: number): number {
  let result = 1;
  let x = base;
  let e = exp;
  while (e > 0) {
    if (e & 1) result = mulmod(result, x, p);
    x = mulmod(x, x, p);
    e = Math.floor(e / 2);
  }
  return result;
}

/**
 * B^n mod P for every n up to the longest run asked so far, one table per prime (grown by
 * doubling, 16 bytes per byte of the longest series' points: well under 2 MB here), so that a
 * window's run of points is appended without a modular power.
 */
let powers: [Float64Array, Float64Array] = [new Float64Array([1]), new Float64Array([1])];
function powersUpTo(n: number): [Float64Array, Float64Array] {
  if (n < powers[0].length) return powers;
  let size = powers[0].length;
  while (size <= n) size *= 2;
  const grown = powers.map((old, k) => {
    const t = new Float64Array(size);
    t.set(old);
    for (let i = old.length; i < size; i++) t[i] = mulmod(t[i - 1]!, B[k]!, P[k]!);
    return t;
  }) as [Float64Array, Float64Array];
  powers = grown;
  return grown;
}

/** The hash of some bytes: one value per prime, and the length. */
export interface Hash {
  h0: number;
  h1: number;
  length: number;
}

export function hashBytes(bytes: Uint8Array): Hash {
  let h0 = 0;
  let h1 = 0;
  for (let i = 0; i < bytes.length; i++) {
    h0 = (mulmod(h0, B[0], P[0]) + bytes[i]!) % P[0];
    h1 = (mulmod(h1, B[1], P[1]) + bytes[i]!) % P[1];
  }
  return { h0, h1, length: bytes.length };
}

/** A hash with B^length precomputed: appended without a modular power. */
export interface Piece extends Hash {
  pow0: number;
  pow1: number;
}

export function pieceOf(bytes: Uint8Array): Piece {
  const h = hashBytes(bytes);
  return { ...h, pow0: powmod(B[0], h.length, P[0]), pow1: powmod(B[1], h.length, P[1]) };
}

const asciiPieces = new Map<string, Piece>();
/**
 * The piece of a short ASCII string (a date, a count), kept: the same few thousand dates come
 * back request after request, and hashing them byte by byte is the dearest part of a window's
 * ETag otherwise. At most 100,000 kept (then forgotten at once).
 */
export function asciiPiece(text: string): Piece {
  let p = asciiPieces.get(text);
  if (!p) {
    if (asciiPieces.size >= 100_000) asciiPieces.clear();
    p = pieceOf(new TextEncoder().encode(text));
    asciiPieces.set(text, p);
  }
  return p;
}

/** A hash being made, part after part. */
export class Running implements Hash {
  h0 = 0;
  h1 = 0;
  length = 0;

  piece(p: Piece): this {
    this.h0 = (mulmod(this.h0, p.pow0, P[0]) + p.h0) % P[0];
    this.h1 = (mulmod(this.h1, p.pow1, P[1]) + p.h1) % P[1];
    this.length += p.length;
    return this;
  }

  /** An ASCII string's bytes (one byte a character). */
  ascii(text: string): this {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      this.h0 = (mulmod(this.h0, B[0], P[0]) + c) % P[0];
      this.h1 = (mulmod(this.h1, B[1], P[1]) + c) % P[1];
    }
    this.length += text.length;
    return this;
  }
}

/**
 * The hashes of every prefix of some bytes that ends at one of `ends` (byte offsets, ascending):
 * with rangeHash(), the hash of any run of bytes between two of these offsets.
 */
export interface Prefixes {
  h0: Float64Array;
  h1: Float64Array;
  ends: Int32Array;
}

export function prefixes(bytes: Uint8Array, ends: Int32Array): Prefixes {
  const h0 = new Float64Array(ends.length);
  const h1 = new Float64Array(ends.length);
  let a = 0;
  let b = 0;
  let at = 0;
  for (let k = 0; k < ends.length; k++) {
    for (; at < ends[k]!; at++) {
      a = (mulmod(a, B[0], P[0]) + bytes[at]!) % P[0];
      b = (mulmod(b, B[1], P[1]) + bytes[at]!) % P[1];
    }
    h0[k] = a;
    h1[k] = b;
  }
  return { h0, h1, ends };
}

/** The hash of the bytes from the offset ends[s] to the offset ends[e] (s ≤ e), ready to append (its power computed once). */
export function rangeHash(p: Prefixes, s: number, e: number): Piece {
  const length = p.ends[e]! - p.ends[s]!;
  const [t0, t1] = powersUpTo(length);
  const pow0 = t0[length]!;
  const pow1 = t1[length]!;
  return {
    h0: (p.h0[e]! - mulmod(p.h0[s]!, pow0, P[0]) + P[0]) % P[0],
    h1: (p.h1[e]! - mulmod(p.h1[s]!, pow1, P[1]) + P[1]) % P[1],
    length,
    pow0,
    pow1,
  };
}

/** A strong ETag of the bytes a hash was made of: both values in hexadecimal, and the length. */
export function etagOfHash(h: Hash): string {
  return `"${h.h0.toString(16).padStart(8, '0')}${h.h1.toString(16).padStart(8, '0')}-${h.length.toString(16)}"`;
}
