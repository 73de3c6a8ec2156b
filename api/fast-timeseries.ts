import { CalendarDate, CommodityParam, CountryParam } from '../contract/api.ts';
import { Frequency, ReserveMetric } from '../contract/reserves.ts';
import { JSON_TYPE, DATA_CACHE_CONTROL } from '../contract/http.ts';
import { type LoadedBuild, perBuild } from './build.ts';
import { headLines, oncePerSecond } from './head-text.ts';
import { replyOf, type Reply } from './prebuilt.ts';
import { planOf, type TimeseriesPlan } from './queries/reserves.ts';
import { timeseriesWindow, windowBody, type WindowAnswer } from './queries/timeseries-window.ts';
import { resolveReserve } from './resolve.ts';

/**
 * `GET /v1/reserves/timeseries` on the listener's fast path (api/fast-path.ts, issue 32): a new
 * window each request, answered without the app. Only a query in the plain form is taken here —
 * each parameter once, known, its value as the contract's parser would leave it (dates that are
 * calendar dates, `to` not before `from`, metric and frequency spelt as the contract lists them,
 * `format` absent or json), naming a published reserve, metric and frequency, with observations
 * in the window. Anything else (a problem to answer, CSV, an empty window, an unusual spelling)
 * is the app's: its answer, problems included, is then the app's own. The plan and the bytes are
 * those of the app's route (api/queries/reserves.ts planOf, api/queries/timeseries-window.ts),
 * the headers those of api/prebuilt.ts replyOf(), which the app's answer is sent with.
 */

export const TIMESERIES_PATH = '/v1/reserves/timeseries';

const METRICS = new Set<string>(ReserveMetric.options);
const FREQUENCIES = new Set<string>(Frequency.options);

/** Bounded caches of what the contract's parsers made of a value (null: refused, or changed by them). */
class Seen<T> {
  private readonly map = new Map<string, T>();
  private readonly max;
  constructor(max: number) {
    this.max = max;
  }
  get(key: string, make: () => T): T {
    let v = this.map.get(key);
    if (v === undefined) {
      if (this.map.size >= this.max) this.map.clear();
      this.map.set(key, (v = make()));
    }
    return v;
  }
}
/** A date the contract takes as it is. */
const dates = new Seen<boolean>(100_000);
const isDate = (v: string) => dates.get(v, () => CalendarDate.safeParse(v).data === v);
/** The reserve a (commodity, country) pair names in a build, or null (a problem: the app's). */
const reserveKeys = perBuild((b: LoadedBuild) => {
  const seen = new Seen<string | null>(4096);
  return (commodity: string, country: string) =>
    seen.get(`${commodity}\n${country}`, () => {
      const c = CommodityParam.safeParse(commodity);
      const n = CountryParam.safeParse(country);
      if (!c.success || !n.success) return null;
      try {
        return resolveReserve(b, c.data, n.data);
      } catch {
        return null;
      }
    });
});

/** Today (UTC), as the app defaults `to`. */
const today = oncePerSecond((now) => now.toISOString().slice(0, 10));

/** A query this path answers: its plan, and the `format` it names (json or none). */
export interface TimeseriesRequest {
  plan: TimeseriesPlan;
  urlFormat: string | undefined;
}

/** The plan of a query string (after `?`) in the plain form, or null when the app must answer. */
export function timeseriesRequest(b: LoadedBuild, query: string): TimeseriesRequest | null {
  let commodity: string | undefined;
  let country: string | undefined;
  let from: string | undefined;
  let to: string | undefined;
  let metric: string | undefined;
  let frequency: string | undefined;
  let format: string | undefined;
  let start = 0;
  while (start <= query.length) {
    let end = query.indexOf('&', start);
    if (end < 0) end = query.length;
    const eq = query.indexOf('=', start);
    if (eq < 0 || eq > end) return null;
    const name = query.slice(start, eq);
    const value = query.slice(eq + 1, end);
    // '+' is a space to URLSearchParams: the app's to read.
    if (value.length === 0 || value.includes('+')) return null;
    switch (name) {
      case 'commodity':
        if (commodity !== undefined) return null;
        commodity = value;
        break;
      case 'country':
        if (country !== undefined) return null;
        country = value;
        break;
      case 'from':
        if (from !== undefined || !isDate(value)) return null;
        from = value;
        break;
      case 'to':
        if (to !== undefined || !isDate(value)) return null;
        to = value;
        break;
      case 'metric':
        if (metric !== undefined || !METRICS.has(value)) return null;
        metric = value;
        break;
      case 'frequency':
        if (frequency !== undefined || !FREQUENCIES.has(value)) return null;
        frequency = value;
        break;
      case 'format':
        if (format !== undefined || value !== 'json') return null;
        format = value;
        break;
      default:
        return null;
    }
    start = end + 1;
  }
  if (commodity === undefined || country === undefined || from === undefined || (to !== undefined && to < from)) return null;
  const key = reserveKeys(b)(commodity, country);
  if (key === null) return null;
  const q = {
    from,
    ...(to !== undefined ? { to } : {}),
    ...(metric !== undefined ? { metric: metric as ReserveMetric } : {}),
    ...(frequency !== undefined ? { frequency: frequency as Frequency } : {}),
  };
  try {
    return { plan: planOf(b, key, q, today()), urlFormat: format };
  } catch {
    // A metric or frequency the reserve does not publish: the app's problem.
    return null;
  }
}

/** The window's bytes, or null when it is empty (its note is the app's to write). */
export const timeseriesAnswer = (b: LoadedBuild, r: TimeseriesRequest): WindowAnswer | null => timeseriesWindow(b, r.plan);

/**
 * The headers of a window's answer, from replyOf() as the app sends it (JSON, Vary: Accept, no
 * compressed copies): the reply itself, and the 200's lines as text around the two values that
 * change from window to window, ETag and Content-Length (checked once, api/head-text.ts).
 */
export interface WindowHead {
  reply(w: WindowAnswer): Reply;
  okText(w: WindowAnswer): string;
}

const ETAG_STAND_IN = '"etag-stand-in"';
const LENGTH_LINE = 'content-length: 0\r\n';
export const windowHead = perBuild((b: LoadedBuild): WindowHead => {
  const replyOfBody = (body: Uint8Array, etag: string) =>
    replyOf(b.headers, { body, etag, contentType: JSON_TYPE, lastModified: b.lastModified, cacheControl: DATA_CACHE_CONTROL }, 'identity', 'Accept');
  const text = headLines(replyOfBody(new Uint8Array(0), ETAG_STAND_IN).ok);
  const [beforeEtag, rest, ...more] = text.split(ETAG_STAND_IN);
  const [beforeLength, afterLength, ...others] = (rest ?? '').split(LENGTH_LINE);
  if (more.length || others.length || afterLength === undefined) throw new Error('the time-series head: ETag and Content-Length expected once each');
  return {
    reply: (w) => replyOfBody(windowBody(w), w.etag),
    okText: (w) => `${beforeEtag}${w.etag}${beforeLength}content-length: ${w.length}\r\n${afterLength}`,
  };
});
