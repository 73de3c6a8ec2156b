/**
 * The stress index backtest, methodology 3.0.0 (data/backtest.yaml, written before it was run):
 * windows by a stated rule, a crisis hit when enough of its month-ends read high or severe (a
 * missing index is not flagged), false alarms in calm months, base rates, precision, lead time,
 * and Wilson intervals over windows. Pure: histories in, rates out.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { BacktestWindow, type BacktestResult, type BacktestWindowResult, type StressHistoryPoint } from '../../contract/stress.ts';
import { round } from './reserves.ts';

export const BacktestFile = z.strictObject({ crises: z.array(BacktestWindow).min(1), calm: z.array(BacktestWindow).min(1) });
/** data/backtest-labels.yaml: each window label (without its price note) in French, German and Spanish. */
export const BacktestLabelsFile = z.strictObject({
  price_note: z.strictObject({ fr: z.string().includes('{change}'), de: z.string().includes('{change}'), es: z.string().includes('{change}') }),
  labels: z.record(z.string(), z.strictObject({ fr: z.string().min(1), de: z.string().min(1), es: z.string().min(1) })),
});
/** A window of data/backtest.yaml with its label in every language. */
export type Window = z.infer<typeof BacktestWindow> & Pick<BacktestWindowResult, 'translations'>;
export interface BacktestWindows {
  crises: Window[];
  calm: Window[];
}

export const BACKTEST_RULE =
  'Windows (data/backtest.yaml, committed before the 3.0.0 code): crisis = a run of months with the benchmark price ≥ 1.5 × a year before and ≥ 1.25 × its 60-month median, with a documented supply cause; calm = a run with the price ≤ 0.7 × a year before. ' +
  'A month-end is flagged at high or severe; a month with no index is not flagged. A crisis window of n month-ends is hit when ≥ max(⌈n/3⌉, min(2, n)) are flagged. ' +
  'Precision: flagged month-ends in crisis windows / flagged month-ends outside the 6 months before a window. Lead: window start − first flagged month-end from 6 months before. Intervals: Wilson 95 %, windows as trials.';
/** Months before a crisis window where an alarm is early, neither a hit nor a false alarm. */
export const LEAD_MONTHS = 6;
/** Scored history starts here (the windows start in 2016). */
export const SCORED_FROM = '2016-01';

async function readYaml<T>(file: string, schema: z.ZodType<T>): Promise<T> {
  const parsed = schema.safeParse(parse(await readFile(file, 'utf8')));
  if (!parsed.success) throw new Error(`invalid ${file}:\n${parsed.error.issues.map((i) => `  [${i.path.join('.')}] ${i.message}`).join('\n')}`);
  return parsed.data;
}

/** A label's price note, "(price up to +60 % on the year)": the cause before it and the signed change. */
const PRICE_NOTE = /^(.*) \(price up to ([+−-]?\d+(?:\.\d+)?) % on the year\)$/;

/**
 * The label of a window in French, German and Spanish, from data/backtest-labels.yaml; undefined
 * when the file has no entry for it.
 */
export function translateLabel(label: string, t: z.infer<typeof BacktestLabelsFile>): BacktestWindowResult['translations'] | undefined {
  const m = PRICE_NOTE.exec(label);
  const cause = m ? m[1]! : label;
  const own = t.labels[cause];
  if (!own) return undefined;
  const note = (lang: 'fr' | 'de' | 'es') => (m ? ` (${t.price_note[lang].replace('{change}', m[2]!)})` : '');
  return { fr: { label: own.fr + note('fr') }, de: { label: own.de + note('de') }, es: { label: own.es + note('es') } };
}

/** The windows of data/backtest.yaml, each with its label in every language (data/backtest-labels.yaml); throws on a label without one. */
export async function loadBacktest(dataDir: string): Promise<BacktestWindows> {
  const windows = await readYaml(join(dataDir, 'backtest.yaml'), BacktestFile);
  const labels = await readYaml(join(dataDir, 'backtest-labels.yaml'), BacktestLabelsFile);
  const missing = new Set<string>();
  const withLabels = (w: z.infer<typeof BacktestWindow>): Window => {
    const translations = translateLabel(w.label, labels);
    if (!translations) missing.add(w.label.replace(PRICE_NOTE, '$1'));
    return { ...w, translations: translations ?? { fr: { label: '' }, de: { label: '' }, es: { label: '' } } };
  };
  const out = { crises: windows.crises.map(withLabels), calm: windows.calm.map(withLabels) };
  if (missing.size) {
    throw new Error(
      `${join(dataDir, 'backtest-labels.yaml')} has no French, German and Spanish for ${missing.size} label(s) of backtest.yaml:\n${[...missing].map((l) => `  '${l}'`).join('\n')}`,
    );
  }
  return out;
}

const flagged = (p: StressHistoryPoint) => p.band === 'high' || p.band === 'severe';
const monthKey = (m: string) => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7)) - 1;

/** Wilson score interval at 95 % for k successes in n trials. */
export function wilson(k: number, n: number): [number, number] {
  if (n === 0) return [0, 1];
  const z = 1.959964;
  const p = k / n;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return [round(Math.max(0, c - h), 4), round(Math.min(1, c + h), 4)];
}

/** Hits needed in a window of n month-ends. */
export const hitsNeeded = (n: number) => Math.max(Math.ceil(n / 3), Math.min(2, n));

type WindowResult = Omit<BacktestWindowResult, 'hit'>;

function evaluate(w: Window, history: readonly StressHistoryPoint[]): WindowResult {
  const inside = history.filter((p) => p.date.slice(0, 7) >= w.from && p.date.slice(0, 7) <= w.to);
  const scored = inside.filter((p) => p.index !== null);
  const peak = scored.reduce<StressHistoryPoint | null>((a, p) => (a === null || (p.index as number) > (a.index as number) ? p : a), null);
  return {
    ...w,
    months: inside.length,
    scored: scored.length,
    flagged: inside.filter(flagged).length,
    peak: peak?.index ?? null,
    peak_month: peak?.date.slice(0, 7) ?? null,
  };
}

/** Months from the first flagged month-end (from LEAD_MONTHS before the window to its end) to the window's start; null when never flagged. */
function leadTime(w: Window, history: readonly StressHistoryPoint[]): number | null {
  const start = monthKey(w.from);
  const first = history.find((p) => {
    const k = monthKey(p.date);
    return k >= start - LEAD_MONTHS && k <= monthKey(w.to) && flagged(p);
  });
  return first ? start - monthKey(first.date) : null;
}

const median = (xs: number[]) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

/** Pearson correlation, or null with fewer than 3 pairs. */
function pearson(a: readonly number[], b: readonly number[]): number | null {
  const n = a.length;
  if (n < 3) return null;
  const ma = a.reduce((s, x) => s + x, 0) / n;
  const mb = b.reduce((s, x) => s + x, 0) / n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    sab += ((a[i] as number) - ma) * ((b[i] as number) - mb);
    saa += ((a[i] as number) - ma) ** 2;
    sbb += ((b[i] as number) - mb) ** 2;
  }
  return saa && sbb ? round(sab / Math.sqrt(saa * sbb), 4) : null;
}

/** The mean commodity index per month against the GSCPI, over the months both have. */
export function gscpiComparison(
  histories: ReadonlyMap<string, readonly StressHistoryPoint[]>,
  gscpi: readonly { month: string; value: number }[],
): BacktestResult['gscpi'] {
  const sums = new Map<string, [number, number]>();
  for (const h of histories.values())
    for (const p of h)
      if (p.index !== null) {
        const m = p.date.slice(0, 7);
        const s = sums.get(m) ?? [0, 0];
        s[0] += p.index;
        s[1] += 1;
        sums.set(m, s);
      }
  const points = gscpi
    .filter((g) => sums.has(g.month) && g.month >= SCORED_FROM)
    .map((g) => {
      const [sum, n] = sums.get(g.month) as [number, number];
      return { month: g.month, mean_index: round(sum / n, 2), gscpi: round(g.value, 4) };
    });
  if (!points.length) return null;
  return {
    months: points.length,
    correlation: pearson(
      points.map((p) => p.mean_index),
      points.map((p) => p.gscpi),
    ),
    from: points[0]!.month,
    to: points.at(-1)!.month,
    points,
  };
}

export function runBacktest(
  windows: BacktestWindows,
  histories: ReadonlyMap<string, readonly StressHistoryPoint[]>,
  gscpi: readonly { month: string; value: number }[] = [],
): BacktestResult {
  const of = (w: Window) => {
    const h = histories.get(w.commodity);
    if (!h) throw new Error(`backtest: no stress history for ${w.commodity}`);
    return h;
  };
  const crises = windows.crises.map((w) => {
    const r = evaluate(w, of(w));
    return { ...r, hit: r.flagged >= hitsNeeded(r.months), lead_months: leadTime(w, of(w)) };
  });
  const calm = windows.calm.map((w) => evaluate(w, of(w)));
  const calmMonths = calm.reduce((s, w) => s + w.months, 0);
  const calmFlagged = calm.reduce((s, w) => s + w.flagged, 0);
  const calmWindowsFlagged = calm.filter((w) => w.flagged > 0).length;
  const hits = crises.filter((c) => c.hit).length;

  // Per commodity: base rate and precision over the whole scored history.
  const inWindow = (slug: string, month: string, before = 0) =>
    windows.crises.some((w) => w.commodity === slug && monthKey(month) >= monthKey(w.from) - before && month <= w.to);
  let tp = 0;
  let fp = 0;
  let allScored = 0;
  let allFlagged = 0;
  const per_commodity = [...histories.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([slug, h]) => {
      const months = h.filter((p) => p.date.slice(0, 7) >= SCORED_FROM);
      const scored = months.filter((p) => p.index !== null);
      const flags = months.filter(flagged);
      const inside = flags.filter((p) => inWindow(slug, p.date.slice(0, 7))).length;
      const outside = flags.filter((p) => !inWindow(slug, p.date.slice(0, 7), LEAD_MONTHS)).length;
      tp += inside;
      fp += outside;
      allScored += scored.length;
      allFlagged += flags.length;
      const mine = crises.filter((c) => c.commodity === slug);
      const calmMine = calm.filter((c) => c.commodity === slug);
      const leads = mine.flatMap((c) => (c.lead_months === null || c.lead_months === undefined ? [] : [c.lead_months]));
      return {
        commodity: slug,
        months: months.length,
        scored: scored.length,
        flagged: flags.length,
        base_rate: scored.length ? round(flags.length / scored.length, 4) : null,
        crises: mine.length,
        hits: mine.filter((c) => c.hit).length,
        misses: mine.filter((c) => !c.hit).length,
        calm_months: calmMine.reduce((s, w) => s + w.months, 0),
        false_alarms: calmMine.reduce((s, w) => s + w.flagged, 0),
        precision: inside + outside ? round(inside / (inside + outside), 4) : null,
        median_lead_months: median(leads),
      };
    });
  return {
    rule: BACKTEST_RULE,
    crises,
    calm,
    hit_rate: round(hits / crises.length, 4),
    hit_rate_ci: wilson(hits, crises.length),
    false_alarm_rate: calmMonths ? round(calmFlagged / calmMonths, 4) : 0,
    calm_months: calmMonths,
    calm_flagged: calmFlagged,
    calm_windows_flagged: calmWindowsFlagged,
    calm_window_rate_ci: wilson(calmWindowsFlagged, calm.length),
    base_rate: allScored ? round(allFlagged / allScored, 4) : 0,
    precision: tp + fp ? round(tp / (tp + fp), 4) : null,
    precision_ci: tp + fp ? wilson(tp, tp + fp) : null,
    per_commodity,
    gscpi: gscpiComparison(histories, gscpi),
  };
}

const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)} %`);
const ci = (c: readonly [number, number] | null) => (c ? `${(c[0] * 100).toFixed(1)}–${(c[1] * 100).toFixed(1)} %` : '—');

/** The Markdown tables docs/methodology.md carries between its backtest markers. */
export function backtestTable(r: BacktestResult): string {
  const row = (w: WindowResult, verdict: string) =>
    `| ${w.commodity} | ${w.from} to ${w.to} | ${w.label} | ${w.peak ?? '—'}${w.peak_month ? ` (${w.peak_month})` : ''} | ${w.flagged} of ${w.months} | ${verdict} |`;
  const hits = r.crises.filter((c) => c.hit).length;
  const per = r.per_commodity.filter((c) => c.crises > 0 || c.calm_months > 0);
  return [
    `Crisis windows hit: **${hits} of ${r.crises.length}** (${pct(r.hit_rate)}, Wilson 95 % ${ci(r.hit_rate_ci)}; target ≥ 90 %). ` +
      `Calm month-ends flagged: **${r.calm_flagged} of ${r.calm_months}** (${pct(r.false_alarm_rate)}; target ≤ 10 %); calm windows with a flagged month: ${r.calm_windows_flagged} of ${r.calm.length} (Wilson 95 % ${ci(r.calm_window_rate_ci)}). ` +
      `Alarm base rate: ${pct(r.base_rate)} of scored month-ends since ${SCORED_FROM}. Precision: ${pct(r.precision)} (Wilson 95 % over months ${ci(r.precision_ci)}, optimistic: months are autocorrelated).`,
    '',
    '| Commodity | Base rate | Crises | Hits | Misses | Calm months | False alarms | Precision | Median lead (months) |',
    '|---|---|---|---|---|---|---|---|---|',
    ...per.map(
      (c) =>
        `| ${c.commodity} | ${pct(c.base_rate)} | ${c.crises} | ${c.hits} | ${c.misses} | ${c.calm_months} | ${c.false_alarms} | ${pct(c.precision)} | ${c.median_lead_months ?? '—'} |`,
    ),
    '',
    '| Commodity | Window | What happened | Peak index (month) | Months flagged | Result |',
    '|---|---|---|---|---|---|',
    ...r.crises.map((c) => row(c, c.hit ? `hit${c.lead_months ? ` (lead ${c.lead_months})` : ''}` : `**missed** (needs ${hitsNeeded(c.months)})`)),
    ...r.calm.map((c) => row(c, c.flagged === 0 ? 'calm' : `**${c.flagged} false alarm${c.flagged > 1 ? 's' : ''}**`)),
    ...(r.gscpi
      ? [
          '',
          `NY Fed GSCPI against the monthly mean of the commodity indices, ${r.gscpi.from} to ${r.gscpi.to} (${r.gscpi.months} months): Pearson correlation ${r.gscpi.correlation ?? '—'}.`,
        ]
      : []),
  ].join('\n');
}
