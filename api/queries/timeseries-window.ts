import type { Point } from '../../contract/common.ts';
import { isoWeekId } from '../../contract/dates.ts';
import type { Frequency } from '../../contract/reserves.ts';
import { type LoadedBuild, perBuild } from '../build.ts';
import { asciiPiece, etagOfHash, type Piece, pieceOf, type Prefixes, prefixes, rangeHash, Running } from './window-hash.ts';
import { resample, timeseriesEnvelope, type TimeseriesPlan } from './reserves.ts';

/**
 * The JSON answer of a time-series window written from bytes made once per loaded build (issue
 * 32): a new window each request must cost about what writing its bytes costs, not a slice of
 * objects, a JSON.stringify of them and a hash of the result.
 *
 * Per (reserve, metric, frequency), made on first use: the series resampled over its whole
 * length, each point serialised once (`{"date":…,"value":…}`, as JSON.stringify writes it in the
 * answer) into one buffer of comma-joined points with their offsets, the dates for the binary
 * search, and the answer's template — the envelope of timeseriesEnvelope() with stand-ins for
 * the window's values (from, to, points, as_of, count), split into pieces at them. A window
 * is then a few binary searches, a view of the points' bytes (not a copy: the listener writes
 * it to the socket as it is), the template's long pieces as bytes encoded once, and the short
 * text between them (the dates and the count).
 *
 * A resampled window is a run of the whole series' resampled points (each period's last
 * observation), plus, when `to` cuts the window's last period short, the last observation before
 * `to`: resample() of the sliced observations gives exactly that (each period but the last ends
 * inside the window, as in the whole series).
 *
 * The ETag is a hash of the exact bytes without reading them (api/queries/window-hash.ts): a
 * hash that composes, made once per build for each piece of the template and for the prefixes
 * of the points' bytes, and per request for the few bytes of the dates and the count. Same
 * bytes, same ETag (whatever the request, the build or the path that answered); other bytes,
 * another: a strong validator.
 * An empty window (its meta carries a note) is left to the general path.
 */

const SLOTS = ['from', 'to', 'points', 'as_of', 'count'] as const;
type Slot = (typeof SLOTS)[number];
const STAND_IN: Record<Slot, string> = { from: '\u0001from', to: '\u0001to', points: '\u0001points', as_of: '\u0001as_of', count: '\u0001count' };

interface Series {
  /** Dates of the resampled points, ascending. */
  dates: string[];
  /** The points' JSON joined by commas; point i is bytes [offsets[i], offsets[i + 1] - 1) (the comma after it excluded). */
  bytes: Uint8Array;
  offsets: Int32Array;
  /** Hashes of the bytes up to each point's start (2i) and end (2i + 1, its comma excluded). */
  hashes: Prefixes;
}

interface Prepared {
  /** The observations as published, and whether each is the last of its period (in the resampled series). */
  raw: Series;
  periodEnd: Uint8Array;
  resampled: Series;
  /** The JSON of each observation (the extra point of a window cut short). */
  rawJson: string[];
  /** The template's pieces around the slots, and the slot after each piece (the last piece has none). */
  texts: string[];
  /** The pieces' bytes, and their hashes (api/queries/window-hash.ts). */
  encoded: Uint8Array[];
  textHashes: Piece[];
  slots: Slot[];
}

const encoder = new TextEncoder();

function seriesOf(points: readonly Point[]): Series {
  const parts = points.map((p) => encoder.encode(`${JSON.stringify(p)},`));
  const offsets = new Int32Array(parts.length + 1);
  parts.forEach((p, i) => (offsets[i + 1] = offsets[i]! + p.byteLength));
  const bytes = concat(parts);
  const ends = new Int32Array(2 * parts.length + 1);
  for (let i = 0; i < parts.length; i++) {
    ends[2 * i] = offsets[i]!;
    ends[2 * i + 1] = offsets[i + 1]! - 1;
  }
  ends[2 * parts.length] = offsets[parts.length]!;
  return { dates: points.map((p) => p.date), bytes, offsets, hashes: prefixes(bytes, ends) };
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

function periodKey(frequency: Frequency): ((date: string) => string) | null {
  return frequency === 'daily' ? null : frequency === 'weekly' ? isoWeekId : (d: string) => d.slice(0, 7);
}

function prepare(b: LoadedBuild, plan: TimeseriesPlan): Prepared {
  const points = b.reserves.get(plan.key)!.series.metrics[plan.metricName]!.points;
  const resampled = resample(points, plan.frequency);
  const keyOf = periodKey(plan.frequency);
  const periodEnd = new Uint8Array(points.length);
  points.forEach((p, i) => (periodEnd[i] = !keyOf || i === points.length - 1 || keyOf(points[i + 1]!.date) !== keyOf(p.date) ? 1 : 0));
  const stand = timeseriesEnvelope(
    b,
    { ...plan, from: STAND_IN.from, to: STAND_IN.to },
    STAND_IN.points as unknown as Point[],
    STAND_IN.as_of,
    STAND_IN.count as unknown as number,
  );
  const text = JSON.stringify(stand);
  const texts: string[] = [];
  const slots: Slot[] = [];
  const at = new RegExp(SLOTS.map((s) => JSON.stringify(STAND_IN[s]).replaceAll('\\', '\\\\')).join('|'), 'g');
  let last = 0;
  for (const m of text.matchAll(at)) {
    texts.push(text.slice(last, m.index));
    slots.push(SLOTS.find((s) => JSON.stringify(STAND_IN[s]) === m[0])!);
    last = m.index + m[0].length;
  }
  texts.push(text.slice(last));
  if (slots.length !== SLOTS.length) throw new Error(`time-series template of ${plan.key}: ${slots.length} slots found, ${SLOTS.length} expected`);
  const r = seriesOf(resampled);
  const raw = seriesOf(points);
  const rawJson = points.map((pt) => JSON.stringify(pt));
  if (rawJson.some((j) => /[^\x20-\x7e]/.test(j))) throw new Error(`time-series ${plan.key}: a point's JSON is not ASCII`);
  const encoded = texts.map((t) => encoder.encode(t));
  return { raw, periodEnd, resampled: r, rawJson, texts, encoded, textHashes: encoded.map(pieceOf), slots };
}

const prepared = perBuild(() => new Map<string, Prepared>());
function preparedOf(b: LoadedBuild, plan: TimeseriesPlan): Prepared {
  const cache = prepared(b);
  const k = `${plan.key}|${plan.metricName}|${plan.frequency}`;
  let p = cache.get(k);
  if (!p) cache.set(k, (p = prepare(b, plan)));
  return p;
}

/** First index whose date is ≥ `date`. */
function lowerBound(dates: readonly string[], date: string): number {
  let lo = 0;
  let hi = dates.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (dates[mid]! < date) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A window's JSON answer as the parts to write one after the other: text (the dates, the count,
 * the template's short pieces) and bytes (the points, a view of the series' bytes, and the
 * template's long pieces, the meta's sources, encoded once per build), its length in bytes and
 * its ETag. Nothing of the 20 KB is copied or made per request.
 */
export interface WindowAnswer {
  chunks: (string | Uint8Array)[];
  length: number;
  etag: string;
}

/** The body of a window answer as one array of bytes. */
export function windowBody(w: WindowAnswer): Uint8Array {
  const out = new Uint8Array(w.length);
  let at = 0;
  for (const c of w.chunks) {
    if (typeof c === 'string') at += encoder.encodeInto(c, out.subarray(at)).written;
    else {
      out.set(c, at);
      at += c.byteLength;
    }
  }
  return out;
}

/** A piece of the template this long or longer is written as its bytes, not joined into the text around it. */
const LONG_PIECE = 256;

/** The JSON answer of a non-empty window, byte for byte what JSON.stringify writes of getTimeseries()'s envelope; null when the window is empty. */
export function timeseriesWindow(b: LoadedBuild, plan: TimeseriesPlan): WindowAnswer | null {
  const p = preparedOf(b, plan);
  const end = `${plan.to}\uffff`;
  // The observations in the window, as resample() of the slice sees them.
  const first = lowerBound(p.raw.dates, plan.from);
  const past = lowerBound(p.raw.dates, end);
  if (past <= first) return null;
  const r = p.resampled;
  const i = lowerBound(r.dates, plan.from);
  const j = lowerBound(r.dates, end);
  const cut = p.periodEnd[past - 1] === 0;
  const points = r.bytes.subarray(r.offsets[i]!, r.offsets[j]! - (j > i ? 1 : 0));
  const count = j - i + (cut ? 1 : 0);
  // Every value written in a slot is ASCII (dates, a count, the extra point's date and number): one byte a character.
  const values: Record<Exclude<Slot, 'points'>, string> = {
    from: `"${plan.from}"`,
    to: `"${plan.to}"`,
    as_of: `"${p.raw.dates[past - 1]!}"`,
    count: String(count),
  };
  // The hash of the bytes, part after part (api/queries/window-hash.ts): the pieces' hashes and
  // the points' prefixes made once, the dates and count kept.
  const hash = new Running();
  const chunks: (string | Uint8Array)[] = [];
  let text = '';
  const piece = (k: number) => {
    hash.piece(p.textHashes[k]!);
    const bytes = p.encoded[k]!;
    if (bytes.byteLength < LONG_PIECE) text += p.texts[k]!;
    else {
      if (text) chunks.push(text);
      text = '';
      chunks.push(bytes);
    }
  };
  for (let k = 0; k < p.slots.length; k++) {
    piece(k);
    const s = p.slots[k]!;
    if (s !== 'points') {
      text += values[s];
      hash.piece(asciiPiece(values[s]));
      continue;
    }
    chunks.push(`${text}[`);
    hash.ascii('[');
    if (j > i) {
      chunks.push(points);
      hash.piece(rangeHash(r.hashes, 2 * i, 2 * j - 1));
    }
    text = cut ? `${j > i ? ',' : ''}${p.rawJson[past - 1]!}]` : ']';
    hash.ascii(text);
  }
  piece(p.slots.length);
  if (text) chunks.push(text);
  return { chunks, length: hash.length, etag: etagOfHash(hash) };
}
