import type { z } from 'zod';
import type { ReserveQuery, TimeSeriesQuery } from '../../contract/api.ts';
import type { Meta, Point } from '../../contract/common.ts';
import { isoWeekId } from '../../contract/dates.ts';
import type { Frequency, Reserve, TimeSeries } from '../../contract/reserves.ts';
import { type LoadedBuild, perBuild } from '../build.ts';
import { ExplainedError, resolveReserve, resolveReserves } from '../resolve.ts';
import { type Answer, type AnswerMeta, computed, type Envelope, fromFile } from './answer.ts';
import { BUILD_FILES } from '../../contract/layout.ts';

export type ReserveParams = z.output<typeof ReserveQuery>;
export type TimeSeriesParams = Omit<z.output<typeof TimeSeriesQuery>, 'format'>;

/** The current reserve of one commodity in one country; 404 names the reserves that exist. */
export function getReserve(b: LoadedBuild, q: { commodity: string; country: string }): Answer<Reserve> {
  const key = resolveReserve(b, q.commodity, q.country);
  return fromFile(b.files.get(BUILD_FILES.reserve(key).path)!);
}

const reserveAnswers = perBuild(() => new Map<string, Envelope<Reserve>>());
/** The published answer of one reserve, parsed once per build. */
function reserveAnswer(b: LoadedBuild, key: string): Envelope<Reserve> {
  const cache = reserveAnswers(b);
  let answer = cache.get(key);
  if (!answer) {
    answer = fromFile<Reserve>(b.files.get(BUILD_FILES.reserve(key).path)!).envelope();
    cache.set(key, answer);
  }
  return answer;
}

/**
 * Every country's current reserve of one commodity (the EU aggregate included), in the order of
 * their keys, each the Reserve the single answer gives; 404 when the commodity has none. The
 * meta is theirs combined: the newest as_of, each source once per data_as_of, every note once.
 */
export function listReserves(b: LoadedBuild, q: { commodity: string }): Answer<Reserve[]> {
  const answers = resolveReserves(b, q.commodity).map((k) => reserveAnswer(b, k));
  const sources = new Map<string, Meta['sources'][number]>();
  for (const a of answers) for (const s of a.meta.sources) if (!sources.has(`${s.id}|${s.data_as_of}`)) sources.set(`${s.id}|${s.data_as_of}`, s);
  const notes = [...new Set(answers.flatMap((a) => a.meta.notes ?? []))];
  const asOf =
    answers
      .map((a) => a.data.as_of)
      .sort()
      .at(-1) ?? null;
  const { notes: _notes, ...first } = answers[0]!.meta;
  return computed(
    answers.map((a) => a.data),
    { ...first, as_of: asOf, sources: [...sources.values()], count: answers.length, ...(notes.length ? { notes } : {}) },
  );
}

/** GET /v1/reserves: one reserve with `country`, every country's without. */
export function reserves(b: LoadedBuild, q: ReserveParams): Answer<Reserve> | Answer<Reserve[]> {
  return q.country ? getReserve(b, { commodity: q.commodity, country: q.country }) : listReserves(b, q);
}

/** First index whose date is ≥ `date` in a date-sorted series. */
function lowerBound(points: readonly Point[], date: string): number {
  let lo = 0;
  let hi = points.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((points[mid] as Point).date < date) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The last observation of each period: a level (stock, fill) is read at the end of its period. */
export function resample(points: readonly Point[], frequency: Frequency): Point[] {
  if (frequency === 'daily') return [...points];
  const keyOf = frequency === 'weekly' ? isoWeekId : (d: string) => d.slice(0, 7);
  const out: Point[] = [];
  for (const p of points) {
    const last = out.at(-1);
    if (last && keyOf(last.date) === keyOf(p.date)) out[out.length - 1] = p;
    else out.push(p);
  }
  return out;
}

/** What a time-series request asks for, resolved and checked against the build: the reserve, its metric, the frequency and the window. */
export interface TimeseriesPlan {
  key: string;
  metricName: TimeSeries['metric'];
  frequency: Frequency;
  from: string;
  to: string;
}

/** Resolve and check a time-series request (404 for an unknown reserve, 400 for a metric or frequency it does not publish). */
export function timeseriesPlan(b: LoadedBuild, q: TimeSeriesParams, today = new Date().toISOString().slice(0, 10)): TimeseriesPlan {
  return planOf(b, resolveReserve(b, q.commodity, q.country), q, today);
}

/** timeseriesPlan() of a reserve already resolved to its key. */
export function planOf(b: LoadedBuild, key: string, q: Omit<TimeSeriesParams, 'commodity' | 'country'>, today: string): TimeseriesPlan {
  const { series } = b.reserves.get(key)!;
  const metricName = q.metric ?? (series.metrics.fill_pct ? 'fill_pct' : 'volume');
  if (!series.metrics[metricName]) {
    const available = Object.keys(series.metrics);
    throw new ExplainedError(
      400,
      `metric '${metricName}' is not published for ${key}; available: ${available.join(', ')}`,
      { errors: [{ param: 'metric', message: 'not available for this reserve' }], allowed: available },
      { problem: `metric '${metricName}' is not published for the ${key} reserve`, accepted: `a metric this reserve publishes`, labelled: available },
    );
  }
  const frequency = q.frequency ?? series.native_frequency;
  if (frequency === 'daily' && series.native_frequency === 'weekly') {
    throw new ExplainedError(
      400,
      `${key} is published weekly; ask for frequency=weekly or monthly`,
      { errors: [{ param: 'frequency', message: 'finer than the source' }], allowed: ['weekly', 'monthly'] },
      { problem: `the ${key} reserve is published weekly, not daily`, accepted: 'a frequency no finer than the source', labelled: ['weekly', 'monthly'] },
    );
  }
  return { key, metricName, frequency, from: q.from, to: q.to ?? today };
}

/** The points of a plan's window: the metric's observations from `from` to `to`, resampled to the frequency. */
export function windowPoints(b: LoadedBuild, plan: TimeseriesPlan): Point[] {
  const points = b.reserves.get(plan.key)!.series.metrics[plan.metricName]!.points;
  return resample(points.slice(lowerBound(points, plan.from), lowerBound(points, `${plan.to}\uffff`)), plan.frequency);
}

/**
 * The answer of a plan with the given points, as/of and count in `meta`. The one construction of
 * a time-series envelope: api/queries/timeseries-window.ts makes its byte template with it (its
 * keys, their order, every value but the window's).
 */
export function timeseriesEnvelope(
  b: LoadedBuild,
  plan: TimeseriesPlan,
  points: TimeSeries['points'],
  asOf: string | null,
  count: number,
  notes?: string[],
): { data: TimeSeries; meta: AnswerMeta } {
  const { series, meta } = b.reserves.get(plan.key)!;
  const [commodity, country] = plan.key.split('/') as [string, string];
  const { frequency } = plan;
  const data: TimeSeries = {
    commodity,
    country,
    metric: plan.metricName,
    unit: series.metrics[plan.metricName]!.unit,
    frequency,
    from: plan.from,
    to: plan.to,
    aggregation:
      frequency === series.native_frequency ? 'none (native frequency)' : `last observation of each ${frequency === 'weekly' ? 'ISO week' : 'month'}`,
    points,
  };
  return { data, meta: { ...meta, as_of: asOf, count, ...(notes ? { notes: [...(meta.notes ?? []), ...notes] } : {}) } };
}

/** One metric of one reserve between two dates (`to` defaults to today), resampled on request. */
export function getTimeseries(b: LoadedBuild, q: TimeSeriesParams, today = new Date().toISOString().slice(0, 10)): Answer<TimeSeries> {
  const plan = timeseriesPlan(b, q, today);
  const points = windowPoints(b, plan);
  const all = b.reserves.get(plan.key)!.series.metrics[plan.metricName]!.points;
  const notes =
    points.length === 0 ? [`no observation between ${plan.from} and ${plan.to}; the series covers ${all[0]?.date} to ${all.at(-1)?.date}`] : undefined;
  const { data, meta } = timeseriesEnvelope(b, plan, points, points.at(-1)?.date ?? null, points.length, notes);
  return computed(data, meta);
}
