/**
 * Nearest-rank percentiles: the reported value is always one of the observed values (no
 * interpolation), so a p95 latency is a latency some query really had.
 */

/** The 1-based nearest rank of percentile p (in [0, 100]) in a sample of n values (n ≥ 1). */
export function nearestRank(n: number, p: number): number {
  return Math.min(n, Math.max(1, Math.ceil((p / 100) * n)));
}

/** Nearest-rank percentile of a sample (p in [0, 100]); NaN for an empty sample. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[nearestRank(sorted.length, p) - 1] as number;
}
