/**
 * The distilled word vectors of a build (`search/vectors.bin`), written by pipeline/search and
 * read here, and the one function that turns weighted words into a text vector, used for the
 * documents at build time and for the queries in the API, so both live in the same space.
 *
 * Layout (little-endian): "CPV1" · u32 header length · header JSON (UTF-8, padded to 4 bytes:
 * `{ dims, count, source, words, common? }`) · f32 scale[count] · f32 weight[count] · f32 mean[dims] ·
 * i8 vector[count × dims]. Each word vector is unit length, quantised to int8 with its own scale;
 * `weight` is the word's smooth-inverse-frequency weight a / (a + p(w)). `mean` is the common
 * component removed from every text vector: with `common: "project"` (the current builds) the
 * direction of general English text (the frequency-weighted mean of the words), projected out;
 * without (older builds) the mean text vector of the corpus, subtracted.
 */

const MAGIC = 0x31565043; // "CPV1"

export interface VectorTable {
  dims: number;
  source: string;
  /** How `mean` is removed from a text vector. */
  common: 'subtract' | 'project';
  /** normalised word → row. */
  index: ReadonlyMap<string, number>;
  words: readonly string[];
  scales: Float32Array;
  weights: Float32Array;
  mean: Float32Array;
  data: Int8Array;
}

export interface VectorTableInput {
  dims: number;
  source: string;
  words: readonly string[];
  /** One unit vector per word. */
  vectors: readonly Float32Array[];
  weights: readonly number[];
  mean: Float32Array;
  common?: 'subtract' | 'project';
}

export function encodeVectors(t: VectorTableInput): Uint8Array {
  const header = new TextEncoder().encode(
    JSON.stringify({ dims: t.dims, count: t.words.length, source: t.source, words: t.words, ...(t.common === 'project' ? { common: 'project' } : {}) }),
  );
  const headerLen = Math.ceil(header.length / 4) * 4;
  const count = t.words.length;
  const floats = 8 + headerLen;
  const total = floats + 4 * (2 * count + t.dims) + count * t.dims;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, headerLen, true);
  out.set(header, 8);
  out.fill(0x20, 8 + header.length, 8 + headerLen); // pad with spaces (valid JSON whitespace)
  const meanAt = floats + 8 * count;
  const dataAt = meanAt + 4 * t.dims;
  for (let i = 0; i < count; i++) {
    const v = t.vectors[i]!;
    let max = 0;
    for (let d = 0; d < t.dims; d++) max = Math.max(max, Math.abs(v[d]!));
    const scale = max > 0 ? max / 127 : 1;
    view.setFloat32(floats + 4 * i, scale, true);
    view.setFloat32(floats + 4 * (count + i), t.weights[i]!, true);
    for (let d = 0; d < t.dims; d++) view.setInt8(dataAt + i * t.dims + d, Math.round(v[d]! / scale));
  }
  for (let d = 0; d < t.dims; d++) view.setFloat32(meanAt + 4 * d, t.mean[d]!, true);
  return out;
}

export function decodeVectors(bytes: Uint8Array): VectorTable {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 8 || view.getUint32(0, true) !== MAGIC) throw new Error('search/vectors.bin: not a CPV1 vector table');
  const headerLen = view.getUint32(4, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLen))) as {
    dims: number;
    count: number;
    source: string;
    words: string[];
    common?: 'project';
  };
  const { dims, count } = header;
  const floats = 8 + headerLen;
  // Copies, so the arrays are aligned whatever the offset of `bytes` in its buffer.
  const f32 = (at: number, n: number) => {
    const a = new Float32Array(n);
    for (let i = 0; i < n; i++) a[i] = view.getFloat32(at + 4 * i, true);
    return a;
  };
  const scales = f32(floats, count);
  const weights = f32(floats + 4 * count, count);
  const mean = f32(floats + 8 * count, dims);
  const dataAt = floats + 8 * count + 4 * dims;
  const data = new Int8Array(bytes.buffer, bytes.byteOffset + dataAt, count * dims).slice();
  const index = new Map<string, number>();
  header.words.forEach((w, i) => {
    if (!index.has(w)) index.set(w, i);
  });
  return { dims, source: header.source, common: header.common ?? 'subtract', index, words: header.words, scales, weights, mean, data };
}

/** The (dequantised) unit vector of a word, or undefined when the word is not in the table. */
export function wordVector(t: VectorTable, word: string): Float32Array | undefined {
  const row = t.index.get(word);
  if (row === undefined) return undefined;
  const v = new Float32Array(t.dims);
  const s = t.scales[row]!;
  for (let d = 0; d < t.dims; d++) v[d] = t.data[row * t.dims + d]! * s;
  return v;
}

export interface WeightedWord {
  word: string;
  /** Multiplies the word's own frequency weight (title words count more, for instance). */
  weight: number;
}

/**
 * The uncentred vector of a text: the weighted mean of its words' unit vectors (each weighted by
 * `weight` × its frequency weight), normalised. Words not in the table are skipped; null when
 * none is known.
 */
export function rawTextVector(t: VectorTable, items: Iterable<WeightedWord>): Float32Array | null {
  const acc = new Float32Array(t.dims);
  let n = 0;
  for (const { word, weight } of items) {
    const row = t.index.get(word);
    if (row === undefined || weight <= 0) continue;
    const w = weight * t.weights[row]! * t.scales[row]!;
    const base = row * t.dims;
    for (let d = 0; d < t.dims; d++) acc[d]! += w * t.data[base + d]!;
    n++;
  }
  return n === 0 ? null : unit(acc);
}

/** A text vector as it is indexed and searched: the raw vector without the common component (`VectorTable.common`), normalised. */
export function textVector(t: VectorTable, items: Iterable<WeightedWord>): Float32Array | null {
  const raw = rawTextVector(t, items);
  return raw && (t.common === 'project' ? project(raw, t.mean) : centre(raw, t.mean));
}

/** `v` without its component along the unit vector `u`, normalised. */
export function project(v: Float32Array, u: Float32Array): Float32Array {
  let d = 0;
  for (let i = 0; i < v.length; i++) d += v[i]! * u[i]!;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i]! - d * u[i]!;
  return unit(out);
}

export function centre(v: Float32Array, mean: Float32Array): Float32Array {
  const out = new Float32Array(v.length);
  for (let d = 0; d < v.length; d++) out[d] = v[d]! - mean[d]!;
  return unit(out);
}

export function unit(v: Float32Array): Float32Array {
  let n = 0;
  for (let d = 0; d < v.length; d++) n += v[d]! * v[d]!;
  n = Math.sqrt(n);
  if (n > 0) for (let d = 0; d < v.length; d++) v[d]! /= n;
  return v;
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}
