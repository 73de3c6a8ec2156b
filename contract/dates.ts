/** ISO 8601 week of a YYYY-MM-DD date: the week (Monday–Sunday) holding its Thursday. */
export function isoWeek(date: string): { year: number; week: number } {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 4 - (d.getUTCDay() || 7));
  const yearStart = Date.UTC(d.getUTCFullYear(), 0, 1);
  return { year: d.getUTCFullYear(), week: Math.ceil(((d.getTime() - yearStart) / 86_400_000 + 1) / 7) };
}

/** '2026-w47' */
export function isoWeekId(date: string): string {
  const { year, week } = isoWeek(date);
  return `${year}-w${String(week).padStart(2, '0')}`;
}
