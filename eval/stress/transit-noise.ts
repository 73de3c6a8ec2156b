/**
 * How far a chokepoint's transits fall below their seasonal normal in ordinary years: the
 * calibration of the loss tolerance of methodology 3.2.0 (docs/methodology.md §3.2.0). Reads the
 * PortWatch file itself and repeats the normal of `routeLoss` (28-day mean against the median of
 * the same days in up to 5 earlier years) at every month-end from January 2020 to October 2023:
 * after the first year with a normal and before the Red Sea attacks began (19 November 2023).
 *
 *   node eval/stress/transit-noise.ts [../shared/sources/imf-portwatch-chokepoints/portwatch_daily_4cp_incl_hormuz_2019-2026-08.csv]
 */
import { readFileSync } from 'node:fs';
import { TRANSITS } from '../../pipeline/steps/disruption.ts';

const file = process.argv[2] ?? '../shared/sources/imf-portwatch-chokepoints/portwatch_daily_4cp_incl_hormuz_2019-2026-08.csv';
const DAY = 86_400_000;
const dayOf = (d: string) => Math.floor(Date.parse(d) / DAY);
const median = (v: number[]) => {
  const s = [...v].sort((p, q) => p - q);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const quantile = (sorted: number[], p: number) => sorted[Math.floor(p * (sorted.length - 1))] as number;
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

const [header, ...lines] = readFileSync(file, 'utf8').trim().split('\n');
const cols = (header as string).split(',');
const at = (name: string) => cols.indexOf(name);
const rows = lines.map((l) => l.split(','));
const losses: number[] = [];
let months = 0;
for (const chokepoint of [...new Set(rows.map((r) => r[at('chokepoint')] as string))].sort())
  for (const vessel of ['n_tanker', 'n_cargo']) {
    const mine = rows.filter((r) => r[at('chokepoint')] === chokepoint);
    const first = dayOf(mine[0]![at('date')] as string);
    const daily: number[] = [];
    for (const r of mine) daily[dayOf(r[at('date')] as string) - first] = Number(r[at(vessel)]);
    const windowMean = (end: number): number | null => {
      let sum = 0;
      for (let i = end - TRANSITS.windowDays + 1; i <= end; i++) {
        const v = daily[i];
        if (i < 0 || v === undefined) return null;
        sum += v;
      }
      return sum / TRANSITS.windowDays;
    };
    const mineLosses: number[] = [];
    for (let y = 2020; y <= 2023; y++)
      for (let m = 1; m <= (y === 2023 ? 10 : 12); m++) {
        const end = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
        const x = windowMean(dayOf(end) - first);
        const normals: number[] = [];
        for (let k = 1; k <= TRANSITS.normalYears; k++) {
          const v = windowMean(dayOf(`${y - k}${end.slice(4) === '-02-29' ? '-02-28' : end.slice(4)}`) - first);
          if (v !== null) normals.push(v);
        }
        if (x === null || normals.length < TRANSITS.minYears) continue;
        months++;
        const loss = 1 - x / median(normals);
        if (loss > 0) mineLosses.push(loss);
      }
    mineLosses.sort((p, q) => p - q);
    console.log(
      `${chokepoint.padEnd(14)} ${vessel.padEnd(9)} ${String(mineLosses.length).padStart(2)} month-ends below normal, largest ${pct(mineLosses.at(-1) ?? 0)}`,
    );
    losses.push(...mineLosses);
  }
losses.sort((p, q) => p - q);
console.log(
  `\n${losses.length} of ${months} month-ends below their normal; of those losses: median ${pct(median(losses))}, 90th percentile ${pct(quantile(losses, 0.9))}, 95th ${pct(quantile(losses, 0.95))}, largest ${pct(losses.at(-1) as number)}`,
);
