/**
 * Percentile bootstrap interval of a percentile (p50/p95 latency): resample the values with
 * replacement, take the percentile of each resample, and report the 2.5th and 97.5th percentiles of
 * those. Seeded, so the same values always give the same interval.
 */

import { seededRandom } from "../../random.ts";
import { StatsArgumentError } from "./errors.ts";
import { nearestRank, percentile, selectInPlace } from "./percentile.ts";

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

/** NaN everywhere for an empty sample (no interval can be given). */
export function bootstrapPercentileCI(
  values: readonly number[],
  p: number,
  options: BootstrapOptions = {},
): PercentileEstimate {
  const resamples = options.resamples ?? 1000;
  const level = options.level ?? 0.95;
  if (!Number.isInteger(resamples) || resamples < 1 || !(level > 0 && level < 1) || !(p >= 0 && p <= 100)) {
    throw new StatsArgumentError("bootstrapPercentileCI: need p in [0, 100], resamples ≥ 1, level in (0, 1)", {
      p,
      resamples,
      level,
    });
  }
  const n = values.length;
  if (n === 0) return { value: Number.NaN, lo: Number.NaN, hi: Number.NaN };
  const random = seededRandom(options.seed ?? 1);
  const rank = nearestRank(n, p) - 1;
  const sample = new Float64Array(n);
  const estimates: number[] = [];
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) sample[i] = values[Math.floor(random() * n)]!;
    estimates.push(selectInPlace(sample, rank));
  }
  const tail = ((1 - level) / 2) * 100;
  return { value: percentile(values, p), lo: percentile(estimates, tail), hi: percentile(estimates, 100 - tail) };
}
