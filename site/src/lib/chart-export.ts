/**
 * The downloadable chart: a standalone SVG file with the title, the legend, the chart, the source
 * and the licence with the backlink drawn inside, every colour and font inlined (no stylesheet,
 * no class needed), in the light theme of global.css. The PNG is this file drawn on a canvas.
 */
import { renderBars, renderLine, esc, type ReadySeries } from './chart-render';
import type { BarSeriesSpec, ChartSpec } from './chart-model';

const C = {
  text: '#1b2330',
  muted: '#566171',
  grid: '#e8ebef',
  ref: '#8a94a3',
  accent: '#124e78',
  accent2: '#b35c00',
  bg: '#ffffff',
  low: '#a6cee3',
  moderate: '#fdbf6f',
  high: '#f16913',
  severe: '#7f2704',
  none: '#e4e7eb',
  // The compared countries (charts.css --c1…--c4, light theme).
  c1: '#6a3d9a',
  c2: '#1b7837',
  c3: '#c2185b',
  c4: '#5d4037',
};
export const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif";
const KIND: Record<string, string> = { main: C.accent, alt: C.accent2, ref: C.ref, target: C.accent2, c1: C.c1, c2: C.c2, c3: C.c3, c4: C.c4 };
const TONE: Record<string, string> = { ...KIND, low: C.low, moderate: C.moderate, high: C.high, severe: C.severe };
const INK: Record<string, string> = { low: '#0b2545', moderate: '#3d2200', high: '#1a0a00', severe: '#ffffff' };

type Attrs = Record<string, string | number>;
const tick: Attrs = { fill: C.muted, 'font-size': 12 };
/** A label over a chart (`zlabel`, `day-label`): text with a halo of the background. */
const HALO_LABEL: Attrs = {
  fill: C.text,
  'font-size': 11,
  'font-weight': 600,
  'paint-order': 'stroke',
  stroke: C.bg,
  'stroke-width': 3,
  'stroke-linejoin': 'round',
};

/** The attributes of each class, as charts.css and global.css give them in the light theme. */
function style(cls: string): Attrs {
  const [head, tail = ''] = cls.split(/-(.*)/s) as [string, string?];
  switch (head) {
    case 'grid':
      return { stroke: C.grid, 'stroke-width': 1 };
    case 'axis':
      return { stroke: C.ref, 'stroke-width': 1 };
    case 'tick':
    case 'unit':
      return tick;
    case 'line':
      return tail
        ? {
            stroke: KIND[tail] ?? C.accent,
            'stroke-width': tail === 'main' ? 2.4 : tail === 'ref' ? 1.6 : 2,
            ...(tail === 'target' ? { 'stroke-dasharray': '6 5' } : {}),
          }
        : { fill: 'none', 'stroke-linejoin': 'round', 'stroke-linecap': 'round' };
    case 'hline':
      return { stroke: C.accent2, 'stroke-dasharray': '3 4', 'stroke-width': 1.4 };
    case 'hlabel':
      return { fill: C.accent2, 'font-size': 12, 'font-weight': 600 };
    case 'marker':
      return { fill: C.bg, stroke: C.accent2, 'stroke-width': 2.5 };
    case 'dot':
      return tail ? { fill: KIND[tail] ?? C.accent } : {};
    case 'bar':
      return tail ? { fill: TONE[tail] ?? C.accent } : {};
    case 'blabel':
      return { fill: C.text, 'font-size': 13 };
    case 'bvalue':
      return tail === 'in' ? { fill: C.bg } : { fill: C.muted, 'font-size': 13 };
    case 'ink':
      return INK[tail] ? { fill: INK[tail] } : {};
    case 'zone':
      return tail ? { fill: TONE[tail] ?? C.none } : { 'fill-opacity': 0.2 };
    case 'threshold':
      return { stroke: C.ref, 'stroke-dasharray': '4 4', 'stroke-width': 1 };
    case 'zlabel':
      return tail ? {} : HALO_LABEL;
    case 'nodata':
      return tail ? { fill: C.muted, 'font-size': 11, 'font-style': 'italic' } : { fill: C.none, 'fill-opacity': 0.85 };
    case 'day':
      return tail ? HALO_LABEL : { fill: C.accent2, stroke: C.bg, 'stroke-width': 1.5 };
    case 'window':
      return { fill: C.accent2, 'fill-opacity': 0.16, stroke: C.accent2, 'stroke-width': 1 };
    case 'wkey':
      return { fill: C.accent2, 'font-size': 12, 'font-weight': 700 };
    default:
      return {};
  }
}
/** Every class of the list, later ones winning, as attributes. */
export function inline(classes: string): string {
  const merged: Attrs = {};
  for (const c of classes.split(' ')) Object.assign(merged, style(c));
  return Object.entries(merged)
    .map(([k, v]) => `${k}="${v}"`)
    .join(' ');
}

/** Words on lines of at most `max` characters. */
export function wrap(text: string, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > max) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

export interface ExportInput {
  spec: ChartSpec;
  /** Line charts: every series drawn (the page's and the compared ones). */
  lines?: readonly ReadySeries[];
  /** Bar charts: every series drawn. */
  bars?: readonly BarSeriesSpec[];
  from?: number;
}

/** The standalone SVG file and its size in px. */
export function exportSvg({ spec, lines = [], bars = [], from }: ExportInput): { svg: string; width: number; height: number } {
  const W = spec.type === 'line' ? 960 : 720;
  const pad = 24;
  const out: string[] = [];
  let y = pad;
  for (const l of wrap(spec.title, Math.floor((W - 2 * pad) / 10.5))) {
    y += 24;
    out.push(`<text x="${pad}" y="${y}" fill="${C.text}" font-size="20" font-weight="700">${esc(l)}</text>`);
  }
  y += 12;
  // The legend: one swatch per series, on as many lines as it takes.
  const legend = spec.type === 'line' ? lines.map((s) => ({ label: s.label, kind: s.kind })) : bars.map((s) => ({ label: s.label, kind: s.kind }));
  if (legend.length > 1) {
    let x = pad;
    y += 16;
    for (const item of legend) {
      const width = 30 + item.label.length * 7;
      if (x > pad && x + width > W - pad) [x, y] = [pad, y + 20];
      const dash = item.kind === 'target' ? ' stroke-dasharray="6 5"' : '';
      out.push(
        `<line x1="${x}" x2="${x + 20}" y1="${y - 4}" y2="${y - 4}" stroke="${KIND[item.kind] ?? C.accent}" stroke-width="3"${dash}/>`,
        `<text x="${x + 26}" y="${y}" fill="${C.muted}" font-size="13">${esc(item.label)}</text>`,
      );
      x += width + 12;
    }
    y += 14;
  }
  if (spec.type === 'line') {
    const layout = renderLine(spec, lines, { width: W - 2 * pad, from, attrs: inline });
    if (layout) {
      out.push(`<g transform="translate(${pad + layout.ml} ${y})">${layout.body}</g>`);
      y += layout.h;
    }
  } else {
    const layout = renderBars(spec, bars, { width: W - 2 * pad, attrs: inline });
    out.push(`<g transform="translate(${pad} ${y + 4})">${layout.body}</g>`);
    y += layout.h + 4;
  }
  y += 8;
  const chars = Math.floor((W - 2 * pad) / 6.6);
  for (const l of [...wrap(spec.credit.source, chars), ...wrap(spec.credit.licence, chars), spec.credit.page]) {
    y += 16;
    out.push(`<text x="${pad}" y="${y}" fill="${C.muted}" font-size="12">${esc(l)}</text>`);
  }
  const H = y + pad;
  const svg =
    `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="${FONT}">` +
    `<title>${esc(spec.title)}</title><desc>${esc(`${spec.desc} ${spec.credit.source} ${spec.credit.licence}`)}</desc>` +
    `<rect width="${W}" height="${H}" fill="${C.bg}"/>${out.join('')}</svg>`;
  return { svg, width: W, height: H };
}
