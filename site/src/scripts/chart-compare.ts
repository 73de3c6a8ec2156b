/**
 * Another country's figures for a chart, from the public API on the same origin: a reserve time
 * series (/v1/reserves/timeseries) or a field of a country profile (/v1/countries/{iso3}).
 */
import { fmtValue } from '../lib/chart-format';
import { ms, type BarSeriesSpec, type ChartSpec, type Pt, type SeriesKind } from '../lib/chart-model';
import type { ReadySeries } from '../lib/chart-render';

interface Point {
  date: string;
  value: number | null;
}
interface Answer {
  data: {
    points?: Point[];
    stress_history?: { date: string; index: number | null }[];
    exposures?: { commodity: string; import_dependence: number | null }[];
    autonomy?: { commodity: string; ratio: number }[];
  };
}

const toPts = (pts: readonly Point[]): Pt[] => pts.map((p) => ({ d: p.date, t: ms(p.date), v: p.value }));

/** The country's series, shaped as the chart draws it; throws when the API has nothing to draw. */
export async function fetchCompared(spec: ChartSpec, id: string, name: string, kind: SeriesKind): Promise<{ line?: ReadySeries; bars?: BarSeriesSpec }> {
  const c = spec.compare!;
  const res = await fetch(c.url.replace('{id}', encodeURIComponent(id)), { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`${res.status} ${res.url}`);
  const { data } = (await res.json()) as Answer;
  const label = c.label.replace('{name}', name);
  if (spec.type === 'line') {
    const pts = toPts(c.from === 'reserve' ? (data.points ?? []) : (data.stress_history ?? []).map((h) => ({ date: h.date, value: h.index })));
    if (!pts.some((p) => p.v !== null)) throw new Error(`no values for ${id}`);
    return { line: { label, kind, pts } };
  }
  const raw = new Map<string, number | null>(
    c.field === 'autonomy' ? (data.autonomy ?? []).map((a) => [a.commodity, a.ratio]) : (data.exposures ?? []).map((e) => [e.commodity, e.import_dependence]),
  );
  const values = spec.cats.map((k) => raw.get(k.key) ?? null);
  if (!values.some((v) => v !== null)) throw new Error(`no values for ${id}`);
  // A capped bar still prints its own value.
  return {
    bars: {
      label,
      kind,
      values: values.map((v) => (v === null || c.cap === undefined ? v : Math.min(v, c.cap))),
      display: values.map((v) => fmtValue(v, spec.fmt, spec.locale)),
    },
  };
}
