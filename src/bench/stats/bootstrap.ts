/**
 * Percentile bootstrap interval of a percentile (p50/p95 latency): resample the values with
 * replacement, take the percentile of each resample, and report the 2.5th and 97.5th percentiles of
 * those. Seeded, so the same values always give the same interval.
 */

import { seededRandom } from "../../random.ts";
import { StatsArgumentError } from "./errors.ts";
import { nearestRank } from "./percentile.ts";

export interface BootstrapOptions {
  /** Resamples drawn (default 1000). */
  resamples?: number;
  /** PRNG seed (default 1). */
  seed?: number;
  /** Two-sided confidence level (default 0.95). */
  level?: number;
}

export interface PercentileEstimate {
  /** The percentile of the sample itself. */
  value: number;
  lo: number;
  hi: number;
}

/**
 * One estimate per percentile in `percentiles`, all read off the same resamples: the same interval
 * for each as bootstrapping it alone with the seed, for a fraction of the draws. NaN everywhere for
 * an empty sample (no interval can be given).
 */
export function bootstrapPercentileCIs(
  values: readonly number[],
  percentiles: readonly number[],
  options: BootstrapOptions = {},
): PercentileEstimate[] {
  const resamples = options.resamples ?? 1000;
  const level = options.level ?? 0.95;
  if (
    !Number.isInteger(resamples) ||
    resamples < 1 ||
    !(level > 0 && level < 1) ||
    !percentiles.every((p) => p >= 0 && p <= 100)
  ) {
    throw new StatsArgumentError("bootstrapPercentileCIs: need each p in [0, 100], resamples ≥ 1, level in (0, 1)", {
      percentiles,
      resamples,
      level,
    });
  }
  const n = values.length;
  if (n === 0) return percentiles.map(() => ({ value: Number.NaN, lo: Number.NaN, hi: Number.NaN }));
  if (values.some(Number.isNaN)) throw new StatsArgumentError("bootstrapPercentileCIs: a value is NaN", { n });
  const random = seededRandom(options.seed ?? 1);
  const ranks = percentiles.map((p) => nearestRank(n, p) - 1);
  const { distinct, slotOf, counts } = rankSlots(values);
  const sampleValues = ranks.map((rank) => distinct[orderStatistic(counts, rank, n)]!);
  // A resample only matters through how often it drew each distinct value, so its order statistics
  // are read off those counts: no copy of the values and no partitioning per resample. The draws (and
  // so the interval for a seed) are the same as resampling the values themselves.
  const estimates = ranks.map(() => new Float64Array(resamples));
  for (let r = 0; r < resamples; r++) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[slotOf[Math.floor(random() * n)]!]!++;
    for (let index = 0; index < ranks.length; index++) {
      estimates[index]![r] = distinct[orderStatistic(counts, ranks[index]!, n)]!;
    }
  }
  const tail = ((1 - level) / 2) * 100;
  const loRank = nearestRank(resamples, tail) - 1;
  const hiRank = nearestRank(resamples, 100 - tail) - 1;
  return estimates.map((ofPercentile, index) => {
    ofPercentile.sort();
    return { value: sampleValues[index]!, lo: ofPercentile[loRank]!, hi: ofPercentile[hiRank]! };
  });
}

interface RankSlots {
  /** The distinct values, ascending. */
  distinct: Float64Array;
  /** `values[i] === distinct[slotOf[i]]`. */
  slotOf: Uint32Array;
  /** How often each distinct value occurs in `values`. */
  counts: Uint32Array;
}

function rankSlots(values: readonly number[]): RankSlots {
  const sorted = Float64Array.from(values).sort();
  let size = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (size === 0 || sorted[i] !== sorted[size - 1]) sorted[size++] = sorted[i]!;
  }
  const distinct = sorted.subarray(0, size);
  const slotOf = new Uint32Array(values.length);
  const counts = new Uint32Array(size);
  for (let i = 0; i < values.length; i++) {
    const slot = lowerBound(distinct, values[i]!);
    slotOf[i] = slot;
    counts[slot]!++;
  }
  return { distinct, slotOf, counts };
}

/** The first index whose value is ≥ `value` (sorted ascending). */
function lowerBound(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The slot holding the k-th smallest (0-based) of `n` counted values; scans from whichever end is
 * nearer to k, since a p95 sits near the top.
 */
function orderStatistic(counts: Uint32Array, k: number, n: number): number {
  if (2 * k < n) {
    let below = 0;
    for (let slot = 0; ; slot++) {
      below += counts[slot]!;
      if (below > k) return slot;
    }
  }
  let above = 0;
  for (let slot = counts.length - 1; ; slot--) {
    above += counts[slot]!;
    if (above >= n - k) return slot;
  }
}
