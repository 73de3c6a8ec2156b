/**
 * Values on demand in a line chart: the pointer or the arrow keys move a cursor from date to date
 * (Home/End to the ends, Page Up/Down by a tenth), and a tooltip gives every series' value there.
 * The same words go to the chart's live region for screen readers.
 */
import { dateLabel, fmtValue } from '../lib/chart-format';
import { iso, type LineSpec } from '../lib/chart-model';
import { esc, nearest, valuesAt, type LineLayout } from '../lib/chart-render';

export interface Cursor {
  /** Call after each redraw: the dates may have changed. */
  redraw(): void;
}

export function attachCursor(box: HTMLElement, spec: LineSpec, status: HTMLElement, layout: () => LineLayout | null): Cursor {
  const tip = box.querySelector<HTMLElement>('.chart-tip')!;
  box.tabIndex = 0;
  // The arrow keys are the widget's own: screen readers pass them through to an application.
  box.setAttribute('role', 'application');
  box.setAttribute('aria-label', `${spec.title}. ${spec.ui.keys}`);
  let times: { t: number }[] = [];
  let at = -1;

  function dates(L: LineLayout) {
    const all = new Set<number>();
    for (const s of L.series) for (const p of s.pts) if (p.v !== null) all.add(p.t);
    times = [...all].sort((a, b) => a - b).map((t) => ({ t }));
  }

  function hide() {
    tip.hidden = true;
    box.querySelector('g.cursor')?.remove();
  }

  function show(i: number) {
    const L = layout();
    if (!L || times.length === 0) return;
    at = Math.max(0, Math.min(times.length - 1, i));
    const t = times[at]!.t;
    const x = Math.round(L.fx(t) * L.w * 10) / 10;
    const vals = valuesAt(L.series, t);
    const svg = box.querySelector('svg.chart');
    if (!svg) return;
    let g = svg.querySelector('g.cursor');
    if (!g) svg.append((g = document.createElementNS('http://www.w3.org/2000/svg', 'g')));
    g.setAttribute('class', 'cursor');
    g.innerHTML =
      `<line class="cursor-line" x1="${x}" x2="${x}" y1="${L.top}" y2="${L.top + L.plotH}"/>` +
      vals.map(({ s, v }) => (v === null ? '' : `<circle class="cursor-dot dot-${s.kind}" cx="${x}" cy="${L.y(v)}" r="4.5"/>`)).join('');
    const day = dateLabel(iso(t), spec.freq, spec.locale);
    // A series dated otherwise (another country's weeks) says the date of its value.
    const rows = vals.map(({ s, v, d }) => ({
      s,
      text: fmtValue(v, spec.fmt, spec.locale),
      when: d && d !== iso(t) ? dateLabel(d, spec.freq, spec.locale) : '',
    }));
    tip.innerHTML =
      `<strong>${esc(day)}</strong>` +
      rows
        .map(
          ({ s, text, when }) =>
            `<span class="tip-row" data-kind="${s.kind}"><i class="sw-${s.kind}"></i>${esc(s.label)} <b>${esc(text)}</b>${when ? ` <small>(${esc(when)})</small>` : ''}</span>`,
        )
        .join('');
    const left = L.ml + x;
    const flip = x > L.w * 0.55;
    tip.style.left = flip ? '' : `${left + 12}px`;
    tip.style.right = flip ? `${box.clientWidth - left + 12}px` : '';
    tip.hidden = false;
    status.textContent = `${day}: ${rows.map(({ s, text, when }) => `${s.label} ${text}${when ? ` (${when})` : ''}`).join('; ')}`;
  }

  // A tap shows the values too (touch screens send no move before it).
  const point = (e: PointerEvent) => {
    const L = layout();
    const svg = box.querySelector('svg.chart');
    if (!L || !svg) return;
    const r = svg.getBoundingClientRect();
    const f = (e.clientX - r.left) / r.width;
    if (f < -0.02 || f > 1.02) return;
    const i = nearest(times, L.t0 + Math.min(1, Math.max(0, f)) * (L.t1 - L.t0));
    if (i !== at || tip.hidden) show(i);
  };
  box.addEventListener('pointermove', point);
  box.addEventListener('pointerdown', point);
  box.addEventListener('pointerleave', () => {
    if (document.activeElement !== box) hide();
  });
  box.addEventListener('focus', () => show(at < 0 ? times.length - 1 : at));
  box.addEventListener('blur', hide);
  box.addEventListener('keydown', (e) => {
    const page = Math.max(1, Math.round(times.length / 10));
    const to: Record<string, number> = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: times.length - 1, PageUp: at - page, PageDown: at + page };
    if (e.key === 'Escape') return hide();
    if (!(e.key in to)) return;
    e.preventDefault();
    show(to[e.key]!);
  });

  return {
    redraw() {
      const L = layout();
      if (!L) return;
      const was = at >= 0 ? times[at]?.t : undefined;
      dates(L);
      if (was === undefined) return void (at = -1);
      at = nearest(times, was);
      if (!tip.hidden) show(at);
    },
  };
}
