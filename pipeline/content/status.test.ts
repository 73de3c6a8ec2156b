import { describe, expect, it } from 'vitest';
import { SCENARIO_STATUSES, SCENARIO_TRANSITIONS, isAllowedTransition } from '../../contract/content.ts';
import { checkStatusHistory } from './status.ts';

describe('SCENARIO_TRANSITIONS', () => {
  it('is the state machine of SPEC §3', () => {
    const allowed = SCENARIO_STATUSES.flatMap((from) => SCENARIO_TRANSITIONS[from].map((to) => `${from}→${to}`)).sort();
    expect(allowed).toEqual(
      [
        'monitoring→elevated',
        'elevated→monitoring',
        'elevated→active',
        'monitoring→active',
        'active→resolved',
        'monitoring→dismissed',
        'elevated→dismissed',
      ].sort(),
    );
    expect(SCENARIO_TRANSITIONS.resolved).toEqual([]);
    expect(SCENARIO_TRANSITIONS.dismissed).toEqual([]);
    expect(isAllowedTransition('active', 'elevated')).toBe(false);
    expect(isAllowedTransition('monitoring', 'active')).toBe(true);
  });
});

describe('checkStatusHistory', () => {
  it('accepts a valid history ending in the current status', () => {
    expect(
      checkStatusHistory('resolved', [
        { status: 'monitoring', date: '2021-10-01' },
        { status: 'elevated', date: '2022-01-24' },
        { status: 'monitoring', date: '2022-02-01' },
        { status: 'active', date: '2022-06-14' },
        { status: 'resolved', date: '2023-04-01' },
      ]),
    ).toEqual([]);
    expect(
      checkStatusHistory('dismissed', [
        { status: 'elevated', date: '2022-07-27' },
        { status: 'dismissed', date: '2023-03-31' },
      ]),
    ).toEqual([]);
  });

  it('flags every kind of problem with its path', () => {
    expect(checkStatusHistory('monitoring', [])).toEqual([{ path: ['status_history'], message: 'must hold at least the initial status' }]);
    expect(
      checkStatusHistory('elevated', [
        { status: 'active', date: '2024-01-01' },
        { status: 'active', date: '2024-02-01' },
        { status: 'elevated', date: '2024-01-15' },
      ]),
    ).toEqual([
      {
        path: ['status_history', 1],
        message: "'active' → 'active' is not a change; drop this entry or merge its note into the previous one",
      },
      { path: ['status_history', 2], message: "'active' → 'elevated' is not allowed (from active: resolved)" },
      {
        path: ['status_history', 2, 'date'],
        message: "2024-01-15 is before the previous entry's date 2024-02-01; keep the history in date order",
      },
    ]);
  });
});
