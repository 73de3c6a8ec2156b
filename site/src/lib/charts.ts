/**
 * The former chart API (a line chart and a bar chart as SVG strings) for the pages that still
 * build their charts inline, drawn by the new renderer: no viewBox, so their text keeps its CSS
 * size at any width. New code builds a view in chart-specs.ts and hands it to Chart.astro, which
 * adds the data, the interactions, the downloads and the embed code.
 */
import { pack, type BarSpec, type Credit, type LineSpec, type SeriesKind } from './chart-model';
import { renderBars, renderLine, seriesOf } from './chart-render';

export { niceTicks, thin } from './chart-render';

export interface Pt {
  date: string;
  value: number;
}
export interface LineSeries {
  label: string;
  points: readonly Pt[];
  /** main: solid accent; ref: grey; target: dashed; alt: second colour. */
  kind?: 'main' | 'ref' | 'target' | 'alt';
}
export interface LineChartOptions {
  id: string;
  title: string;
  desc: string;
  series: readonly LineSeries[];
  unit?: string;
  yMin?: number;
  yMax?: number;
  /** Horizontal lines, e.g. a target level. */
  hlines?: readonly { value: number; label: string }[];
  /** Points to mark, e.g. the target date. */
  markers?: readonly { date: string; value: number; label: string }[];
  /** Only picks how many date ticks the chart shows; it always fills its column. */
  width?: number;
  height?: number;
  maxPoints?: number;
}

const NONE: Credit = { source: '', licence: '', license: '', licenseUrl: '', page: '' };
const UI = { keys: '', added: '', failed: '', loading: '', remove: '', limit: '', copied: '', gap: 'no index' };

export function lineChart(o: LineChartOptions): string {
  const spec: LineSpec = {
    type: 'line',
    key: o.id,
    id: o.id,
    locale: 'en-GB',
    title: o.title,
    desc: o.desc,
    credit: NONE,
    ui: UI,
    fmt: { d: 'q' },
    height: o.height ?? 280,
    freq: 'daily',
    ...(o.unit ? { unit: o.unit } : {}),
    ...(o.yMin !== undefined ? { yMin: o.yMin } : {}),
    ...(o.yMax !== undefined ? { yMax: o.yMax } : {}),
    series: o.series.filter((s) => s.points.length > 0).map((s) => ({ label: s.label, kind: s.kind ?? 'main', data: pack(s.points) })),
    hlines: [...(o.hlines ?? [])],
    markers: [...(o.markers ?? [])],
    ...(o.maxPoints ? { maxPoints: o.maxPoints } : {}),
  };
  return renderLine(spec, seriesOf(spec), { width: o.width ?? 720, fluid: true })?.svg ?? '<p class="muted">No data to chart.</p>';
}

export interface Bar {
  label: string;
  value: number;
  display: string;
  /** CSS class suffix for the bar fill, e.g. a stress band. */
  tone?: string;
}

/** `width` and `labelWidth` are accepted and unused: labels sit above their bars at any width. */
export function barChart(o: { id: string; title: string; desc: string; bars: readonly Bar[]; max?: number; width?: number; labelWidth?: number }): string {
  const spec: BarSpec = {
    type: 'bar',
    key: o.id,
    id: o.id,
    locale: 'en-GB',
    title: o.title,
    desc: o.desc,
    credit: NONE,
    ui: UI,
    fmt: { d: 1 },
    cats: o.bars.map((b) => ({ key: b.label, label: b.label })),
    series: [
      {
        label: o.title,
        kind: 'main' as SeriesKind,
        values: o.bars.map((b) => b.value),
        display: o.bars.map((b) => b.display),
        tones: o.bars.map((b) => b.tone ?? 'main'),
      },
    ],
    ...(o.max !== undefined ? { max: o.max } : {}),
  };
  return renderBars(spec, spec.series, { width: 720, fluid: true }).svg;
}
