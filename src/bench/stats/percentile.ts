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

/**
 * The k-th smallest value (0-based) of `values`, found in place by quickselect in linear expected
 * time; the array is reordered. Bootstrap resampling calls it thousands of times, where a full sort
 * per resample would dominate the cost of a summary.
 */
export function selectInPlace(values: Float64Array, k: number): number {
  let lo = 0;
  let hi = values.length - 1;
  while (hi > lo) {
    const pivot = medianOfThree(values[lo]!, values[(lo + hi) >>> 1]!, values[hi]!);
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const swap = values[i]!;
        values[i] = values[j]!;
        values[j] = swap;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return values[k]!;
  }
  return values[k]!;
}

function medianOfThree(a: number, b: number, c: number): number {
  return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
}
