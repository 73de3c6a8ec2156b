/**
 * The stress index backtest (methodology §backtest): how often the published history flags the
 * documented crises of data/backtest.yaml (`high` or `severe` at least once in the window) and how
 * often it flags the month-ends of calm periods. Pure: histories in, rates out.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { BacktestWindow, type BacktestResult, type BacktestWindowResult, type StressHistoryPoint } from '../../contract/stress.ts';
import { round } from './reserves.ts';

const Window = BacktestWindow;
export const BacktestFile = z.strictObject({ crises: z.array(Window).min(1), calm: z.array(Window).min(1) });
export type BacktestWindows = z.infer<typeof BacktestFile>;
export type Window = z.infer<typeof Window>;

export async function loadBacktest(dataDir: string): Promise<BacktestWindows> {
  const file = join(dataDir, 'backtest.yaml');
  const parsed = BacktestFile.safeParse(parse(await readFile(file, 'utf8')));
  if (!parsed.success) throw new Error(`invalid ${file}:\n${parsed.error.issues.map((i) => `  [${i.path.join('.')}] ${i.message}`).join('\n')}`);
  return parsed.data;
}

const flagged = (p: StressHistoryPoint) => p.band === 'high' || p.band === 'severe';

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

/** A month without a published index is neither a hit nor an alarm: it counts as not flagged. */
export function runBacktest(windows: BacktestWindows, histories: ReadonlyMap<string, readonly StressHistoryPoint[]>): BacktestResult {
  const of = (w: Window) => {
    const h = histories.get(w.commodity);
    if (!h) throw new Error(`backtest: no stress history for ${w.commodity}`);
    return h;
  };
  const crises = windows.crises.map((w) => {
    const r = evaluate(w, of(w));
    return { ...r, hit: r.flagged > 0 };
  });
  const calm = windows.calm.map((w) => evaluate(w, of(w)));
  const calmMonths = calm.reduce((s, w) => s + w.months, 0);
  const calmFlagged = calm.reduce((s, w) => s + w.flagged, 0);
  return {
    crises,
    calm,
    hit_rate: round(crises.filter((c) => c.hit).length / crises.length, 4),
    false_alarm_rate: calmMonths ? round(calmFlagged / calmMonths, 4) : 0,
    calm_months: calmMonths,
    calm_flagged: calmFlagged,
  };
}

/** The Markdown table docs/methodology.md carries between its backtest markers. */
export function backtestTable(r: BacktestResult): string {
  const row = (w: WindowResult, verdict: string) =>
    `| ${w.commodity} | ${w.from} to ${w.to} | ${w.label} | ${w.peak ?? '—'}${w.peak_month ? ` (${w.peak_month})` : ''} | ${w.flagged} of ${w.months} | ${verdict} |`;
  return [
    '| Commodity | Window | What happened | Peak index (month) | Months flagged | Result |',
    '|---|---|---|---|---|---|',
    ...r.crises.map((c) => row(c, c.hit ? 'hit' : '**missed**')),
    ...r.calm.map((c) => row(c, c.flagged === 0 ? 'calm' : `**${c.flagged} false alarm${c.flagged > 1 ? 's' : ''}**`)),
    '',
    `Crises flagged: **${r.crises.filter((c) => c.hit).length} of ${r.crises.length}** (hit rate ${(r.hit_rate * 100).toFixed(1)} %, target ≥ 90 %). ` +
      `Calm month-ends flagged: **${r.calm_flagged} of ${r.calm_months}** (false-alarm rate ${(r.false_alarm_rate * 100).toFixed(1)} %, target ≤ 10 %).`,
  ].join('\n');
}
