/** The scenario state machine check (SPEC §3), kept apart from file reading so it is easy to test. */
import { SCENARIO_TRANSITIONS, isAllowedTransition, type ScenarioStatus } from '../../contract/content.ts';
import type { Path } from './yaml-lines.ts';

export interface HistoryEntry {
  status: ScenarioStatus;
  date: string;
}

export interface HistoryProblem {
  /** Where in the scenario the problem is, e.g. ['status_history', 2]. */
  path: Path;
  message: string;
}

function allowedFrom(from: ScenarioStatus): string {
  const next = SCENARIO_TRANSITIONS[from];
  return next.length === 0 ? `from ${from}: none, it is terminal` : `from ${from}: ${next.join(', ')}`;
}

/**
 * Check a status history against the state machine: the first entry may not be terminal, each
 * later entry must be an allowed transition from the one before and not dated earlier, and the
 * history must end in the current `status`.
 */
export function checkStatusHistory(status: ScenarioStatus, history: readonly HistoryEntry[]): HistoryProblem[] {
  const problems: HistoryProblem[] = [];
  const first = history[0];
  if (!first) return [{ path: ['status_history'], message: 'must hold at least the initial status' }];
  if (SCENARIO_TRANSITIONS[first.status].length === 0) {
    problems.push({
      path: ['status_history', 0],
      message: `a scenario cannot start as '${first.status}' (a terminal status); start with monitoring, elevated or active`,
    });
  }
  for (let i = 1; i < history.length; i++) {
    const prev = history[i - 1] as HistoryEntry;
    const cur = history[i] as HistoryEntry;
    if (prev.status === cur.status) {
      problems.push({
        path: ['status_history', i],
        message: `'${prev.status}' → '${cur.status}' is not a change; drop this entry or merge its note into the previous one`,
      });
    } else if (!isAllowedTransition(prev.status, cur.status)) {
      problems.push({
        path: ['status_history', i],
        message: `'${prev.status}' → '${cur.status}' is not allowed (${allowedFrom(prev.status)})`,
      });
    }
    if (cur.date < prev.date) {
      problems.push({
        path: ['status_history', i, 'date'],
        message: `${cur.date} is before the previous entry's date ${prev.date}; keep the history in date order`,
      });
    }
  }
  const last = history[history.length - 1] as HistoryEntry;
  if (last.status !== status) {
    problems.push({
      path: ['status'],
      message: `'${status}' does not match the last status_history entry ('${last.status}', status_history[${history.length - 1}]); add the change to the history`,
    });
  }
  return problems;
}
