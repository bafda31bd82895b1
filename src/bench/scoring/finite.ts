/**
 * Reported counts and durations as the scorer reads them: a provider that leaves a figure out (or
 * sends garbage — negative, NaN, infinite) contributes 0, and sums saturate instead of overflowing,
 * so a score is always plain, finite JSON.
 */

/** A reported count or duration: the value when it is a finite non-negative number, else 0. */
export function reported(value: number | undefined): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

/** The sum of reported values, saturating at Number.MAX_VALUE. */
export function sumReported(values: Iterable<number | undefined>): number {
  let sum = 0;
  for (const value of values) sum = Math.min(Number.MAX_VALUE, sum + reported(value));
  return sum;
}
