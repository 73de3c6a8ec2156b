import type { Point } from '../../contract/common.ts';
import { isoWeekId } from '../../contract/dates.ts';
import type { Frequency } from '../../contract/reserves.ts';
import { type LoadedBuild, perBuild } from '../build.ts';
import { etagOf } from '../headers.ts';
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
 * it to the socket as it is) and the text around it, a few hundred bytes before, the meta after.
 *
 * A resampled window is a run of the whole series' resampled points (each period's last
 * observation), plus, when `to` cuts the window's last period short, the last observation before
 * `to`: resample() of the sliced observations gives exactly that (each period but the last ends
 * inside the window, as in the whole series).
 *
 * The ETag is derived, not hashed from the 20 KB: the body is a function of the template's
 * bytes, the points' bytes (the fingerprint: FNV-1a of both, once per build) and the window
 * (`from`, `to`), and every one of these is written in the body (the template carries the
 * reserve, metric, frequency and meta; the body echoes from and to). Same fingerprint and window,
 * same bytes; different bytes, a different fingerprint or window, so a different ETag: a strong
 * validator of the bytes. (Two builds whose series differ outside a window give that window two
 * ETags for the same bytes: a revalidation answered 200 instead of 304 after a new build.)
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
}

interface Prepared {
  /** The observations as published, and whether each is the last of its period (in the resampled series). */
  raw: Series;
  periodEnd: Uint8Array;
  resampled: Series;
  /** The JSON of each observation (the extra point of a window cut short). */
  rawJson: string[];
  /** The template's pieces around the slots, their lengths in UTF-8, and the slot after each piece (the last piece has none). */
  texts: string[];
  textBytes: number[];
  slots: Slot[];
  fingerprint: string;
}

const encoder = new TextEncoder();

function seriesOf(points: readonly Point[]): Series {
  const parts = points.map((p) => encoder.encode(`${JSON.stringify(p)},`));
  const offsets = new Int32Array(parts.length + 1);
  parts.forEach((p, i) => (offsets[i + 1] = offsets[i]! + p.byteLength));
  return { dates: points.map((p) => p.date), bytes: concat(parts), offsets };
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
  const fingerprint = etagOf(concat([encoder.encode(texts.join('\n')), r.bytes, raw.bytes]));
  const rawJson = points.map((pt) => JSON.stringify(pt));
  if (rawJson.some((j) => /[^\x20-\x7e]/.test(j))) throw new Error(`time-series ${plan.key}: a point's JSON is not ASCII`);
  return { raw, periodEnd, resampled: r, rawJson, texts, textBytes: texts.map((t) => encoder.encode(t).byteLength), slots, fingerprint };
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
 * A window's JSON answer as three parts, written one after the other: the text before the
 * points, the points (a view of the series' bytes, not a copy), the text after them; its length
 * in bytes and its ETag.
 */
export interface WindowAnswer {
  head: string;
  points: Uint8Array;
  tail: string;
  length: number;
  etag: string;
}

/** The body of a window answer as one array of bytes. */
export function windowBody(w: WindowAnswer): Uint8Array {
  const head = encoder.encode(w.head);
  const out = new Uint8Array(w.length);
  out.set(head, 0);
  out.set(w.points, head.byteLength);
  encoder.encodeInto(w.tail, out.subarray(head.byteLength + w.points.byteLength));
  return out;
}

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
  let head = '';
  let tail = cut ? `${j > i ? ',' : ''}${p.rawJson[past - 1]!}]` : ']';
  let length = points.byteLength + 1 + tail.length;
  let inTail = false;
  for (let k = 0; k < p.slots.length; k++) {
    const s = p.slots[k]!;
    const piece = p.texts[k]!;
    length += p.textBytes[k]!;
    if (s === 'points') {
      head += `${piece}[`;
      inTail = true;
      continue;
    }
    const v = values[s];
    length += v.length;
    if (inTail) tail += piece + v;
    else head += piece + v;
  }
  tail += p.texts[p.slots.length]!;
  length += p.textBytes[p.slots.length]!;
  return { head, points, tail, length, etag: windowEtag(p.fingerprint, plan.from, plan.to, length) };
}

/** FNV-1a (api/headers.ts etagOf) of the fingerprint and the window, with the body's length. */
function windowEtag(fingerprint: string, from: string, to: string, length: number): string {
  const text = `${fingerprint}|${from}|${to}`;
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ length;
  for (let i = 0; i < text.length; i++) {
    const x = text.charCodeAt(i);
    a = Math.imul(a ^ x, 0x01000193);
    b = Math.imul(b ^ x, 0x0100019d);
  }
  return `"${(a >>> 0).toString(16).padStart(8, '0')}${(b >>> 0).toString(16).padStart(8, '0')}-${length.toString(16)}"`;
}
