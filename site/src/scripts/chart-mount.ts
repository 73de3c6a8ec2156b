/**
 * One chart brought to life from its embedded spec: redrawn at the width it has (line charts,
 * through ResizeObserver), with its range buttons, its comparison with other countries (each in
 * its own colour, in the legend with a remove button), downloads and embed code copy. Everything
 * here enhances a chart the page already shows.
 */
import type { BarSeriesSpec, ChartSpec, SeriesKind } from '../lib/chart-model';
import { esc, renderBars, renderLine, seriesOf, type LineLayout, type ReadySeries } from '../lib/chart-render';
import { fetchCompared } from './chart-compare';
import { attachCursor } from './chart-cursor';

const COLOURS: readonly SeriesKind[] = ['c1', 'c2', 'c3', 'c4'];
const YEAR = 365.25 * 86_400_000;

interface Added {
  id: string;
  name: string;
  kind: SeriesKind;
  line?: ReadySeries;
  bars?: BarSeriesSpec;
}

export function mountChart(fig: HTMLElement): void {
  const spec = JSON.parse(fig.querySelector('script[data-spec]')!.textContent!) as ChartSpec;
  const box = fig.querySelector<HTMLElement>('.chart-box')!;
  const holder = fig.querySelector<HTMLElement>('.chart-svg')!;
  const status = fig.querySelector<HTMLElement>('.chart-status')!;
  const say = (template: string, name = '') => (status.textContent = template.replace('{name}', name));
  const own = spec.type === 'line' ? seriesOf(spec) : [];
  const added: Added[] = [];
  let from: number | undefined;
  let width = 0;
  let layout: LineLayout | null = null;
  const lines = () => [...own, ...added.flatMap((a) => (a.line ? [a.line] : []))];
  const bars = () => (spec.type === 'bar' ? [...spec.series, ...added.flatMap((a) => (a.bars ? [a.bars] : []))] : []);
  const cursor = spec.type === 'line' ? attachCursor(box, spec, status, () => layout) : null;

  function draw() {
    width = box.clientWidth;
    // Hidden (a closed disclosure, a hidden tab): the build's drawing stays until it shows.
    if (width === 0) return;
    if (spec.type === 'line') {
      layout = renderLine(spec, lines(), { width, from });
      if (layout) holder.innerHTML = layout.svg;
      cursor!.redraw();
    } else holder.innerHTML = renderBars(spec, bars(), { width, fluid: true }).svg;
  }
  if (spec.type === 'line') {
    draw();
    new ResizeObserver(() => {
      if (box.clientWidth !== width) draw();
    }).observe(box);
  }

  // The time range: the last n years of the page's own series, or all of it.
  const end = Math.max(...own.map((s) => s.pts.at(-1)?.t ?? 0));
  const buttons = [...fig.querySelectorAll<HTMLButtonElement>('button[data-range]')];
  for (const b of buttons)
    b.addEventListener('click', () => {
      const n = Number(b.dataset.range);
      from = n > 0 ? end - n * YEAR : undefined;
      for (const x of buttons) x.setAttribute('aria-pressed', String(x === b));
      draw();
    });

  const select = fig.querySelector<HTMLSelectElement>('select[data-compare]');
  const legend = fig.querySelector<HTMLUListElement>('.chart-legend');
  function refreshSelect() {
    if (!select) return;
    for (const o of select.options) o.disabled = o.value !== '' && added.some((a) => a.id === o.value);
    select.disabled = added.length >= COLOURS.length;
    select.title = select.disabled ? spec.ui.limit : '';
  }
  function addToLegend(a: Added) {
    if (!legend) return;
    const li = document.createElement('li');
    li.dataset.kind = a.kind;
    li.dataset.country = a.id;
    const label = (a.line ?? a.bars)!.label;
    const remove = spec.ui.remove.replace('{name}', a.name);
    li.innerHTML = `<span class="${spec.type === 'bar' ? 'swatch' : 'sw-line'} sw-${a.kind}"></span>${esc(label)} <button type="button" class="chart-remove" aria-label="${esc(remove)}" title="${esc(remove)}">×</button>`;
    li.querySelector('button')!.addEventListener('click', () => {
      added.splice(added.indexOf(a), 1);
      li.remove();
      refreshSelect();
      draw();
      select?.focus();
    });
    legend.append(li);
  }
  select?.addEventListener('change', async () => {
    const id = select.value;
    const name = select.selectedOptions[0]?.textContent ?? id;
    select.value = '';
    if (!id || added.some((a) => a.id === id)) return;
    const kind = COLOURS.find((k) => !added.some((a) => a.kind === k));
    if (!kind) return void say(spec.ui.limit);
    say(spec.ui.loading, name);
    try {
      const a: Added = { id, name, kind, ...(await fetchCompared(spec, id, name, kind)) };
      if (added.some((x) => x.id === id || x.kind === kind)) return;
      added.push(a);
      addToLegend(a);
      draw();
      say(added.length < COLOURS.length ? spec.ui.added : `${spec.ui.added} ${spec.ui.limit}`, name);
    } catch {
      say(spec.ui.failed, name);
    }
    refreshSelect();
  });

  // The exporter is fetched on the first download or copy: most readers never ask for one.
  for (const b of fig.querySelectorAll<HTMLButtonElement>('button[data-dl]'))
    b.addEventListener('click', async () => {
      const { download } = await import('./chart-download');
      await download(b.dataset.dl === 'png' ? 'png' : 'svg', { spec, lines: lines(), bars: bars(), from });
    });
  fig.querySelector<HTMLButtonElement>('button[data-copy]')?.addEventListener('click', async () => {
    const { copy } = await import('./chart-download');
    if (await copy(fig.querySelector('textarea')!)) say(spec.ui.copied);
  });

  for (const el of fig.querySelectorAll<HTMLElement>('.chart-controls, .chart-dl, button[data-copy]')) el.hidden = false;
  fig.dataset.ready = '';
}
