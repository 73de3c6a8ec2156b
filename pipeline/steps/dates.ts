/** The newest of some dates (YYYY-MM-DD sorts as text), or null when there is none. */
export function maxDate(dates: readonly (string | null | undefined)[]): string | null {
  return (
    dates
      .filter((d): d is string => !!d)
      .sort()
      .at(-1) ?? null
  );
}
