/**
 * Inline SVG charts generated at build time: a time-series line chart (axes, reference and
 * target lines) and a horizontal bar chart for shares. Colours come from CSS classes (the
 * page's stylesheet), so charts follow the theme; every chart has <title> and <desc>.
 */

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
  width?: number;
  height?: number;
  maxPoints?: number;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const r1 = (x: number) => Math.round(x * 10) / 10;
const DAY = 86_400_000;
const t = (d: string) => Date.parse(`${d.slice(0, 10)}T00:00:00Z`);

/** Keep at most `max` points, evenly spaced, always with the first and the last. */
export function thin(points: readonly Pt[], max: number): Pt[] {
  if (points.length <= max) return [...points];
  const step = (points.length - 1) / (max - 1);
  const out: Pt[] = [];
  for (let i = 0; i < max; i++) out.push(points[Math.round(i * step)]!);
  return out;
}

/** "Nice" ticks covering [lo, hi]. */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!(hi > lo)) {
    hi = lo + 1;
  }
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out: number[] = [];
  for (let v = Math.floor(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.round(v / step) * step);
  if (out[out.length - 1]! < hi) out.push(out[out.length - 1]! + step);
  return out;
}

function tickLabel(v: number): string {
  const a = Math.abs(v);
  const s =
    a >= 1e6 ? `${r1(v / 1e6)}M` : a >= 1e4 ? `${Math.round(v / 1e3)}k` : a >= 1000 ? Math.round(v).toLocaleString('en-GB') : `${Math.round(v * 100) / 100}`;
  return s.replace(/^-/, '−');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function timeTicks(t0: number, t1: number): { at: number; label: string }[] {
  const span = (t1 - t0) / DAY;
  const a = new Date(t0);
  const out: { at: number; label: string }[] = [];
  if (span > 365 * 2.5) {
    const years = span / 365;
    const step = years > 30 ? 10 : years > 15 ? 5 : years > 7 ? 2 : 1;
    for (let y = Math.ceil(a.getUTCFullYear() / step) * step; ; y += step) {
      const at = Date.UTC(y, 0, 1);
      if (at > t1) break;
      if (at >= t0) out.push({ at, label: String(y) });
    }
  } else {
    const step = span > 500 ? 6 : span > 200 ? 3 : span > 80 ? 1 : 1;
    let y = a.getUTCFullYear();
    let m = a.getUTCMonth();
    for (;;) {
      const at = Date.UTC(y, m, 1);
      if (at > t1) break;
      if (at >= t0 && m % step === 0) out.push({ at, label: m === 0 || out.length === 0 ? `${MONTHS[m]} ${y}` : MONTHS[m]! });
      m++;
      if (m === 12) {
        m = 0;
        y++;
      }
    }
  }
  return out;
}

export function lineChart(o: LineChartOptions): string {
  const W = o.width ?? 720;
  const H = o.height ?? 280;
  const M = { top: 24, right: 16, bottom: 30, left: 52 };
  const max = o.maxPoints ?? 360;
  const series = o.series.filter((s) => s.points.length > 0).map((s) => ({ ...s, points: thin(s.points, max) }));
  const all = series.flatMap((s) => s.points);
  const marks = o.markers ?? [];
  if (all.length === 0) return `<p class="muted">No data to chart.</p>`;
  const times = [...all.map((p) => t(p.date)), ...marks.map((m) => t(m.date))];
  const t0 = Math.min(...times);
  const t1 = Math.max(...times, t0 + DAY);
  const values = [...all.map((p) => p.value), ...(o.hlines ?? []).map((h) => h.value), ...marks.map((m) => m.value)];
  const ticks = niceTicks(o.yMin ?? Math.min(...values), o.yMax ?? Math.max(...values));
  const lo = o.yMin ?? ticks[0]!;
  const hi = o.yMax ?? ticks[ticks.length - 1]!;
  const x = (ms: number) => M.left + ((ms - t0) / (t1 - t0)) * (W - M.left - M.right);
  const y = (v: number) => M.top + (1 - (v - lo) / (hi - lo || 1)) * (H - M.top - M.bottom);
  const parts: string[] = [];
  parts.push(
    `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${o.id}-t ${o.id}-d" preserveAspectRatio="xMidYMid meet">`,
    `<title id="${o.id}-t">${esc(o.title)}</title><desc id="${o.id}-d">${esc(o.desc)}</desc>`,
  );
  for (const v of ticks.filter((v) => v >= lo && v <= hi)) {
    parts.push(`<line class="grid" x1="${M.left}" x2="${W - M.right}" y1="${r1(y(v))}" y2="${r1(y(v))}"/>`);
    parts.push(`<text class="tick" x="${M.left - 6}" y="${r1(y(v) + 4)}" text-anchor="end">${tickLabel(v)}</text>`);
  }
  for (const tk of timeTicks(t0, t1)) {
    parts.push(`<line class="axis" x1="${r1(x(tk.at))}" x2="${r1(x(tk.at))}" y1="${H - M.bottom}" y2="${H - M.bottom + 4}"/>`);
    parts.push(`<text class="tick" x="${r1(x(tk.at))}" y="${H - M.bottom + 17}" text-anchor="middle">${tk.label}</text>`);
  }
  parts.push(`<line class="axis" x1="${M.left}" x2="${W - M.right}" y1="${H - M.bottom}" y2="${H - M.bottom}"/>`);
  if (o.unit) parts.push(`<text class="unit" x="2" y="12">${esc(o.unit)}</text>`);
  for (const h of o.hlines ?? []) {
    parts.push(`<line class="hline" x1="${M.left}" x2="${W - M.right}" y1="${r1(y(h.value))}" y2="${r1(y(h.value))}"/>`);
    parts.push(`<text class="hlabel" x="${W - M.right - 4}" y="${r1(y(h.value) - 5)}" text-anchor="end">${esc(h.label)}</text>`);
  }
  for (const s of series) {
    const d = s.points.map((p, i) => `${i ? 'L' : 'M'}${r1(x(t(p.date)))} ${r1(y(p.value))}`).join('');
    parts.push(`<path class="line line-${s.kind ?? 'main'}" d="${d}"><title>${esc(s.label)}</title></path>`);
  }
  for (const m of marks) {
    parts.push(`<circle class="marker" cx="${r1(x(t(m.date)))}" cy="${r1(y(m.value))}" r="5"><title>${esc(m.label)}</title></circle>`);
  }
  const last = series.find((s) => (s.kind ?? 'main') === 'main')?.points.at(-1);
  if (last) parts.push(`<circle class="dot" cx="${r1(x(t(last.date)))}" cy="${r1(y(last.value))}" r="3.5"/>`);
  parts.push('</svg>');
  return parts.join('');
}

export interface Bar {
  label: string;
  value: number;
  display: string;
  /** CSS class suffix for the bar fill, e.g. a stress band. */
  tone?: string;
}

export function barChart(o: { id: string; title: string; desc: string; bars: readonly Bar[]; max?: number; width?: number; labelWidth?: number }): string {
  const W = o.width ?? 520;
  const row = 24;
  const labelW = o.labelWidth ?? 170;
  const valueW = 84;
  const H = o.bars.length * row + 8;
  const max = o.max ?? Math.max(...o.bars.map((b) => b.value), 1e-9);
  const span = W - labelW - valueW - 8;
  const parts = [
    `<svg class="chart bars" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${o.id}-t ${o.id}-d">`,
    `<title id="${o.id}-t">${esc(o.title)}</title><desc id="${o.id}-d">${esc(o.desc)}</desc>`,
  ];
  o.bars.forEach((b, i) => {
    const y0 = 4 + i * row;
    const w = Math.max(1, (Math.max(0, b.value) / max) * span);
    const label = b.label.length > 22 ? `${b.label.slice(0, 21)}…` : b.label;
    parts.push(
      `<text class="blabel" x="${labelW - 8}" y="${y0 + 16}" text-anchor="end">${esc(label)}</text>`,
      `<rect class="bar bar-${b.tone ?? 'main'}" x="${labelW}" y="${y0 + 3}" width="${r1(w)}" height="${row - 8}" rx="2"><title>${esc(`${b.label}: ${b.display}`)}</title></rect>`,
      `<text class="bvalue" x="${r1(labelW + w + 6)}" y="${y0 + 16}">${esc(b.display)}</text>`,
    );
  });
  parts.push('</svg>');
  return parts.join('');
}

export interface StressHistoryPt {
  /** Month end, YYYY-MM-DD. */
  date: string;
  /** null: no index that month (drawn as a gap, never as 0). */
  index: number | null;
}
export interface TimeWindow {
  /** First and last month, YYYY-MM, inclusive. */
  from: string;
  to: string;
  /** Short key drawn above the window (a number), matched in the legend below the chart. */
  key: string;
  label: string;
}
export interface StressChartOptions {
  id: string;
  title: string;
  desc: string;
  points: readonly StressHistoryPt[];
  /** Shaded time windows, e.g. the backtest's documented crises. */
  windows?: readonly TimeWindow[];
}

/** The stress bands of the index (methodology: low < 25 ≤ moderate < 50 ≤ high < 75 ≤ severe). */
export const STRESS_ZONES = [
  { band: 'low', from: 0, to: 25, label: 'Low < 25' },
  { band: 'moderate', from: 25, to: 50, label: 'Moderate 25–50' },
  { band: 'high', from: 50, to: 75, label: 'High 50–75' },
  { band: 'severe', from: 75, to: 100, label: 'Severe ≥ 75' },
] as const;

/** Height of the stress history chart in CSS pixels (svg.chart-fluid in global.css uses the same). */
export const STRESS_CHART_HEIGHT = 260;

const monthStart = (m: string) => t(`${m.slice(0, 7)}-01`);
const monthEnd = (m: string) => {
  const d = new Date(monthStart(m));
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0);
};
const pc = (f: number) => `${Math.round(Math.min(1, Math.max(0, f)) * 10000) / 100}%`;

/**
 * The monthly stress index, 0–100, over the four bands. Unlike lineChart it has no viewBox: the
 * SVG is as wide as its column and 260 px high, horizontal positions are percentages of the width
 * and vertical ones pixels, so text keeps its CSS size at any width (a viewBox would shrink 12 px
 * labels to 6 px on a phone). The line sits in a nested, stretched SVG with a non-scaling stroke.
 * Months without an index are gaps in the line over a grey band, never zeros. The y labels sit in
 * the left margin that svg.chart-fluid leaves (overflow visible).
 */
export function stressHistoryChart(o: StressChartOptions): string {
  const H = STRESS_CHART_HEIGHT;
  const M = { top: 22, bottom: 26 };
  const plotH = H - M.top - M.bottom;
  const pts = o.points;
  if (!pts.some((p) => p.index !== null)) return `<p class="muted">No month has an index to chart.</p>`;
  const t0 = monthStart(pts[0]!.date);
  const t1 = Math.max(t(pts.at(-1)!.date), t0 + DAY);
  const f = (ms: number) => (ms - t0) / (t1 - t0);
  const y = (v: number) => r1(M.top + (1 - v / 100) * plotH);
  const bottom = M.top + plotH;
  const parts: string[] = [
    `<svg class="chart chart-fluid" width="100%" height="${H}" role="img" aria-labelledby="${o.id}-t ${o.id}-d">`,
    `<title id="${o.id}-t">${esc(o.title)}</title><desc id="${o.id}-d">${esc(o.desc)}</desc>`,
  ];
  // The four bands, tinted, with their names and limits at the right.
  for (const z of STRESS_ZONES) {
    parts.push(`<rect class="zone zone-${z.band}" x="0" width="100%" y="${y(z.to)}" height="${r1(y(z.from) - y(z.to))}"/>`);
  }
  // Months without an index: a grey band over the whole height (the line has a gap there).
  // It spans what the line skips: from the last month with an index to the next one.
  const gaps: { a: number; b: number }[] = [];
  for (let i = 0; i < pts.length; i++) {
    if (pts[i]!.index !== null) continue;
    let j = i;
    while (j + 1 < pts.length && pts[j + 1]!.index === null) j++;
    gaps.push({ a: i === 0 ? t0 : t(pts[i - 1]!.date), b: j === pts.length - 1 ? t1 : t(pts[j + 1]!.date) });
    i = j;
  }
  for (const g of gaps) {
    parts.push(`<rect class="nodata" x="${pc(f(g.a))}" width="${pc(f(g.b) - f(g.a))}" y="${M.top}" height="${plotH}"><title>No index</title></rect>`);
    // Named in the chart where the band is wide enough for the words even on a phone (≈ 320 px).
    if ((f(g.b) - f(g.a)) * 320 > 64)
      parts.push(`<text class="nodata-label" x="${pc((f(g.a) + f(g.b)) / 2)}" y="${r1(y(37.5) + 4)}" text-anchor="middle">no index</text>`);
  }
  for (const w of o.windows ?? []) {
    const a = Math.max(t0, monthStart(w.from));
    const b = Math.min(t1, monthEnd(w.to));
    if (b <= a) continue;
    const title = `${w.key}. ${w.label} (${w.from} to ${w.to})`;
    parts.push(
      `<rect class="window" data-window="${esc(w.from)}" x="${pc(f(a))}" width="${pc(f(b) - f(a))}" y="${M.top}" height="${plotH}"><title>${esc(title)}</title></rect>`,
      `<text class="wkey" x="${pc((f(a) + f(b)) / 2)}" y="${M.top - 7}" text-anchor="middle">${esc(w.key)}</text>`,
    );
  }
  // Thresholds between bands, and the 0 and 100 lines; values in the left margin.
  for (const v of [0, 25, 50, 75, 100]) {
    parts.push(`<line class="${v === 0 || v === 100 ? 'grid' : 'threshold'}" x1="0" x2="100%" y1="${y(v)}" y2="${y(v)}"/>`);
    parts.push(`<text class="tick" x="-6" y="${r1(y(v) + 4)}" text-anchor="end">${v}</text>`);
  }
  // Band names at the top left of each band, where the line rarely is (the newest months are at the right).
  for (const z of STRESS_ZONES) {
    parts.push(`<text class="zlabel zlabel-${z.band}" x="4" y="${r1(y(z.to) + 14)}">${esc(z.label)}</text>`);
  }
  // Years on the time axis; every other one is hidden on narrow screens (global.css).
  const ticks = timeTicks(t0, t1);
  const yearly = ticks.every((k) => /^\d{4}$/.test(k.label));
  const allYears: { at: number; label: string }[] = [];
  if (yearly) {
    for (let yr = new Date(t0).getUTCFullYear(); Date.UTC(yr, 0, 1) <= t1; yr++)
      if (Date.UTC(yr, 0, 1) >= t0) allYears.push({ at: Date.UTC(yr, 0, 1), label: String(yr) });
  }
  const shown = new Set(ticks.map((k) => k.label));
  for (const k of yearly ? allYears : ticks) {
    const minor = yearly && !shown.has(k.label) ? ' tick-minor' : '';
    parts.push(`<line class="axis${minor}" x1="${pc(f(k.at))}" x2="${pc(f(k.at))}" y1="${bottom}" y2="${bottom + 4}"/>`);
    parts.push(`<text class="tick${minor}" x="${pc(f(k.at))}" y="${bottom + 17}" text-anchor="middle">${k.label}</text>`);
  }
  parts.push(`<line class="axis" x1="0" x2="100%" y1="${bottom}" y2="${bottom}"/>`);
  // The line, in a stretched inner SVG (x: 0–1000 over the width, y: the index upside down), broken at every month without an index.
  let d = '';
  let run: StressHistoryPt[] = [];
  const single: StressHistoryPt[] = [];
  const flush = () => {
    if (run.length === 1) single.push(run[0]!);
    else if (run.length > 1) d += run.map((p, i) => `${i ? 'L' : 'M'}${r1(f(t(p.date)) * 1000)} ${r1(100 - p.index!)}`).join('');
    run = [];
  };
  for (const p of pts) {
    if (p.index === null) flush();
    else run.push(p);
  }
  flush();
  if (d) {
    parts.push(
      `<svg x="0" y="${M.top}" width="100%" height="${plotH}" viewBox="0 0 1000 100" preserveAspectRatio="none" overflow="visible">`,
      `<path class="line line-main" d="${d}" vector-effect="non-scaling-stroke"><title>Stress index at month end</title></path></svg>`,
    );
  }
  for (const p of single) parts.push(`<circle class="dot" cx="${pc(f(t(p.date)))}" cy="${y(p.index!)}" r="2.5"/>`);
  const last = [...pts].reverse().find((p) => p.index !== null);
  if (last) parts.push(`<circle class="dot" cx="${pc(f(t(last.date)))}" cy="${y(last.index!)}" r="3.5"/>`);
  parts.push('</svg>');
  return parts.join('');
}
