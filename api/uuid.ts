import { randomFillSync } from 'node:crypto';

/**
 * Random (version 4) UUIDs, as crypto.randomUUID() makes them, for the request ids of the Node
 * server: random bytes from the same CSPRNG in batches, each id written as hex into one buffer and
 * read out as one string. crypto.randomUUID() joins twenty short strings per id, about 590 bytes
 * for the young generation's collector on every request; this allocates the id alone, in about
 * the same time (a sampling heap profile of the fast path under wrk, BENCHMARKS.md).
 */

const BATCH = 256;
const random = Buffer.allocUnsafeSlow(16 * BATCH);
let next = random.length;
const HEX = Buffer.from('0123456789abcdef', 'latin1');
/** The text of an id: the dashes stay, the hex digits are rewritten each time. */
const text = Buffer.alloc(36, '-', 'latin1');

export function uuidV4(): string {
  if (next === random.length) {
    randomFillSync(random);
    next = 0;
  }
  let at = 0;
  for (let i = 0; i < 16; i++) {
    // A dash before the 5th, 7th, 9th and 11th byte: 8-4-4-4-12 digits.
    if (i === 4 || i === 6 || i === 8 || i === 10) at++;
    let b = random[next++]!;
    if (i === 6)
      b = (b & 0x0f) | 0x40; // version 4
    else if (i === 8) b = (b & 0x3f) | 0x80; // variant 10
    text[at++] = HEX[b >> 4]!;
    text[at++] = HEX[b & 15]!;
  }
  return text.toString('latin1', 0, 36);
}
