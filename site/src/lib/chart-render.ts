/**
 * Draws a chart spec as SVG markup. One renderer for three places: the page at build time
 * (fluid: horizontal positions in percent of the width, vertical ones in pixels, no viewBox, so
 * text keeps its CSS size at any width without JavaScript), the client script (pixels at the
 * measured width, with ticks that fit it) and the downloaded files (pixels, colours inlined
 * through `attrs`). Runtime-neutral and free of Node imports.
 *
 * The <svg> element spans the plot horizontally; the value labels sit in a left margin outside it
 * (overflow visible), given to the element as CSS margin. Colours come from classes (charts.css
 * and global.css), so charts follow the theme.
 */
import { dateLabel, fmtValue, monthName, tickLabel } from './chart-format';
import { ms, unpack, type BarSeriesSpec, type BarSpec, type LineSpec, type Pt, type SeriesKind } from './chart-model';

export interface ReadySeries {
  label: string;
  kind: SeriesKind;
  pts: Pt[];
}

export interface RenderOpts {
  /** Width in px for the whole chart, value labels included; in fluid mode it only picks the ticks. */
  width: number;
  fluid?: boolean;
  /** Only points from this time (ms) on: the range control. */
  from?: number;
  /** Class list → attributes; exports inline colours and fonts through it. */
  attrs?: (cls: string) => string;
}

export interface LineLayout {
  /** The whole <svg> element. */
  svg: string;
  /** Its content, for exports that place it themselves. */
  body: string;
  ml: number;
  mr: number;
  /** Plot width in px (pixel mode). */
  w: number;
  h: number;
  top: number;
  plotH: number;
  t0: number;
  t1: number;
  /** Time → fraction of the plot width; value → px from the top. */
  fx: (t: number) => number;
  y: (v: number) => number;
  series: ReadySeries[];
}

const DAY = 86_400_000;
export const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const r1 = (x: number) => Math.round(x * 10) / 10;
const pc = (f: number) => `${Math.round(f * 10000) / 100}%`;
const byClass = (c: string) => `class="${c}"`;

export const seriesOf = (spec: LineSpec): ReadySeries[] => spec.series.map((s) => ({ label: s.label, kind: s.kind, pts: unpack(s.data) }));

/** "Nice" ticks covering [lo, hi]. */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!(hi > lo)) hi = lo + 1;
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out: number[] = [];
  for (let v = Math.floor(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.round(v / step) * step);
  if (out[out.length - 1]! < hi) out.push(out[out.length - 1]! + step);
  return out;
}

/** Keep at most `max` items, evenly spaced, always with the first and the last. */
export function thin<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  const step = (items.length - 1) / (max - 1);
  const out: T[] = [];
  for (let i = 0; i < max; i++) out.push(items[Math.round(i * step)]!);
  return out;
}

export interface TimeTick {
  t: number;
  label: string;
  minor?: boolean;
}

/** Steps in months; each label needs about 40 px (a year) or 46 px (a month). */
const STEPS = [1, 3, 6, 12, 24, 60, 120, 240];

/** Month or year ticks over [t0, t1] that fit `w` px without overlapping. */
export function timeTicks(t0: number, t1: number, w: number, locale: string): TimeTick[] {
  const a = new Date(t0);
  let out: TimeTick[] = [];
  for (const step of STEPS) {
    out = [];
    if (step < 12) {
      let y = a.getUTCFullYear();
      let m = a.getUTCMonth();
      for (let t = Date.UTC(y, m, 1); t <= t1; t = Date.UTC(y, m, 1)) {
        if (t >= t0 && m % step === 0) out.push({ t, label: m === 0 || out.length === 0 ? `${monthName(m, locale)} ${y}` : monthName(m, locale) });
        if (++m === 12) [m, y] = [0, y + 1];
      }
      if (out.length * 46 + out.filter((k) => k.label.includes(' ')).length * 30 <= w * 0.9) return out;
    } else {
      const ys = step / 12;
      for (let y = Math.ceil(a.getUTCFullYear() / ys) * ys; Date.UTC(y, 0, 1) <= t1; y += ys)
        if (Date.UTC(y, 0, 1) >= t0) out.push({ t: Date.UTC(y, 0, 1), label: String(y) });
      if (out.length * 40 <= w * 0.9) return out;
    }
  }
  return out;
}

/** Ticks for a fluid chart: those for a nominal width, the ones a phone cannot fit marked minor (hidden under 640 px by CSS). */
function fluidTicks(t0: number, t1: number, w: number, locale: string): TimeTick[] {
  const wide = timeTicks(t0, t1, w, locale);
  const narrow = new Set(timeTicks(t0, t1, 280, locale).map((k) => k.t));
  const kept = wide.filter((k) => narrow.has(k.t)).length;
  return wide.map((k, i) => ({ ...k, minor: kept >= 2 ? !narrow.has(k.t) : wide.length > 6 && i % 2 === 1 }));
}

/** Binary search: index of the point nearest to t. */
export function nearest(pts: readonly { t: number }[], t: number): number {
  let lo = 0;
  let hi = pts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (pts[mid]!.t < t) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && t - pts[lo - 1]!.t < pts[lo]!.t - t ? lo - 1 : lo;
}

export function renderLine(spec: LineSpec, all: readonly ReadySeries[], o: RenderOpts): LineLayout | null {
  const A = o.attrs ?? byClass;
  const H = spec.height;
  const top = 24;
  const plotH = H - top - 26;
  const bottom = top + plotH;
  const series = all
    .map((s) => ({ ...s, pts: o.from === undefined ? s.pts : s.pts.filter((p) => p.t >= o.from!) }))
    .filter((s) => s.pts.some((p) => p.v !== null));
  if (series.length === 0) return null;
  const marks = (spec.markers ?? []).filter((m) => o.from === undefined || ms(m.date) >= o.from);
  const times = [...series.flatMap((s) => [s.pts[0]!.t, s.pts.at(-1)!.t]), ...marks.map((m) => ms(m.date))];
  let t0 = Math.min(...times);
  // A monthly series is dated at month ends: its axis starts at the first month's start.
  if (spec.freq === 'monthly') t0 = Date.UTC(new Date(t0).getUTCFullYear(), new Date(t0).getUTCMonth(), 1);
  const t1 = Math.max(...times, t0 + DAY);
  const values = [
    ...series.flatMap((s) => s.pts.flatMap((p) => (p.v === null ? [] : [p.v]))),
    ...(spec.hlines ?? []).map((h) => h.value),
    ...marks.map((m) => m.value),
  ];
  let ticks = spec.yTicks ?? niceTicks(spec.yMin ?? Math.min(...values), spec.yMax ?? Math.max(...values), plotH > 200 ? 5 : 4);
  const lo = spec.yMin ?? ticks[0]!;
  const hi = spec.yMax ?? ticks.at(-1)!;
  ticks = ticks.filter((v) => v >= lo && v <= hi);
  const labels = ticks.map((v) => tickLabel(v, spec.locale));
  const ml = Math.max(28, Math.max(...labels.map((l) => l.length)) * 7 + 10);
  const mr = 12;
  const w = Math.max(40, o.width - ml - mr);
  const fx = (t: number) => (t - t0) / (t1 - t0);
  const X = o.fluid ? (f: number) => pc(f) : (f: number) => String(r1(f * w));
  const full = o.fluid ? '100%' : String(w);
  const y = (v: number) => r1(top + (1 - (v - lo) / (hi - lo || 1)) * plotH);
  const p: string[] = [`<title id="${spec.id}-t">${esc(spec.title)}</title><desc id="${spec.id}-d">${esc(spec.desc)}</desc>`];

  for (const z of spec.zones ?? []) p.push(`<rect ${A(`zone zone-${z.band}`)} x="0" width="${full}" y="${y(z.to)}" height="${r1(y(z.from) - y(z.to))}"/>`);
  // Months without a value: grey over the whole height, spanning what the line skips.
  const gappy = series.find((s) => s.pts.some((q) => q.v === null));
  if (gappy) {
    const pts = gappy.pts;
    for (let i = 0; i < pts.length; i++) {
      if (pts[i]!.v !== null) continue;
      let j = i;
      while (j + 1 < pts.length && pts[j + 1]!.v === null) j++;
      const a = fx(i === 0 ? t0 : pts[i - 1]!.t);
      const b = fx(j === pts.length - 1 ? t1 : pts[j + 1]!.t);
      p.push(`<rect ${A('nodata')} x="${X(a)}" width="${X(b - a)}" y="${top}" height="${plotH}"><title>${esc(spec.ui.gap)}</title></rect>`);
      // Named where the band is wide enough for the words even on a phone.
      if ((b - a) * (o.fluid ? 320 : w) > 64)
        p.push(`<text ${A('nodata-label')} x="${X((a + b) / 2)}" y="${r1(top + plotH * 0.625 + 4)}" text-anchor="middle">${esc(spec.ui.gap)}</text>`);
      i = j;
    }
  }
  for (const win of spec.windows ?? []) {
    const a = fx(Math.max(t0, ms(win.from)));
    const b = fx(Math.min(t1, ms(win.to)));
    if (b <= a) continue;
    p.push(
      `<rect ${A('window')} data-window="${esc(win.from.slice(0, 7))}" x="${X(a)}" width="${X(b - a)}" y="${top}" height="${plotH}"><title>${esc(win.title)}</title></rect>`,
      `<text ${A('wkey')} x="${X((a + b) / 2)}" y="${top - 7}" text-anchor="middle">${esc(win.key)}</text>`,
    );
  }
  ticks.forEach((v, i) => {
    p.push(`<line ${A(spec.thresholds?.includes(v) ? 'threshold' : 'grid')} x1="0" x2="${full}" y1="${y(v)}" y2="${y(v)}"/>`);
    p.push(`<text ${A('tick')} x="-6" y="${r1(y(v) + 4)}" text-anchor="end">${esc(labels[i]!)}</text>`);
  });
  for (const z of spec.zones ?? []) p.push(`<text ${A(`zlabel zlabel-${z.band}`)} x="4" y="${r1(y(z.to) + 14)}">${esc(z.label)}</text>`);
  const tt = o.fluid ? fluidTicks(t0, t1, w, spec.locale) : timeTicks(t0, t1, w, spec.locale);
  for (const k of tt) {
    const f = fx(k.t);
    const cls = k.minor ? ' tick-minor' : '';
    const anchor = f > 0.96 ? 'end' : 'middle';
    p.push(
      `<line ${A(`axis${cls}`)} x1="${X(f)}" x2="${X(f)}" y1="${bottom}" y2="${bottom + 4}"/>`,
      `<text ${A(`tick${cls}`)} x="${X(f)}" y="${bottom + 17}" text-anchor="${anchor}">${esc(k.label)}</text>`,
    );
  }
  p.push(`<line ${A('axis')} x1="0" x2="${full}" y1="${bottom}" y2="${bottom}"/>`);
  if (spec.unit) p.push(`<text ${A('unit')} x="${-ml}" y="12">${esc(spec.unit)}</text>`);
  for (const h of spec.hlines ?? []) {
    p.push(
      `<line ${A('hline')} x1="0" x2="${full}" y1="${y(h.value)}" y2="${y(h.value)}"/>`,
      `<text ${A('hlabel')} x="${full}" dx="-4" y="${r1(y(h.value) - 5)}" text-anchor="end">${esc(h.label)}</text>`,
    );
  }
  const maxPts = spec.maxPoints ?? (o.fluid ? 300 : Math.max(120, Math.round(w / 1.5)));
  // In fluid mode the lines sit in a nested SVG stretched over the plot (x: 0–1000), strokes unscaled.
  const px = o.fluid ? (f: number) => r1(f * 1000) : (f: number) => r1(f * w);
  const py = o.fluid ? (v: number) => r1(y(v) - top) : y;
  const lines: string[] = [];
  const dots: string[] = [];
  for (const s of series) {
    const runs: Pt[][] = [[]];
    for (const q of s.pts) {
      if (q.v === null) runs.push([]);
      else runs.at(-1)!.push(q);
    }
    const whole = runs.length === 1;
    let d = '';
    for (const run of runs) {
      if (run.length === 1) dots.push(`<circle ${A(`dot dot-${s.kind}`)} cx="${X(fx(run[0]!.t))}" cy="${y(run[0]!.v!)}" r="2.5"/>`);
      else d += (whole ? thin(run, maxPts) : run).map((q, i) => `${i ? 'L' : 'M'}${px(fx(q.t))} ${py(q.v!)}`).join('');
    }
    if (d)
      lines.push(`<path ${A(`line line-${s.kind}`)} d="${d}"${o.fluid ? ' vector-effect="non-scaling-stroke"' : ''}><title>${esc(s.label)}</title></path>`);
  }
  if (o.fluid)
    p.push(
      `<svg x="0" y="${top}" width="100%" height="${plotH}" viewBox="0 0 1000 ${plotH}" preserveAspectRatio="none" overflow="visible">${lines.join('')}</svg>`,
    );
  else p.push(...lines);
  p.push(...dots);
  for (const m of marks) p.push(`<circle ${A('marker')} cx="${X(fx(ms(m.date)))}" cy="${y(m.value)}" r="5"><title>${esc(m.label)}</title></circle>`);
  // The newest value of the page's series and of each compared country, marked.
  for (const s of series.filter((x) => x.kind === 'main' || x.kind.startsWith('c'))) {
    const last = s.pts.findLast((q) => q.v !== null)!;
    p.push(`<circle ${A(`dot dot-${s.kind}`)} cx="${X(fx(last.t))}" cy="${y(last.v!)}" r="3.5"/>`);
  }
  p.push(...markDays(spec, series, { X, fx, y, top, width: o.fluid ? 320 : w, A }));
  const body = p.join('');
  const size = o.fluid ? `width:calc(100% - ${ml + mr}px)` : `width:${w}px`;
  const svg =
    `<svg ${A('chart cx')} width="${o.fluid ? '100%' : w}" height="${H}" style="margin-left:${ml}px;${size};height:${H}px" ` +
    `role="img" aria-labelledby="${spec.id}-t ${spec.id}-d">${body}</svg>`;
  return { svg, body, ml, mr, w, h: H, top, plotH, t0, t1, fx, y, series };
}

/**
 * The days a text quotes, on the main series: a dot at the nearest point and its date above it
 * (below when the point is near the top). Labels are placed newest first, and one that would
 * overlap a placed one at `width` (a phone's in fluid mode) is left out: its dot keeps the date
 * as a tooltip.
 */
function markDays(
  spec: LineSpec,
  series: readonly ReadySeries[],
  g: { X: (f: number) => string; fx: (t: number) => number; y: (v: number) => number; top: number; width: number; A: (cls: string) => string },
): string[] {
  const main = series.find((s) => s.kind === 'main');
  if (!main || !spec.days?.length) return [];
  const dots: string[] = [];
  const labels: string[] = [];
  let leftEdge = Infinity;
  for (const d of [...spec.days].sort().reverse()) {
    const { v, d: at } = valuesAt([main], ms(d))[0]!;
    if (v === null || at === null) continue;
    const f = g.fx(ms(at));
    const label = dateLabel(at, spec.freq, spec.locale);
    const cy = g.y(v);
    dots.unshift(`<circle ${g.A('day')} data-day="${at}" cx="${g.X(f)}" cy="${cy}" r="3.5"><title>${esc(label)}</title></circle>`);
    // About 6.5 px a character at 11 px; anchored inward at the ends so it stays over the plot.
    const width = label.length * 6.5;
    const anchor = f < 0.12 ? 'start' : f > 0.88 ? 'end' : 'middle';
    const left = f * g.width - (anchor === 'start' ? 0 : anchor === 'end' ? width : width / 2);
    if (left + width > leftEdge - 6) continue;
    leftEdge = left;
    const ly = cy - g.top < 18 ? cy + 16 : cy - 8;
    labels.unshift(`<text ${g.A('day-label')} x="${g.X(f)}" y="${ly}" text-anchor="${anchor}">${esc(label)}</text>`);
  }
  return [...dots, ...labels];
}

/** Layout of the bars: a label line, then one bar per series (the page's country, then the compared ones). */
export const BAR = { label: 18, bar: 16, gap: 3, row: 12 } as const;

/**
 * Horizontal bars: each category's label on its own line above its bars, so labels are never cut
 * and bars can use the whole width at any size. A value is printed after its bar, or inside the
 * end of a long one.
 */
export function renderBars(spec: BarSpec, all: readonly BarSeriesSpec[], o: RenderOpts): { svg: string; body: string; h: number; w: number } {
  const A = o.attrs ?? byClass;
  const n = all.length;
  const rowH = BAR.label + n * (BAR.bar + BAR.gap) - BAR.gap + BAR.row;
  const H = spec.cats.length * rowH;
  const max = Math.max(spec.max ?? 0, ...all.flatMap((s) => s.values.map((v) => v ?? 0)), 1e-9);
  const w = o.width;
  const X = o.fluid ? (f: number) => pc(f) : (f: number) => String(r1(f * w));
  const p: string[] = [`<title id="${spec.id}-t">${esc(spec.title)}</title><desc id="${spec.id}-d">${esc(spec.desc)}</desc>`];
  spec.cats.forEach((c, i) => {
    const y0 = i * rowH;
    p.push(`<text ${A('blabel')} x="0" y="${y0 + 13}">${esc(c.label)}</text>`);
    all.forEach((s, j) => {
      const v = s.values[i] ?? null;
      const by = y0 + BAR.label + j * (BAR.bar + BAR.gap);
      const f = Math.min(1, Math.max(0, (v ?? 0) / max));
      const text = s.display?.[i] ?? fmtValue(v, spec.fmt, spec.locale);
      const tone = s.tones?.[i] ?? s.kind;
      if (f > 0)
        p.push(
          `<rect ${A(`bar bar-${tone}`)} x="0" y="${by}" width="${X(f)}" height="${BAR.bar}" rx="2"><title>${esc(`${s.label}, ${c.label}: ${text}`)}</title></rect>`,
        );
      const inside = f >= 0.6;
      p.push(
        `<text ${A(inside ? `bvalue bvalue-in ink-${tone}` : 'bvalue')} x="${X(f)}" dx="${inside ? -5 : f > 0 ? 5 : 0}" y="${by + 12.5}"${inside ? ' text-anchor="end"' : ''}>${esc(text)}</text>`,
      );
    });
  });
  const body = p.join('');
  const svg = `<svg ${A('chart cx bars')} width="${o.fluid ? '100%' : w}" height="${H}" style="height:${H}px" role="img" aria-labelledby="${spec.id}-t ${spec.id}-d">${body}</svg>`;
  return { svg, body, h: H, w };
}

/** The value each series has at time t (its nearest point within half its usual spacing, and that point's date), for tooltips. */
export function valuesAt(series: readonly ReadySeries[], t: number): { s: ReadySeries; v: number | null; d: string | null }[] {
  return series.map((s) => {
    const q = s.pts[nearest(s.pts, t)]!;
    const gaps = s.pts.length > 1 ? (s.pts.at(-1)!.t - s.pts[0]!.t) / (s.pts.length - 1) : DAY;
    const near = Math.abs(q.t - t) <= Math.max(DAY / 2, gaps * 0.6);
    return { s, v: near ? q.v : null, d: near ? q.d : null };
  });
}
