/**
 * The charts' client script (loaded by components/Chart.astro, only on pages with a chart): every
 * chart with an embedded spec gets its interactions. Without it the build's SVG and table stand.
 */
import { mountChart } from './chart-mount';

for (const fig of document.querySelectorAll<HTMLElement>('figure[data-chart]')) {
  try {
    mountChart(fig);
  } catch (err) {
    // One chart that fails leaves the others working, and its static drawing in place.
    console.warn('chart', fig.id, err);
  }
}
